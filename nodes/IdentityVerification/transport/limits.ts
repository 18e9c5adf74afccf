/**
 * Every bound on an answer of the service (docs/service-interface.md, "Bounds"), and reading an
 * answer under them. n8n's timeout ends with the headers, so a service that sends part of a body and
 * then nothing, or a byte now and then, would hold the execution for ever: every body is read under
 * a watchdog that destroys its stream when nothing arrived for `idleMs`, the body is not whole
 * after `totalMs`, or it grows past `maxBytes`. The user sets the Timeout (Request Options) and,
 * for files, Max File Size; a run of the node gets RUN_BUDGET_TIMEOUTS Timeouts in all.
 */
import { sleep } from 'n8n-workflow';
import type { INodeProperties } from 'n8n-workflow';

import { JsonTooDeepError, MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/jsonDepth';
import type { RequestContext, ResponseKind, Stall } from './types';

/** How long an answer's headers may take, per attempt. */
export const HEADERS_TIMEOUT_MS = 30_000;
const READ_IDLE_MS = 30_000;
const DEFAULT_TIMEOUT_SECONDS = 120;
/** A file gets one more second for every this many bytes (a 10 MB photo: 2 min 40 s more). */
const FILE_MIN_BYTES_PER_SECOND = 64 * 1024;
/** The largest JSON answer read (far more than any page or result of the service). */
export const MAX_JSON_BYTES = 32 * 1024 * 1024;
/** What is read of an error answer: enough for any message. */
export const ERROR_BODY_BYTES = 64 * 1024;
export const DEFAULT_MAX_FILE_MB = 100;
/** The most pages one list read takes (a service that keeps sending `next`, or a huge `count`). */
export const MAX_PAGES = 2000;
/** How long one run of the node (all its items) may take, in Timeouts: attempts, pages and files multiply the bounds above. */
export const RUN_BUDGET_TIMEOUTS = 10;
/** The watchdog's longest wait: where n8n's sleep cannot be ended (1.x), what a finished read leaves behind. */
const WATCH_STEP_MS = 1000;

/** When each run of a node sent its first request: n8n gives each run one context, for all items. */
const runStarts = new WeakMap<object, number>();

/** What reading one answer's body may take. `msPerByte`: time added per byte (a file's minimum rate). */
export interface ReadLimits {
	idleMs: number;
	totalMs: number;
	maxBytes: number;
	msPerByte: number;
}

/** The node's Request Options, shown under every operation that calls the service. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			default: DEFAULT_TIMEOUT_SECONDS,
			typeOptions: { minValue: 1 },
			description: `How long one answer of the service may take, from its first to its last byte (${DEFAULT_TIMEOUT_SECONDS} seconds unless set). A file download gets one more second for every 64 KB it has. An answer that stops for 30 seconds ends sooner. A run of the node, all its items, may take ${RUN_BUDGET_TIMEOUTS} times this: after that no request is tried again and no further page or file is read.`,
		},
	],
};

/** The item's Timeout in ms; the default where there is no item (loading options). */
function timeoutMsOf(context: RequestContext, itemIndex: number | undefined): number {
	if (itemIndex === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
	const seconds = Number(context.getNodeParameter('requestOptions.timeout', itemIndex, 0));
	return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_TIMEOUT_SECONDS * 1000;
}

/** The limits of one answer: the request's own where it sets them, else the node's and these. */
export function readLimitsOf(
	context: RequestContext,
	req: { itemIndex?: number; readIdleMs?: number; readTotalMs?: number; maxBytes?: number },
	kind: ResponseKind,
): ReadLimits {
	const file = kind === 'binary';
	return {
		idleMs: req.readIdleMs ?? READ_IDLE_MS,
		totalMs: req.readTotalMs ?? timeoutMsOf(context, req.itemIndex),
		maxBytes: req.maxBytes ?? (file ? DEFAULT_MAX_FILE_MB * 1024 * 1024 : MAX_JSON_BYTES),
		msPerByte: file ? 1000 / FILE_MIN_BYTES_PER_SECOND : 0,
	};
}

/** How long the headers may take: 30 s, or the whole Timeout when that is shorter. */
export function headersTimeoutOf(limits: ReadLimits, own: number | undefined): number {
	return own ?? Math.min(HEADERS_TIMEOUT_MS, limits.totalMs);
}

/** A run's time budget, as it applies to one item: when it ends (ms since 1970) and how long it is. */
export interface RunBudget {
	endsAt: number;
	ms: number;
}

/** RUN_BUDGET_TIMEOUTS times the item's Timeout, from the run's first request. */
export function runBudgetOf(context: RequestContext, itemIndex: number | undefined): RunBudget {
	const startedAt = runStarts.get(context) ?? Date.now();
	runStarts.set(context, startedAt);
	const ms = RUN_BUDGET_TIMEOUTS * timeoutMsOf(context, itemIndex);
	return { endsAt: startedAt + ms, ms };
}

/** Whether the run's budget is spent, or would be after waiting `waitMs` more. */
export function isRunOver(budget: RunBudget, waitMs = 0): boolean {
	return Date.now() + waitMs >= budget.endsAt;
}

// Reading a body.

/** Makes the error a read ends with when a bound is passed (`limit`: the ms or bytes passed). */
export type Stalled = (stall: Stall, limit: number) => Error;

/**
 * A 2xx answer's body read whole under its bounds: a Buffer for `binary`, else JSON. JSON nested
 * deeper than MAX_JSON_DEPTH ends the read like a bound passed (the answer would be the same again).
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

async function readWhole(body: unknown): Promise<unknown> {
	if (!isChunkStream(body)) return body;
	const chunks: Buffer[] = [];
	for await (const chunk of body) chunks.push(bufferOf(chunk));
	return Buffer.concat(chunks);
}

/**
 * An error answer's bytes for its message, up to `limit` (`complete: false` there: the rest is not
 * read), or what came before it broke off: the status still says what happened.
 */
export async function readCapped(
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
		// broken off (dropped, or the execution stopped)
	}
	return { body: Buffer.concat(chunks), complete: true };
}

/** Closes a streamed body nobody will read, so its connection is let go. */
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

/** A body that came whole, as JSON (`null` when empty). Throws JsonTooDeepError past MAX_JSON_DEPTH. */
export function readJsonBody(body: unknown): { ok: true; value: unknown } | { ok: false } {
	const read = jsonOf(decoded(body));
	if (read.ok && nestedDeeperThan(read.value, MAX_JSON_DEPTH)) throw new JsonTooDeepError();
	return read;
}

/** A body as JSON, other text kept as it is; `null` when empty. Any depth (an error answer is pruned after). */
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

function jsonOf(text: unknown): { ok: true; value: unknown } | { ok: false } {
	if (typeof text !== 'string') return { ok: true, value: text ?? null };
	if (text.trim() === '') return { ok: true, value: null };
	try {
		return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
	} catch {
		return { ok: false };
	}
}

function toBuffer(body: unknown): Buffer {
	if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (typeof body === 'string') return Buffer.from(body);
	return Buffer.alloc(0);
}

export function isChunkStream(body: unknown): body is AsyncIterable<Uint8Array | string> {
	return typeof (body as AsyncIterable<unknown> | undefined)?.[Symbol.asyncIterator] === 'function';
}

function bufferOf(chunk: Uint8Array | string): Buffer {
	if (typeof chunk === 'string') return Buffer.from(chunk);
	return Buffer.isBuffer(chunk)
		? chunk
		: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

// The watchdog: one per body, ended with the read.

/** The answer's stream as n8n hands it over: a Node.js Readable. */
interface SourceStream extends AsyncIterable<Uint8Array> {
	map(fn: (chunk: Uint8Array) => Uint8Array): SourceStream;
	on(event: 'error', listener: () => void): unknown;
	emit(event: 'error', error: Error): boolean;
	once(event: 'close', listener: () => void): unknown;
	destroy(error?: Error): unknown;
	readonly destroyed: boolean;
}

interface Watch {
	source: SourceStream;
	/** The copy handed to a reader, when there is one. */
	watched?: SourceStream;
	limits: ReadLimits;
	startedAt: number;
	lastBytesAt: number;
	bytes: number;
	failure?: Error;
	over: AbortController;
	stalled: Stalled;
}

function isSourceStream(body: unknown): body is SourceStream {
	const stream = body as Partial<SourceStream> | undefined;
	return (
		typeof stream?.map === 'function' && typeof stream.destroy === 'function' && isChunkStream(body)
	);
}

const ignore = () => undefined;

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
function arrived(watch: Watch, chunk: Uint8Array): Uint8Array {
	watch.lastBytesAt = Date.now();
	watch.bytes += chunk.byteLength;
	if (watch.bytes > watch.limits.maxBytes) stop(watch, 'size', watch.limits.maxBytes);
	if (watch.failure) throw watch.failure;
	return chunk;
}

/**
 * The chunks of `body` for the transport to read itself, under its bounds: pulled one by one, so
 * nothing past a cap is read (a copy of the stream would read ahead). A body that is no stream is as it is.
 */
export function watchedChunks(body: unknown, limits: ReadLimits, stalled: Stalled): unknown {
	if (!isSourceStream(body)) return body;
	const watch = startWatch(body, limits, stalled);
	return (async function* () {
		try {
			for await (const chunk of body) yield arrived(watch, chunk);
		} finally {
			watch.over.abort();
		}
	})();
}

/** A watched copy of `body` to hand to a reader (the same chunks), ended by the error `stalled` makes. */
export function watchedBody(body: unknown, limits: ReadLimits, stalled: Stalled): unknown {
	if (!isSourceStream(body)) return body;
	const watch = startWatch(body, limits, stalled);
	const watched = body.map((chunk) => arrived(watch, chunk));
	watch.watched = watched;
	watched.on('error', ignore);
	watched.once('close', () => {
		body.destroy();
		watch.over.abort();
	});
	return watched;
}

/** Waits for the next deadline until the read is over or one passes; a file's moves on with every byte. */
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

function stop(watch: Watch, stall: Stall, limit: number): void {
	if (watch.failure) return;
	watch.failure = watch.stalled(stall, limit);
	watch.over.abort();
	watch.watched?.destroy(watch.failure);
	release(watch.source, watch.failure);
}

/**
 * Destroys the source and ends its pending read now. n8n 2.x hands over a copy that ends a pending
 * read only once the read it waits for returns (never, from a stalled service), so the error is
 * also emitted, as axios does on abort.
 */
function release(source: SourceStream, error: Error): void {
	source.destroy(error);
	source.emit('error', error);
}
