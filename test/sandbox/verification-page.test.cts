/** The verification page a token's redirectUrl opens: a person trying the demo finishes there. */
import { startSandbox } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, startReceiver, useSandbox } from './test-helpers.cjs';
import type { Receiver } from './test-helpers.cjs';

describe('sandbox verification page', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]), { webhooks: { retryDelaysMs: [] } });

	/** A token created over the API, as the node creates it. */
	async function createToken(body: Record<string, unknown> = {}) {
		const res = await call(sb, 'POST', '/api/v2/token', { body: { clientId: 'demo-1', ...body } });
		expect(res.status).toBe(201);
		return res.json as { scanRef: string; authToken: string; redirectUrl: string };
	}

	/** What a browser posts when a button of the page's form is pressed. */
	const choose = (authToken: string, result: string) =>
		call(sb, 'POST', '/api/v2/redirect', {
			auth: 'none',
			body: new URLSearchParams({ authToken, result }).toString(),
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		});

	async function settled() {
		while (sb.webhooks.log.some((d) => d.status === 'pending'))
			await new Promise((resolve) => setTimeout(resolve, 5));
	}

	test('the redirectUrl opens an HTML page, without credentials, offering approved and denied', async () => {
		const token = await createToken();
		const res = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(res.text).toContain('Finish as approved');
		expect(res.text).toContain('Finish as denied');
		expect(res.text).toContain(token.scanRef);
		expect(sb.requests[sb.requests.length - 1]).toMatchObject({
			method: 'GET',
			path: '/api/v2/redirect',
			authScheme: 'none',
			status: 200,
		});
	});

	test.each(['APPROVED', 'DENIED'])(
		'finishing as %s sends IDENTIFICATION_AUTO_FINISHED (final) with that overall status',
		async (result) => {
			const token = await createToken();
			const res = await choose(token.authToken, result);
			expect(res.status).toBe(200);
			expect(res.text).toContain('IDENTIFICATION_AUTO_FINISHED');
			await settled();
			expect(receiver.received).toHaveLength(1);
			expect(receiver.received[0].headers['service-event-type']).toBe(
				'IDENTIFICATION_AUTO_FINISHED',
			);
			expect(receiver.received[0].json).toMatchObject({
				scanRef: token.scanRef,
				clientId: 'demo-1',
				final: true,
				status: { overall: result },
			});
			expect(sb.kyc.get(token.scanRef)?.state).toBe('FINISHED');
		},
	);

	test('links on to the successUrl or errorUrl of the token request', async () => {
		const urls = {
			successUrl: 'https://example.com/ok?a=1&b=2',
			errorUrl: 'https://example.com/no',
		};
		const approved = await choose((await createToken(urls)).authToken, 'APPROVED');
		expect(approved.text).toContain('href="https://example.com/ok?a=1&amp;b=2"');
		const denied = await choose((await createToken(urls)).authToken, 'DENIED');
		expect(denied.text).toContain('href="https://example.com/no"');
		await settled();
	});

	test('a finished session shows its state and cannot be finished again (409)', async () => {
		const token = await createToken();
		await choose(token.authToken, 'APPROVED');
		const page = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
		expect(page.status).toBe(409);
		expect(page.text).toContain('FINISHED');
		expect(page.text).not.toContain('Finish as approved');
		expect((await choose(token.authToken, 'DENIED')).status).toBe(409);
		await settled();
		expect(receiver.received).toHaveLength(1);
	});

	test('the re-upload link of a requested re-upload finishes it as a resubmission', async () => {
		const token = await createToken();
		await sb.kyc.autoFinish(token.scanRef, { final: true, overall: 'DENIED' });
		const info = await call(
			sb,
			'POST',
			`/kyc/identifications/${token.scanRef}/request-information/`,
		);
		// The old link is replaced by the new one.
		expect((await call(sb, 'GET', token.redirectUrl, { auth: 'none' })).status).toBe(404);
		const page = await call(sb, 'GET', info.json.sessionUrl, { auth: 'none' });
		expect(page.status).toBe(200);
		expect(page.text).toContain('upload their documents again');
		expect((await choose(info.json.tokenString, 'APPROVED')).status).toBe(200);
		await settled();
		expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
			'IDENTIFICATION_AUTO_FINISHED',
			'IDENTIFICATION_RESUBMITTED',
		]);
		expect(receiver.received[1].json).toMatchObject({
			final: true,
			status: { overall: 'APPROVED' },
		});
	});

	test('an unknown link is a 404 page; a result the page does not offer a 400 page', async () => {
		const unknown = await call(sb, 'GET', '/api/v2/redirect?authToken=nope', { auth: 'none' });
		expect(unknown.status).toBe(404);
		expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
		const token = await createToken();
		expect((await choose(token.authToken, 'MAYBE')).status).toBe(400);
		expect(sb.kyc.get(token.scanRef)?.state).toBe('IN_PROGRESS');
	});

	test('escapes what the token request put on the page', async () => {
		const token = await createToken({ clientId: '<script>alert(1)</script>' });
		const page = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
		expect(page.text).not.toContain('<script>');
		expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
	});

	test('without any webhook address it still finishes, and says that nothing was sent and how to get the result', async () => {
		const fresh = await startSandbox();
		try {
			const { scanRef, authToken } = fresh.kyc.createSession('demo-2');
			const open = await call(fresh, 'GET', `/api/v2/redirect?authToken=${authToken}`, {
				auth: 'none',
			});
			expect(open.text).toContain('No webhook will be sent');
			const res = await call(fresh, 'POST', '/api/v2/redirect', {
				auth: 'none',
				body: new URLSearchParams({ authToken, result: 'APPROVED' }).toString(),
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			});
			expect(res.status).toBe(200);
			expect(res.text).toContain('No webhook was sent');
			expect(res.text).toContain('Callback URL');
			expect(res.text).not.toContain('/__sandbox/webhooks/config');
			expect(fresh.kyc.get(scanRef)?.state).toBe('FINISHED');
			const status = await call(fresh, 'POST', '/api/v2/status', { body: { scanRef } });
			expect(status.json.status).toBe('APPROVED');
			expect(fresh.webhooks.log).toEqual([]);
		} finally {
			await fresh.close();
		}
	});

	test('says where the result goes, then where it went and what the receiver answered', async () => {
		const token = await createToken();
		const open = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
		expect(open.text).toContain(`goes to <code>${receiver.url}</code>`);
		const res = await choose(token.authToken, 'APPROVED');
		expect(res.text).toContain(`to <code>${receiver.url}</code>`);
		expect(res.text).toContain('answered HTTP 200 (accepted)');
		expect(res.text).toContain('/__sandbox/deliveries');
		expect(receiver.received).toHaveLength(1);
	});

	test('a refusing receiver: the page shows its answer and that the delivery is tried again', async () => {
		receiver.answers.push(500);
		const res = await choose((await createToken()).authToken, 'DENIED');
		expect(res.text).toContain('answered HTTP 500 (refused)');
		expect(res.text).toContain('tried again');
		await settled();
	});

	test('a token with a Callback URL: its result goes there (and to the configured address), the page names both', async () => {
		const own = await startReceiver();
		try {
			const token = await createToken({ callbackUrl: own.url });
			const open = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
			expect(open.text).toContain(`<code>${own.url}</code> and <code>${receiver.url}</code>`);
			const res = await choose(token.authToken, 'APPROVED');
			expect(res.text).toContain(`<code>${own.url}</code> (the token’s Callback URL)`);
			await settled();
			expect(own.received).toHaveLength(1);
			expect(own.received[0].json).toMatchObject({ scanRef: token.scanRef, final: true });
			expect(receiver.received).toHaveLength(1);
		} finally {
			await own.close();
		}
	});

	test('suspected: not final, then the same link is the reviewer’s page, whose decision is final', async () => {
		const token = await createToken();
		const res = await choose(token.authToken, 'SUSPECTED');
		expect(res.status).toBe(200);
		expect(res.text).toContain('Decide as the reviewer');
		expect(sb.kyc.get(token.scanRef)?.state).toBe('AWAITING_MANUAL_REVIEW');
		const review = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
		expect(review.text).toContain('Approve as the reviewer');
		expect((await choose(token.authToken, 'DENIED')).text).toContain('by the reviewer');
		await settled();
		expect(receiver.received.map((r) => [r.headers['service-event-type'], r.json.final])).toEqual([
			['IDENTIFICATION_AUTO_FINISHED', false],
			['IDENTIFICATION_MANUAL_FINISHED', true],
		]);
		expect(receiver.received[0].json.status.overall).toBe('SUSPECTED');
		expect(receiver.received[1].json.status.overall).toBe('DENIED');
	});

	test('expire now: IDENTIFICATION_EXPIRED (overall EXPIRED), after which Delete Personal Data works', async () => {
		const token = await createToken();
		const before = await call(sb, 'POST', '/api/v2/delete', { body: { scanRef: token.scanRef } });
		expect(before.json.message).toBe('Token has not expired yet.');
		const res = await choose(token.authToken, 'EXPIRED');
		expect(res.text).toContain('Delete Personal Data');
		await settled();
		expect(receiver.received[0].headers['service-event-type']).toBe('IDENTIFICATION_EXPIRED');
		expect(receiver.received[0].json.status.overall).toBe('EXPIRED');
		const erased = await call(sb, 'POST', '/api/v2/delete', { body: { scanRef: token.scanRef } });
		expect(erased.status).toBe(200);
	});

	test('cancel: IDENTIFICATION_CANCELLED with overall DENIED; a re-upload link offers no cancel', async () => {
		const token = await createToken();
		await choose(token.authToken, 'CANCELLED');
		await settled();
		expect(receiver.received[0].headers['service-event-type']).toBe('IDENTIFICATION_CANCELLED');
		expect(receiver.received[0].json.status.overall).toBe('DENIED');
		const other = await createToken();
		await sb.kyc.autoFinish(other.scanRef, { final: true, overall: 'DENIED' });
		const info = await call(
			sb,
			'POST',
			`/kyc/identifications/${other.scanRef}/request-information/`,
		);
		const page = await call(sb, 'GET', info.json.sessionUrl, { auth: 'none' });
		expect(page.text).toContain('Expire now');
		expect(page.text).not.toContain('value="CANCELLED"');
		expect((await choose(info.json.tokenString, 'CANCELLED')).status).toBe(409);
	});

	test('a finished verification’s page asks for a re-upload: a new link, the old one gone, no webhook', async () => {
		const token = await createToken();
		await choose(token.authToken, 'DENIED');
		await settled();
		const ended = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
		expect(ended.text).toContain('Ask for a re-upload');
		const res = await choose(token.authToken, 'REUPLOAD');
		expect(res.status).toBe(200);
		const link = /href="([^"]+)"/.exec(res.text)![1].replace(/&amp;/g, '&');
		expect(sb.kyc.get(token.scanRef)?.state).toBe('REUPLOAD_REQUESTED');
		expect((await call(sb, 'GET', token.redirectUrl, { auth: 'none' })).status).toBe(404);
		expect((await call(sb, 'GET', link, { auth: 'none' })).text).toContain(
			'upload their documents again',
		);
		expect(receiver.received).toHaveLength(1);
	});

	test('Expiry Time is honoured: after it the verification is EXPIRED, IDENTIFICATION_EXPIRED is sent, and it can be erased', async () => {
		const token = await createToken({ expiryTime: 1 });
		const open = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
		expect(open.text).toContain('This link expires at');
		const active = await call(sb, 'POST', '/api/v2/status', { body: { scanRef: token.scanRef } });
		expect(active.json.status).toBe('ACTIVE');
		// The expiry's timer fires after 1 s; on a loaded machine later: wait for its delivery (10 s at most).
		for (let waited = 0; receiver.received.length === 0 && waited < 10_000; waited += 100) {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		await settled();
		expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
			'IDENTIFICATION_EXPIRED',
		]);
		const status = await call(sb, 'POST', '/api/v2/status', { body: { scanRef: token.scanRef } });
		expect(status.json.status).toBe('EXPIRED');
		expect((await call(sb, 'GET', token.redirectUrl, { auth: 'none' })).status).toBe(409);
		const erased = await call(sb, 'POST', '/api/v2/delete', { body: { scanRef: token.scanRef } });
		expect(erased.status).toBe(200);
	});

	test('an Expiry Time already over is noticed when the verification is next read', async () => {
		const token = await createToken({ expiryTime: 0 });
		const status = await call(sb, 'POST', '/api/v2/status', { body: { scanRef: token.scanRef } });
		expect(status.json.status).toBe('EXPIRED');
		await settled();
	});
});
