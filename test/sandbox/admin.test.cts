import { request } from 'undici';
import { SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';
import type { Receiver } from './test-helpers.cjs';

/** The /__sandbox/* control API, used from other processes (no auth: loopback only). */
async function admin(sb: Sandbox, method: string, path: string, body?: unknown) {
	const res = await request(`${sb.url}/__sandbox${path}`, {
		method: method as 'GET',
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.body.text();
	return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

describe('sandbox admin HTTP API', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]), {
		reset: async () => {
			expect((await admin(sb, 'POST', '/reset')).status).toBe(200);
		},
	});

	test('describes the sandbox and is not itself logged', async () => {
		const info = await admin(sb, 'GET', '/');
		expect(info.json).toMatchObject({
			url: sb.url,
			seed: { bank: { transactions: 1037 } },
			credentials: sb.credentials,
			headerPrefix: 'Service',
		});
		expect(sb.requests).toHaveLength(0);
		expect((await admin(sb, 'GET', '/nope')).status).toBe(404);
	});

	test('reads, counts and clears the request log', async () => {
		await call(sb, 'POST', '/bank/tokens/', { body: {} });
		await call(sb, 'POST', '/bank/tokens/', { auth: 'none' });
		expect((await admin(sb, 'GET', '/requests?path=/bank/')).json).toEqual([
			expect.objectContaining({ method: 'POST', status: 201, authorized: true }),
			expect.objectContaining({ method: 'POST', status: 401, authScheme: 'none' }),
		]);
		expect((await admin(sb, 'GET', '/requests/count?method=POST&path=/bank/tokens/')).json).toEqual(
			{ count: 2 },
		);
		expect((await admin(sb, 'DELETE', '/requests')).status).toBe(204);
		expect(sb.requests).toHaveLength(0);
	});

	test('adds faults (times "Infinity"), lists and clears them', async () => {
		expect(
			(
				await admin(sb, 'POST', '/faults', {
					path: '/bank/',
					status: 429,
					retryAfter: 3,
					times: 'Infinity',
				})
			).status,
		).toBe(201);
		expect((await admin(sb, 'GET', '/faults')).json).toEqual([
			expect.objectContaining({ status: 429, times: 'Infinity' }),
		]);
		const res = await call(sb, 'POST', '/bank/tokens/', { body: {} });
		expect(res.status).toBe(429);
		expect(res.headers['retry-after']).toBe('3');
		expect((await call(sb, 'POST', '/bank/tokens/', { body: {} })).status).toBe(429);
		await admin(sb, 'DELETE', '/faults');
		expect((await call(sb, 'POST', '/bank/tokens/', { body: {} })).status).toBe(201);
		expect((await admin(sb, 'POST', '/faults', { path: '/bank/' })).status).toBe(400);
	});

	test('seeds bank accounts and switches page-link modes', async () => {
		const ids = (await admin(sb, 'POST', '/bank/accounts', { transactions: 7, accountId: 'acc-7' }))
			.json;
		expect(ids.accountId).toBe('acc-7');
		const page = await call(
			sb,
			'GET',
			`/bank/verifications/${ids.verificationId}/accounts/acc-7/transactions/`,
		);
		expect(page.json.count).toBe(7);
		expect((await admin(sb, 'POST', '/bank/page-links', { mode: 'no-count' })).json.mode).toBe(
			'no-count',
		);
		const tx = `/bank/verifications/${SEED.bank.verificationId}/accounts/${SEED.bank.accountId}/transactions/`;
		expect((await call(sb, 'GET', tx)).json).not.toHaveProperty('count');
		expect((await admin(sb, 'POST', '/bank/page-links', { mode: 'sideways' })).status).toBe(400);
	});

	test('seeds a bank account with the transactions given, and refuses one the contract does not allow', async () => {
		const payment = {
			creditor: { fullName: 'Ana María Núñez' },
			debtor: { fullName: null },
			bookingDate: '2026-03-14',
			transactionDate: null,
			transactionAmount: { amount: '-0.50', currency: 'EUR' },
		};
		const ids = (await admin(sb, 'POST', '/bank/accounts', { transactions: [payment, payment] }))
			.json;
		const page = await call(
			sb,
			'GET',
			`/bank/verifications/${ids.verificationId}/accounts/${ids.accountId}/transactions/`,
		);
		expect(page.json.results).toEqual([payment, payment]);
		const broken = { transactions: [{ ...payment, transactionAmount: { amount: 'ten' } }] };
		expect((await admin(sb, 'POST', '/bank/accounts', broken)).status).toBe(400);
	});

	test('seeds AML profiles and KYB forms', async () => {
		const p = (await admin(sb, 'POST', '/aml/profiles', { sizeBytes: 3000, profileId: 'p-3k' }))
			.json;
		const pdf = await call(sb, 'POST', `/aml/checks/${p.checkId}/profiles/p-3k/pdf/`, {
			body: { password: p.password },
		});
		expect(pdf.body.length).toBe(3000);
		const f = (await admin(sb, 'POST', '/kyb/forms', { formId: 'form-x' })).json;
		expect(
			(await call(sb, 'POST', `/kyb/forms/${f.formId}/submit/`, { auth: 'bearer' })).status,
		).toBe(200);
	});

	test('configures webhooks, sends events, lists deliveries and resends', async () => {
		const config = await admin(sb, 'POST', '/webhooks/config', {
			url: receiver.url,
			retryDelaysMs: [5],
		});
		expect(config.json).toMatchObject({
			url: receiver.url,
			retryDelaysMs: [5],
			signatureEncoding: 'hexLower',
			headerPrefix: 'Service',
			omitEventTypeHeaderFor: [],
		});
		expect(config.json).not.toHaveProperty('signingKey');
		receiver.answers.push(500);
		const sent = await admin(sb, 'POST', '/webhooks/send', {
			eventType: 'ACCOUNT_CHECK',
			body: { scanRef: 'x', status: 3, score: 1 },
		});
		expect(sent.json).toMatchObject({
			status: 'delivered',
			attempts: [{ statusCode: 500 }, { statusCode: 200 }],
		});
		const resent = await admin(sb, 'POST', `/webhooks/deliveries/${sent.json.id}/resend`);
		expect(resent.json).toMatchObject({ resendOf: sent.json.id, status: 'delivered' });
		expect((await admin(sb, 'GET', '/webhooks/deliveries')).json.map((d: any) => d.id)).toEqual([
			sent.json.id,
			resent.json.id,
		]);
		expect((await admin(sb, 'GET', `/webhooks/deliveries/${sent.json.id}`)).json.payload).toBe(
			'{"scanRef":"x","status":3,"score":1}',
		);
		expect(receiver.received).toHaveLength(3);
		expect((await admin(sb, 'POST', '/webhooks/send', { eventType: 'NOPE' })).status).toBe(400);
		expect(
			(await admin(sb, 'POST', '/webhooks/config', { url: 'http://10.0.0.1/hook' })).status,
		).toBe(400);
		const samples = (await admin(sb, 'GET', '/webhooks/samples')).json;
		expect(Object.keys(samples)).toContain('BANK_CARD_VERIFICATION_COMPLETED');
	});

	test('drives a KYC session and reviews a KYB form', async () => {
		await admin(sb, 'POST', '/webhooks/config', { url: receiver.url, retryDelaysMs: [] });
		const { scanRef } = (await admin(sb, 'POST', '/kyc/sessions', { clientId: 'user-1' })).json;
		expect(
			(await admin(sb, 'POST', `/kyc/sessions/${scanRef}/auto-finish`, { final: false })).json
				.eventType,
		).toBe('IDENTIFICATION_AUTO_FINISHED');
		expect(
			(await admin(sb, 'POST', `/kyc/sessions/${scanRef}/auto-finish`, { final: true })).status,
		).toBe(409);
		await admin(sb, 'POST', `/kyc/sessions/${scanRef}/manual-finish`, { overall: 'APPROVED' });
		await admin(sb, 'POST', `/kyc/sessions/${scanRef}/request-information`);
		const both = (
			await admin(sb, 'POST', `/kyc/sessions/${scanRef}/resubmit`, { needsReview: true })
		).json;
		expect(both.map((d: any) => d.eventType)).toEqual([
			'IDENTIFICATION_RESUBMITTED',
			'IDENTIFICATION_MANUAL_FINISHED',
		]);
		expect((await admin(sb, 'GET', `/kyc/sessions/${scanRef}`)).json.state).toBe('FINISHED');
		const other = (await admin(sb, 'POST', '/kyc/sessions', { clientId: 'user-2' })).json.scanRef;
		const bg = await admin(sb, 'POST', `/kyc/sessions/${other}/cancel`, { wait: false });
		expect(bg.status).toBe(202);
		expect(
			(await admin(sb, 'POST', `/kyc/sessions/${scanRef}/cancel`, { wait: false })).status,
		).toBe(409);
		expect(bg.json.deliveryIds).toHaveLength(1);
		for (let i = 0; i < 200; i++) {
			const d = (await admin(sb, 'GET', `/webhooks/deliveries/${bg.json.deliveryIds[0]}`)).json;
			if (d.status !== 'pending') break;
			await new Promise((r) => setTimeout(r, 10));
		}
		await call(sb, 'POST', `/kyb/forms/${SEED.kyb.formId}/submit/`);
		while (sb.webhooks.log.some((d) => d.status === 'pending'))
			await new Promise((r) => setTimeout(r, 5));
		const review = await admin(sb, 'POST', `/kyb/forms/${SEED.kyb.formId}/review`, {
			decision: 'APPROVED',
		});
		expect(review.json.eventType).toBe('COMPANY_REVIEW');
		const types = receiver.received.map((r) => r.headers['service-event-type']);
		expect(types).toEqual([
			'IDENTIFICATION_AUTO_FINISHED',
			'IDENTIFICATION_MANUAL_FINISHED',
			'IDENTIFICATION_RESUBMITTED',
			'IDENTIFICATION_MANUAL_FINISHED',
			'IDENTIFICATION_CANCELLED',
			'COMPANY_SUBMIT',
			'COMPANY_REVIEW',
		]);
	});

	test('sets the webhook header prefix, fails an attempt, and gives a session its verification link', async () => {
		const config = await admin(sb, 'POST', '/webhooks/config', {
			url: receiver.url,
			retryDelaysMs: [],
			headerPrefix: 'Idenfy',
		});
		expect(config.json.headerPrefix).toBe('Idenfy');
		expect((await admin(sb, 'GET', '/')).json.headerPrefix).toBe('Idenfy');
		const bad = await admin(sb, 'POST', '/webhooks/config', {
			url: receiver.url,
			headerPrefix: '!',
		});
		expect(bad.status).toBe(400);
		expect(bad.json.detail).toMatch(/headerPrefix/);
		const session = (await admin(sb, 'POST', '/kyc/sessions', { clientId: 'user-3' })).json;
		expect(session.redirectUrl).toBe(
			`${sb.url}/api/v2/redirect?authToken=${encodeURIComponent(session.authToken)}`,
		);
		const failed = await admin(sb, 'POST', `/kyc/sessions/${session.scanRef}/fail-attempt`);
		expect(failed.json).toMatchObject({ state: 'IN_PROGRESS', failedAttempts: 1 });
		await admin(sb, 'POST', `/kyc/sessions/${session.scanRef}/expire`);
		expect(receiver.received[0].headers['idenfy-event-type']).toBe('IDENTIFICATION_EXPIRED');
		expect(receiver.received[0].json.status.overall).toBe('DENIED');
		// An error of the service's state machine keeps the admin API's {detail} shape.
		const again = await admin(sb, 'POST', `/kyc/sessions/${session.scanRef}/fail-attempt`);
		expect(again.status).toBe(409);
		expect(again.json).toEqual({ detail: expect.stringMatching(/EXPIRED/) });
	});
});
