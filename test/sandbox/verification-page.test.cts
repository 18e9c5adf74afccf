/** The verification page a token's redirectUrl opens: a person trying the demo finishes there. */
import { startSandbox } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';
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

	test('an unknown link is a 404 page; a result other than approved or denied a 400 page', async () => {
		const unknown = await call(sb, 'GET', '/api/v2/redirect?authToken=nope', { auth: 'none' });
		expect(unknown.status).toBe(404);
		expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
		const token = await createToken();
		expect((await choose(token.authToken, 'SUSPECTED')).status).toBe(400);
		expect(sb.kyc.get(token.scanRef)?.state).toBe('IN_PROGRESS');
	});

	test('escapes what the token request put on the page', async () => {
		const token = await createToken({ clientId: '<script>alert(1)</script>' });
		const page = await call(sb, 'GET', token.redirectUrl, { auth: 'none' });
		expect(page.text).not.toContain('<script>');
		expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
	});

	test('changes nothing when no webhook URL is configured (409 page saying how to configure one)', async () => {
		const fresh = await startSandbox();
		try {
			const { scanRef, authToken } = fresh.kyc.createSession('demo-2');
			const res = await call(fresh, 'POST', '/api/v2/redirect', {
				auth: 'none',
				body: new URLSearchParams({ authToken, result: 'APPROVED' }).toString(),
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			});
			expect(res.status).toBe(409);
			expect(res.text).toContain('/__sandbox/webhooks/config');
			expect(fresh.kyc.get(scanRef)?.state).toBe('IN_PROGRESS');
		} finally {
			await fresh.close();
		}
	});
});
