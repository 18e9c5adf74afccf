/** Identification (KYC): the verification token and the scan reference of a session. */
import { z } from 'zod';

import { LIMITS, nonEmpty, pathId, wholeSeconds } from './common';

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

export const verificationTokenResponseSchema = z
	.object({ authToken: z.string(), scanRef: z.string().nullish(), clientId: z.string().nullish() })
	.passthrough();

export const scanRefSchema = pathId('Scan reference');

/** POST /api/v2/status: the verification whose status is asked for. */
export const verificationStatusRequestSchema = z.object({ scanRef: nonEmpty('Scan reference') });

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
