/**
 * AML: screening checks of a person or a company (sanctions, PEP, adverse media), the profiles they
 * find, their PDF reports, and monitorings that screen a subject again every day. The contract
 * names only the profile PDF; the rest follows the provider's AML OpenAPI document (aml.yaml in
 * test/fixtures/real-service/openapi/), whose request rules are the ones checked here.
 */
import { z } from 'zod';

import { LIMITS, pathId, uuidSchema } from './common';

/** The provider's request rules for AML (aml.yaml). */
export const AML_LIMITS = {
	nameMaxLength: 200,
	clientIdMaxLength: LIMITS.clientIdMaxLength,
	threshold: { min: 75, max: 100, default: 85 },
	sanctionBody: { min: 1, max: 80 },
	tags: { maxItems: 5, maxLength: 32 },
	commentMaxLength: 10000,
} as const;

export const AML_USER_TYPES = ['PERSON', 'COMPANY'] as const;
export const AML_SEXES = ['MALE', 'FEMALE'] as const;
// prettier-ignore
export const AML_PERSON_DATASETS = [
	'PEP_CURRENT', 'PEP_FORMER', 'PEP_LINKED', 'SAN_CURRENT', 'SAN_FORMER', 'INS', 'RRE', 'DD', 'POI', 'REL',
] as const;
// prettier-ignore
export const AML_COMPANY_DATASETS = [
	'PEP_LINKED', 'SAN_CURRENT', 'SAN_FORMER', 'INS', 'RRE', 'POI', 'REL', 'SOE_CURRENT', 'SOE_FORMER',
] as const;
// prettier-ignore
export const AML_DATE_OF_BIRTH_MATCHING = [
	'EXACT', 'SAME_YEAR', 'WITHIN_ONE_YEAR', 'WITHIN_TWO_YEARS', 'WITHIN_THREE_YEARS', 'WITHIN_FOUR_YEARS', 'WITHIN_FIVE_YEARS',
] as const;
export const AML_PEP_TIERS = ['PEP_TIER_1', 'PEP_TIER_2', 'PEP_TIER_3'] as const;
export const AML_MONITORING_STATUSES = ['ACTIVE', 'ALERT', 'PENDING', 'STOPPED'] as const;
export const AML_MONITORING_ORDER = ['-created', 'created', '-expiration', 'expiration'] as const;

/** The provider's `CountryEnum` (ISO 3166-1 alpha-2 and `XK`, Kosovo): nationality and country. */
// prettier-ignore
export const AML_COUNTRIES = [
	'AF', 'AX', 'AL', 'DZ', 'AS', 'AD', 'AO', 'AI', 'AQ', 'AG', 'AR', 'AM', 'AW', 'AU', 'AT', 'AZ', 'BS', 'BH', 'BD', 'BB',
	'BY', 'BE', 'BZ', 'BJ', 'BM', 'BT', 'BO', 'BQ', 'BA', 'BW', 'BV', 'BR', 'IO', 'BN', 'BG', 'BF', 'BI', 'CV', 'KH', 'CM',
	'CA', 'KY', 'CF', 'TD', 'CL', 'CN', 'CX', 'CC', 'CO', 'KM', 'CG', 'CK', 'CR', 'CI', 'HR', 'CU', 'CW', 'CY', 'CZ', 'CD',
	'DK', 'DJ', 'DM', 'DO', 'EC', 'EG', 'SV', 'GQ', 'ER', 'EE', 'SZ', 'ET', 'FK', 'FO', 'FJ', 'FI', 'FR', 'GF', 'PF', 'TF',
	'GA', 'GM', 'GE', 'DE', 'GH', 'GI', 'GR', 'GL', 'GD', 'GP', 'GU', 'GT', 'GG', 'GN', 'GW', 'GY', 'HT', 'HM', 'HN', 'HK',
	'HU', 'IS', 'IN', 'ID', 'IR', 'IQ', 'IE', 'IM', 'IL', 'IT', 'JM', 'JP', 'JE', 'JO', 'KZ', 'KE', 'KI', 'XK', 'KW', 'KG',
	'LA', 'LV', 'LB', 'LS', 'LR', 'LY', 'LI', 'LT', 'LU', 'MO', 'MG', 'MW', 'MY', 'MV', 'ML', 'MT', 'MH', 'MQ', 'MR', 'MU',
	'YT', 'MX', 'FM', 'MD', 'MC', 'MN', 'ME', 'MS', 'MA', 'MZ', 'MM', 'NA', 'NR', 'NP', 'NL', 'NC', 'NZ', 'NI', 'NE', 'NG',
	'NU', 'NF', 'KP', 'MK', 'MP', 'NO', 'OM', 'PK', 'PW', 'PS', 'PA', 'PG', 'PY', 'PE', 'PH', 'PN', 'PL', 'PT', 'PR', 'QA',
	'RE', 'RO', 'RU', 'RW', 'BL', 'SH', 'KN', 'LC', 'MF', 'PM', 'VC', 'WS', 'SM', 'ST', 'SA', 'SN', 'RS', 'SC', 'SL', 'SG',
	'SX', 'SK', 'SI', 'SB', 'SO', 'ZA', 'GS', 'KR', 'SS', 'ES', 'LK', 'SD', 'SR', 'SJ', 'SE', 'CH', 'SY', 'TW', 'TJ', 'TZ',
	'TH', 'TL', 'TG', 'TK', 'TO', 'TT', 'TN', 'TR', 'TM', 'TC', 'TV', 'UG', 'UA', 'AE', 'GB', 'UM', 'US', 'UY', 'UZ', 'VU',
	'VA', 'VE', 'VN', 'VG', 'VI', 'WF', 'EH', 'YE', 'ZM', 'ZW',
] as const;

const COUNTRY_RULE = 'must be a two-letter country code such as LT (ISO 3166-1 alpha-2)';
const amlCountrySchema = z.enum(AML_COUNTRIES, { errorMap: () => ({ message: COUNTRY_RULE }) });

/** A text of 1..max characters, as the provider's `minLength: 1, maxLength` fields. */
const text = (max: number) =>
	z
		.string({ required_error: 'is required' })
		.min(1, { message: 'must not be empty' })
		.max(max, { message: `must be at most ${max} characters` });

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
	z.enum(values, { errorMap: () => ({ message: `must be one of ${values.join(', ')}` }) });

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** The subject of a check or monitoring: a person (`PersonAmlCheckInputRequest`). */
const personInputSchema = z.object({
	fullName: text(AML_LIMITS.nameMaxLength),
	nationality: amlCountrySchema.nullish(),
	dateOfBirth: z.string().date('must be a date such as 1985-04-12').nullish(),
	sex: oneOf(AML_SEXES).nullish(),
});

/** …or a company (`CompanyAmlCheckInputRequest`). */
const companyInputSchema = z.object({
	companyName: text(AML_LIMITS.nameMaxLength),
	country: amlCountrySchema.nullish(),
});

/**
 * A list checked as a whole, so that an error names the field (not `datasets.0`): each rule is a
 * test of one entry and the words of what it must be.
 */
function listOf<T>(...rules: Array<[(entry: unknown) => boolean, string]>): z.ZodType<T[]> {
	let schema: z.ZodTypeAny = z.array(z.unknown(), { invalid_type_error: 'must be a list' });
	for (const [test, message] of rules)
		schema = schema.refine((entries: unknown[]) => entries.every(test), { message });
	return schema as z.ZodType<T[]>;
}

const isOneOf =
	(values: readonly string[]) =>
	(entry: unknown): boolean =>
		typeof entry === 'string' && values.includes(entry);

/** `datasets` is "Required" in the provider's words: a check that screens no list finds nothing. */
const datasets = <T extends string>(values: readonly T[]) =>
	listOf<T>([isOneOf(values), `must each be one of ${values.join(', ')}`]).refine(
		(entries) => entries.length > 0,
		{ message: 'must name at least one dataset: a check of no list finds nothing' },
	);

const thresholdSchema = z
	.number({ invalid_type_error: 'must be a whole number' })
	.int({ message: 'must be a whole number' })
	.min(AML_LIMITS.threshold.min, { message: `must be at least ${AML_LIMITS.threshold.min}` })
	.max(AML_LIMITS.threshold.max, { message: `must be at most ${AML_LIMITS.threshold.max}` });

const sanctionBodiesSchema = listOf<number>(
	[(entry) => typeof entry === 'number' && Number.isInteger(entry), 'must be whole numbers'],
	[
		(entry) =>
			Number(entry) >= AML_LIMITS.sanctionBody.min && Number(entry) <= AML_LIMITS.sanctionBody.max,
		'must be numbers from 1 to 80',
	],
);

const personFilterSchema = z.object({
	threshold: thresholdSchema.nullish(),
	datasets: datasets(AML_PERSON_DATASETS),
	sanctionBodies: sanctionBodiesSchema.nullish(),
	dateOfBirthMatching: oneOf(AML_DATE_OF_BIRTH_MATCHING).nullish(),
	pepTiers: listOf<(typeof AML_PEP_TIERS)[number]>([
		isOneOf(AML_PEP_TIERS),
		`must each be one of ${AML_PEP_TIERS.join(', ')}`,
	]).nullish(),
});

const companyFilterSchema = z.object({
	threshold: thresholdSchema.nullish(),
	datasets: datasets(AML_COMPANY_DATASETS),
	sanctionBodies: sanctionBodiesSchema.nullish(),
});

const clientIdSchema = text(AML_LIMITS.clientIdMaxLength);
const personSubject = { clientId: clientIdSchema, userType: z.literal('PERSON') };
const companySubject = { clientId: clientIdSchema, userType: z.literal('COMPANY') };

/** POST /aml/checks/ (`AmlCheckRequest`): who is screened and against what. */
export const amlCheckRequestSchema = z.discriminatedUnion('userType', [
	z.object({ ...personSubject, input: personInputSchema, filter: personFilterSchema }),
	z.object({ ...companySubject, input: companyInputSchema, filter: companyFilterSchema }),
]);
export type AmlCheckRequest = z.infer<typeof amlCheckRequestSchema>;

/** Monitoring tags: at most 5, each 1 to 32 characters without a comma (the provider's rule). */
export const amlTagsSchema = listOf<string>(
	[
		(tag) => typeof tag === 'string' && tag.length > 0,
		'must each be a text of 1 character or more',
	],
	[
		(tag) => String(tag).length <= AML_LIMITS.tags.maxLength,
		`must each be at most ${AML_LIMITS.tags.maxLength} characters`,
	],
	[(tag) => !String(tag).includes(','), 'must not contain a comma'],
).refine((tags) => tags.length <= AML_LIMITS.tags.maxItems, {
	message: `must be at most ${AML_LIMITS.tags.maxItems} tags`,
});

/** POST /aml/monitorings/ (`AmlMonitoringRequest`): the subject is screened every day until stopped. */
export const amlMonitoringRequestSchema = z.object({
	isSubscribed: z.boolean({
		required_error: 'is required',
		invalid_type_error: 'must be true or false',
	}),
	amlCheck: z.discriminatedUnion('userType', [
		z.object({ ...personSubject, input: personInputSchema }),
		z.object({ ...companySubject, input: companyInputSchema }),
	]),
	tags: amlTagsSchema.optional(),
});
export type AmlMonitoringRequest = z.infer<typeof amlMonitoringRequestSchema>;

/** PATCH /aml/monitorings/{id}/ (`PatchedAmlMonitoringUpdateRequest`). */
export const amlMonitoringUpdateSchema = z.object({
	isSubscribed: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
	tags: amlTagsSchema.optional(),
});

/** POST /aml/monitorings/{id}/{start|stop}/ (`AmlMonitoringStartStopRequest`). */
export const amlMonitoringStartStopSchema = z.object({
	comment: text(AML_LIMITS.commentMaxLength).optional(),
});

/** GET /aml/monitorings/ filters (query parameters of `amlMonitoringsList`). */
export const amlMonitoringListQuerySchema = z.object({
	status: oneOf(AML_MONITORING_STATUSES).optional(),
	userType: oneOf(AML_USER_TYPES).optional(),
	name: z.string().optional(),
	country: z
		.string()
		.max(2, { message: 'must be a two-letter country code such as LT' })
		.optional(),
	isExpired: z.boolean().optional(),
	tags: z.array(z.string().min(1, { message: 'must not be empty' })).optional(),
	orderBy: oneOf(AML_MONITORING_ORDER).optional(),
});

/**
 * A PDF of a check or a monitoring (`AmlCheckPdfRequest`, `AmlMonitoringPdfRequest`): the provider
 * makes the password optional. The profile PDF's, below, the contract requires.
 */
export const amlPdfRequestSchema = z.object({
	password: z.string().min(1, { message: 'must be at least 1 character' }).optional(),
});

export const amlCheckIdSchema = z.object({ checkId: uuidSchema });
export const amlProfileParamsSchema = z.object({
	checkId: uuidSchema,
	profileId: pathId('Profile ID'),
});
export const amlMonitoringIdSchema = z.object({ monitoringId: uuidSchema });
export const amlMonitoringProfileSchema = z.object({
	monitoringId: uuidSchema,
	profileId: pathId('Profile ID'),
});

export const amlProfilePdfParamsSchema = z.object({
	checkId: uuidSchema,
	profileId: pathId('Profile ID'),
	password: z
		.string({ required_error: 'is required' })
		.min(LIMITS.amlPdfPasswordMinLength, { message: 'must be at least 1 character' }),
});

// ---------------------------------------------------------------------------------------------
// Answers: every field the provider names, none required but the ids; unknown fields kept
// ---------------------------------------------------------------------------------------------

const texts = z.array(z.string()).nullish();
const anyObject = z.record(z.unknown());
const entries = z.array(anyObject).nullish();

/** A profile an AML check matched (`IndividualSearchResult` / `BusinessSearchResult`). */
export const amlHitSchema = z
	.object({
		/** The profile's ID: Get Profile's and the profile PDF's Profile ID. */
		resourceId: z.string(),
		score: z.number().nullish(),
		match: z.string().nullish(),
		name: z.string().nullish(),
		version: z.number().nullish(),
		datasets: texts,
		nationalities: texts,
		datesOfBirth: texts,
		gender: z.string().nullish(),
		pepTier: z.string().nullish(),
		profileImage: z.string().nullish(),
		addresses: z.array(anyObject).nullish(),
		currentSanBodyIds: z.array(z.number()).nullish(),
		formerSanBodyIds: z.array(z.number()).nullish(),
	})
	.passthrough();

/** The check as a monitoring holds it (`AmlMonitoringPersonAmlCheck` / `…CompanyAmlCheck`). */
const amlCheckFields = {
	id: z.string(),
	clientId: z.string().nullish(),
	checkedAt: z.string().nullish(),
	created: z.string().nullish(),
	userType: z.string().nullish(),
	input: anyObject.nullish(),
	filter: anyObject.nullish(),
	/** The profiles found (AML database search result). */
	amlCheck: z.array(amlHitSchema).nullish(),
	/** The adverse media articles found. */
	adverseMedia: z.array(anyObject).nullish(),
	overallStatus: z.string().nullish(),
};

/** POST /aml/checks/ 201 (`AmlCheck`). */
export const amlCheckSchema = z
	.object({ ...amlCheckFields, monitoring: anyObject.nullish() })
	.passthrough();

/** What Create outputs: the verdict and the number of hits first, then the check as answered. */
export const amlCheckItemSchema = z
	.object({
		overallStatus: z.string().nullish(),
		hitCount: z.number().int(),
		adverseMediaCount: z.number().int(),
		checkId: z.string(),
	})
	.merge(amlCheckSchema);

/** GET /aml/checks/{id}/profiles/{profileId}/ 200 (`IndividualProfileSchema` / `BusinessProfileSchema`). */
export const amlProfileSchema = z
	.object({
		resourceId: z.string(),
		version: z.number().nullish(),
		/** A company's name; a person's is firstName, middleName, lastName. */
		name: z.string().nullish(),
		firstName: z.string().nullish(),
		middleName: z.string().nullish(),
		lastName: z.string().nullish(),
		gender: z.string().nullish(),
		isDeleted: z.boolean().nullish(),
		deletionReason: anyObject.nullish(),
		isDeceased: z.boolean().nullish(),
		datasets: texts,
		aliases: entries,
		datesOfBirth: texts,
		datesOfDeath: texts,
		nationalities: texts,
		addresses: entries,
		profileImages: texts,
		notes: entries,
		contactEntries: entries,
		identifiers: entries,
		evidences: entries,
		businessTypes: texts,
		activities: texts,
		/** Sanctions (`current`, `former`) and PEP roles (`pepTier`, `current`, `former`). */
		sanEntries: anyObject.nullish(),
		pepEntries: anyObject.nullish(),
		pepByAssociationEntries: entries,
		relEntries: entries,
		rreEntries: entries,
		poiEntries: entries,
		insEntries: entries,
		ddEntries: entries,
		griEntries: entries,
		soeEntry: anyObject.nullish(),
		individualLinks: entries,
		businessLinks: entries,
	})
	.passthrough();

/** What Get Profile outputs: the IDs it was asked for, then the profile. */
export const amlProfileItemSchema = z
	.object({ checkId: z.string(), profileId: z.string() })
	.merge(amlProfileSchema);

/** A monitoring (`AmlMonitoring`): status ACTIVE, ALERT (a new match), PENDING or STOPPED. */
export const amlMonitoringSchema = z
	.object({
		id: z.string(),
		status: z.string().nullish(),
		isSubscribed: z.boolean().nullish(),
		expiration: z.string().nullish(),
		created: z.string().nullish(),
		amlCheck: z.object(amlCheckFields).passthrough().nullish(),
		tags: texts,
	})
	.passthrough();

/** What the monitoring operations output: its ID by the name other steps read, then the monitoring. */
export const amlMonitoringItemSchema = z
	.object({ monitoringId: z.string() })
	.merge(amlMonitoringSchema);

/**
 * What Start and Stop output: the monitoring, and the comment sent with the request when there was
 * one (the service keeps it, but does not answer with it).
 */
export const amlMonitoringStartStopItemSchema = amlMonitoringItemSchema.extend({
	comment: z.string().optional(),
});

/** A monitoring in the list (`AmlMonitoringList`). */
export const amlMonitoringListEntrySchema = z
	.object({
		id: z.string(),
		name: z.string().nullish(),
		status: z.string().nullish(),
		userType: z.string().nullish(),
		isSubscribed: z.boolean().nullish(),
		checkedAt: z.string().nullish(),
		expiration: z.string().nullish(),
		created: z.string().nullish(),
		tags: texts,
	})
	.passthrough();

export const amlMonitoringListItemSchema = z
	.object({ monitoringId: z.string() })
	.merge(amlMonitoringListEntrySchema);
