/** Proof of address: the check of an address document. */
import { z } from 'zod';

import { LIMITS } from './common';

/** File types the service accepts for a proof-of-address check (jpg is jpeg, heif is heic's family). */
export type PoaFileType = 'jpeg' | 'png' | 'webp' | 'heic' | 'heif' | 'pdf';

export const poaCheckRequestSchema = z.object({
	file: z
		.string()
		.min(1, { message: 'must be base64 text of a jpeg, png, webp, heic, heif or pdf file' }),
	// Optional for the service (it compares what it is given): empty means not sent.
	providedName: z
		.string()
		.trim()
		.max(LIMITS.poaTextMaxLength, {
			message: `must be at most ${LIMITS.poaTextMaxLength} characters`,
		})
		.optional(),
	providedAddress: z
		.string()
		.trim()
		.max(LIMITS.poaTextMaxLength, {
			message: `must be at most ${LIMITS.poaTextMaxLength} characters`,
		})
		.optional(),
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
