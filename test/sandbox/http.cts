/** Small HTTP building blocks shared by the routes: replies, DRF-style errors, body validation. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { ZodError, ZodTypeAny, z } from 'zod';

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

export class HttpError extends Error {
	constructor(
		public readonly status: number,
		public readonly body: unknown,
		public readonly headers: Record<string, string> = {},
	) {
		super(
			typeof body === 'object' && body && 'detail' in body
				? String((body as { detail: unknown }).detail)
				: `HTTP ${status}`,
		);
	}
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
	status,
	json: body,
	headers,
});

export const notFound = (detail = 'Not found.') =>
	new HttpError(404, { detail, code: 'not_found' });
export const conflict = (detail: string) => new HttpError(409, { detail, code: 'conflict' });
export const validationFailed = (errors: Record<string, string[]>) =>
	new HttpError(400, { detail: 'Validation failed.', errors });

/** Zod issues as DRF-style `{ field: [rule, ...] }` (dotted paths; `rename` maps a field name). */
function zodErrors(error: ZodError, rename: Record<string, string> = {}): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	for (const issue of error.issues) {
		const raw = issue.path.join('.') || 'non_field_errors';
		const key = rename[raw] ?? raw;
		(errors[key] ??= []).push(issue.message);
	}
	return errors;
}

export function parseOr400<S extends ZodTypeAny>(
	schema: S,
	value: unknown,
	rename?: Record<string, string>,
): z.output<S> {
	const result = schema.safeParse(value);
	if (!result.success) throw validationFailed(zodErrors(result.error, rename));
	return result.data;
}

/** The JSON body as an object (an absent body is `{}`); anything else is a 400. */
export function bodyObject(req: Req): Record<string, unknown> {
	const body = req.json();
	if (body === undefined) return {};
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw validationFailed({
			non_field_errors: ['Invalid data. Expected a dictionary (JSON object).'],
		});
	}
	return body as Record<string, unknown>;
}
