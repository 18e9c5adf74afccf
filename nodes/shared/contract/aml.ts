/** AML: the PDF report of a screening profile. */
import { z } from 'zod';

import { LIMITS, pathId, uuidSchema } from './common';

export const amlProfilePdfParamsSchema = z.object({
	checkId: uuidSchema,
	profileId: pathId('Profile ID'),
	password: z
		.string({ required_error: 'is required' })
		.min(LIMITS.amlPdfPasswordMinLength, { message: 'must be at least 1 character' }),
});
