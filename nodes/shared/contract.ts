/**
 * The service contract in zod (docs/service-interface.md says it in words): one module for the
 * nodes, the sandbox and the tests. Request schemas enforce every rule the contract states; response and
 * webhook schemas accept unknown extra fields (the service may add fields at any time).
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Code lists and limits
// ---------------------------------------------------------------------------------------------

/** The 28 countries a bank token may be created for. */
export const BANK_COUNTRIES = [
	'AT',
	'BE',
	'BG',
	'HR',
	'CY',
	'DK',
	'EE',
	'FI',
	'FR',
	'DE',
	'GR',
	'HU',
	'IS',
	'IE',
	'IT',
	'LV',
	'LT',
	'LU',
	'MT',
	'NL',
	'NO',
	'PL',
	'PT',
	'RO',
	'SK',
	'SI',
	'ES',
	'SE',
] as const;

export const RISK_LEVELS = [
	'VERY_LOW',
	'LOW',
	'MEDIUM',
	'HIGH',
	'VERY_HIGH',
	'NOT_CHECKED',
] as const;

/** File types the service accepts for a proof-of-address check (jpg is jpeg, heif is heic's family). */
export type PoaFileType = 'jpeg' | 'png' | 'webp' | 'heic' | 'heif' | 'pdf';

export const LIMITS = {
	bankTokenLifetime: { min: 0, max: 2592000, default: 3600 },
	bankNameMaxLength: 32,
	partyFullNameMaxLength: 128,
	bankAccountNameMaxLength: 128,
	ibanMaxLength: 34,
	currencyMaxLength: 3,
	amountPattern: /^-?\d{0,14}(?:\.\d{0,2})?$/,
	amlPdfPasswordMinLength: 1,
	/** The contract states 255 for two string fields of the POA check without naming them; the
	 * only two free-text fields of the request are the provided name and address. */
	poaTextMaxLength: 255,
	webhookTimeoutSeconds: 10,
} as const;

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

export const bankCountrySchema = z.enum(BANK_COUNTRIES, {
	errorMap: () => ({
		message: `must be one of the 28 bank countries: ${BANK_COUNTRIES.join(', ')}`,
	}),
});

const nonEmpty = (what: string) =>
	z
		.string()
		.trim()
		.min(1, { message: `${what} must not be empty` });

/**
 * An id that goes into a URL path. Only dots ("." or "..") would be resolved by the HTTP client as
 * "this folder" or "the folder above" and send the request to another endpoint (ids may come from
 * an AI agent), so they are refused.
 */
const pathId = (what: string) =>
	nonEmpty(what).refine((value) => !/^\.+$/.test(value), {
		message: `${what} must not be only dots ("." or ".."): they would change the address of the request`,
	});

export const uuidSchema = z
	.string()
	.trim()
	.uuid({ message: 'must be a UUID such as 5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10' });

// ---------------------------------------------------------------------------------------------
// Identification (KYC)
// ---------------------------------------------------------------------------------------------

/** POST /api/v2/token. Only clientId is shown; other fields pass through unchanged. */
export const verificationTokenRequestSchema = z
	.object({ clientId: nonEmpty('Client ID') })
	.passthrough();

export const verificationTokenResponseSchema = z
	.object({ authToken: z.string(), scanRef: z.string().nullish(), clientId: z.string().nullish() })
	.passthrough();

export const scanRefSchema = pathId('Scan reference');

// ---------------------------------------------------------------------------------------------
// Bank
// ---------------------------------------------------------------------------------------------

const bankAccessSchema = z.object({
	accounts: z.boolean().default(false),
	balances: z.boolean().default(false),
	transactions: z.boolean().default(false),
});

/** POST /bank/tokens/ request. No field is required. */
export const bankTokenRequestSchema = z.object({
	lifetime: z
		.number({ invalid_type_error: 'must be a whole number of seconds' })
		.int({ message: 'must be a whole number of seconds' })
		.min(LIMITS.bankTokenLifetime.min, {
			message: `must be at least ${LIMITS.bankTokenLifetime.min} seconds`,
		})
		.max(LIMITS.bankTokenLifetime.max, {
			message: `must be at most ${LIMITS.bankTokenLifetime.max} seconds (30 days)`,
		})
		.default(LIMITS.bankTokenLifetime.default),
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

export const transactionPageSchema = z
	.object({
		count: z.number().int().nonnegative().optional(),
		next: z.string().nullish(),
		previous: z.string().nullish(),
		results: z.array(z.unknown()),
	})
	.passthrough();
export type TransactionPage = z.infer<typeof transactionPageSchema>;

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

// ---------------------------------------------------------------------------------------------
// Proof of address
// ---------------------------------------------------------------------------------------------

export const poaCheckRequestSchema = z.object({
	file: z
		.string()
		.min(1, { message: 'must be base64 text of a jpeg, png, webp, heic, heif or pdf file' }),
	providedName: nonEmpty('Provided Name').pipe(
		z.string().max(LIMITS.poaTextMaxLength, {
			message: `must be at most ${LIMITS.poaTextMaxLength} characters`,
		}),
	),
	providedAddress: nonEmpty('Provided Address').pipe(
		z.string().max(LIMITS.poaTextMaxLength, {
			message: `must be at most ${LIMITS.poaTextMaxLength} characters`,
		}),
	),
});

/** Which response fields are required or nullable is not shown: every field is optional and nullable. */
export const poaCheckSchema = z
	.object({
		file: z.string().nullish(),
		id: z.string().nullish(),
		created: z.string().nullish(),
		issueDate: z.string().nullish(),
		documentType: z.string().nullish(),
		country: z.string().nullish(),
		hasLogo: z.boolean().nullish(),
		isScreenshot: z.boolean().nullish(),
		nameMatch: z.boolean().nullish(),
		addressMatch: z.boolean().nullish(),
		dateValid: z.boolean().nullish(),
		overallStatus: z.string().nullish(),
		name: z.string().nullish(),
		address: z.string().nullish(),
		orgName: z.string().nullish(),
		orgAddress: z.string().nullish(),
		documentTypeSupported: z.boolean().nullish(),
		countrySupported: z.boolean().nullish(),
		providedName: z.string().nullish(),
		providedAddress: z.string().nullish(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// AML
// ---------------------------------------------------------------------------------------------

export const amlProfilePdfParamsSchema = z.object({
	checkId: uuidSchema,
	profileId: pathId('Profile ID'),
	password: z
		.string({ required_error: 'is required' })
		.min(LIMITS.amlPdfPasswordMinLength, { message: 'must be at least 1 character' }),
});

// ---------------------------------------------------------------------------------------------
// KYB
// ---------------------------------------------------------------------------------------------

export const kybQuestionnaireParamsSchema = z.object({
	companyId: pathId('Company ID'),
	questionnaireId: pathId('Questionnaire ID'),
});

export const kybFormParamsSchema = z.object({ formId: pathId('Form ID') });

/** Structure inside `sections` is not shown: anything is accepted. */
export const questionnaireAnswersSchema = z
	.object({ sections: z.record(z.unknown()).or(z.array(z.unknown())) })
	.passthrough();

// ---------------------------------------------------------------------------------------------
// Webhook bodies
// ---------------------------------------------------------------------------------------------

export const bankAccountSchema = z
	.object({
		id: z.string(),
		name: z.string().max(LIMITS.bankAccountNameMaxLength).nullish(),
		iban: z.string().max(LIMITS.ibanMaxLength).nullish(),
		currency: z.string().max(LIMITS.currencyMaxLength),
		balancesOverview: z
			.object({ bookedBalance: z.number().nullable(), availableBalance: z.number().nullable() })
			.passthrough()
			.nullable(),
		transactionsCount: z.number().nullable(),
	})
	.passthrough();

export const bankVerificationWebhookSchema = z
	.object({
		id: z.string(),
		country: z.string().nullish(),
		bank: z.string().max(LIMITS.bankNameMaxLength).nullish(),
		accounts: z.array(bankAccountSchema).nullable(),
		riskLevel: z.enum(RISK_LEVELS).nullable(),
	})
	.passthrough();

export const accountCheckWebhookSchema = z
	.object({
		scanRef: z.string().nullable(),
		clientId: z.string().nullish(),
		authToken: z.string().nullish(),
		date: z.string().nullish(),
		status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
		score: z.number(),
		facebookScore: z.number().nullish(),
		gmailScore: z.number().nullish(),
		ipScore: z.number().nullish(),
	})
	.passthrough();

/** The identification body's field list is not shown: only what the contract names is typed. */
export const identificationWebhookSchema = z
	.object({
		final: z.boolean().optional(),
		scanRef: z.string().nullish(),
		clientId: z.string().nullish(),
		status: z.object({ overall: z.string().nullish() }).passthrough().nullish(),
	})
	.passthrough();

const cardCheckWebhookSchema = z.object({}).passthrough();
const kybReviewWebhookSchema = z.object({}).passthrough();

/** Every event kind the trigger knows. The header value of identification events is not shown. */
export const EVENT_TYPES = [
	'BANK_VERIFICATION',
	'ACCOUNT_CHECK',
	'IDENTIFICATION_AUTO_FINISHED',
	'IDENTIFICATION_MANUAL_FINISHED',
	'IDENTIFICATION_RESUBMITTED',
	'IDENTIFICATION_EXPIRED',
	'IDENTIFICATION_CANCELLED',
	'IDENTIFICATION',
	'BANK_CARD_VERIFICATION_COMPLETED',
	'KYB_REVIEW_RESULT',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const IDENTIFICATION_EVENT_TYPES: readonly EventType[] = [
	'IDENTIFICATION_AUTO_FINISHED',
	'IDENTIFICATION_MANUAL_FINISHED',
	'IDENTIFICATION_RESUBMITTED',
	'IDENTIFICATION_EXPIRED',
	'IDENTIFICATION_CANCELLED',
	'IDENTIFICATION',
];

export const webhookBodySchemas: Record<EventType, z.ZodTypeAny> = {
	BANK_VERIFICATION: bankVerificationWebhookSchema,
	ACCOUNT_CHECK: accountCheckWebhookSchema,
	IDENTIFICATION_AUTO_FINISHED: identificationWebhookSchema,
	IDENTIFICATION_MANUAL_FINISHED: identificationWebhookSchema,
	IDENTIFICATION_RESUBMITTED: identificationWebhookSchema,
	IDENTIFICATION_EXPIRED: identificationWebhookSchema,
	IDENTIFICATION_CANCELLED: identificationWebhookSchema,
	IDENTIFICATION: identificationWebhookSchema,
	BANK_CARD_VERIFICATION_COMPLETED: cardCheckWebhookSchema,
	KYB_REVIEW_RESULT: kybReviewWebhookSchema,
};

export const WEBHOOK_HEADERS = {
	eventType: 'service-event-type',
	signature: 'service-signature',
} as const;

// ---------------------------------------------------------------------------------------------
// Errors in words a user can act on
// ---------------------------------------------------------------------------------------------

export interface ContractIssue {
	/** Dotted path of the field, e.g. `access.accounts`. */
	path: string;
	message: string;
}

export function describeIssues(error: z.ZodError): ContractIssue[] {
	return error.issues.map((issue) => ({
		path: issue.path.join('.'),
		message: issue.message,
	}));
}
