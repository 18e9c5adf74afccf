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

/** The 250 country codes of the contract (ISO 3166-1 alpha-2 style, plus XK for Kosovo). */
const COUNTRIES = [
	'AF',
	'AX',
	'AL',
	'DZ',
	'AS',
	'AD',
	'AO',
	'AI',
	'AQ',
	'AG',
	'AR',
	'AM',
	'AW',
	'AU',
	'AT',
	'AZ',
	'BS',
	'BH',
	'BD',
	'BB',
	'BY',
	'BE',
	'BZ',
	'BJ',
	'BM',
	'BT',
	'BO',
	'BQ',
	'BA',
	'BW',
	'BV',
	'BR',
	'IO',
	'BN',
	'BG',
	'BF',
	'BI',
	'CV',
	'KH',
	'CM',
	'CA',
	'KY',
	'CF',
	'TD',
	'CL',
	'CN',
	'CX',
	'CC',
	'CO',
	'KM',
	'CG',
	'CK',
	'CR',
	'CI',
	'HR',
	'CU',
	'CW',
	'CY',
	'CZ',
	'CD',
	'DK',
	'DJ',
	'DM',
	'DO',
	'EC',
	'EG',
	'SV',
	'GQ',
	'ER',
	'EE',
	'SZ',
	'ET',
	'FK',
	'FO',
	'FJ',
	'FI',
	'FR',
	'GF',
	'PF',
	'TF',
	'GA',
	'GM',
	'GE',
	'DE',
	'GH',
	'GI',
	'GR',
	'GL',
	'GD',
	'GP',
	'GU',
	'GT',
	'GG',
	'GN',
	'GW',
	'GY',
	'HT',
	'HM',
	'HN',
	'HK',
	'HU',
	'IS',
	'IN',
	'ID',
	'IR',
	'IQ',
	'IE',
	'IM',
	'IL',
	'IT',
	'JM',
	'JP',
	'JE',
	'JO',
	'KZ',
	'KE',
	'KI',
	'XK',
	'KW',
	'KG',
	'LA',
	'LV',
	'LB',
	'LS',
	'LR',
	'LY',
	'LI',
	'LT',
	'LU',
	'MO',
	'MG',
	'MW',
	'MY',
	'MV',
	'ML',
	'MT',
	'MH',
	'MQ',
	'MR',
	'MU',
	'YT',
	'MX',
	'FM',
	'MD',
	'MC',
	'MN',
	'ME',
	'MS',
	'MA',
	'MZ',
	'MM',
	'NA',
	'NR',
	'NP',
	'NL',
	'NC',
	'NZ',
	'NI',
	'NE',
	'NG',
	'NU',
	'NF',
	'KP',
	'MK',
	'MP',
	'NO',
	'OM',
	'PK',
	'PW',
	'PS',
	'PA',
	'PG',
	'PY',
	'PE',
	'PH',
	'PN',
	'PL',
	'PT',
	'PR',
	'QA',
	'RE',
	'RO',
	'RU',
	'RW',
	'BL',
	'SH',
	'KN',
	'LC',
	'MF',
	'PM',
	'VC',
	'WS',
	'SM',
	'ST',
	'SA',
	'SN',
	'RS',
	'SC',
	'SL',
	'SG',
	'SX',
	'SK',
	'SI',
	'SB',
	'SO',
	'ZA',
	'GS',
	'KR',
	'SS',
	'ES',
	'LK',
	'SD',
	'SR',
	'SJ',
	'SE',
	'CH',
	'SY',
	'TW',
	'TJ',
	'TZ',
	'TH',
	'TL',
	'TG',
	'TK',
	'TO',
	'TT',
	'TN',
	'TR',
	'TM',
	'TC',
	'TV',
	'UG',
	'UA',
	'AE',
	'GB',
	'UM',
	'US',
	'UY',
	'UZ',
	'VU',
	'VA',
	'VE',
	'VN',
	'VG',
	'VI',
	'WF',
	'EH',
	'YE',
	'ZM',
	'ZW',
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
	clientIdMaxLength: 100,
	externalRefMaxLength: 40,
	tokenExpiryTime: { min: 0, max: 2592000 },
	tokenSessionLength: { min: 60, max: 3600 },
} as const;

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

export const bankCountrySchema = z.enum(BANK_COUNTRIES, {
	errorMap: () => ({
		message: `must be one of the 28 bank countries: ${BANK_COUNTRIES.join(', ')}`,
	}),
});
const countrySchema = z.enum(COUNTRIES, {
	errorMap: () => ({
		message: 'must be a two-letter country code from the contract (ISO 3166-1 alpha-2 or XK)',
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

/** Whether YYYY-MM-DD names a real day (not 1990-02-30). */
function isCalendarDate(value: string): boolean {
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const urlField = z
	.string()
	.trim()
	.url({ message: 'must be a full web address starting with https:// or http://' })
	.refine((value) => /^https?:\/\//i.test(value), {
		message: 'must be a full web address starting with https:// or http://',
	});

const wholeSeconds = (min: number, max: number, hint: string) =>
	z
		.number({ invalid_type_error: 'must be a whole number of seconds' })
		.int({ message: 'must be a whole number of seconds' })
		.min(min, { message: `must be at least ${min} seconds` })
		.max(max, { message: `must be at most ${max} seconds (${hint})` });

/**
 * POST /api/v2/token. The typed optional fields and their limits; any other field passes through
 * unchanged (the service accepts more settings than the node names).
 */
export const verificationTokenRequestSchema = z
	.object({
		clientId: nonEmpty('Client ID').pipe(
			z.string().max(LIMITS.clientIdMaxLength, {
				message: `must be at most ${LIMITS.clientIdMaxLength} characters`,
			}),
		),
		firstName: z.string().trim().min(1, { message: 'must not be empty' }).optional(),
		lastName: z.string().trim().min(1, { message: 'must not be empty' }).optional(),
		externalRef: z
			.string()
			.trim()
			.min(1, { message: 'must not be empty' })
			.max(LIMITS.externalRefMaxLength, {
				message: `must be at most ${LIMITS.externalRefMaxLength} characters`,
			})
			.optional(),
		successUrl: urlField.optional(),
		errorUrl: urlField.optional(),
		unverifiedUrl: urlField.optional(),
		callbackUrl: urlField.optional(),
		locale: z
			.string()
			.trim()
			.regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, {
				message: 'must be a language code such as en, de or pt-BR',
			})
			.optional(),
		country: countrySchema.optional(),
		expiryTime: wholeSeconds(
			LIMITS.tokenExpiryTime.min,
			LIMITS.tokenExpiryTime.max,
			'30 days',
		).optional(),
		sessionLength: wholeSeconds(
			LIMITS.tokenSessionLength.min,
			LIMITS.tokenSessionLength.max,
			'1 hour',
		).optional(),
		documents: z
			.array(z.string().trim().min(1, { message: 'must not contain an empty document type' }), {
				invalid_type_error: 'must be a list of document types',
			})
			.min(1, { message: 'must name at least one document type' })
			.optional(),
		dateOfBirth: z
			.string()
			.regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date written YYYY-MM-DD' })
			.refine(isCalendarDate, {
				message: 'must be a real calendar date (YYYY-MM-DD)',
			})
			.optional(),
	})
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
		count: z.number().int().nonnegative().nullish(),
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
