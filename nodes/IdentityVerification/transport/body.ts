/**
 * What an answer's body and headers become: a success body in the kind the caller asked for, at
 * most 64 KB of an error answer's stream, and header names in lower case.
 */
import type { ResponseKind } from './types';

/** What of an error answer's stream is read: enough for any error message. */
const STREAM_READ_LIMIT = 65536;

/** A body that came whole, as JSON: bytes decoded, JSON text parsed, `null` when empty. */
export function readJsonBody(body: unknown): { ok: true; value: unknown } | { ok: false } {
	return jsonOf(decoded(body));
}

/** A body as JSON: bytes decoded, JSON text parsed, other text kept as it is; `null` when empty. */
export function parseJsonBody(body: unknown): unknown {
	const text = decoded(body);
	const read = jsonOf(text);
	return read.ok ? read.value : text;
}

function decoded(body: unknown): unknown {
	return body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : body;
}

/**
 * A decoded body read as JSON (text parsed once; anything else as it is). A byte order mark before
 * the JSON is left out, as the streamed reader and the webhook delivery leave it out.
 */
function jsonOf(text: unknown): { ok: true; value: unknown } | { ok: false } {
	if (typeof text !== 'string') return { ok: true, value: text ?? null };
	if (text.trim() === '') return { ok: true, value: null };
	try {
		return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
	} catch {
		return { ok: false };
	}
}

/** The bytes of a binary answer, without copying them (a Buffer is a Uint8Array too). */
function toBuffer(body: unknown): Buffer {
	if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (typeof body === 'string') return Buffer.from(body);
	return Buffer.alloc(0);
}

/** A 2xx answer's body as the caller asked for it. */
export function successBody(kind: ResponseKind, body: unknown): unknown {
	switch (kind) {
		case 'stream':
			return body;
		case 'binary':
			return toBuffer(body);
		case 'none':
			return undefined;
		default:
			return parseJsonBody(body);
	}
}

/**
 * Reads at most 64 KB of an error answer's stream (for the error message) and drops the rest; what
 * was read before the stream broke off.
 */
export async function readCapped(body: unknown): Promise<Buffer> {
	const stream = body as AsyncIterable<Buffer> & { destroy?: () => void };
	if (!stream || typeof stream[Symbol.asyncIterator] !== 'function') return Buffer.alloc(0);
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of stream) {
			chunks.push(chunk);
			size += chunk.length;
			if (size >= STREAM_READ_LIMIT) break;
		}
	} catch {
		// broken off (dropped, or the execution stopped): the status still says what happened
	}
	stream.destroy?.();
	return Buffer.concat(chunks);
}

/** Closes a streamed body nobody will read (e.g. of a redirect), so its connection is let go. */
export function discardStream(body: unknown): void {
	(body as { destroy?: () => void } | undefined)?.destroy?.();
}

/** Headers with lower-case names and one text value each (a list joined as HTTP does). */
export function normaliseHeaders(headers: unknown): Record<string, string> {
	const result: Record<string, string> = {};
	if (typeof headers !== 'object' || headers === null) return result;
	for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
		if (value === undefined || value === null || typeof value === 'function') continue;
		result[name.toLowerCase()] = Array.isArray(value)
			? value.map(String).join(', ')
			: String(value);
	}
	return result;
}
