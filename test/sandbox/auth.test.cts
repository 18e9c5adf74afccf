import { SEED, startSandbox } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { basicHeader, call, useSandbox } from './test-helpers.cjs';

const TX = `/bank/verifications/${SEED.bank.verificationId}/accounts/${SEED.bank.accountId}/transactions/`;
const ANSWERS = `/kyb/forms/${SEED.kyb.companyId}/questionnaires/${SEED.kyb.questionnaireId}/answers/`;

describe('sandbox authentication', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s));

	test('accepts the API key pair as HTTP Basic', async () => {
		const res = await call(sb, 'GET', TX);
		expect(res.status).toBe(200);
		expect(sb.requests).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: TX,
				authScheme: 'basic',
				authorized: true,
				status: 200,
			}),
		]);
	});

	test.each([
		['a wrong secret', basicHeader('sandbox-api-key', 'wrong')],
		['a wrong key', basicHeader('other-key', 'sandbox-api-secret')],
		['garbage after Basic', 'Basic !!!'],
		['another scheme', 'Token abc'],
	])('answers 401 UNAUTHORIZED and WWW-Authenticate for %s', async (_name, header) => {
		const res = await call(sb, 'GET', TX, { auth: header });
		expect(res.status).toBe(401);
		expect(res.headers['www-authenticate']).toBe('Basic realm="api"');
		expect(res.json).toEqual({
			identifier: 'UNAUTHORIZED',
			message: 'Invalid or missing API credentials.',
		});
		expect(sb.requests[0].authorized).toBe(false);
	});

	test('answers 401 when no Authorization header is sent, and logs the request', async () => {
		const res = await call(sb, 'POST', '/bank/tokens/', { auth: 'none', body: {} });
		expect(res.status).toBe(401);
		expect(sb.requests[0]).toMatchObject({ authScheme: 'none', authorized: false, status: 401 });
	});

	test('accepts the KYB form token as Bearer on KYB endpoints only', async () => {
		expect((await call(sb, 'GET', ANSWERS, { auth: 'bearer' })).status).toBe(200);
		expect((await call(sb, 'GET', ANSWERS, { auth: 'basic' })).status).toBe(200);
		expect((await call(sb, 'GET', ANSWERS, { auth: 'Bearer not-the-token' })).status).toBe(401);
		const bank = await call(sb, 'GET', TX, { auth: 'bearer' });
		expect(bank.status).toBe(401);
		expect(sb.requests.map((r) => [r.authScheme, r.authorized])).toEqual([
			['bearer', true],
			['basic', true],
			['bearer', false],
			['bearer', false],
		]);
	});

	test('uses the credentials it was started with', async () => {
		const other = await startSandbox({ apiKey: 'k2', apiSecret: 's2' });
		try {
			expect((await call(other, 'GET', TX, { auth: basicHeader('k2', 's2') })).status).toBe(200);
			expect(
				(
					await call(other, 'GET', TX, {
						auth: basicHeader('sandbox-api-key', 'sandbox-api-secret'),
					})
				).status,
			).toBe(401);
		} finally {
			await other.close();
		}
	});

	test('routes paths with and without the trailing slash, 404s unknown paths and 405s wrong methods', async () => {
		expect((await call(sb, 'GET', TX.replace(/\/$/, ''))).status).toBe(200);
		const unknown = await call(sb, 'GET', '/bank/unknown/');
		expect(unknown.status).toBe(404);
		// DRF's 404 body: the service documents none (see README).
		expect(unknown.json).toEqual({ detail: 'Not found.' });
		const wrongMethod = await call(sb, 'DELETE', TX);
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.allow).toBe('GET');
		expect(wrongMethod.json).toEqual({
			identifier: 'METHOD_NOT_ALLOWED',
			message: 'Method "DELETE" not allowed.',
		});
	});

	test('counts requests by method and path prefix and resets the log', async () => {
		await call(sb, 'GET', TX);
		await call(sb, 'GET', `${TX}?page=2`);
		await call(sb, 'POST', '/bank/tokens/', { body: {} });
		expect(sb.count()).toBe(3);
		expect(sb.count({ method: 'GET', path: '/bank/verifications/' })).toBe(2);
		expect(sb.count({ path: '/bank/tokens/' })).toBe(1);
		expect(sb.requests[1].query).toEqual({ page: '2' });
		sb.resetLog();
		expect(sb.count()).toBe(0);
	});
});
