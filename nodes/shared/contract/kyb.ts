/**
 * KYB: a company's onboarding session (its form link), the form it fills (questionnaire answers,
 * beneficiaries, submission) and the company as the reviewer sees it (details, list, review
 * decision, PDF, deletion). The contract names only the questionnaire and submit endpoints; the
 * others follow the provider's KYB OpenAPI document (test/fixtures/real-service/openapi/kyb.yaml),
 * as docs/service-interface.md says.
 */
import { z } from 'zod';

import { AML_COUNTRIES } from './aml';
import { nonEmpty, pathId, uuidSchema, wholeSeconds } from './common';

export const kybQuestionnaireParamsSchema = z.object({
	companyId: pathId('Company ID'),
	questionnaireId: pathId('Questionnaire ID'),
});

export const kybFormParamsSchema = z.object({ formId: pathId('Form ID') });

/** A company's form token given to the node (the Form Token field), sent as Bearer. */
export const kybFormTokenSchema = z.object({ formToken: nonEmpty('Form Token') });

/** Structure inside `sections` is not shown: anything is accepted. */
export const questionnaireAnswersSchema = z
	.object({ sections: z.record(z.unknown()).or(z.array(z.unknown())) })
	.passthrough();

/** The limits of kyb.yaml's KybFormTokenRequest, CompanyStatusRequest and KybPdfRequest. */
export const KYB_LIMITS = {
	sessionLifetime: { min: 0, max: 2592000, default: 3600 },
	clientIdMaxLength: 100,
	externalRefMaxLength: 40,
	tagsMaxItems: 5,
	tagMaxLength: 32,
	scanRefMaxLength: 40,
	denyReasonMaxLength: 64,
} as const;

/** The languages of the hosted KYB form (kyb.yaml's KybLocaleEnum). */
export const KYB_LOCALES = [
	'en',
	'es',
	'fr',
	'ru',
	'de',
	'it',
	'pl',
	'lt',
	'lv',
	'et',
	'cs',
	'ro',
	'hu',
	'ja',
	'bg',
	'nl',
	'pt',
] as const;

/** A list value of the session: no comma (the service keeps lists as comma-separated text). */
const listEntry = (max: number) =>
	z
		.string()
		.min(1, { message: 'must not have an empty entry' })
		.max(max, { message: `must have entries of at most ${max} characters each` })
		.regex(/^[^,]+$/, { message: 'must not have a comma inside an entry' });

/** POST /kyb/tokens/ (the FORM token of kyb.yaml's KybFormTokenRequest): a session for one company. */
export const kybSessionRequestSchema = z.object({
	tokenType: z.literal('FORM'),
	clientId: nonEmpty('Client ID').pipe(
		z.string().max(KYB_LIMITS.clientIdMaxLength, {
			message: `must be at most ${KYB_LIMITS.clientIdMaxLength} characters`,
		}),
	),
	lifetime: wholeSeconds(
		KYB_LIMITS.sessionLifetime.min,
		KYB_LIMITS.sessionLifetime.max,
		'30 days',
	).optional(),
	externalRef: z
		.string()
		.max(KYB_LIMITS.externalRefMaxLength, {
			message: `must be at most ${KYB_LIMITS.externalRefMaxLength} characters`,
		})
		.optional(),
	locale: z
		.enum(KYB_LOCALES, {
			errorMap: () => ({ message: `must be one of ${KYB_LOCALES.join(', ')}` }),
		})
		.optional(),
	flow: uuidSchema.optional(),
	theme: uuidSchema.optional(),
	questionnaire: z.string().min(1, { message: 'must not be empty' }).optional(),
	questionnaireRequired: z.boolean().optional(),
	tags: z
		.array(listEntry(KYB_LIMITS.tagMaxLength))
		.max(KYB_LIMITS.tagsMaxItems, { message: `must have at most ${KYB_LIMITS.tagsMaxItems} tags` })
		.optional(),
	scanRefs: z.array(listEntry(KYB_LIMITS.scanRefMaxLength)).optional(),
});
export type KybSessionRequest = z.infer<typeof kybSessionRequestSchema>;

/** The session (kyb.yaml's KybFormToken): `tokenString` opens the company's form. */
export const kybSessionSchema = z
	.object({
		tokenType: z.string().nullish(),
		tokenString: z.string(),
		expiration: z.string().nullish(),
		isValid: z.boolean().nullish(),
		companyId: z.string().nullish(),
		clientId: z.string().nullish(),
		externalRef: z.string().nullish(),
		locale: z.string().nullish(),
		flow: z.string().nullish(),
		theme: z.string().nullish(),
		tags: z.array(z.string()).nullish(),
		scanRefs: z.array(z.string()).nullish(),
		isActive: z.boolean().nullish(),
	})
	.passthrough();

/** The address of the provider's hosted KYB form (its guide `kyb/generate-token`). */
const KYB_FORM_URL = 'https://kyb.ui.idenfy.com/welcome';

/** The link a company opens to fill its KYB form: the hosted form with the session's token. */
export function kybFormLink(tokenString: string): string {
	return `${KYB_FORM_URL}?authToken=${encodeURIComponent(tokenString)}`;
}

/** A company's form, by its company ID (`/kyb/forms/{companyId}/…`, `/kyb/companies/{id}/…`). */
export const kybCompanyParamsSchema = z.object({ companyId: pathId('Company ID') });

/** GET /kyb/companies/: the filter the node offers (kyb.yaml also has `created`). */
export const kybCompanyListParamsSchema = z.object({
	registrationNumber: z.string().optional(),
});

/**
 * POST /kyb/companies/{id}/change-status/ (kyb.yaml's CompanyStatusRequest): COMPLETED takes the
 * review decision, "the same as a manual review through the dashboard"; the other statuses none.
 */
/** The message of a value a discriminated union does not know (never the value itself). */
const oneOf =
	(values: string[]): z.ZodErrorMap =>
	(issue, ctx) =>
		issue.code === 'invalid_union_discriminator'
			? { message: `must be ${values.join(' or ')}` }
			: { message: ctx.defaultError };

export const kybCompanyStatusRequestSchema = z.discriminatedUnion(
	'status',
	[
		z.object({ status: z.enum(['NEED_TO_PROCESS', 'NEED_TO_REVIEW']) }),
		z.object({
			status: z.literal('COMPLETED'),
			reviewInfo: z.discriminatedUnion(
				'approvalStatus',
				[
					z.object({ approvalStatus: z.literal('APPROVED') }),
					z.object({
						approvalStatus: z.literal('DENIED'),
						denyReason: z
							.string()
							.max(KYB_LIMITS.denyReasonMaxLength, {
								message: `must be at most ${KYB_LIMITS.denyReasonMaxLength} characters`,
							})
							.nullish(),
					}),
				],
				{ errorMap: oneOf(['APPROVED', 'DENIED']) },
			),
		}),
	],
	{ errorMap: oneOf(['NEED_TO_PROCESS', 'NEED_TO_REVIEW', 'COMPLETED']) },
);
export type KybCompanyStatusRequest = z.infer<typeof kybCompanyStatusRequestSchema>;

/** Its answer (kyb.yaml's CompanyStatus): the status, and with COMPLETED the decision. */
export const kybCompanyStatusSchema = z
	.object({
		status: z.string().nullish(),
		reviewInfo: z
			.object({ approvalStatus: z.string().nullish(), denyReason: z.string().nullish() })
			.passthrough()
			.nullish(),
	})
	.passthrough();

/** The sections a company PDF may hold (kyb.yaml's CompanyPdfContentEnum; all by default). */
export const KYB_PDF_SECTIONS = [
	'SUBMITTED_COMPANY_INFO',
	'COMPANY_META',
	'RELATED_SUBJECTS',
	'OWNERSHIP_STRUCTURE',
	'QUESTIONNAIRE_ANSWERS',
	'COMPANY_NAME_AUDIT',
	'BANK_VERIFICATION',
	'WEBSITE_AUDIT',
	'ADDRESS_AUDIT',
	'GOV_CHECKS',
	'KYB_DATA_MATCHING',
	'KYB_DOCUMENTS',
	'AUDIT_LOGS',
	'VAT_VERIFICATION',
	'TAGS',
	'SHAREHOLDERS_CHECK',
	'AML_MONITORING_USERS',
	'LINKED_COMPANIES',
	'COMMENTS',
	'COMPANY_AML_CHECK',
	'COMPANY_ADVERSE_MEDIA_CHECK',
	'BENEFICIARY_AML_CHECKS',
	'BENEFICIARY_ADVERSE_MEDIA_CHECKS',
] as const;

/** POST /kyb/companies/{id}/pdf/ (kyb.yaml's KybPdfRequest): both fields optional. */
export const kybCompanyPdfRequestSchema = z.object({
	password: z.string().min(1, { message: 'must be at least 1 character' }).optional(),
	content: z
		.array(
			z.enum(KYB_PDF_SECTIONS, {
				errorMap: () => ({ message: `must be sections among ${KYB_PDF_SECTIONS.join(', ')}` }),
			}),
		)
		.optional(),
});

/** The company as lists and details show it: its registry data (kyb.yaml's CompanyDetailInfo). */
const companyInfoSchema = z
	.object({
		companyName: z.string().nullish(),
		registrationNumber: z.string().nullish(),
		country: z.string().nullish(),
	})
	.passthrough();

/** Where its review is (kyb.yaml's KybFormMeta, and CompanyMeta in the details). */
const companyMetaSchema = z
	.object({
		status: z.string().nullish(),
		approvalStatus: z.string().nullish(),
		denyReason: z.string().nullish(),
		submissionTime: z.string().nullish(),
		soleProprietor: z.boolean().nullish(),
	})
	.passthrough();

/** A company of GET /kyb/companies/ (kyb.yaml's CompanyList). */
export const kybCompanyListItemSchema = z
	.object({
		id: z.string(),
		company: companyInfoSchema.nullish(),
		meta: companyMetaSchema.nullish(),
	})
	.passthrough();

/** GET /kyb/companies/{id}/ (kyb.yaml's CompanyDetail): everything the reviewer sees. */
export const kybCompanyDetailSchema = z
	.object({
		id: z.string(),
		company: companyInfoSchema.nullish(),
		meta: companyMetaSchema.nullish(),
		beneficiaries: z.array(z.unknown()).nullish(),
		questionnaires: z.array(z.unknown()).nullish(),
		documents: z.array(z.unknown()).nullish(),
	})
	.passthrough();

/** One questionnaire with its answers (kyb.yaml's KybAnswersDisplay). */
export const kybAnswersDetailSchema = z
	.object({
		id: z.string(),
		name: z.string().nullish(),
		title: z.string().nullish(),
		sections: z
			.array(
				z
					.object({
						title: z.string().nullish(),
						questions: z
							.array(
								z
									.object({
										key: z.string(),
										title: z.string().nullish(),
										type: z.string().nullish(),
										value: z.unknown(),
									})
									.passthrough(),
							)
							.nullish(),
					})
					.passthrough(),
			)
			.nullish(),
	})
	.passthrough();

/** A beneficiary of GET /kyb/forms/{companyId}/beneficiaries/ (kyb.yaml's Beneficiary). */
export const kybBeneficiarySchema = z
	.object({
		id: z.string(),
		info: z
			.object({
				infoType: z.string().nullish(),
				name: z.string().nullish(),
				surname: z.string().nullish(),
				companyName: z.string().nullish(),
				dateOfBirth: z.string().nullish(),
				nationality: z.string().nullish(),
			})
			.passthrough()
			.nullish(),
		parent: z.string().nullish(),
		beneficiaryType: z.string().nullish(),
		beneficiaryTypes: z.array(z.string()).nullish(),
		positions: z.array(z.string()).nullish(),
		formFiller: z.boolean().nullish(),
		ownershipPercentage: z.number().nullish(),
	})
	.passthrough();

// Registry documents (kyb.yaml's GOV Orders): the official documents a registry has for a company,
// ordered through the service and delivered later (GOV_ORDERED_DOCUMENT).

/** The countries whose registries the service orders from (kyb.yaml's CountryCodeEnum). */
// prettier-ignore
export const GOV_COUNTRY_CODES = [
	'AL', 'AM', 'AR', 'AT', 'AU', 'AW', 'AZ', 'BA', 'BB', 'BD', 'BE', 'BG', 'BH', 'BN', 'BO', 'BQ', 'BR', 'BW', 'BY', 'BZ',
	'CA', 'CH', 'CN', 'CO', 'CR', 'CW', 'CY', 'CZ', 'DE', 'DK', 'DO', 'EC', 'EE', 'ES', 'FI', 'FR', 'GB', 'GE', 'GG', 'GH',
	'GI', 'GR', 'HK', 'HR', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IS', 'IT', 'JE', 'JO', 'KH', 'KW', 'KY', 'LI', 'LK', 'LS',
	'LT', 'LU', 'LV', 'MA', 'ME', 'MH', 'MM', 'MT', 'MU', 'MY', 'NL', 'NO', 'NZ', 'PE', 'PH', 'PK', 'PL', 'PR', 'PT', 'QA',
	'RO', 'RS', 'RU', 'SB', 'SE', 'SG', 'SI', 'SK', 'TH', 'TN', 'TO', 'TR', 'TT', 'TW', 'UG', 'US', 'UY', 'VG', 'VI', 'VN',
	'VU', 'WS', 'ZA',
] as const;

/** The statuses of an ordered document (kyb.yaml's GovDocumentOrderStatusEnum). */
export const GOV_ORDER_STATUSES = [
	'NOT_ORDERED',
	'IN_PROGRESS',
	'FINISHED',
	'FAILED',
	'TIMED_OUT',
] as const;

const govCountrySchema = z.enum(GOV_COUNTRY_CODES, {
	errorMap: () => ({
		message: `must be a country whose registry the service orders from: ${GOV_COUNTRY_CODES.join(', ')}`,
	}),
});

/** A text of 1..max characters (`minLength: 1`, `maxLength`). */
const someText = (max?: number) => {
	const text = z.string().min(1, { message: 'must not be empty' });
	return max === undefined ? text : text.max(max, { message: `must be at most ${max} characters` });
};

/** GET available-documents/: the company in the registry (country and number required, region optional). */
export const govAvailableDocumentsParamsSchema = z.object({
	countryCode: govCountrySchema,
	registrationNumber: someText(),
	region: someText().optional(),
});

/** POST document-order/ (kyb.yaml's GovPartnerOrderDocumentRequest); its answer has no body. */
export const govDocumentOrderRequestSchema = govAvailableDocumentsParamsSchema.extend({
	companyName: someText(200),
	productKey: someText(),
});

/** GET gov-ordered-documents/: the filters the node offers (kyb.yaml also has delivery dates, format, order). */
export const govOrderedDocumentsParamsSchema = z.object({
	status: z
		.enum(GOV_ORDER_STATUSES, {
			errorMap: () => ({ message: `must be one of ${GOV_ORDER_STATUSES.join(', ')}` }),
		})
		.optional(),
	title: z.string().optional(),
	orderedAfter: z
		.string()
		.datetime({ offset: true, message: 'must be a date and time' })
		.optional(),
	orderedBefore: z
		.string()
		.datetime({ offset: true, message: 'must be a date and time' })
		.optional(),
});

/** GET gov-ordered-documents/{id}/: the document's ID is a UUID. */
export const govOrderedDocumentParamsSchema = z.object({ documentId: uuidSchema });

/** A document the registry has for the company (kyb.yaml's GovRegistersFilingResult). */
export const govAvailableDocumentSchema = z
	.object({
		id: z.string(),
		productCode: z.string().nullish(),
		productTitle: z.string().nullish(),
		productFormat: z.string().nullish(),
		price: z.number().nullish(),
		currency: z.string().nullish(),
		deliveryTimeMinutes: z.number().nullish(),
		canOrder: z.boolean().nullish(),
		companyName: z.string().nullish(),
		companyCode: z.string().nullish(),
		countryISO: z.string().nullish(),
	})
	.passthrough();

/** An ordered document (kyb.yaml's GovPartnerOrderedDocument): `file` links it once delivered. */
export const govOrderedDocumentSchema = z
	.object({
		id: z.string(),
		title: z.string().nullish(),
		documentFormat: z.string().nullish(),
		productKey: z.string().nullish(),
		expectedDeliveryTime: z.string().nullish(),
		price: z.number().nullish(),
		deliveredAt: z.string().nullish(),
		status: z.string().nullish(),
		file: z.string().nullish(),
	})
	.passthrough();

// A company's form prefilled (kyb.yaml's KybFormCreateRequest, PatchedKybFormUpdateRequest,
// BeneficiaryCreateRequest): what a CRM knows, so the company starts with it.

/** kyb.yaml's CountryEnum is AML's: the same ISO 3166-1 alpha-2 codes and XK. */
const formCountrySchema = z.enum(AML_COUNTRIES, {
	errorMap: () => ({
		message: 'must be a two-letter country code such as LT (ISO 3166-1 alpha-2)',
	}),
});

/** An optional text of at most `max` characters (the provider's nullable `maxLength` fields). */
const upTo = (max: number) =>
	z
		.string()
		.max(max, { message: `must be at most ${max} characters` })
		.optional();

/** The company's details (kyb.yaml's CompanyInfoRequest): name and country required. */
export const kybCompanyInfoRequestSchema = z.object({
	companyName: someText(200),
	country: formCountrySchema,
	registrationNumber: upTo(100),
	region: upTo(2),
	type: upTo(100),
	phone: upTo(128),
	website: z
		.string()
		.url({ message: 'must be a web address such as https://example.com' })
		.max(200, { message: 'must be at most 200 characters' })
		.optional(),
	email: z
		.string()
		.email({ message: 'must be an e-mail address' })
		.max(254, { message: 'must be at most 254 characters' })
		.optional(),
	brandNames: z
		.array(someText(100))
		.max(10, { message: 'must have at most 10 brand names' })
		.optional(),
	activityCode: upTo(8),
	tin: upTo(32),
	operatingAddress: upTo(255),
	postalAddress: upTo(255),
	postcode: upTo(20),
	street: upTo(100),
	city: upTo(100),
});

/** POST /kyb/forms/ (the form token's company) and PATCH /kyb/forms/{id}/: the company's details. */
export const kybFormRequestSchema = z.object({ company: kybCompanyInfoRequestSchema });

/** The form as the service answers a create or update (kyb.yaml's KybFormCreate, KybFormUpdate). */
export const kybFormSchema = z
	.object({
		id: z.string().nullish(),
		company: companyInfoSchema,
		meta: companyMetaSchema.nullish(),
	})
	.passthrough();

export const KYB_BENEFICIARY_TYPES = [
	'CEO',
	'REPRESENTATIVE',
	'SHAREHOLDER',
	'UBO',
	'ABO',
] as const;

/** POST /kyb/forms/{companyId}/beneficiaries/ (kyb.yaml's BeneficiaryCreateRequest), a person. */
export const kybBeneficiaryRequestSchema = z.object({
	beneficiaryTypes: z
		.array(
			z.enum(KYB_BENEFICIARY_TYPES, {
				errorMap: () => ({ message: `must be among ${KYB_BENEFICIARY_TYPES.join(', ')}` }),
			}),
		)
		.min(1, { message: 'must have at least one role' })
		.optional(),
	info: z.object({
		infoType: z.literal('INDIVIDUAL'),
		name: someText(100),
		surname: someText(100),
		email: z
			.string()
			.email({ message: 'must be an e-mail address' })
			.max(254, { message: 'must be at most 254 characters' })
			.optional(),
		phone: upTo(128),
		dateOfBirth: z
			.string()
			.regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date such as 1985-04-12' })
			.optional(),
		nationality: formCountrySchema.optional(),
		countryOfResidence: formCountrySchema.optional(),
		personalNumber: z
			.string()
			.max(50, { message: 'must be at most 50 characters' })
			// The provider's pattern ^[\u0000-\u007F]+$: ASCII only.
			.refine((value) => [...value].every((c) => c.charCodeAt(0) < 128), {
				message: 'must have only ASCII characters (no accented letters)',
			})
			.optional(),
		residentialAddress: upTo(255),
		scanRef: someText().optional(),
	}),
	positions: z.array(listEntry(50)).max(3, { message: 'must have at most 3 positions' }).optional(),
	formFiller: z.boolean().optional(),
	ownershipPercentage: z
		.number({ invalid_type_error: 'must be a number from 0 to 100' })
		.min(0, { message: 'must be from 0 to 100' })
		.max(100, { message: 'must be from 0 to 100' })
		.optional(),
});
