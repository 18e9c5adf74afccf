/**
 * Reading an answer: its headers, its body in the kind the caller asked for, and how long both may
 * take. n8n's timeout ends with the headers: a service that sends part of a body and then nothing,
 * or a byte now and then, would hold the execution for ever. So every body is read under a
 * watchdog (the read deadline): when nothing has arrived for `idleMs`, or the body is not whole
 * after `totalMs`, or it grows past `maxBytes` (limits.ts), its stream is destroyed and whoever
 * reads it (the transport, or the request's own reader: a list's page, a file's download) gets the
 * error `stalled` makes.
 */
import { sleep } from 'n8n-workflow';

import { JsonTooDeepError, MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/jsonDepth';
import { ERROR_BODY_BYTES } from './limits';
import type { ReadLimits } from './limits';
import type { Stall } from './types';

/**
 * The longest single wait of the watchdog. n8n's sleep ends at once when the read ends; where it
 * cannot be ended (n8n 1.x), a finished read leaves a wait of at most this behind.
 */
const WATCH_STEP_MS = 1000;

/** Makes the error a body read ends with when a bound is passed (`limit`: the ms or bytes passed). */
export type Stalled = (stall: Stall, limit: number) => Error;

/**
 * A 2xx answer's body read whole under the read deadline: a Buffer for `binary`, else JSON. JSON
 * nested deeper than MAX_JSON_DEPTH ends the read like a bound passed, and is not asked for again
 * (the answer would be the same).
 */
export async function readWholeBody(
	body: unknown,
	kind: 'json' | 'binary',
	limits: ReadLimits,
	stalled: Stalled,
): Promise<unknown> {
	const read = await readWhole(watchedChunks(body, limits, stalled));
	if (kind === 'binary') return toBuffer(read);
	const value = parseJsonBody(read);
	if (nestedDeeperThan(value, MAX_JSON_DEPTH)) throw stalled('depth', MAX_JSON_DEPTH);
	return value;
}

/** What an error answer longer than ERROR_BODY_BYTES is read as: nothing of it is quoted. */
export const TOO_LONG = Symbol('error answer too long');

/**
 * What is read of an error answer, for its message: its first 64 KB (ERROR_BODY_BYTES), as bytes
 * (errors.ts parses them, once). An answer longer than that is TOO_LONG and not quoted at all: the
 * start of a document the service echoed is no message, and the status says what happened.
 */
export async function readErrorBody(
	body: unknown,
	limits: ReadLimits,
	stalled: Stalled,
): Promise<unknown> {
	const read = await readCapped(watchedChunks(body, limits, stalled), ERROR_BODY_BYTES);
	discardStream(body);
	return read.complete ? read.body : TOO_LONG;
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

// JSON and bytes.

/**
 * A body that came whole, as JSON: bytes decoded, JSON text parsed, `null` when empty. Throws
 * JsonTooDeepError when it is nested deeper than MAX_JSON_DEPTH.
 */
export function readJsonBody(body: unknown): { ok: true; value: unknown } | { ok: false } {
	const read = jsonOf(decoded(body));
	if (read.ok && nestedDeeperThan(read.value, MAX_JSON_DEPTH)) throw new JsonTooDeepError();
	return read;
}

/**
 * A body as JSON: bytes decoded, JSON text parsed, other text kept as it is; `null` when empty. Any
 * depth: an error answer is cut to a few levels before it is kept (errors.ts).
 */
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

/** Anything that can be read chunk by chunk (a Node stream of the answer). */
export function isChunkStream(body: unknown): body is AsyncIterable<Uint8Array | string> {
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
async function readWhole(body: unknown): Promise<unknown> {
	if (!isChunkStream(body)) return body;
	const chunks: Buffer[] = [];
	for await (const chunk of body) chunks.push(bufferOf(chunk));
	return Buffer.concat(chunks);
}

/**
 * An error answer's stream as bytes, for the error message: what was read before it broke off or
 * timed out, and whether that is all of it (false at `limit` bytes: the rest is not read). A body
 * that is no stream is as it is.
 */
async function readCapped(
	body: unknown,
	limit: number,
): Promise<{ body: unknown; complete: boolean }> {
	if (!isChunkStream(body)) return { body, complete: true };
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const piece of body) {
			const chunk = bufferOf(piece);
			chunks.push(chunk);
			size += chunk.length;
			if (size >= limit) return { body: undefined, complete: false };
		}
	} catch {
		// broken off (dropped, or the execution stopped): the status still says what happened
	}
	return { body: Buffer.concat(chunks), complete: true };
}

// The read deadline: a watchdog per body, which ends with the read, and the body's size bound.

/** The answer's stream as n8n hands it over: a Node.js Readable. */
interface SourceStream extends AsyncIterable<Uint8Array> {
	map(fn: (chunk: Uint8Array) => Uint8Array): SourceStream;
	on(event: 'error', listener: () => void): unknown;
	emit(event: 'error', error: Error): boolean;
	once(event: 'close', listener: () => void): unknown;
	destroy(error?: Error): unknown;
	readonly destroyed: boolean;
}

/** One body being read: its stream(s), when it started, what has arrived, whether it is over. */
interface Watch {
	source: SourceStream;
	/** The copy handed to a reader, when there is one. */
	watched?: SourceStream;
	limits: ReadLimits;
	startedAt: number;
	lastBytesAt: number;
	bytes: number;
	/** The error the read ended with when a bound was passed. */
	failure?: Error;
	over: AbortController;
	stalled: Stalled;
}

function isSourceStream(body: unknown): body is SourceStream {
	const stream = body as Partial<SourceStream> | undefined;
	return (
		typeof stream?.map === 'function' &&
		typeof stream.destroy === 'function' &&
		typeof stream[Symbol.asyncIterator] === 'function'
	);
}

const ignore = () => undefined;

/** Starts the watchdog of `source`. */
function startWatch(source: SourceStream, limits: ReadLimits, stalled: Stalled): Watch {
	const now = Date.now();
	const over = new AbortController();
	const watch: Watch = {
		source,
		limits,
		startedAt: now,
		lastBytesAt: now,
		bytes: 0,
		over,
		stalled,
	};
	// A failed answer's error reaches the reader through its next read: this keeps it from
	// crashing n8n while nobody happens to be listening.
	source.on('error', ignore);
	void watchdog(watch);
	return watch;
}

/** A chunk arrived: the idle deadline starts again, and the body may not grow past its bound. */
function arrived(watch: Watch, chunk: Uint8Array): void {
	watch.lastBytesAt = Date.now();
	watch.bytes += chunk.byteLength;
	if (watch.bytes > watch.limits.maxBytes) stop(watch, 'size', watch.limits.maxBytes);
	if (watch.failure) throw watch.failure;
}

/**
 * The chunks of `body` as they arrive, for the transport to read itself: the reading ends with
 * the error `stalled` makes when a bound is passed. A body that is no stream is as it is.
 */
function watchedChunks(body: unknown, limits: ReadLimits, stalled: Stalled): unknown {
	if (!isSourceStream(body)) return body;
	return chunksOf(startWatch(body, limits, stalled));
}

async function* chunksOf(watch: Watch): AsyncGenerator<Uint8Array> {
	try {
		for await (const chunk of watch.source) {
			arrived(watch, chunk);
			yield chunk;
		}
	} finally {
		watch.over.abort();
	}
}

/**
 * A watched copy of `body` to hand to a reader (the same bytes, in chunks as they arrived): its
 * reading ends with the error `stalled` makes when a bound is passed. A body that is no stream is
 * as it is.
 */
export function watchedBody(body: unknown, limits: ReadLimits, stalled: Stalled): unknown {
	if (!isSourceStream(body)) return body;
	const watch = startWatch(body, limits, stalled);
	const watched = body.map((chunk) => {
		arrived(watch, chunk);
		return chunk;
	});
	watch.watched = watched;
	watched.on('error', ignore);
	watched.once('close', () => {
		body.destroy();
		watch.over.abort();
	});
	return watched;
}

/**
 * Waits for the next deadline, again and again, until the read is over or a deadline passes. A
 * file's deadline moves on with every byte that arrives (ReadLimits.msPerByte).
 */
async function watchdog(watch: Watch): Promise<void> {
	const { over, limits } = watch;
	while (!over.signal.aborted) {
		// A reader that let go of its copy: the copy closes only once the source gives up waiting.
		if (watch.watched?.destroyed) return release(watch.source, new Error('Not read to its end'));
		const now = Date.now();
		const idleLeft = watch.lastBytesAt + limits.idleMs - now;
		const totalLeft = watch.startedAt + limits.totalMs + watch.bytes * limits.msPerByte - now;
		if (totalLeft <= 0)
			return stop(watch, 'total', Math.round(limits.totalMs + watch.bytes * limits.msPerByte));
		if (idleLeft <= 0) return stop(watch, 'idle', limits.idleMs);
		await sleep(Math.min(idleLeft, totalLeft, WATCH_STEP_MS), over.signal).catch(ignore);
	}
}

/** The reader gets the error, and the source is let go. */
function stop(watch: Watch, stall: Stall, limit: number): void {
	if (watch.failure) return;
	const error = watch.stalled(stall, limit);
	watch.failure = error;
	watch.over.abort();
	watch.watched?.destroy(error);
	release(watch.source, error);
}

/**
 * Destroys the source and ends its pending read with `error` now. Where the source is the
 * connection's own stream, that closes the connection; n8n 2.x hands over a copy that ends a
 * pending read only once the read it waits for returns (never, from a stalled service), so the
 * error is given to the reader as axios does on abort, and the connection is closed when the
 * service closes it.
 */
function release(source: SourceStream, error: Error): void {
	source.destroy(error);
	source.emit('error', error);
}
