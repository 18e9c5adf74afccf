import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isPlainObject } from '../../shared/isPlainObject';
import { isChunkStream, readJsonBody } from '../transport';
import { readStreamedObject } from './jsonStream';

/** True for a JSON object with at least one key (an empty body or `{}` counts as nothing). */
export function isNonEmptyObject(value: unknown): value is IDataObject {
	return isPlainObject(value) && Object.keys(value).length > 0;
}

/** One output item per JSON object (arrays become one item per element). */
export function toItems(body: unknown): INodeExecutionData[] {
	if (Array.isArray(body)) return body.map((entry) => ({ json: (entry ?? {}) as IDataObject }));
	return [{ json: (body ?? {}) as IDataObject }];
}

/** Path segment of a URL: ids go through encodeURIComponent so `/` or `?` in an id stay inside it. */
export function segment(value: string): string {
	return encodeURIComponent(value);
}

/**
 * A JSON answer without its top-level member `field` (an echoed document). A streamed answer is
 * read as it arrives and a string there is skipped, so that the echo is never held; the stream is
 * the caller's answer alone and nothing of it is kept, so each chunk's memory is given back once
 * read. Undefined for an answer that is not JSON.
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
