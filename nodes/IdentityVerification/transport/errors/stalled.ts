/**
 * An answer whose body stopped arriving: nothing came for too long, or it was still coming after
 * the longest a body may take. The error the user sees, and how a caller that reads a streamed
 * body itself (a page of a list, the answer to a check) recognises it to word its own message.
 */
import type { INode, NodeApiError } from 'n8n-workflow';

import type { ApiMethod } from '../types';
import { apiError } from './apiError';
import type { Redactor } from './redact';
import { formatDuration } from './wording';

/** `idle`: nothing arrived for too long; `total`: the whole body took too long. */
export type Stall = 'idle' | 'total';

export interface StalledRead {
	stall: Stall;
	/** The limit that was reached. */
	ms: number;
	method: ApiMethod;
	/** Origin and path of the request (no query). */
	target: string;
	attempts: number;
	itemIndex?: number;
}

/** What happened, for each error made here, e.g. `nothing arrived for 30 seconds`. */
const stalledReads = new WeakMap<object, string>();

function whatHappened({ stall, ms }: StalledRead): string {
	return stall === 'idle'
		? `nothing arrived for ${formatDuration(ms)}`
		: `it was still arriving after ${formatDuration(ms)}`;
}

/** A POST whose answer stopped may have been processed: it is not repeated. */
function notRepeated(method: ApiMethod): string {
	return method === 'POST'
		? ' The request was not repeated, because the service may already have processed it: check in the dashboard whether it went through before running again.'
		: '';
}

/** The answer's body stopped arriving (after any retries). */
export function stalledReadError(node: INode, redact: Redactor, read: StalledRead): NodeApiError {
	const what = whatHappened(read);
	const tries = read.attempts === 1 ? '' : ` after ${read.attempts} attempts`;
	const error = apiError(node, redact, {
		message: `The service's answer timed out${tries}: ${what}`,
		description: `This was the answer to ${read.method} ${read.target}. The service, or the network between it and n8n, may be overloaded: try again later. If it keeps happening, contact the provider’s support with the time of this run.${notRepeated(read.method)}`,
		itemIndex: read.itemIndex,
	});
	stalledReads.set(error, what);
	return error;
}

/** What happened when `error` is an answer that timed out while it was read, else undefined. */
export function stalledReadOf(error: unknown): string | undefined {
	return typeof error === 'object' && error !== null ? stalledReads.get(error) : undefined;
}
