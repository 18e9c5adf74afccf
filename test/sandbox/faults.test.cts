import { request } from 'undici';
import { SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';

const TX = `/bank/verifications/${SEED.bank.verificationId}/accounts/${SEED.bank.accountId}/transactions/`;

describe('sandbox faults', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s));

	test('answers 429 with Retry-After once, then normally', async () => {
		sb.faults.add({ path: '/bank/', status: 429, retryAfter: 2 });
		const first = await call(sb, 'GET', TX);
		expect(first.status).toBe(429);
		expect(first.headers['retry-after']).toBe('2');
		expect(first.json).toEqual({
			identifier: 'TOO_MANY_REQUESTS',
			message: 'Requests per hour limit has been reached.',
		});
		expect((await call(sb, 'GET', TX)).status).toBe(200);
		expect(sb.requests.map((r) => r.status)).toEqual([429, 200]);
	});

	test('sends no Retry-After on a 429 by default (the service documents none), the value or HTTP date given, none when null', async () => {
		sb.faults.add({ status: 429 });
		const plain = await call(sb, 'GET', TX);
		expect(plain.status).toBe(429);
		expect(plain.headers['retry-after']).toBeUndefined();
		sb.faults.add({ status: 429, retryAfter: 1 });
		expect((await call(sb, 'GET', TX)).headers['retry-after']).toBe('1');
		sb.faults.add({ status: 429, retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT' });
		expect((await call(sb, 'GET', TX)).headers['retry-after']).toBe(
			'Wed, 21 Oct 2026 07:28:00 GMT',
		);
		sb.faults.add({ status: 429, retryAfter: null });
		const none = await call(sb, 'GET', TX);
		expect(none.status).toBe(429);
		expect(none.headers['retry-after']).toBeUndefined();
	});

	test('answers 500 and 503 (with a custom body) the given number of times', async () => {
		sb.faults.add({ method: 'GET', path: TX, status: 500, times: 2 });
		expect((await call(sb, 'GET', TX)).json).toEqual({
			identifier: 'INTERNAL_ERROR',
			message: 'Sandbox fault: HTTP 500.',
		});
		expect((await call(sb, 'GET', TX)).status).toBe(500);
		expect((await call(sb, 'GET', TX)).status).toBe(200);
		sb.faults.add({ status: 503, body: { detail: 'Maintenance.' } });
		const res = await call(sb, 'GET', TX);
		expect(res.status).toBe(503);
		expect(res.json).toEqual({ detail: 'Maintenance.' });
	});

	test('matches on method and path prefix only', async () => {
		sb.faults.add({ method: 'POST', path: '/bank/tokens/', status: 500, times: Infinity });
		expect((await call(sb, 'GET', TX)).status).toBe(200);
		expect((await call(sb, 'POST', '/bank/tokens/', { body: {} })).status).toBe(500);
		expect((await call(sb, 'POST', '/bank/tokens/', { body: {} })).status).toBe(500);
		expect((await call(sb, 'POST', '/api/v2/token', { body: { clientId: 'c' } })).status).toBe(201);
	});

	test('keeps an Infinity rule until cleared', async () => {
		sb.faults.add({ status: 500, times: Infinity });
		for (let i = 0; i < 5; i++) expect((await call(sb, 'GET', TX)).status).toBe(500);
		sb.faults.clear();
		expect((await call(sb, 'GET', TX)).status).toBe(200);
	});

	test('applies before authentication (like a proxy in front of the service)', async () => {
		sb.faults.add({ status: 503 });
		expect((await call(sb, 'GET', TX, { auth: 'none' })).status).toBe(503);
	});

	test('drops the connection without an answer', async () => {
		sb.faults.add({ path: '/bank/', drop: true });
		await expect(request(`${sb.url}${TX}`)).rejects.toThrow();
		expect(sb.requests[0].status).toBe(0);
		expect((await call(sb, 'GET', TX)).status).toBe(200);
	});

	test('adds latency per rule and globally, then answers normally', async () => {
		sb.faults.add({ path: '/bank/', latencyMs: 50 });
		expect((await call(sb, 'GET', TX)).status).toBe(200);
		sb.faults.setLatency(20);
		expect((await call(sb, 'GET', TX)).status).toBe(200);
		sb.faults.add({ latencyMs: 30, status: 502 });
		expect((await call(sb, 'GET', TX)).status).toBe(502);
	});

	test('refuses a rule that does nothing', () => {
		expect(() => sb.faults.add({ path: '/bank/' })).toThrow(/status, drop or latencyMs/);
		expect(() => sb.faults.add({ status: 500, times: 0 })).toThrow(/times/);
	});
});
