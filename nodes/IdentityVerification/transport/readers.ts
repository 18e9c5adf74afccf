/**
 * The readers of a JSON answer that is read as it arrives, by name (ApiRequest.reader): a list's
 * page, its results parsed one by one, and an upload's answer without the document it echoes.
 * Each stream is the request's alone and nothing of a chunk is kept once read (what a reader keeps,
 * it copies), so each chunk's memory is given back at once.
 */
import { isPlainObject } from '../../shared/isPlainObject';
import { isChunkStream, readJsonBody } from './body';
import { readStreamedObject } from './jsonStream';
import type { JsonReader } from './types';

/**
 * A page's answer as JSON, and its results when they were read one by one. Streamed, the `results`
 * are parsed as they arrive (see jsonStream.ts): the page is never held as one text, and
 * the body keeps an empty array in their place, so that checking its shape goes through none of
 * them (each is any JSON value). An answer that is not JSON becomes '' (its shape is then refused
 * like any other text); one that came whole is parsed as it is.
 */
export async function readPage(body: unknown): Promise<{ body: unknown; results?: unknown[] }> {
	if (!isChunkStream(body)) {
		const whole = readJsonBody(body);
		return { body: whole.ok ? whole.value : '' };
	}
	let results: unknown[] = [];
	const streamed = await readStreamedObject(
		body,
		{
			results: {
				kind: 'elements',
				onStart: () => (results = []),
				onElement: (value) => results.push(value),
			},
		},
		{ releaseChunks: true },
	);
	if (!streamed.ok) return { body: '' };
	const page = streamed.value;
	// An empty array where `results` was read, unless a later `results` replaced it (the last counts).
	const placeholder =
		isPlainObject(page) && Array.isArray(page.results) && page.results.length === 0;
	return placeholder ? { body: page, results } : { body: page };
}

/**
 * A JSON answer without its top-level member `field` (an echoed document). A streamed answer is
 * read as it arrives and a string there is skipped, so that the echo is never held. Undefined for
 * an answer that is not JSON.
 */
export async function withoutEcho(body: unknown, field: string): Promise<unknown> {
	let value: unknown;
	if (isChunkStream(body)) {
		const read = await readStreamedObject(
			body,
			{ [field]: { kind: 'skippedString' } },
			{ releaseChunks: true },
		);
		value = read.ok ? read.value : undefined;
	} else {
		const whole = readJsonBody(body);
		value = whole.ok ? whole.value : undefined;
	}
	if (!isPlainObject(value)) return value;
	const rest = { ...value };
	delete rest[field];
	return rest;
}

/** The upload answer of a Proof of Address check: the document it echoes in `file` left out. */
async function withoutFileEcho(body: unknown): Promise<unknown> {
	return await withoutEcho(body, 'file');
}

export const JSON_READERS: Record<JsonReader, (body: unknown) => Promise<unknown>> = {
	listPage: readPage,
	withoutFileEcho,
};
