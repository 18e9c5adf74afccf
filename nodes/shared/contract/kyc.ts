/** Identification (KYC): the verification token and the scan reference of a session. */
import { z } from 'zod';

import { LIMITS, listPageSchema, nonEmpty, pathId, uuidSchema, wholeSeconds } from './common';

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

/** Where the verification screen sends the person: any absolute address (an app's own scheme too). */
const redirectField = z
	.string()
	.trim()
	.url({ message: 'must be a full address such as https://example.com/done or myapp://done' });

const nameField = z
	.string()
	.trim()
	.min(1, { message: 'must not be empty' })
	.max(LIMITS.personNameMaxLength, {
		message: `must be at most ${LIMITS.personNameMaxLength} characters`,
	});

/**
 * The document types the service names (its KycDocumentTypeEnum). `documents` in a token request
 * takes any text: an account may know others.
 */
export const KYC_DOCUMENT_TYPES = [
	'ID_CARD',
	'PASSPORT',
	'RESIDENCE_PERMIT',
	'DRIVER_LICENSE',
	'PAN_CARD',
	'AADHAAR',
	'VISA',
	'NATIONAL_PASSPORT',
	'PROVISIONAL_DRIVER_LICENSE',
	'OLD_ID_CARD',
	'MILITARY_CARD',
	'ADDRESS_CARD',
	'SMART_ID',
	'CLEAR',
	'ONE_ID',
	'BANK_ID_SE',
	'BANK_ID_NO',
	'BANK_ID_CZ',
	'FTN',
	'MIT_ID',
	'VERIMI',
	'LA_WALLET',
	'SAMSUNG_WALLET',
	'MOJE_ID_CZ',
	'YOTI_ID',
	'OTHER',
	'BORDER_CROSSING',
	'ASYLUM',
	'PHOTO_CARD',
	'PROOF_OF_AGE_CARD',
	'TRAVEL_CARD',
	'SOCIAL_SECURITY_CARD',
	'VOTER_CARD',
	'DIPLOMATIC_ID',
	'WORK_PERMIT',
] as const;

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
		firstName: nameField.optional(),
		lastName: nameField.optional(),
		externalRef: z
			.string()
			.trim()
			.min(1, { message: 'must not be empty' })
			.max(LIMITS.externalRefMaxLength, {
				message: `must be at most ${LIMITS.externalRefMaxLength} characters`,
			})
			.optional(),
		successUrl: redirectField.optional(),
		errorUrl: redirectField.optional(),
		unverifiedUrl: redirectField.optional(),
		callbackUrl: urlField.optional(),
		// The service limits only the length: a code such as en, de, pt-BR or zh-Hans.
		locale: z
			.string()
			.trim()
			.min(1, { message: 'must not be empty' })
			.max(LIMITS.localeMaxLength, {
				message: `must be at most ${LIMITS.localeMaxLength} characters, such as en, de or pt-BR`,
			})
			.optional(),
		// A country code, or a list of them (the service's documentation shows both).
		country: z
			.union([z.string().trim().min(1), z.array(z.string().trim().min(1))], {
				errorMap: () => ({ message: 'must be a country code such as LT, or a list of codes' }),
			})
			.optional(),
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
			.array(z.string(), { invalid_type_error: 'must be a list of document types' })
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

/**
 * The checks a compliance team sets per case, as Create Verification Token's typed fields (kyc.yaml's
 * token request): each of the provider's type. Checked for the typed fields only, so a Custom Field
 * of the same name stays sent as given, as before.
 */
export const verificationTokenChecksSchema = z.object({
	checkAml: z.boolean().optional(),
	autoAmlMonitoring: z.boolean().optional(),
	checkFaceBlacklist: z.boolean().optional(),
	checkDocFaceBlacklist: z.boolean().optional(),
	checkPersonBlacklist: z.boolean().optional(),
	questionnaire: z.string().trim().min(1, { message: 'must not be empty' }).optional(),
	questionnaireRequired: z.boolean().optional(),
	theme: uuidSchema.optional(),
	riskAssessmentProfile: uuidSchema.optional(),
});

export const verificationTokenResponseSchema = z
	.object({ authToken: z.string(), scanRef: z.string().nullish(), clientId: z.string().nullish() })
	.passthrough();

export const scanRefSchema = pathId('Scan reference');

/**
 * POST /api/v2/status, and /api/v2/data, /api/v2/files and /api/v2/delete ("only one JSON
 * parameter `scanRef`"): the verification asked about.
 */
export const scanRefRequestSchema = z.object({ scanRef: nonEmpty('Scan reference') });

// The words of a verification's decision (kyc.yaml's enums): what Personal Data: Leave Out keeps.

/** kyc.yaml `IdentificationStatusEnum`, and EXPIRED-DELETED of the provider's vocabulary page. */
export const IDENTIFICATION_STATUSES = [
	'APPROVED',
	'DENIED',
	'SUSPECTED',
	'REVIEWING',
	'EXPIRED',
	'ACTIVE',
	'DELETED',
	'ARCHIVED',
	'EXPIRED-DELETED',
] as const;

/** kyc.yaml `DocumentStatusEnum`: the automated and the manual document check. */
export const DOCUMENT_CHECK_RESULTS = [
	'DOC_VALIDATED',
	'DOC_INFO_MISMATCH',
	'DOC_NOT_FOUND',
	'DOC_NOT_FULLY_VISIBLE',
	'DOC_FACE_NOT_FOUND',
	'DOC_TOO_BLURRY',
	'DOC_GLARED',
	'DOC_FACE_GLARED',
	'MRZ_NOT_FOUND',
	'MRZ_OCR_READING_ERROR',
	'BARCODE_NOT_FOUND',
	'DOC_EXPIRED',
	'DOC_NOT_SUPPORTED',
	'COUNTRY_NOT_SUPPORTED',
	'COUNTRY_MISMATCH',
	'DOC_TYPE_MISMATCH',
	'DOC_SUBTYPE_MISMATCH',
	'DOC_SIDE_MISMATCH',
	'DOC_DAMAGED',
	'DOC_FAKE',
	'DOC_PERSONAL_CODE_INVALID',
	'DOC_NOT_ALLOWED',
	'DOC_NAME_ERROR',
	'DOC_SURNAME_ERROR',
	'DOC_EXPIRY_ERROR',
	'DOC_DOB_ERROR',
	'DOC_PERSONAL_NUMBER_ERROR',
	'DOC_NUMBER_ERROR',
	'DOC_DATE_OF_ISSUE_ERROR',
	'DOC_SEX_ERROR',
	'DOC_NATIONALITY_ERROR',
	'DOC_NOT_ANALYSED',
	'DOC_ERROR',
	'AUTO_UNVERIFIABLE',
	'DOC_SPOOF_DETECTED',
	'MRZ_INVALID',
	'EID_FAILED',
	'NFC_INIT_FAILED',
	'NFC_FAILED',
	'NFC_TIMEOUT',
] as const;

/** kyc.yaml `FaceStatusEnum`: the automated and the manual face check. */
export const FACE_CHECK_RESULTS = [
	'FACE_MATCH',
	'FACE_NOT_CHECKED',
	'FACE_MISMATCH',
	'NO_FACE_FOUND',
	'TOO_MANY_FACES',
	'FACE_TOO_BLURRY',
	'FACE_GLARED',
	'FACE_UNCERTAIN',
	'FACE_NOT_ANALYSED',
	'FACE_ERROR',
	'AUTO_UNVERIFIABLE',
	'FAKE_FACE',
] as const;

/** kyc.yaml `FraudTagsEnum` (the older `suspicionReasons` hold the same tags). */
export const FRAUD_TAGS = [
	'FACE_IN_BLACKLIST',
	'DOC_FACE_IN_BLACKLIST',
	'DATA_BLACKLISTED',
	'DATA_IN_BLACKLIST',
	'DUPLICATE_FACE',
	'DUPLICATE_DOC_FACE',
	'DUPLICATE_PERSONAL_DATA',
	'VIRTUAL_CAMERA',
	'ADDRESS_UNVERIFIED',
	'PORTRAIT_SUBSTITUTION',
	'FACE_SUSPECTED',
	'FACE_BLACKLISTED',
	'DOC_FACE_BLACKLISTED',
	'DOC_MOBILE_PHOTO',
	'DEV_TOOLS_OPENED',
	'DOC_PRINT_SPOOFED',
	'FAKE_PHOTO',
	'AML_SUSPECTION',
	'AML_FAILED',
	'LID_SUSPECTION',
	'LID_FAILED',
	'SANCTIONS_SUSPECTION',
	'SANCTIONS_FAILED',
	'CRIMINAL_SUSPECTED',
	'CRIMINAL_CHECK_FAILED',
	'RC_FAILED',
	'DL_FAILED',
	'AUTO_UNVERIFIABLE',
] as const;

/**
 * The tags a blocklist match flags a result with, as the provider's blocklist setup guide spells
 * them ("Face_Blacklisted — selfie image matched", …): not in `FraudTagsEnum`, yet what the service
 * sends when a face or a person's data is on a blocklist.
 */
export const BLOCKLIST_MATCH_TAGS = [
	'Face_Blacklisted',
	'Doc_Face_Blacklisted',
	'Data_Blacklisted',
] as const;

/** kyc.yaml `InfoMismatchEnum`: which of the person's data did not match (the field, not its value). */
export const MISMATCH_TAGS = [
	'NAME',
	'SURNAME',
	'DOCUMENT_NUMBER',
	'PERSONAL_CODE',
	'EXPIRY_DATE',
	'DATE_OF_BIRTH',
	'DATE_OF_ISSUE',
	'NATIONALITY',
	'SEX',
	'FULL_NAME',
	'DOC_INFO_MISMATCH',
	'UNDER_AGE',
	'OVER_AGE',
	'UNKNOWN_AGE',
	'UTILITY_ADDRESS',
	'UTILITY_NAME',
	'EXPIRED_UTILITY_BILL',
	'INVALID_ADDITIONAL_STEP',
	'ADDITIONAL_STEP_NOT_FOUND',
	'ADDITIONAL_STEP_INFORMATION_MISMATCH',
	'EXPIRED_ADDITIONAL_STEP_INFORMATION',
	'REGISTRY_CENTER_INFO_MISMATCH',
	'DRIVER_LICENSE_INFO_MISMATCH',
	'NOT_SUPPORTED_POA_DOCUMENT_TYPE',
	'NOT_SUPPORTED_POA_DOCUMENT_COUNTRY',
	'POA_COUNTRIES_MISMATCH',
	'POA_SCREENSHOT_DETECTED',
] as const;

/** kyc.yaml `AdditionalStepStatusEnum`: the status's `additionalSteps`. */
export const ADDITIONAL_STEP_STATUSES = ['VALID', 'INVALID', 'NOT_FOUND'] as const;

/** A check's result word (e.g. DOC_VALIDATED, FACE_MATCH); empty until that check has been made. */
const checkResult = z.string().nullish();

/**
 * The answer of POST /api/v2/status. `status`: APPROVED, DENIED, SUSPECTED, REVIEWING, ACTIVE or
 * EXPIRED as documented; the manual results stay empty until a person has reviewed it.
 */
export const verificationStatusSchema = z
	.object({
		status: z.string(),
		scanRef: z.string(),
		clientId: z.string().nullish(),
		autoDocument: checkResult,
		autoFace: checkResult,
		manualDocument: checkResult,
		manualFace: checkResult,
		fraudTags: z.array(z.string()).nullish(),
		mismatchTags: z.array(z.string()).nullish(),
	})
	.passthrough();

// The operations the contract does not have, from the provider's OpenAPI document (kyc.yaml) or,
// where none has them, its documentation (test/fixtures/real-service/README.md quotes each page).

/**
 * Statuses of a verification whose personal data is gone ("Verification data was deleted", "Token
 * expired and verification data was deleted": the provider's vocabulary page).
 */
export const DELETED_STATUSES = ['DELETED', 'EXPIRED-DELETED'];

/**
 * GET /kyc/identifications/: the verifications of one client. The provider's `clientId` filter is
 * optional; without it the list is every verification of the account, so the node asks for one.
 */
export const identificationListParamsSchema = z.object({ clientId: nonEmpty('Client ID') });

/** One verification of the list (kyc.yaml `PartnerIdentificationList`): any status text is kept. */
export const identificationListItemSchema = z
	.object({ scanRef: z.string(), status: z.string(), suspected: z.boolean() })
	.passthrough();

/** A page of the list (kyc.yaml `PaginatedPartnerIdentificationListList`). */
export const identificationListPageSchema = listPageSchema.extend({
	results: z.array(identificationListItemSchema),
});

/** A document field: text, or null when it was not on the document or could not be read. */
const documentText = z.string().nullish();

/**
 * The answer of POST /api/v2/data: what the service read from the document (former docs,
 * IdentificationDataRetrieval.md; the data retrieval page), the fields of the webhook's `data`
 * (kyc.yaml `IdentificationDataWebhook`). Every field may be null.
 */
export const verificationDataSchema = z
	.object({
		scanRef: z.string().nullish(),
		clientId: z.union([z.string(), z.number()]).nullish(),
		...Object.fromEntries(
			[
				'docFirstName',
				'docLastName',
				'docNumber',
				'docPersonalCode',
				'docExpiry',
				'docDob',
				'docDateOfIssue',
				'docType',
				'docSex',
				'docNationality',
				'docIssuingCountry',
				'birthPlace',
				'authority',
				'address',
				'docTemporaryAddress',
				'mothersMaidenName',
				'docBirthName',
				'docPatronymic',
				'driverLicenseCategory',
				'fullName',
				'selectedCountry',
				'orgFirstName',
				'orgLastName',
				'orgNationality',
				'orgBirthPlace',
				'orgAuthority',
				'orgAddress',
				'orgTemporaryAddress',
				'orgMothersMaidenName',
				'orgPatronymic',
				'orgBirthName',
				'ageEstimate',
				'clientIpProxyRiskLevel',
			].map((field) => [field, documentText]),
		),
		manuallyDataChanged: z.boolean().nullish(),
		duplicateFaces: z.array(z.unknown()).nullish(),
		duplicateDocFaces: z.array(z.unknown()).nullish(),
		additionalData: z.record(z.unknown()).nullish(),
	})
	.passthrough();

/** The languages of the report (the PDF generation page: "Possible values: `en`, `lt`"). */
export const REPORT_LANGUAGES = ['en', 'lt'] as const;

/** POST /api/v2/generate-pdf (the PDF generation page): only `scanRef` is required. */
export const reportPdfRequestSchema = z.object({
	scanRef: nonEmpty('Scan reference'),
	language: z
		.enum(REPORT_LANGUAGES, { errorMap: () => ({ message: 'must be en or lt' }) })
		.optional(),
	includeMainStepFiles: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
	includeAdditionalStepFiles: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
});

/** The blocklists a verification can be added to (kyc.yaml `blocklistSource`). */
export const BLOCKLIST_SOURCES = ['SELFIE', 'DOCUMENT', 'DOCUMENT_INFO'] as const;

/** POST / DELETE /kyc/identifications/{scanRef}/blocklists/{blocklistSource}/. */
export const blocklistParamsSchema = z.object({
	scanRef: scanRefSchema,
	source: z.enum(BLOCKLIST_SOURCES, {
		errorMap: () => ({ message: 'must be SELFIE, DOCUMENT or DOCUMENT_INFO' }),
	}),
	// kyc.yaml `IdentificationBlacklistRequest`: any text or null, no limit published.
	reason: z.string({ invalid_type_error: 'must be text' }).nullish(),
});

/**
 * The 201 answer (kyc.yaml `IdentificationBlacklistEntry`): a face entry (`faceImageUrl`) or a
 * document data entry (`fullName`, `documentNumber`, …); every field optional here.
 */
export const blocklistEntrySchema = z
	.object({
		id: z.union([z.string(), z.number()]).nullish(),
		reason: z.string().nullish(),
		created: z.string().nullish(),
		faceImageUrl: z.string().nullish(),
		fullName: z.string().nullish(),
		dateOfBirth: z.string().nullish(),
		personalNumber: z.string().nullish(),
		documentNumber: z.string().nullish(),
		nationality: z.string().nullish(),
	})
	.passthrough();

/** POST /kyc/identifications/{scanRef}/request-information/ (kyc.yaml, every field optional). */
export const requestInformationParamsSchema = z.object({
	scanRef: scanRefSchema,
	lifetime: wholeSeconds(0, LIMITS.tokenExpiryTime.max, '30 days').optional(),
	questionnaire: z.string().trim().min(1, { message: 'must not be empty' }).optional(),
	riskAssessmentProfile: z
		.string()
		.trim()
		.uuid({ message: 'must be a UUID such as 3c90c3cc-0d44-4b50-8888-8dd25736052a' })
		.optional(),
	additionalStepUploadRequired: z
		.boolean({ invalid_type_error: 'must be true or false' })
		.optional(),
	bankCardVerification: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
	bankCardExpectedLastFour: z
		.string()
		.length(4, { message: 'must be exactly 4 characters, such as 4242' })
		.nullish(),
});

/** Its 200 answer (kyc.yaml `IdentificationRequestInformation`): the re-upload link and token. */
export const requestInformationResponseSchema = z
	.object({ sessionUrl: z.string().nullish(), tokenString: z.string().nullish() })
	.passthrough();
