/**
 * When to retry and how long to wait. Pure functions: the transport sleeps, these only decide.
 */
import type { ApiMethod, ApiRequest } from './types';

const RETRY_BASE_MS = 300;
const RETRY_CAP_MS = 10_000;
const RETRY_AFTER_CAP_MS = 60_000;
/**
 * After a 429 without `Retry-After`: long enough to outlast a short burst limit (1-2 s, 2-4 s,
 * 4-8 s for the 3 retries by default), not the per-hour limit, which no wait inside a run outlasts.
 */
const RATE_LIMIT_BASE_MS = 2_000;
const RATE_LIMIT_CAP_MS = 30_000;
/** The most one execution of a node waits in all for the service's request limit: 1 minute. */
export const RATE_LIMIT_BUDGET_MS = 60_000;
const DEFAULT_MAX_RETRIES = 3;
const MAX_RETRIES_LIMIT = 10;

/** GET and DELETE may be repeated safely; a POST may already have been processed. */
export function isIdempotent(method: ApiMethod): boolean {
	return method === 'GET' || method === 'DELETE';
}

/**
 * Whether a request may be sent again after it may have reached the service: GET and DELETE, and
 * a request marked `repeatable` (a POST that only reads, such as a PDF or a verification's data).
 */
export function isRepeatable(req: Pick<ApiRequest, 'method' | 'repeatable'>): boolean {
	return isIdempotent(req.method) || req.repeatable === true;
}

/**
 * 429 means the service did not process the request, so every request may retry. A 5xx may come
 * after the request was processed (e.g. a proxy timing out), so only repeatable requests repeat it.
 */
export function isRetryableStatus(
	status: number,
	req: Pick<ApiRequest, 'method' | 'repeatable'>,
): boolean {
	if (status === 429) return true;
	// 501 Not Implemented and 505 HTTP Version Not Supported will not change on a retry
	if (status === 501 || status === 505) return false;
	return status >= 500 && status <= 599 && isRepeatable(req);
}

/**
 * `Retry-After` as delta-seconds or an HTTP date, in milliseconds (capped at 60 s). `undefined`
 * when missing or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined) return undefined;
	const text = String(value).trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) {
		return Math.min(Math.round(Number(text) * 1000), RETRY_AFTER_CAP_MS);
	}
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.min(Math.max(date - now, 0), RETRY_AFTER_CAP_MS);
}

/** Exponential backoff with full jitter: a random wait between 0 and min(cap, base * 2^(n-1)). */
export function backoffDelay(retryNumber: number, random: () => number = Math.random): number {
	const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(retryNumber - 1, 0));
	return Math.floor(random() * ceiling);
}

/**
 * The wait before retry number `retryNumber` (1 = first retry): what `Retry-After` asks for, but
 * never less than the normal backoff, so `0`, a negative number, a date in the past or an
 * unreadable value do not turn the retries into a burst.
 */
export function retryDelay(
	retryNumber: number,
	retryAfterHeader?: string,
	random: () => number = Math.random,
): number {
	const fromHeader = parseRetryAfter(retryAfterHeader) ?? 0;
	return Math.max(fromHeader, backoffDelay(retryNumber, random));
}

/**
 * Exponential backoff with equal jitter after a 429: between half and all of
 * min(cap, 2 s * 2^(n-1)), never near zero, so the retries do not come as a burst.
 */
export function rateLimitDelay(retryNumber: number, random: () => number = Math.random): number {
	const exponent = Math.max(retryNumber - 1, 0);
	const ceiling = Math.min(RATE_LIMIT_CAP_MS, RATE_LIMIT_BASE_MS * 2 ** exponent);
	return Math.floor(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The wait before retry number `retryNumber` after a 429: what `Retry-After` asks for (capped,
 * never less than the normal backoff), else the rate-limit backoff.
 */
export function rateLimitRetryDelay(
	retryNumber: number,
	retryAfterHeader?: string,
	random: () => number = Math.random,
): number {
	return parseRetryAfter(retryAfterHeader) === undefined
		? rateLimitDelay(retryNumber, random)
		: retryDelay(retryNumber, retryAfterHeader, random);
}

export function normaliseMaxRetries(value: number | undefined): number {
	if (value === undefined || !Number.isFinite(value)) return DEFAULT_MAX_RETRIES;
	return Math.min(Math.max(Math.floor(value), 0), MAX_RETRIES_LIMIT);
}
