import { createHmac } from 'node:crypto';
import { webhookBodySchemas } from '../../nodes/shared/contract';
import { SANDBOX_EVENT_TYPES } from './bodies.cjs';
import { startSandbox } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { startReceiver, useSandbox } from './test-helpers.cjs';
import type { Receiver } from './test-helpers.cjs';

const hmac = (raw: Buffer, key: string) => createHmac('sha256', key).update(raw).digest();

describe('sandbox webhook sender', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]), {
		webhooks: { retryDelaysMs: [10, 10], timeoutMs: 500 },
	});

	test('signs the exact raw body bytes with the signing key (lowercase hex by default)', async () => {
		const delivery = await sb.webhooks.send('BANK_VERIFICATION');
		expect(delivery.status).toBe('delivered');
		const [got] = receiver.received;
		expect(got.headers['service-signature']).toBe(
			hmac(got.raw, sb.credentials.signingKey).toString('hex'),
		);
		expect(got.headers['service-signature']).not.toBe(hmac(got.raw, 'another-key').toString('hex'));
		expect(got.headers['service-event-type']).toBe('BANK_VERIFICATION');
		expect(got.headers['content-type']).toBe('application/json');
		expect(got.raw.toString('utf8')).toBe(delivery.payload);
	});

	test('sends a kind to its own address when one is set (as the dashboard sets one per kind), the others to the configured one', async () => {
		const other = await startReceiver();
		try {
			sb.webhooks.configure({ url: receiver.url, urlsByKind: { COMPANY_SUBMIT: other.url } });
			expect(sb.webhooks.urlOf('COMPANY_SUBMIT')).toBe(other.url);
			expect(sb.webhooks.urlOf('BANK_VERIFICATION')).toBe(receiver.url);
			await sb.webhooks.send('COMPANY_SUBMIT');
			await sb.webhooks.send('BANK_VERIFICATION');
			expect(other.received.map((r) => r.headers['service-event-type'])).toEqual([
				'COMPANY_SUBMIT',
			]);
			expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
				'BANK_VERIFICATION',
			]);
		} finally {
			await other.close();
		}
	});

	test('sends a kind to each of its addresses (one dashboard notification per receiver), each signed, and Resend goes to the same one', async () => {
		const other = await startReceiver();
		try {
			sb.webhooks.configure({
				url: receiver.url,
				urlsByKind: { IDENTIFICATION_EXPIRED: [receiver.url, other.url] },
			});
			const first = await sb.webhooks.send('IDENTIFICATION_EXPIRED');
			expect(first.url).toBe(receiver.url);
			const sent = sb.webhooks.log.filter((d) => d.eventType === 'IDENTIFICATION_EXPIRED');
			expect(sent.map((d) => [d.url, d.status])).toEqual([
				[receiver.url, 'delivered'],
				[other.url, 'delivered'],
			]);
			for (const got of [...receiver.received, ...other.received])
				expect(got.headers['service-signature']).toBe(
					hmac(got.raw, sb.credentials.signingKey).toString('hex'),
				);
			await sb.webhooks.resend(sent[1].id);
			expect(receiver.received).toHaveLength(1);
			expect(other.received).toHaveLength(2);
		} finally {
			await other.close();
		}
	});

	test('sends a string body byte for byte (whitespace and non-ASCII included)', async () => {
		const raw =
			'{\n  "final": true,\n  "scanRef": "ž-1",\n  "status": {"overall": "APPROVED"}\n}\n';
		await sb.webhooks.send('IDENTIFICATION_AUTO_FINISHED', raw);
		const [got] = receiver.received;
		expect(got.raw.equals(Buffer.from(raw, 'utf8'))).toBe(true);
		expect(got.headers['service-signature']).toBe(
			hmac(Buffer.from(raw, 'utf8'), sb.credentials.signingKey).toString('hex'),
		);
	});

	test.each([
		['hexUpper', (mac: Buffer) => mac.toString('hex').toUpperCase()],
		['base64', (mac: Buffer) => mac.toString('base64')],
		['prefixedHex', (mac: Buffer) => `sha256=${mac.toString('hex')}`],
	] as const)('can encode the signature as %s', async (encoding, expected) => {
		sb.webhooks.configure({ url: receiver.url, signatureEncoding: encoding, signingKey: 'k-2' });
		await sb.webhooks.send('ACCOUNT_CHECK');
		const [got] = receiver.received;
		expect(got.headers['service-signature']).toBe(expected(hmac(got.raw, 'k-2')));
	});

	test('sends the event-type header with every kind by default, the legacy IDENTIFICATION included (as the service), and omits it as configured', async () => {
		await sb.webhooks.send('IDENTIFICATION');
		await sb.webhooks.send('IDENTIFICATION_EXPIRED');
		expect(receiver.received[0].headers['service-event-type']).toBe('IDENTIFICATION');
		expect(receiver.received[1].headers['service-event-type']).toBe('IDENTIFICATION_EXPIRED');
		sb.webhooks.configure({
			url: receiver.url,
			omitEventTypeHeaderFor: ['IDENTIFICATION_EXPIRED'],
		});
		await sb.webhooks.send('IDENTIFICATION_EXPIRED');
		await sb.webhooks.send('IDENTIFICATION');
		expect(receiver.received[2].headers).not.toHaveProperty('service-event-type');
		expect(receiver.received[3].headers['service-event-type']).toBe('IDENTIFICATION');
	});

	test('names the headers with the configured prefix: Idenfy gives the real service’s Idenfy-Event-Type and Idenfy-Signature', async () => {
		sb.webhooks.configure({ url: receiver.url, headerPrefix: 'Idenfy', signingKey: 'k-idenfy' });
		try {
			const delivery = await sb.webhooks.send('BANK_VERIFICATION');
			expect(Object.keys(delivery.headers)).toEqual(
				expect.arrayContaining(['Idenfy-Event-Type', 'Idenfy-Signature']),
			);
			const [got] = receiver.received;
			expect(got.headers['idenfy-event-type']).toBe('BANK_VERIFICATION');
			expect(got.headers['idenfy-signature']).toBe(hmac(got.raw, 'k-idenfy').toString('hex'));
			expect(got.headers).not.toHaveProperty('service-signature');
			expect(got.headers).not.toHaveProperty('service-event-type');
			// A later configure without a prefix keeps it, as it keeps the signing key.
			sb.webhooks.configure({ url: receiver.url, retryDelaysMs: [] });
			expect(sb.webhooks.headerPrefix).toBe('Idenfy');
			expect(() =>
				sb.webhooks.configure({ url: receiver.url, headerPrefix: 'Bad Prefix' }),
			).toThrow(/headerPrefix/);
			expect(sb.webhooks.headerPrefix).toBe('Idenfy');
		} finally {
			sb.webhooks.configure({ url: receiver.url, headerPrefix: ' Service- ' });
		}
		expect(sb.webhooks.headerPrefix).toBe('Service');
	});

	test('takes the header prefix from startSandbox until configure sets another', async () => {
		const other = await startSandbox({ headerPrefix: 'Idenfy' });
		try {
			expect(other.webhooks.headerPrefix).toBe('Idenfy');
			other.webhooks.configure({ url: receiver.url });
			const delivery = await other.webhooks.send('ACCOUNT_CHECK');
			expect(delivery.headers['Idenfy-Event-Type']).toBe('ACCOUNT_CHECK');
			expect(receiver.received[0].headers['idenfy-signature']).toBe(
				hmac(receiver.received[0].raw, other.credentials.signingKey).toString('hex'),
			);
		} finally {
			await other.close();
		}
		await expect(startSandbox({ headerPrefix: '' })).rejects.toThrow(/headerPrefix/);
	});

	test.each(SANDBOX_EVENT_TYPES)(
		'sends a default %s body that the contract schema accepts',
		async (eventType) => {
			await sb.webhooks.send(eventType);
			const [got] = receiver.received;
			expect(webhookBodySchemas[eventType].safeParse(got.json).success).toBe(true);
			expect(Object.keys(got.json).sort()).toEqual(
				Object.keys(sb.webhooks.sampleBody(eventType) as object).sort(),
			);
			expect(Object.keys(got.json).length).toBeGreaterThanOrEqual(2);
		},
	);

	test('has identification bodies with final, scanRef, clientId, status and document data', () => {
		const body = sb.webhooks.sampleBody('IDENTIFICATION_AUTO_FINISHED') as any;
		expect(body).toMatchObject({
			final: true,
			platform: 'PC',
			clientId: expect.any(String),
			scanRef: expect.any(String),
			startTime: expect.any(Number),
			finishTime: expect.any(Number),
		});
		// Unix seconds, as the service's published example.
		expect(Math.abs(body.finishTime - Date.now() / 1000)).toBeLessThan(60);
		expect(body.status).toEqual({
			overall: 'APPROVED',
			fraudTags: [],
			mismatchTags: [],
			autoFace: 'FACE_MATCH',
			manualFace: null,
			autoDocument: 'DOC_VALIDATED',
			manualDocument: null,
			additionalSteps: null,
		});
		expect(body.data).toMatchObject({ docFirstName: 'ĄŽUOLAS', docLastName: 'ŽEMAITIS' });
		const manual = sb.webhooks.sampleBody('IDENTIFICATION_MANUAL_FINISHED') as any;
		expect(manual.status).toMatchObject({
			manualFace: 'FACE_MATCH',
			manualDocument: 'DOC_VALIDATED',
		});
		expect(sb.webhooks.sampleBody('BANK_CARD_VERIFICATION_COMPLETED')).toMatchObject({
			status: 'MATCH',
			firstSix: '424242',
			lastFour: '4242',
			nameMatch: true,
		});
		expect(sb.webhooks.sampleBody('COMPANY_REVIEW')).toMatchObject({
			id: 'company-001',
			approvalStatus: 'APPROVED',
		});
	});

	test('sends non-ASCII personal data as UTF-8 and signs those bytes', async () => {
		await sb.webhooks.send('AML_MONITORING');
		const [got] = receiver.received;
		expect(got.json).toMatchObject({ name: 'Łukasz', surname: 'Müller-Wiśniewski' });
		expect(got.raw.toString('utf8')).toContain('Łukasz');
		sb.webhooks.configure({ url: receiver.url, signingKey: 'k-utf8' });
		await sb.webhooks.send('IDENTIFICATION_AUTO_FINISHED');
		const identification = receiver.received[1];
		expect(identification.json.data.orgFirstName).toBe('Ąžuolas');
		expect(identification.headers['service-signature']).toBe(
			hmac(identification.raw, 'k-utf8').toString('hex'),
		);
	});

	test('retries after a 500 and records both attempts in the delivery log', async () => {
		receiver.answers.push(500);
		const delivery = await sb.webhooks.send('ACCOUNT_CHECK', {
			scanRef: 's-1',
			status: 1,
			score: 0.5,
		});
		expect(delivery.status).toBe('delivered');
		expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
		expect(receiver.received).toHaveLength(2);
		expect(receiver.received[1].raw.equals(receiver.received[0].raw)).toBe(true);
		expect(sb.webhooks.log).toEqual([delivery]);
		expect(delivery).toMatchObject({
			eventType: 'ACCOUNT_CHECK',
			url: receiver.url,
			payload: '{"scanRef":"s-1","status":1,"score":0.5}',
		});
	});

	test('retries after a timeout and after a reset connection (status 0 = no response)', async () => {
		receiver.answers.push('hang', 'reset');
		const delivery = await sb.webhooks.send('BANK_VERIFICATION');
		expect(delivery.attempts.map((a) => a.statusCode)).toEqual([0, 0, 200]);
		expect(delivery.attempts[0].error).toMatch(/no answer within 500 ms/);
		expect(delivery.status).toBe('delivered');
	});

	test('gives up after the schedule and marks the delivery failed', async () => {
		receiver.answers.push(503, 404, 500);
		const delivery = await sb.webhooks.send('BANK_VERIFICATION');
		expect(delivery.status).toBe('failed');
		expect(delivery.attempts.map((a) => a.statusCode)).toEqual([503, 404, 500]);
	});

	test('records 0 when the receiver is unreachable', async () => {
		const gone = await startReceiver();
		await gone.close();
		sb.webhooks.configure({ url: gone.url, retryDelaysMs: [] });
		const delivery = await sb.webhooks.send('BANK_VERIFICATION');
		expect(delivery.status).toBe('failed');
		expect(delivery.attempts).toEqual([
			expect.objectContaining({ statusCode: 0, error: expect.any(String) }),
		]);
	});

	test('resends a delivery with the same bytes and signature as a new log entry', async () => {
		const first = await sb.webhooks.send('BANK_VERIFICATION');
		const again = await sb.webhooks.resend(first.id);
		expect(again.id).not.toBe(first.id);
		expect(again.resendOf).toBe(first.id);
		expect(sb.webhooks.log.map((d) => d.id)).toEqual([first.id, again.id]);
		expect(receiver.received[1].raw.equals(receiver.received[0].raw)).toBe(true);
		expect(receiver.received[1].headers['service-signature']).toBe(
			receiver.received[0].headers['service-signature'],
		);
		await expect(sb.webhooks.resend('nope')).rejects.toThrow(/No delivery/);
	});

	test('gives up pending retries when the sandbox closes', async () => {
		const other = await startSandbox();
		other.webhooks.configure({ url: receiver.url, retryDelaysMs: [60000] });
		receiver.answers.push(500);
		const pending = other.webhooks.send('BANK_VERIFICATION');
		while (other.webhooks.log[0]?.attempts.length !== 1) await new Promise((r) => setTimeout(r, 5));
		await other.close();
		const delivery = await pending;
		expect(delivery.status).toBe('failed');
		expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500]);
	});

	test('only delivers to loopback addresses and needs a configured URL', async () => {
		expect(() => sb.webhooks.configure({ url: 'https://example.com/hook' })).toThrow(/loopback/);
		const fresh = await startSandbox();
		try {
			await expect(fresh.webhooks.send('BANK_VERIFICATION')).rejects.toThrow(/not configured/);
		} finally {
			await fresh.close();
		}
	});
});
