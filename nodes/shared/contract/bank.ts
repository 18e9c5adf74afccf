/** Bank: the bank token, and the transactions of a verified account. */
import { z } from 'zod';

import { LIMITS, listPageSchema, pathId, wholeSeconds } from './common';

/**
 * The 28 countries a bank token may be created for. A literal tuple, not a split string: the Bank
 * operation's country-name map is typed by it, so a country without a name does not compile.
 */
// prettier-ignore
export const BANK_COUNTRIES = [
	'AT', 'BE', 'BG', 'HR', 'CY', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IS', 'IE',
	'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
] as const;

export const bankCountrySchema = z.enum(BANK_COUNTRIES, {
	errorMap: () => ({
		message: `must be one of the 28 bank countries: ${BANK_COUNTRIES.join(', ')}`,
	}),
});

const bankAccessSchema = z.object({
	accounts: z.boolean().default(false),
	balances: z.boolean().default(false),
	transactions: z.boolean().default(false),
});

/** POST /bank/tokens/ request. No field is required. */
export const bankTokenRequestSchema = z.object({
	lifetime: wholeSeconds(
		LIMITS.bankTokenLifetime.min,
		LIMITS.bankTokenLifetime.max,
		'30 days',
	).default(LIMITS.bankTokenLifetime.default),
	country: bankCountrySchema.nullish(),
	bank: z
		.string()
		.max(LIMITS.bankNameMaxLength, {
			message: `must be at most ${LIMITS.bankNameMaxLength} characters`,
		})
		.nullish(),
	access: bankAccessSchema.default({}),
});

export const bankTokenSchema = z
	.object({
		tokenString: z.string(),
		expiration: z.string(),
		isValid: z.boolean(),
		country: z.string().nullish(),
		bank: z.string().nullish(),
		access: bankAccessSchema.partial().passthrough().optional(),
	})
	.passthrough();

/** The address of the provider's hosted bank verification page (its guide `bank-verification`). */
const BANK_VERIFICATION_URL = 'https://bank-verification.ui.idenfy.com/';

/** The link a person opens to connect their bank: the hosted page with the token's tokenString. */
export function bankVerificationLink(tokenString: string): string {
	return `${BANK_VERIFICATION_URL}?token=${encodeURIComponent(tokenString)}`;
}

export const partySchema = z
	.object({
		fullName: z
			.string()
			.max(LIMITS.partyFullNameMaxLength, {
				message: `must be at most ${LIMITS.partyFullNameMaxLength} characters`,
			})
			.nullish(),
	})
	.passthrough();

export const amountSchema = z
	.object({
		amount: z.string().regex(LIMITS.amountPattern, {
			message:
				'must be a decimal with up to 14 integer digits, up to 2 decimals and an optional leading minus',
		}),
		currency: z.string().max(LIMITS.currencyMaxLength, {
			message: `must be at most ${LIMITS.currencyMaxLength} characters`,
		}),
	})
	.passthrough();

export const bankTransactionSchema = z
	.object({
		creditor: partySchema,
		debtor: partySchema,
		bookingDate: z.string().nullish(),
		transactionDate: z.string().nullish(),
		transactionAmount: amountSchema,
	})
	.passthrough();
export type BankTransaction = z.infer<typeof bankTransactionSchema>;

/** A page of transactions: the service's paged list (common.ts), whose results are transactions. */
export const transactionPageSchema = listPageSchema;

export const listTransactionsParamsSchema = z.object({
	verificationId: pathId('Verification ID'),
	accountId: pathId('Account ID'),
	perPage: z
		.number({ invalid_type_error: 'must be a whole number' })
		.int({ message: 'must be a whole number' })
		.min(1, { message: 'must be at least 1' })
		.optional(),
	page: z.number().int().min(1, { message: 'must be at least 1' }).optional(),
});
