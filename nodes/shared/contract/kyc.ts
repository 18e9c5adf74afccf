/** Identification (KYC): the verification token and the scan reference of a session. */
import { z } from 'zod';

import { LIMITS, countrySchema, nonEmpty, pathId, wholeSeconds } from './common';

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
