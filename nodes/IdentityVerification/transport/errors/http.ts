/**
 * Errors a user can act on. Every error is built from plain, sanitised values: never from n8n's or
 * axios' error objects (they carry the request options, incl. the Authorization header and the
 * `auth` username/password), so nothing secret can reach the UI, logs or `cause`.
 */
import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import type { ApiMethod, AuthMode } from './types';
import { isPlainObject } from '../../shared/isPlainObject';

export const CREDENTIAL_DISPLAY_NAME: Record<AuthMode, string> = {
	apiKey: 'Identity Verification API',
	kybFormToken: 'Identity Verification KYB Form Token API',
};

const DASHBOARD_KEYS_HINT = 'the dashboard (Settings → API Keys → Generate)';

/** Replaces every secret in a text. */
export type Redactor = (text: string) => string;

export function makeRedactor(secrets: string[]): Redactor {
	// Longest first: a key that is part of the secret must not leave the rest of the secret behind.
	const values = secrets
		.filter((s) => typeof s === 'string' && s.length >= 4)
		.sort((a, b) => b.length - a.length);
	return (text: string) => {
		let result = text;
		for (const secret of values) result = result.split(secret).join('[redacted]');
		return result;
	};
}

/** Origin and path of a URL (relative to `base`) for a message: no query, no user info. */
export function shownUrl(url: string, base?: string): string {
	try {
		const parsed = new URL(url, base);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return 'an invalid address';
	}
}

/** A body as JSON: bytes decoded, JSON text parsed, other text kept as it is; `null` when empty. */
export function parseJsonBody(body: unknown): unknown {
	if (body instanceof Uint8Array) body = Buffer.from(body).toString('utf8');
	if (typeof body === 'string') {
		if (body.trim() === '') return null;
		try {
			return JSON.parse(body) as unknown;
		} catch {
			return body;
		}
	}
	return body ?? null;
}

/** What of an error answer's text is parsed: far more than any real error, far less than an upload. */
const ERROR_TEXT_LIMIT = 65_536;
/** A longer string in an error answer is data (e.g. an echoed document), not a message. */
const LONG_TEXT = 1000;
/** Lists and objects of an error answer keep this many entries, nested this deep. */
const MAX_ENTRIES = 100;
const MAX_DEPTH = 8;
/** The most of an error answer kept in the error's details, as JSON text. */
const EXCERPT_LIMIT = 4096;
/** The most of the service's words (or of its field rules) quoted in a message. */
const QUOTE_LIMIT = 500;
/** What the details keep of an error answer too big to keep whole. */
const USEFUL_KEYS = ['detail', 'message', 'error', 'error_description', 'title', 'code', 'errors'];

function cut(text: string, limit: number): string {
	return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** The start of an error answer's text or bytes: a huge answer is not decoded and parsed whole. */
function headOf(raw: unknown): unknown {
	if (raw instanceof Uint8Array && raw.byteLength > ERROR_TEXT_LIMIT) {
		return raw.subarray(0, ERROR_TEXT_LIMIT);
	}
	if (typeof raw === 'string' && raw.length > ERROR_TEXT_LIMIT)
		return raw.slice(0, ERROR_TEXT_LIMIT);
	return raw;
}

/**
 * An error body as JSON, or its text trimmed, redacted and cut at 300 characters (redacted first,
 * so a cut cannot leave part of a secret); undefined when empty. Only its first 64 KB are read.
 */
export function parseErrorBody(raw: unknown, redact: Redactor = (text) => text): unknown {
	const body = parseJsonBody(headOf(raw));
	if (typeof body !== 'string') return body ?? undefined;
	return cut(redact(body.trim()), 300);
}

/**
 * The service's rules about a field named `file` ("Upload a valid image."), as opposed to an echoed
 * document: encoded data has no spaces.
 */
function isRuleText(value: unknown): boolean {
	const texts = Array.isArray(value) ? value : [value];
	return (
		texts.length > 0 &&
		texts.every((text) => typeof text === 'string' && text.length <= 300 && text.includes(' '))
	);
}

/**
 * A copy of an error answer fit to show and keep: every text redacted, an echoed document (`file`,
 * at any depth) and long strings left out, lists and objects bounded in size and depth.
 */
export function prunedErrorBody(value: unknown, redact: Redactor, depth = 0): unknown {
	if (typeof value === 'string') {
		return value.length > LONG_TEXT
			? `[long text left out: ${value.length} characters]`
			: redact(value);
	}
	if (Array.isArray(value)) {
		if (depth >= MAX_DEPTH) return '[…]';
		return value.slice(0, MAX_ENTRIES).map((inner) => prunedErrorBody(inner, redact, depth + 1));
	}
	if (!isPlainObject(value)) return value;
	if (depth >= MAX_DEPTH) return '[…]';
	const result: Record<string, unknown> = {};
	for (const [key, inner] of Object.entries(value).slice(0, MAX_ENTRIES)) {
		if (key === 'file' && !isRuleText(inner)) continue;
		result[redact(key)] = prunedErrorBody(inner, redact, depth + 1);
	}
	return result;
}

/**
 * What the error's details keep of a pruned answer: all of it when small, else its useful keys
 * (detail, message, errors...), else the start of its JSON text.
 */
function excerptOf(body: unknown): unknown {
	const text = JSON.stringify(body);
	if (text === undefined || text.length <= EXCERPT_LIMIT) return body;
	if (isPlainObject(body)) {
		const useful = Object.fromEntries(
			USEFUL_KEYS.filter((key) => key in body).map((key) => [key, body[key]]),
		);
		if (JSON.stringify(useful).length <= EXCERPT_LIMIT) return useful;
	}
	// half the limit: quotes in the text are escaped once more when the details are stored
	return { excerpt: cut(text, EXCERPT_LIMIT / 2 - 64) };
}

/** The service's own words: `detail` / `message` / `error` of the body. */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.startsWith('<') ? undefined : body;
	if (!isPlainObject(body)) return undefined;
	for (const key of ['detail', 'message', 'error', 'error_description', 'title']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
		if (isPlainObject(value) && typeof value.message === 'string') return value.message;
	}
	return undefined;
}

function flattenFieldErrors(value: unknown, prefix: string, out: string[]): void {
	if (typeof value === 'string') {
		out.push(`${prefix}: ${value}`);
	} else if (Array.isArray(value)) {
		const texts = value.filter((v) => typeof v === 'string') as string[];
		if (texts.length) out.push(`${prefix}: ${texts.join(' ')}`);
		value.forEach((v, i) => {
			if (typeof v !== 'string') flattenFieldErrors(v, `${prefix}[${i}]`, out);
		});
	} else if (isPlainObject(value)) {
		for (const [key, inner] of Object.entries(value)) {
			flattenFieldErrors(inner, prefix ? `${prefix}.${key}` : key, out);
		}
	}
}

/**
 * Field problems named by a 400 body: `{"errors": {"field": ["rule"]}}` or DRF's top-level
 * `{"field": ["rule"]}`. Returns e.g. `["lifetime: Ensure this value is less than or equal to 2592000."]`.
 */
export function fieldErrors(body: unknown): string[] {
	if (!isPlainObject(body)) return [];
	const out: string[] = [];
	if (isPlainObject(body.errors)) {
		flattenFieldErrors(body.errors, '', out);
	} else {
		const fields: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(body)) {
			if (['detail', 'message', 'code', 'status', 'error', 'errors'].includes(key)) continue;
			if (Array.isArray(value) || isPlainObject(value)) fields[key] = value;
		}
		flattenFieldErrors(fields, '', out);
	}
	return out;
}

interface HttpFailure {
	status: number;
	body: unknown;
	method: ApiMethod;
	attempts: number;
	auth: AuthMode;
	itemIndex?: number;
}

function build(
	node: INode,
	redact: Redactor,
	message: string,
	description: string,
	httpCode: string | undefined,
	itemIndex: number | undefined,
	data?: unknown,
): NodeApiError {
	const safeMessage = redact(message);
	const safeDescription = redact(description);
	const errorResponse: JsonObject = { message: safeMessage };
	if (httpCode) errorResponse.httpCode = httpCode;
	const error = new NodeApiError(node, errorResponse, {
		message: safeMessage,
		description: safeDescription,
		httpCode,
		itemIndex,
	});
	// NodeApiError may swap a message containing a network error code for a generic text
	error.message = safeMessage;
	error.description = safeDescription;
	if (data !== undefined) {
		try {
			error.context.data = JSON.parse(redact(JSON.stringify(data))) as JsonObject;
		} catch {
			// the body could not be represented as JSON: leave it out
		}
	}
	return error;
}

function quoted(text: string | undefined): string {
	return text ? `The service said: "${text}". ` : '';
}

/** An HTTP answer that is not 2xx, after the retries the transport was allowed to make. */
export function httpError(node: INode, redact: Redactor, failure: HttpFailure): NodeApiError {
	const { status, method, attempts, auth, itemIndex } = failure;
	const body = prunedErrorBody(parseErrorBody(failure.body, redact), redact);
	const serviceSaid = serviceMessage(body);
	const said = serviceSaid && cut(serviceSaid, QUOTE_LIMIT);
	const credential = `"${CREDENTIAL_DISPLAY_NAME[auth]}"`;
	const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
	let message: string;
	let description: string;

	if (status === 400 || status === 422) {
		const fields = cut(fieldErrors(body).join('; '), QUOTE_LIMIT);
		message = fields
			? `The service rejected the request (HTTP ${status}): ${fields}`
			: `The service rejected the request (HTTP ${status})`;
		description =
			quoted(said) +
			(fields
				? `Fix these fields in the node and run again: ${fields}.`
				: 'Check the values entered in the node and run again.');
	} else if (status === 401) {
		if (auth === 'apiKey') {
			message = `The service did not accept the API key and API secret (HTTP 401)`;
			description =
				quoted(said) +
				`Open the credential ${credential} and paste the API Key and API Secret again from ${DASHBOARD_KEYS_HINT}. Sandbox and production keys are different; check the key has not been deleted.`;
		} else {
			message = `The service did not accept the KYB form token (HTTP 401)`;
			description =
				quoted(said) +
				`The token in the credential ${credential} is wrong or has expired: generate a new KYB form token and paste its tokenString, or use the Identity Verification API credential instead.`;
		}
	} else if (status === 403) {
		message = `The service refused access to this resource (HTTP 403)`;
		description =
			quoted(said) +
			(auth === 'apiKey'
				? `The API key was recognised but is not allowed to do this. Check the key's permissions in ${DASHBOARD_KEYS_HINT}, or ask the provider's support to enable this product for your account.`
				: 'A KYB form token only works for the form it was generated for: check the Company ID / Form ID, or use the Identity Verification API credential.');
	} else if (status === 404) {
		message = `Not found (HTTP 404): the service has nothing with the ID(s) given`;
		description =
			quoted(said) +
			'Check the IDs entered in the node (they must belong to the account of this credential: sandbox and production keys see different data). Also check that the Base URL in the credential has no extra path such as /api/v2.';
	} else if (status === 429) {
		message = `The service is rate limiting requests (HTTP 429) and still refused after ${tries}`;
		description =
			quoted(said) +
			'Wait a minute and run again, or send fewer requests at once (for example process items in smaller batches with a Wait node in between).';
	} else if (status >= 500) {
		if (method === 'POST') {
			message = `The service had an internal problem (HTTP ${status})`;
			description =
				quoted(said) +
				'The request was sent once and not repeated, because the service may already have processed it. Check in the dashboard whether it went through before running again.';
		} else {
			message = `The service had an internal problem (HTTP ${status}) on all ${tries}`;
			description =
				quoted(said) +
				'This is on the service side. Try again later; if it keeps happening, contact the provider’s support with the time of this run.';
		}
	} else {
		message = `The service rejected the request (HTTP ${status})`;
		description =
			quoted(said) + 'Check the values entered in the node and the Base URL of the credential.';
	}
	return build(
		node,
		redact,
		message,
		description.trim(),
		String(status),
		itemIndex,
		excerptOf(body),
	);
}

/**
 * A 3xx answer. It is never followed: n8n's request helper would send the credential, and a POST's
 * body, to wherever it points. `target` is the shown Location (origin and path), if any.
 */
export function redirectError(
	node: INode,
	redact: Redactor,
	failure: { status: number; target?: string; auth: AuthMode; itemIndex?: number },
): NodeApiError {
	const { status, target, auth, itemIndex } = failure;
	const where = target
		? `to ${target}; redirects are not followed, so the credential and the request were not sent there`
		: 'without an address; redirects are not followed';
	return build(
		node,
		redact,
		`The service answered with a redirect (HTTP ${status}) ${where}`,
		`Check the Base URL in the credential "${CREDENTIAL_DISPLAY_NAME[auth]}": use the address the service itself gives (https, the right host and path), not one that forwards elsewhere.`,
		String(status),
		itemIndex,
	);
}

/** The execution was stopped while a request was under way or waiting to be retried. */
export function cancelledError(node: INode, redact: Redactor, itemIndex?: number): NodeApiError {
	return build(
		node,
		redact,
		'The execution was stopped, so the request to the service was cancelled',
		'Nothing is wrong with the credential or the service. A request that had already reached the service (e.g. one creating something) may still have been processed: check in the dashboard before running again.',
		undefined,
		itemIndex,
	);
}

export type NetworkProblem = 'refused' | 'dns' | 'timeout' | 'reset' | 'tls' | 'other';

/** Classifies a failure without a response by the Node.js / axios error code found on the chain. */
export function classifyNetworkError(
	error: unknown,
): { problem: NetworkProblem; code?: string } | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (typeof current === 'object' && current !== null && !seen.has(current)) {
		seen.add(current);
		const record = current as Record<string, unknown>;
		const code = typeof record.code === 'string' ? record.code : undefined;
		const message = typeof record.message === 'string' ? record.message : '';
		if (code === 'ECONNREFUSED') return { problem: 'refused', code };
		if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { problem: 'dns', code };
		if (
			code === 'ECONNABORTED' ||
			code === 'ETIMEDOUT' ||
			/timeout of \d+ms exceeded/i.test(message)
		)
			return { problem: 'timeout', code };
		if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(message))
			return { problem: 'reset', code };
		if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN')
			return { problem: 'refused', code };
		if (code && /CERT|SSL|TLS/i.test(code)) return { problem: 'tls', code };
		if (code === 'ERR_NETWORK' || code === 'ERR_BAD_RESPONSE') return { problem: 'other', code };
		current = record.cause;
	}
	return undefined;
}

function formatDuration(ms: number): string {
	if (ms < 1000) return `${ms} ms`;
	const seconds = Math.round(ms / 100) / 10;
	return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** No answer at all (refused, unknown host, timeout, dropped connection), after any retries. */
export function networkError(
	node: INode,
	redact: Redactor,
	failure: {
		problem: NetworkProblem;
		code?: string;
		origin: string;
		method: ApiMethod;
		attempts: number;
		timeoutMs: number;
		itemIndex?: number;
	},
): NodeApiError {
	const { problem, origin, method, attempts, timeoutMs, itemIndex } = failure;
	const tries = attempts === 1 ? '' : ` after ${attempts} attempts`;
	const notRepeated =
		method === 'POST' && (problem === 'timeout' || problem === 'reset' || problem === 'other')
			? ' The request was not repeated, because the service may already have processed it: check in the dashboard whether it went through before running again.'
			: '';
	let message: string;
	let description: string;
	switch (problem) {
		case 'refused':
			message = `Could not connect to the service at ${origin}${tries}`;
			description =
				'Nothing accepted the connection. Check the Base URL in the credential (host name and port) and that the service is reachable from n8n.';
			break;
		case 'dns':
			message = `The host of the Base URL could not be found (${origin})${tries}`;
			description =
				'Check the spelling of the Base URL in the credential, e.g. https://ivs.example.com.';
			break;
		case 'timeout':
			message = `The service did not answer within ${formatDuration(timeoutMs)}${tries}`;
			description =
				'The service may be slow or unreachable right now. Try again later.' + notRepeated;
			break;
		case 'reset':
			message = `The connection to the service was closed before it answered${tries}`;
			description =
				'The service or a proxy in between dropped the connection. Try again later.' + notRepeated;
			break;
		case 'tls':
			message = `The secure connection to ${origin} could not be established`;
			description =
				'The server’s HTTPS certificate was not accepted. Check that the Base URL is the service’s real address.';
			break;
		default:
			message = `The request to the service at ${origin} failed without an answer${tries}`;
			description = 'Check the Base URL in the credential and try again later.' + notRepeated;
	}
	if (failure.code) description += ` (network code: ${failure.code})`;
	return build(node, redact, message, description, undefined, itemIndex);
}

/** Anything else that went wrong while sending (kept short, redacted, without the original object). */
export function unexpectedError(
	node: INode,
	redact: Redactor,
	error: unknown,
	itemIndex?: number,
): NodeApiError {
	const text = redact(error instanceof Error ? error.message : String(error));
	return build(
		node,
		redact,
		`The request to the service could not be sent: ${cut(text, QUOTE_LIMIT)}`,
		'Check the credential (Base URL, key) and the values entered in the node.',
		undefined,
		itemIndex,
	);
}
