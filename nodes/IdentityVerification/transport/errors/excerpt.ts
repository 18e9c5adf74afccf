/**
 * The bounded, redacted excerpt of an error answer that a message quotes and the error's details
 * keep: a service echoing an uploaded document must not put it whole into the execution data.
 */
import { isPlainObject } from '../../../shared/isPlainObject';
import { parseJsonBody } from '../body';
import type { Redactor } from './redact';
import { cut } from './wording';

/** What of an error answer's text is parsed: far more than any real error, far less than an upload. */
const ERROR_TEXT_LIMIT = 65_536;
/** A longer string in an error answer is data (e.g. an echoed document), not a message. */
const LONG_TEXT = 1000;
/** Lists and objects of an error answer keep this many entries, nested this deep. */
const MAX_ENTRIES = 100;
const MAX_DEPTH = 8;
/** The most of an error answer kept in the error's details, as JSON text. */
const EXCERPT_LIMIT = 4096;
/** What the details keep of an error answer too big to keep whole. */
const USEFUL_KEYS = ['detail', 'message', 'error', 'error_description', 'title', 'code', 'errors'];

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
export function excerptOf(body: unknown): unknown {
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
