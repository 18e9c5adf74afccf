/**
 * What an answer's body and headers become: a success body in the kind the caller asked for, read
 * whole from its stream where the caller does not read it itself, at most 64 KB of an error
 * answer's stream, and header names in lower case.
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

/** Bytes as UTF-8 text, without the byte order mark a service may put first. */
function decoded(body: unknown): unknown {
	if (!(body instanceof Uint8Array)) return body;
	const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
	return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
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

function isChunkStream(body: unknown): body is AsyncIterable<Uint8Array | string> {
	return typeof (body as AsyncIterable<unknown> | undefined)?.[Symbol.asyncIterator] === 'function';
}

/** A chunk as a Buffer, without copying its bytes. */
function bufferOf(chunk: Uint8Array | string): Buffer {
	if (typeof chunk === 'string') return Buffer.from(chunk);
	return Buffer.isBuffer(chunk)
		? chunk
		: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** A body read whole from its stream, as bytes; a body that is no stream is returned as it is. */
export async function readWhole(body: unknown): Promise<unknown> {
	if (!isChunkStream(body)) return body;
	const chunks: Buffer[] = [];
	for await (const chunk of body) chunks.push(bufferOf(chunk));
	return Buffer.concat(chunks);
}

/**
 * An error answer's stream as bytes, for the error message: what was read before it broke off or
 * timed out, at most `limit` bytes (the rest is dropped). A body that is no stream is as it is.
 */
export async function readCapped(body: unknown, limit = STREAM_READ_LIMIT): Promise<unknown> {
	if (!isChunkStream(body)) return body;
	const stream = body as AsyncIterable<Uint8Array | string> & { destroy?: () => void };
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const piece of stream) {
			const chunk = bufferOf(piece);
			chunks.push(chunk);
			size += chunk.length;
			if (size >= limit) break;
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
