/**
 * Small HTTP building blocks shared by the routes: replies, errors in the service's standard shape
 * (`{"identifier": "...", "message": "..."}`, its published error messages page), body validation.
 * A 404 keeps Django REST Framework's `{"detail": "Not found."}`: the service documents no 404 body,
 * its bank, KYB and AML endpoints are DRF views, and the credential test recognises the service by
 * that `detail` (see README).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { ZodIssue, ZodTypeAny, z } from 'zod';

export interface Reply {
	status: number;
	headers?: Record<string, string>;
	/** Serialised as JSON. */
	json?: unknown;
	/** Sent as is. */
	buffer?: Buffer;
	/** Piped (for big bodies); set `Content-Length` in headers when known. */
	stream?: Readable;
}

export interface Req {
	method: string;
	path: string;
	query: URLSearchParams;
	params: Record<string, string>;
	headers: IncomingHttpHeaders;
	/** `http://<Host header>`: the origin the client used, so links work behind any port. */
	origin: string;
	rawBody: Buffer;
	/** The parsed JSON body; `undefined` when the body is empty. Throws a 400 on malformed JSON. */
	json(): unknown;
}

/** The service's error identifiers that the sandbox uses (its error messages page). */
export type ErrorIdentifier =
	| 'BAD_VALUE'
	| 'MISSING_VALUE'
	| 'JSON_ERROR'
	| 'UNAUTHORIZED'
	| 'PERMISSIONS_ERROR'
	| 'METHOD_NOT_ALLOWED'
	| 'VALIDATION_ERROR'
	| 'TOO_MANY_REQUESTS'
	| 'INTERNAL_ERROR'
	/** A refusal of POST /api/v2/delete (the deletion page's example; not in the common list). */
	| 'PARTNER_ERROR';

/** The error body: `{identifier, message}`, plus `extra` fields when a route has more to say. */
export function errorBody(
	identifier: ErrorIdentifier,
	message: string,
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return { identifier, message, ...extra };
}

/** DRF's 404 body (see the module comment). */
export const notFoundBody = (detail = 'Not found.') => ({ detail });

/** The error body of a bare status (a fault rule without a body). */
export function statusErrorBody(status: number, message: string): Record<string, unknown> {
	if (status === 404) return notFoundBody(message);
	const byStatus: Partial<Record<number, ErrorIdentifier>> = {
		400: 'BAD_VALUE',
		401: 'UNAUTHORIZED',
		403: 'PERMISSIONS_ERROR',
		405: 'METHOD_NOT_ALLOWED',
		409: 'VALIDATION_ERROR',
		429: 'TOO_MANY_REQUESTS',
	};
	return errorBody(byStatus[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_VALUE'), message);
}

export class HttpError extends Error {
	constructor(
		public readonly status: number,
		public readonly body: unknown,
		public readonly headers: Record<string, string> = {},
	) {
		super(messageOf(body) ?? `HTTP ${status}`);
	}
}

/** The text of an error body: its `message` (or an admin body's `detail`). */
function messageOf(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const { message, detail } = body as { message?: unknown; detail?: unknown };
	if (typeof message === 'string') return message;
	return typeof detail === 'string' ? detail : undefined;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
	status,
	json: body,
	headers,
});

export const notFound = (detail = 'Not found.') => new HttpError(404, notFoundBody(detail));
/** A step the resource's state does not allow (the sandbox answers 409; the service does not say). */
export const conflict = (message: string) =>
	new HttpError(409, errorBody('VALIDATION_ERROR', message));

function sentence(text: string): string {
	return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** `Field 'country' must be ...`, as the service words a rejected field. */
function fieldMessage(field: string, rules: string[], missing: boolean): string {
	if (missing) return `Field '${field}' is required.`;
	const rule = rules.join(' ');
	if (field === ROOT) return sentence(rule);
	return sentence(/^[a-z]/.test(rule) ? `Field '${field}' ${rule}` : `Field '${field}': ${rule}`);
}

/** Where a rule about the body as a whole is filed. */
const ROOT = 'non_field_errors';

/**
 * A 400 naming the rejected fields in its message, as the service's standard error body does:
 * `{identifier, message}` (MISSING_VALUE when a field is absent, BAD_VALUE otherwise).
 */
export function validationFailed(
	errors: Record<string, string[]>,
	missingFields: string[] = [],
): HttpError {
	const message = Object.entries(errors)
		.map(([field, rules]) => fieldMessage(field, rules, missingFields.includes(field)))
		.join(' ');
	const identifier = missingFields.length > 0 ? 'MISSING_VALUE' : 'BAD_VALUE';
	return new HttpError(400, errorBody(identifier, message || 'Bad value.'));
}

/** The field an issue is about (dotted path; `rename` maps a field name). */
function fieldOf(issue: ZodIssue, rename: Record<string, string>): string {
	const raw = issue.path.join('.') || ROOT;
	return rename[raw] ?? raw;
}

export function parseOr400<S extends ZodTypeAny>(
	schema: S,
	value: unknown,
	rename: Record<string, string> = {},
): z.output<S> {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const errors: Record<string, string[]> = {};
	const missing: string[] = [];
	for (const issue of result.error.issues) {
		const field = fieldOf(issue, rename);
		(errors[field] ??= []).push(issue.message);
		if (issue.code === 'invalid_type' && issue.received === 'undefined') missing.push(field);
	}
	throw validationFailed(errors, missing);
}

/** The JSON body as an object (an absent body is `{}`); anything else is a 400. */
export function bodyObject(req: Req): Record<string, unknown> {
	const body = req.json();
	if (body === undefined) return {};
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw new HttpError(
			400,
			errorBody('JSON_ERROR', 'Invalid data: the body must be a JSON object.'),
		);
	}
	return body as Record<string, unknown>;
}
