/**
 * A deadline on reading an answer's body. The request's timeout covers only the wait for the
 * headers: a service that sends part of a body and then nothing, or a byte now and then, would hold
 * the execution for ever. So every body is read under a watchdog, as chunks the transport reads
 * itself or as a watched copy of its stream handed to the caller: when nothing has arrived for
 * `idleMs`, or the body is not whole after `totalMs`, the stream is destroyed and whoever reads it
 * (the transport, a list's pages, a file's download) gets the error `stalled` makes. The watchdog
 * ends with the read.
 */
import { sleep } from 'n8n-workflow';

import type { Stall } from './errors';

export const DEFAULT_READ_IDLE_MS = 30_000;
/** Far more than any answer needs on a slow link: over 100 MB at 1 Mbit/s. */
export const DEFAULT_READ_TOTAL_MS = 15 * 60_000;
/**
 * The longest single wait of the watchdog. n8n's sleep ends at once when the read ends; where it
 * cannot be ended (n8n 1.x), a finished read leaves a wait of at most this behind.
 */
const WATCH_STEP_MS = 1000;

export interface ReadLimits {
	idleMs: number;
	totalMs: number;
}

/** The answer's stream as n8n hands it over: a Node.js Readable. */
interface AnswerStream extends AsyncIterable<Uint8Array> {
	map(fn: (chunk: Uint8Array) => Uint8Array): AnswerStream;
	on(event: 'error', listener: () => void): unknown;
	emit(event: 'error', error: Error): boolean;
	once(event: 'close', listener: () => void): unknown;
	destroy(error?: Error): unknown;
	readonly destroyed: boolean;
}

/** One body being read: its stream(s), when it started, when its last bytes came, whether it is over. */
interface Watch {
	source: AnswerStream;
	/** The copy handed to a reader, when there is one. */
	watched?: AnswerStream;
	limits: ReadLimits;
	startedAt: number;
	lastBytesAt: number;
	over: AbortController;
	stalled: (stall: Stall, ms: number) => Error;
}

type Stalled = Watch['stalled'];

function isAnswerStream(body: unknown): body is AnswerStream {
	const stream = body as Partial<AnswerStream> | undefined;
	return (
		typeof stream?.map === 'function' &&
		typeof stream.destroy === 'function' &&
		typeof stream[Symbol.asyncIterator] === 'function'
	);
}

const ignore = () => undefined;

/** Starts the watchdog of `source`. */
function startWatch(source: AnswerStream, limits: ReadLimits, stalled: Stalled): Watch {
	const now = Date.now();
	const over = new AbortController();
	const watch: Watch = { source, limits, startedAt: now, lastBytesAt: now, over, stalled };
	// A failed answer's error reaches the reader through its next read: this keeps it from
	// crashing n8n while nobody happens to be listening.
	source.on('error', ignore);
	void watchdog(watch);
	return watch;
}

/**
 * The chunks of `body` as they arrive, for the transport to read itself: the reading ends with
 * the error `stalled` makes when a deadline passes. A body that is no stream is as it is.
 */
export function watchedChunks(body: unknown, limits: ReadLimits, stalled: Stalled): unknown {
	if (!isAnswerStream(body)) return body;
	return chunksOf(startWatch(body, limits, stalled));
}

async function* chunksOf(watch: Watch): AsyncGenerator<Uint8Array> {
	try {
		for await (const chunk of watch.source) {
			watch.lastBytesAt = Date.now();
			yield chunk;
		}
	} finally {
		watch.over.abort();
	}
}

/**
 * A watched copy of `body` to hand to a reader (the same bytes, in chunks as they arrived): its
 * reading ends with the error `stalled` makes when a deadline passes. A body that is no stream is
 * as it is.
 */
export function watchedBody(body: unknown, limits: ReadLimits, stalled: Stalled): unknown {
	if (!isAnswerStream(body)) return body;
	const watch = startWatch(body, limits, stalled);
	const watched = body.map((chunk) => {
		watch.lastBytesAt = Date.now();
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

/** Waits for the next deadline, again and again, until the read is over or a deadline passes. */
async function watchdog(watch: Watch): Promise<void> {
	const { over, limits } = watch;
	while (!over.signal.aborted) {
		// A reader that let go of its copy: the copy closes only once the source gives up waiting.
		if (watch.watched?.destroyed) return release(watch.source, new Error('Not read to its end'));
		const now = Date.now();
		const idleLeft = watch.lastBytesAt + limits.idleMs - now;
		const totalLeft = watch.startedAt + limits.totalMs - now;
		if (totalLeft <= 0) return stop(watch, 'total', limits.totalMs);
		if (idleLeft <= 0) return stop(watch, 'idle', limits.idleMs);
		await sleep(Math.min(idleLeft, totalLeft, WATCH_STEP_MS), over.signal).catch(ignore);
	}
}

/** The reader gets the error, and the source is let go. */
function stop(watch: Watch, stall: Stall, ms: number): void {
	const error = watch.stalled(stall, ms);
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
function release(source: AnswerStream, error: Error): void {
	source.destroy(error);
	source.emit('error', error);
}
