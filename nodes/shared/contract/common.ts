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

/** A zod type name with its article: "a string", "an object", "null". */
const aType = (type: string) =>
	type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;

/**
 * The rule a value broke, in words, never the value itself: zod's own wording repeats what it was
 * given (an enum's "received 'xyz'"), which may be a person's data or a secret. A message the
 * contract wrote itself (not zod's default for the issue) is its rule and is kept.
 */
export function issueRule(issue: z.ZodIssue): string {
	const zodWords = z.defaultErrorMap(issue, { defaultError: '', data: undefined }).message;
	if (issue.message !== zodWords) return issue.message;
	switch (issue.code) {
		case 'invalid_type':
			return issue.received === 'undefined'
				? 'is required'
				: `must be ${aType(issue.expected)}, not ${aType(issue.received)}`;
		case 'invalid_enum_value':
			return `must be one of ${issue.options.join(', ')}`;
		case 'invalid_literal':
			return `must be ${JSON.stringify(issue.expected)}`;
		case 'unrecognized_keys':
			return 'has fields that are not allowed';
		case 'invalid_union':
		case 'invalid_union_discriminator':
			return 'is none of the allowed kinds of value';
		default:
			// The other codes' wording names limits and types only (too_small, too_big, invalid_string, …).
			return zodWords;
	}
}

/** The issues of a failed check: each field's path and `<path>: <rule>`. */
export function describeIssues(error: z.ZodError): ContractIssue[] {
	return error.issues.map((issue) => {
		const path = issue.path.join('.');
		return { path, message: `${path || 'body'}: ${issueRule(issue)}` };
	});
}
