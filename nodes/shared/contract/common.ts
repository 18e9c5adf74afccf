/**
 * What every product area of the contract shares: the limits, the country codes, the building
 * blocks of the request schemas, and the wording of a failed check.
 */
import { z } from 'zod';

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
	personNameMaxLength: 100,
	localeMaxLength: 7,
	tokenExpiryTime: { min: 0, max: 2592000 },
	tokenSessionLength: { min: 60, max: 3600 },
} as const;

export const nonEmpty = (what: string) =>
	z
		.string()
		.trim()
		.min(1, { message: `${what} must not be empty` });

/**
 * An id that goes into a URL path. Only dots ("." or "..") would be resolved by the HTTP client as
 * "this folder" or "the folder above" and send the request to another endpoint (ids may come from
 * an AI agent), so they are refused.
 */
export const pathId = (what: string) =>
	nonEmpty(what).refine((value) => !/^\.+$/.test(value), {
		message: `${what} must not be only dots ("." or ".."): they would change the address of the request`,
	});

export const uuidSchema = z
	.string()
	.trim()
	.uuid({ message: 'must be a UUID such as 5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10' });

/** A duration in whole seconds within [min, max]; `hint` says the maximum in words (e.g. 30 days). */
export const wholeSeconds = (min: number, max: number, hint: string) =>
	z
		.number({ invalid_type_error: 'must be a whole number of seconds' })
		.int({ message: 'must be a whole number of seconds' })
		.min(min, { message: `must be at least ${min} seconds` })
		.max(max, { message: `must be at most ${max} seconds (${hint})` });

/**
 * A page of one of the service's lists (transactions, verifications, monitorings, companies):
 * `count` of all results, links to the pages before and after, and this page's `results`.
 */
export const listPageSchema = z
	.object({
		count: z.number().int().nonnegative().nullish(),
		next: z.string().nullish(),
		previous: z.string().nullish(),
		results: z.array(z.unknown()),
	})
	.passthrough();
export type ListPage = z.infer<typeof listPageSchema>;

/** A failed check in words a user can act on; `path` is the field's dotted path (`access.accounts`). */
export const contractIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ContractIssue = z.infer<typeof contractIssueSchema>;

export function describeIssues(error: z.ZodError): ContractIssue[] {
	return error.issues.map((issue) => ({
		path: issue.path.join('.'),
		message: issue.message,
	}));
}
