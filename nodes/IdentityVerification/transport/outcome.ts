/**
 * What one attempt's result means: an answer is the result (2xx), a refused redirect, a retry after
 * waiting out a retryable status, or an HTTP error; no answer is a retry or a network error.
 */
import type { IN8nHttpFullResponse, NodeApiError } from 'n8n-workflow';

import { discardStream, normaliseHeaders, readCapped, successBody } from './body';
import { RETRY, spendRateLimitWait, stoppedError, waitToRetry, wasStopped } from './call';
import type { Call } from './call';
import {
	classifyNetworkError,
	httpError,
	networkError,
	redirectError,
	unexpectedError,
} from './errors';
import {
	backoffDelay,
	isIdempotent,
	isRetryableStatus,
	rateLimitRetryDelay,
	retryDelay,
} from './retry';
import type { ApiResponse } from './types';
import { shownUrl } from './url';

/** An answer: the result when 2xx, RETRY after waiting out a retryable status, else the error. */
export async function answered<T>(
	call: Call,
	response: IN8nHttpFullResponse,
	attempt: number,
): Promise<ApiResponse<T> | typeof RETRY> {
	const { statusCode: status } = response;
	const headers = normaliseHeaders(response.headers);
	const kind = call.req.response ?? 'json';
	if (status >= 200 && status < 300) {
		return { statusCode: status, headers, body: successBody(kind, response.body) as T };
	}
	if (status >= 300 && status < 400) throw refusedRedirect(call, response, headers.location);
	// Only the start of an error answer's stream is read: it is for the message.
	const body = kind === 'stream' ? await readCapped(response.body) : response.body;
	if (await retriesStatus(call, status, attempt, headers['retry-after'])) return RETRY;
	const { method, itemIndex } = call.req;
	const failure = { status, body, method, attempts: attempt, auth: call.auth, itemIndex };
	throw httpError(call.node, call.redact, failure);
}

/** No answer: RETRY when the network failed and repeating is safe, else the error to throw. */
export async function unanswered(
	call: Call,
	attempt: number,
	error: unknown,
): Promise<typeof RETRY> {
	const { node, req, credential } = call;
	if (wasStopped(call)) throw stoppedError(call);
	const network = classifyNetworkError(error);
	if (!network) throw unexpectedError(node, call.redact, error, req.itemIndex);
	const retry = isIdempotent(req.method) && attempt <= call.maxRetries;
	if (retry && (await waitToRetry(call, backoffDelay(attempt)))) return RETRY;
	throw networkError(node, call.redact, {
		...network,
		origin: credential.origin,
		method: req.method,
		attempts: attempt,
		timeoutMs: call.timeoutMs,
		itemIndex: req.itemIndex,
	});
}

/** A redirect is not followed; its streamed body is closed so the connection is let go. */
function refusedRedirect(
	call: Call,
	response: IN8nHttpFullResponse,
	location: string | undefined,
): NodeApiError {
	discardStream(response.body);
	return redirectError(call.node, call.redact, {
		status: response.statusCode,
		target: location && shownUrl(location, call.url),
		auth: call.auth,
		itemIndex: call.req.itemIndex,
	});
}

/**
 * Whether a failed status is retried (after the wait). A 429 is waited out only within the
 * execution's budget for it, and tells the caller first.
 */
async function retriesStatus(
	call: Call,
	status: number,
	attempt: number,
	retryAfter: string | undefined,
): Promise<boolean> {
	if (!isRetryableStatus(status, call.req.method) || attempt > call.maxRetries) return false;
	if (status !== 429) return await waitToRetry(call, retryDelay(attempt, retryAfter));
	const wait = rateLimitRetryDelay(attempt, retryAfter);
	if (!spendRateLimitWait(call, wait)) return false;
	if (!wasStopped(call)) call.req.onRateLimited?.();
	return await waitToRetry(call, wait);
}
