/**
 * The retry rules as pure functions with exact values: which answers are retried for which method,
 * how Retry-After is read, how the backoff ceiling grows, and how Max Retries is bounded.
 */
import {
	backoffDelay,
	isIdempotent,
	isRetryableStatus,
	normaliseMaxRetries,
	parseRetryAfter,
	rateLimitDelay,
	rateLimitRetryDelay,
	retryDelay,
} from '../../../../nodes/IdentityVerification/transport/retry';

describe('what is retried', () => {
	test('GET and DELETE are idempotent; POST, PUT and PATCH are not', () => {
		expect(['GET', 'DELETE', 'POST', 'PUT', 'PATCH'].map((m) => isIdempotent(m as 'GET'))).toEqual([
			true,
			true,
			false,
			false,
			false,
		]);
	});

	test('429 for every request; 5xx (but 501 and 505) for GET, DELETE and a repeatable POST only', () => {
		const requests = [
			{ method: 'GET' },
			{ method: 'DELETE' },
			{ method: 'POST', repeatable: true },
			{ method: 'POST' },
			{ method: 'PATCH' },
		] as const;
		const row = (status: number) => requests.map((req) => isRetryableStatus(status, req));
		expect(row(429)).toEqual([true, true, true, true, true]);
		expect(row(500)).toEqual([true, true, true, false, false]);
		expect(row(503)).toEqual([true, true, true, false, false]);
		expect(row(599)).toEqual([true, true, true, false, false]);
		expect(row(501)).toEqual([false, false, false, false, false]);
		expect(row(505)).toEqual([false, false, false, false, false]);
		expect(row(499)).toEqual([false, false, false, false, false]);
		expect(row(404)).toEqual([false, false, false, false, false]);
		expect(row(600)).toEqual([false, false, false, false, false]);
	});
});

describe('Retry-After', () => {
	const now = Date.parse('2026-11-22T20:00:00Z');

	test('seconds, with decimals and spaces, in milliseconds, capped at 60 s', () => {
		expect(parseRetryAfter('1.5')).toBe(1500);
		expect(parseRetryAfter('1.25')).toBe(1250);
		expect(parseRetryAfter(' 2 ')).toBe(2000);
		expect(parseRetryAfter('0.0004')).toBe(0);
		expect(parseRetryAfter('60')).toBe(60_000);
		expect(parseRetryAfter('61')).toBe(60_000);
	});

	test('an HTTP date, counted from now, never negative, capped at 60 s', () => {
		expect(parseRetryAfter('Sun, 22 Nov 2026 20:00:30 GMT', now)).toBe(30_000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 20:05:00 GMT', now)).toBe(60_000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 19:00:00 GMT', now)).toBe(0);
	});

	test('missing, blank or unreadable is no value', () => {
		expect(parseRetryAfter(undefined)).toBeUndefined();
		expect(parseRetryAfter('   ')).toBeUndefined();
		expect(parseRetryAfter('in a moment')).toBeUndefined();
		expect(parseRetryAfter('1.5s')).toBeUndefined();
		expect(parseRetryAfter('x5')).toBeUndefined();
	});

	test('wins over a shorter backoff, never shortens it', () => {
		expect(retryDelay(5, '2', () => 0)).toBe(2000);
		expect(retryDelay(1, '0', () => 0.5)).toBe(150);
		expect(retryDelay(5, '2', () => 0.999999)).toBe(4799);
		const fallback = retryDelay(1, 'soon');
		expect(fallback).toBeGreaterThanOrEqual(0);
		expect(fallback).toBeLessThan(300);
	});
});

describe('backoff', () => {
	test('the ceiling doubles from 300 ms per retry up to 10 s (full jitter below it)', () => {
		const top = (n: number) => backoffDelay(n, () => 0.999999);
		expect([1, 2, 3, 4, 5, 6, 7].map(top)).toEqual([299, 599, 1199, 2399, 4799, 9599, 9999]);
		expect(top(30)).toBe(9999);
		expect(top(0)).toBe(299);
		expect(backoffDelay(3, () => 0.5)).toBe(600);
		expect(backoffDelay(3, () => 0)).toBe(0);
	});

	test('uses Math.random by default', () => {
		const delays = Array.from({ length: 20 }, () => backoffDelay(4));
		for (const delay of delays) {
			expect(Number.isInteger(delay)).toBe(true);
			expect(delay).toBeGreaterThanOrEqual(0);
			expect(delay).toBeLessThan(2400);
		}
		expect(new Set(delays).size).toBeGreaterThan(1);
	});
});

describe('after a 429 (the request limit)', () => {
	const low = (n: number) => rateLimitDelay(n, () => 0);
	const high = (n: number) => rateLimitDelay(n, () => 0.999999);

	test('without Retry-After: between half and all of 2 s, doubled per retry, up to 30 s', () => {
		expect([1, 2, 3, 4, 5, 6].map(low)).toEqual([1000, 2000, 4000, 8000, 15000, 15000]);
		expect([1, 2, 3, 4, 5, 6].map(high)).toEqual([1999, 3999, 7999, 15999, 29999, 29999]);
		expect(rateLimitDelay(2, () => 0.5)).toBe(3000);
	});

	test('the 3 retries by default wait 7 to 14 s in all (before: at most 2.1 s)', () => {
		expect(low(1) + low(2) + low(3)).toBe(7000);
		expect(high(1) + high(2) + high(3)).toBeLessThan(14_000);
		expect(rateLimitRetryDelay(1)).toBeGreaterThanOrEqual(1000);
	});

	test('Retry-After is honoured as for any status: capped at 60 s, never below the normal backoff', () => {
		expect(rateLimitRetryDelay(1, '5', () => 0)).toBe(5000);
		expect(rateLimitRetryDelay(1, '3600', () => 0)).toBe(60_000);
		expect(rateLimitRetryDelay(1, '0', () => 0.5)).toBe(150);
	});

	test('an unreadable Retry-After counts as none', () => {
		expect(rateLimitRetryDelay(2, 'soon', () => 0)).toBe(2000);
		expect(rateLimitRetryDelay(2, '', () => 0)).toBe(2000);
	});
});

describe('Max Retries', () => {
	test('defaults to 3 and is a whole number from 0 to 10', () => {
		expect(normaliseMaxRetries(undefined)).toBe(3);
		expect(normaliseMaxRetries(Number.NaN)).toBe(3);
		expect(normaliseMaxRetries(Number.POSITIVE_INFINITY)).toBe(3);
		expect(normaliseMaxRetries(2.7)).toBe(2);
		expect(normaliseMaxRetries(0)).toBe(0);
		expect(normaliseMaxRetries(-1)).toBe(0);
		expect(normaliseMaxRetries(10)).toBe(10);
		expect(normaliseMaxRetries(11)).toBe(10);
	});
});

const halfway = () => 0.5;

describe('retry delay after a 429 or 5xx', () => {
	test.each(['0', '-5', '-1.5', 'soon', '', 'Thu, 01 Jan 1970 00:00:00 GMT'])(
		'Retry-After %j waits the normal backoff, not less',
		(header) => {
			for (const retry of [1, 2, 3]) {
				expect(retryDelay(retry, header, halfway)).toBe(backoffDelay(retry, halfway));
			}
			// Retry 2 backs off up to 600 ms (300 ms base, doubled); half of it with the jitter fixed.
			expect(retryDelay(2, header, halfway)).toBe(300);
		},
	);

	test('a Retry-After longer than the backoff is honoured', () => {
		expect(retryDelay(1, '2', halfway)).toBe(2000);
		expect(parseRetryAfter('2')).toBe(2000);
	});

	test('without Retry-After the backoff applies', () => {
		expect(retryDelay(3, undefined, halfway)).toBe(backoffDelay(3, halfway));
	});
});
