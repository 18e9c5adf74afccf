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

	test('omits Service-Event-Type for the legacy IDENTIFICATION event by default, and as configured', async () => {
		await sb.webhooks.send('IDENTIFICATION');
		await sb.webhooks.send('IDENTIFICATION_EXPIRED');
		expect(receiver.received[0].headers).not.toHaveProperty('service-event-type');
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

	test.each(SANDBOX_EVENT_TYPES)(
		'sends a default %s body that the contract schema accepts',
		async (eventType) => {
			await sb.webhooks.send(eventType);
			const [got] = receiver.received;
			expect(webhookBodySchemas[eventType].safeParse(got.json).success).toBe(true);
			expect(Object.keys(got.json).sort()).toEqual(
				Object.keys(sb.webhooks.sampleBody(eventType) as object).sort(),
			);
			expect(Object.keys(got.json).length).toBeGreaterThan(2);
		},
	);

	test('has identification bodies with final, scanRef, clientId, status and document data', () => {
		const body = sb.webhooks.sampleBody('IDENTIFICATION_AUTO_FINISHED') as any;
		expect(body).toMatchObject({
			final: true,
			clientId: expect.any(String),
			scanRef: expect.any(String),
		});
		expect(body.status).toMatchObject({
			overall: 'APPROVED',
			autoDocument: 'DOC_VALIDATED',
			autoFace: 'FACE_MATCH',
		});
		expect(body.status).toHaveProperty('manualDocument');
		expect(body.data).toMatchObject({ docFirstName: 'JONAS', docLastName: 'JONAITIS' });
		expect(
			(sb.webhooks.sampleBody('BANK_CARD_VERIFICATION_COMPLETED') as any).bankCardVerification,
		).toMatchObject({ status: 'APPROVED', cardLast4: '4242' });
		expect(sb.webhooks.sampleBody('COMPANY_REVIEW')).toMatchObject({
			formId: 'form-001',
			companyId: 'company-001',
			status: 'APPROVED',
		});
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
