import { z } from 'zod';

/**
 * What an item that carries a downloaded file says of it (its binary field holds the file). An
 * operation puts its own IDs first: `z.object({ checkId: z.string() }).merge(fileItemSchema)`.
 */
export const fileItemSchema = z.object({
	fileName: z.string(),
	mimeType: z.string(),
	fileSize: z.number(),
});
