/**
 * What one attempt's result means: an answer is the result (2xx, its body read under the read
 * deadline), a refused redirect, a retry after waiting out a retryable status, or an HTTP error; no
 * answer, or a body that broke off or timed out, is a retry or the error.
 */
import type { IN8nHttpFullResponse, NodeApiError } from 'n8n-workflow';

import { shownUrl } from '../../shared/urlGuards';
import { discardStream, normaliseHeaders, readErrorBody, readWholeBody, watchedBody } from './body';
import type { Stalled } from './body';
import { RETRY, spendRateLimitWait, stoppedError, waitToRetry, wasStopped } from './call';
import type { Call } from './call';
import {
	classifyNetworkError,
	httpError,
	networkError,
	redirectError,
	stalledReadError,
	stalledReadOf,
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

/** An answer: the result when 2xx, RETRY after waiting out a retryable status, else the error. */
export async function answered<T>(
	call: Call,
	response: IN8nHttpFullResponse,
	attempt: number,
): Promise<ApiResponse<T> | typeof RETRY> {
	const { statusCode: status } = response;
	const headers = normaliseHeaders(response.headers);
	if (status >= 200 && status < 300) return await succeeded<T>(call, response, headers, attempt);
	if (status >= 300 && status < 400) throw refusedRedirect(call, response, headers.location);
	const kind = call.req.response ?? 'json';
	const body = await readErrorBody(response.body, kind, call.read, stalled(call, attempt));
	if (await retriesStatus(call, status, attempt, headers['retry-after'])) return RETRY;
	const { method, itemIndex } = call.req;
	const failure = {
		status,
		body,
		method,
		attempts: attempt,
		auth: call.auth,
		credentialName: call.credential.label,
		notFound: call.req.notFound,
		itemIndex,
	};
	throw httpError(call.node, call.redact, failure);
}

/**
 * A 2xx answer with its body as the caller asked for it: read whole (JSON, binary), handed over to
 * be read as it arrives (stream), or left out (none). A body that breaks off or times out while it
 * is read here is retried like an attempt without an answer.
 */
async function succeeded<T>(
	call: Call,
	response: IN8nHttpFullResponse,
	headers: Record<string, string>,
	attempt: number,
): Promise<ApiResponse<T> | typeof RETRY> {
	const kind = call.req.response ?? 'json';
	const result = (body: unknown) => ({ statusCode: response.statusCode, headers, body: body as T });
	if (kind === 'none') {
		discardStream(response.body);
		return result(undefined);
	}
	if (kind === 'stream')
		return result(watchedBody(response.body, call.read, stalled(call, attempt)));
	try {
		return result(await readWholeBody(response.body, kind, call.read, stalled(call, attempt)));
	} catch (error) {
		return await brokenOff(call, attempt, error);
	}
}

/** The error a body read in this attempt ends with when it times out. */
function stalled(call: Call, attempt: number): Stalled {
	return (stall, ms) =>
		stalledReadError(call.node, call.redact, {
			stall,
			ms,
			method: call.req.method,
			target: shownUrl(call.url),
			attempts: attempt,
			itemIndex: call.req.itemIndex,
		});
}

/** A body that timed out or broke off while it was read: RETRY when repeating is safe, else the error. */
async function brokenOff(call: Call, attempt: number, error: unknown): Promise<typeof RETRY> {
	if (stalledReadOf(error) === undefined) return await unanswered(call, attempt, error);
	if (wasStopped(call)) throw stoppedError(call);
	const retry = isIdempotent(call.req.method) && attempt <= call.maxRetries;
	if (retry && (await waitToRetry(call, backoffDelay(attempt)))) return RETRY;
	throw error;
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
		credentialName: call.credential.label,
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
