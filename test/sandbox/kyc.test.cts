import { sign, startSandbox, type Sandbox } from './index.cjs';
import { call, useReceiver, useSandbox } from './test-helpers.cjs';
import type { Receiver } from './test-helpers.cjs';

describe('sandbox KYC', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]), { webhooks: { retryDelaysMs: [] } });

	const events = () =>
		receiver.received.map((r) => ({
			type: r.headers['service-event-type'],
			final: r.json.final,
			overall: r.json.status.overall,
			scanRef: r.json.scanRef,
		}));

	describe('POST /api/v2/token', () => {
		test('creates a session and echoes the request fields', async () => {
			const res = await call(sb, 'POST', '/api/v2/token', {
				body: { clientId: 'user-42', firstName: 'Jonas', locale: 'lt' },
			});
			expect(res.status).toBe(201);
			expect(res.json).toMatchObject({
				clientId: 'user-42',
				firstName: 'Jonas',
				locale: 'lt',
				authToken: expect.any(String),
				scanRef: expect.any(String),
				expiryTime: 3600,
				sessionLength: 600,
				tokenType: 'IDENTIFICATION',
				message: 'Token created successfully',
				digitString: null,
			});
			expect(res.json.redirectUrl).toBe(
				`${sb.url}/api/v2/redirect?authToken=${encodeURIComponent(res.json.authToken)}`,
			);
			expect(sb.kyc.get(res.json.scanRef)).toMatchObject({
				state: 'IN_PROGRESS',
				clientId: 'user-42',
			});
		});

		test('gives the 8-digit code for the mobile app only when asked for', async () => {
			const res = await call(sb, 'POST', '/api/v2/token', {
				body: { clientId: 'user-43', generateDigitString: true },
			});
			expect(res.json.digitString).toMatch(/^\d{8}$/);
		});

		test('answers 400 naming clientId when it is missing (MISSING_VALUE) or blank (BAD_VALUE)', async () => {
			for (const [body, identifier] of [
				[{}, 'MISSING_VALUE'],
				[{ clientId: '  ' }, 'BAD_VALUE'],
			] as const) {
				const res = await call(sb, 'POST', '/api/v2/token/', { body });
				expect(res.status).toBe(400);
				expect(res.json.identifier).toBe(identifier);
				expect(res.json.message).toMatch(/^Field 'clientId'/);
				expect(res.json.message).toContain("Field 'clientId'");
			}
		});
	});

	describe("a token's own callbackUrl", () => {
		let own: Receiver;
		useReceiver((r) => (own = r));

		const createToken = async (callbackUrl: string) => {
			const res = await call(sb, 'POST', '/api/v2/token', {
				body: { clientId: 'user-cb', callbackUrl },
			});
			expect(res.status).toBe(201);
			expect(res.json.callbackUrl).toBe(callbackUrl);
			return res.json.scanRef as string;
		};

		test('gets the results of that verification, signed, with the same bytes as the dashboard URL', async () => {
			const scanRef = await createToken(`${own.url}?signature=abc`);
			const delivery = await sb.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
			expect(delivery).toMatchObject({
				status: 'delivered',
				target: `${own.url}?signature=abc`,
			});
			expect(own.received).toHaveLength(1);
			expect(receiver.received).toHaveLength(1);
			const [mine] = own.received;
			expect(mine.json).toMatchObject({ scanRef, final: true });
			expect(mine.headers['service-signature']).toBe(
				sign(mine.raw, sb.credentials.signingKey, 'hexLower'),
			);
			expect(mine.raw.equals(receiver.received[0].raw)).toBe(true);
		});

		test('is retried with the configured rules when it does not answer 2xx', async () => {
			sb.webhooks.configure({ url: receiver.url, retryDelaysMs: [10, 10] });
			const scanRef = await createToken(own.url);
			own.answers.push(500, 503);
			const delivery = await sb.kyc.autoFinish(scanRef, { final: true });
			expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 503, 200]);
			expect(own.received).toHaveLength(3);
		});

		test('gets the results even when no dashboard URL is configured', async () => {
			sb.reset();
			const fresh = await startSandbox();
			try {
				const res = await call(fresh, 'POST', '/api/v2/token', {
					body: { clientId: 'user-cb2', callbackUrl: own.url },
				});
				const delivery = await fresh.kyc.expire(res.json.scanRef);
				expect(delivery.status).toBe('delivered');
				expect(own.received[0].json).toMatchObject({ scanRef: res.json.scanRef });
				expect(own.received[0].headers['service-signature']).toBe(
					sign(own.received[0].raw, fresh.credentials.signingKey),
				);
			} finally {
				await fresh.close();
			}
		});

		test('refuses a callbackUrl that is not a web address (400 naming the field)', async () => {
			const res = await call(sb, 'POST', '/api/v2/token', {
				body: { clientId: 'user-cb3', callbackUrl: 'not a url' },
			});
			expect(res.status).toBe(400);
			expect(res.json.message).toContain("Field 'callbackUrl'");
		});
	});

	describe('POST /kyc/identifications/{scanRef}/request-information/', () => {
		const path = (scanRef: string) => `/kyc/identifications/${scanRef}/request-information/`;

		test('answers 404 for an unknown scanRef and 409 for an unfinished session', async () => {
			expect((await call(sb, 'POST', path('nope'))).status).toBe(404);
			const { scanRef } = sb.kyc.createSession('c-1');
			const res = await call(sb, 'POST', path(scanRef));
			expect(res.status).toBe(409);
			expect(res.json.message).toMatch(/finished/);
		});

		test('gives a finished session a new link for the re-upload ({sessionUrl, tokenString}, as the service) without any webhook', async () => {
			const { scanRef, authToken } = sb.kyc.createSession('c-1');
			await sb.kyc.autoFinish(scanRef, { final: true });
			const res = await call(sb, 'POST', path(scanRef));
			expect(res.status).toBe(200);
			expect(res.json).toEqual({ sessionUrl: expect.any(String), tokenString: expect.any(String) });
			expect(res.json.tokenString).not.toBe(authToken);
			expect(res.json.sessionUrl).toBe(
				`${sb.url}/api/v2/redirect?authToken=${encodeURIComponent(res.json.tokenString)}`,
			);
			expect(receiver.received).toHaveLength(1);
			expect(sb.kyc.get(scanRef)).toMatchObject({
				state: 'REUPLOAD_REQUESTED',
				authToken: res.json.tokenString,
			});
			expect((await call(sb, 'POST', path(scanRef))).status).toBe(409);
		});

		test('accepts the optional body and checks its lifetime', async () => {
			const { scanRef } = sb.kyc.createSession('c-2');
			await sb.kyc.autoFinish(scanRef, { final: true });
			const bad = await call(sb, 'POST', path(scanRef), { body: { lifetime: 2592001 } });
			expect(bad.status).toBe(400);
			expect(bad.json.message).toContain("Field 'lifetime'");
			const ok = await call(sb, 'POST', path(scanRef), { body: { lifetime: 3600 } });
			expect(ok.status).toBe(200);
		});
	});

	test('drives the full state table and the receiver sees the events in order', async () => {
		// 1. automated review is conclusive
		const a = sb.kyc.createSession('client-a').scanRef;
		await sb.kyc.autoFinish(a, { final: true });
		// 2. automated result is preliminary, a reviewer decides
		const b = sb.kyc.createSession('client-b').scanRef;
		await sb.kyc.autoFinish(b, { final: false });
		await sb.kyc.manualFinish(b, { overall: 'DENIED' });
		// 3. re-upload requested (over the API), resubmitted, no review needed
		expect((await call(sb, 'POST', `/kyc/identifications/${a}/request-information/`)).status).toBe(
			200,
		);
		await sb.kyc.userResubmits(a, { needsReview: false });
		// 4. re-upload that still needs review: RESUBMITTED final false, then MANUAL_FINISHED
		sb.kyc.requestInformation(b);
		const both = await sb.kyc.userResubmits(b, { needsReview: true });
		expect(both.map((d) => d.eventType)).toEqual([
			'IDENTIFICATION_RESUBMITTED',
			'IDENTIFICATION_MANUAL_FINISHED',
		]);
		// 5. re-upload not completed in time: EXPIRED, no resubmission event
		sb.kyc.requestInformation(a);
		await sb.kyc.expire(a);
		// 6. flow not completed: EXPIRED; 7. abandoned: CANCELLED
		const c = sb.kyc.createSession('client-c').scanRef;
		await sb.kyc.expire(c);
		const d = sb.kyc.createSession('client-d').scanRef;
		await sb.kyc.cancel(d);

		expect(events()).toEqual([
			{ type: 'IDENTIFICATION_AUTO_FINISHED', final: true, overall: 'APPROVED', scanRef: a },
			{ type: 'IDENTIFICATION_AUTO_FINISHED', final: false, overall: 'SUSPECTED', scanRef: b },
			{ type: 'IDENTIFICATION_MANUAL_FINISHED', final: true, overall: 'DENIED', scanRef: b },
			{ type: 'IDENTIFICATION_RESUBMITTED', final: true, overall: 'APPROVED', scanRef: a },
			{ type: 'IDENTIFICATION_RESUBMITTED', final: false, overall: 'SUSPECTED', scanRef: b },
			{ type: 'IDENTIFICATION_MANUAL_FINISHED', final: true, overall: 'APPROVED', scanRef: b },
			{ type: 'IDENTIFICATION_EXPIRED', final: true, overall: 'EXPIRED', scanRef: a },
			{ type: 'IDENTIFICATION_EXPIRED', final: true, overall: 'EXPIRED', scanRef: c },
			{ type: 'IDENTIFICATION_CANCELLED', final: true, overall: 'DENIED', scanRef: d },
		]);
		expect(receiver.received.length).toBeGreaterThan(0);
		expect(receiver.received.every((r) => r.json.clientId.startsWith('client-'))).toBe(true);
		expect(sb.kyc.get(b)?.events).toEqual([
			'IDENTIFICATION_AUTO_FINISHED',
			'IDENTIFICATION_MANUAL_FINISHED',
			'IDENTIFICATION_RESUBMITTED',
			'IDENTIFICATION_MANUAL_FINISHED',
		]);
	});

	describe('expiry and cancellation (the service has no CANCELLED overall status)', () => {
		const last = () => receiver.received[receiver.received.length - 1].json;

		test('an untouched session expires as EXPIRED, with nothing read', async () => {
			const { scanRef } = sb.kyc.createSession('c-untouched');
			await sb.kyc.expire(scanRef);
			expect(last()).toMatchObject({
				final: true,
				status: { overall: 'EXPIRED', autoDocument: null, autoFace: null, fraudTags: [] },
				data: { docFirstName: null, docLastName: null },
				fileUrls: {},
			});
		});

		test('a session with failed attempts sends nothing until it expires, then DENIED with the checks', async () => {
			const { scanRef } = sb.kyc.createSession('c-failed');
			sb.kyc.failAttempt(scanRef);
			sb.kyc.failAttempt(scanRef);
			expect(receiver.received).toHaveLength(0);
			expect(sb.kyc.get(scanRef)).toMatchObject({ state: 'IN_PROGRESS', failedAttempts: 2 });
			await sb.kyc.expire(scanRef);
			expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
				'IDENTIFICATION_EXPIRED',
			]);
			expect(last().status).toMatchObject({
				overall: 'DENIED',
				autoDocument: 'DOC_NOT_SUPPORTED',
				autoFace: 'FACE_MISMATCH',
			});
			expect(last().data.docFirstName).toBe('ĄŽUOLAS');
		});

		test('a cancelled session is DENIED, never CANCELLED', async () => {
			const { scanRef } = sb.kyc.createSession('c-cancel');
			await sb.kyc.cancel(scanRef);
			expect(receiver.received[0].headers['service-event-type']).toBe('IDENTIFICATION_CANCELLED');
			expect(last().status.overall).toBe('DENIED');
			expect(receiver.received[0].raw.toString('utf8')).not.toMatch(/CANCEL+ED"/);
		});

		test('failing an attempt is refused once the session has a result', async () => {
			const { scanRef } = sb.kyc.createSession('c-done');
			await sb.kyc.autoFinish(scanRef, { final: true });
			expect(() => sb.kyc.failAttempt(scanRef)).toThrow(/FINISHED/);
		});
	});

	describe('POST /api/v2/status', () => {
		const status = (scanRef: unknown) => call(sb, 'POST', '/api/v2/status', { body: { scanRef } });

		test('reports ACTIVE while the link can be used, REVIEWING while a person reviews it, then the result, with the service’s fields', async () => {
			const { scanRef } = sb.kyc.createSession('c-status');
			const active = await status(scanRef);
			expect(active.status).toBe(200);
			expect(active.json).toEqual({
				status: 'ACTIVE',
				scanRef,
				clientId: 'c-status',
				autoDocument: null,
				autoFace: null,
				manualDocument: null,
				manualFace: null,
				fraudTags: [],
				mismatchTags: [],
			});
			await sb.kyc.autoFinish(scanRef, { final: false });
			expect((await status(scanRef)).json).toMatchObject({
				status: 'REVIEWING',
				autoFace: 'FACE_UNCERTAIN',
				manualFace: null,
				fraudTags: ['FACE_SUSPECTED'],
			});
			await sb.kyc.manualFinish(scanRef, { overall: 'APPROVED' });
			expect((await status(scanRef)).json).toMatchObject({
				status: 'APPROVED',
				autoDocument: 'DOC_VALIDATED',
				manualDocument: 'DOC_VALIDATED',
				manualFace: 'FACE_MATCH',
			});
		});

		test('answers 404 for an unknown scanRef and 400 MISSING_VALUE without one', async () => {
			expect((await status('nope')).status).toBe(404);
			const missing = await call(sb, 'POST', '/api/v2/status', { body: {} });
			expect(missing.status).toBe(400);
			expect(missing.json).toMatchObject({
				identifier: 'MISSING_VALUE',
				message: "Field 'scanRef' is required.",
			});
			expect((await call(sb, 'POST', '/api/v2/status', { auth: 'none', body: {} })).status).toBe(
				401,
			);
		});
	});

	test('with sendLegacyIdentification, each result also goes out as IDENTIFICATION with the same bytes', async () => {
		sb.webhooks.configure({
			url: receiver.url,
			retryDelaysMs: [],
			sendLegacyIdentification: true,
		});
		const { scanRef } = sb.kyc.createSession('c-legacy');
		const delivery = await sb.kyc.autoFinish(scanRef, { final: true });
		expect(delivery.eventType).toBe('IDENTIFICATION_AUTO_FINISHED');
		while (sb.webhooks.log.some((d) => d.status === 'pending'))
			await new Promise((resolve) => setTimeout(resolve, 5));
		expect(receiver.received.map((r) => r.headers['service-event-type']).sort()).toEqual([
			'IDENTIFICATION',
			'IDENTIFICATION_AUTO_FINISHED',
		]);
		expect(receiver.received[0].raw.equals(receiver.received[1].raw)).toBe(true);
		expect(sb.kyc.get(scanRef)?.events).toEqual(['IDENTIFICATION_AUTO_FINISHED', 'IDENTIFICATION']);
	});

	test('refuses transitions the state table does not allow (409) and sends nothing', async () => {
		const s = sb.kyc.createSession('c').scanRef;
		await expect(sb.kyc.manualFinish(s)).rejects.toMatchObject({ status: 409 });
		await expect(sb.kyc.userResubmits(s, { needsReview: false })).rejects.toMatchObject({
			status: 409,
		});
		await sb.kyc.autoFinish(s, { final: true });
		await expect(sb.kyc.autoFinish(s, { final: true })).rejects.toThrow(/FINISHED/);
		await expect(sb.kyc.cancel(s)).rejects.toMatchObject({ status: 409 });
		await expect(sb.kyc.expire(s)).rejects.toMatchObject({ status: 409 });
		expect(() => sb.kyc.requestInformation('unknown')).toThrow(/No identification/);
		expect(receiver.received).toHaveLength(1);
	});

	test('can leave a resubmission waiting for the reviewer', async () => {
		const s = sb.kyc.createSession('c').scanRef;
		await sb.kyc.autoFinish(s, { final: true });
		sb.kyc.requestInformation(s);
		const [resubmitted] = await sb.kyc.userResubmits(s, { needsReview: true, reviewNow: false });
		expect(resubmitted.eventType).toBe('IDENTIFICATION_RESUBMITTED');
		expect(sb.kyc.get(s)?.state).toBe('AWAITING_MANUAL_REVIEW');
		await sb.kyc.manualFinish(s);
		expect(sb.kyc.get(s)?.state).toBe('FINISHED');
	});
});
