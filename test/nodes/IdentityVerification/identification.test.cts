/** Identification (KYC) resource: verification token and request information. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectError, expectPaired, serviceRequests, useSandbox } from './util.cjs';

const ctx = useSandbox();

/** A loopback receiver for the sandbox's webhooks (the KYC flow emits one when a check finishes). */
let receiver: http.Server;
let receiverUrl: string;
beforeAll(async () => {
	receiver = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => res.writeHead(200).end());
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
});
afterAll(async () => {
	await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('Identification (KYC)', () => {
	it('creates a verification token and outputs the service answer (authToken, scanRef)', async () => {
		const { items, error } = await ctx.run({
			resource: 'identification',
			operation: 'createVerificationToken',
			clientId: 'customer-42',
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		expect(items[0].json.clientId).toBe('customer-42');
		expect(typeof items[0].json.authToken).toBe('string');
		expect(typeof items[0].json.scanRef).toBe('string');
		expect(ctx.sb.kyc.get(String(items[0].json.scanRef))?.clientId).toBe('customer-42');
	});

	it('passes Additional Fields through unchanged, with the types expressions give them', async () => {
		const { items, error } = await ctx.run({
			resource: 'identification',
			operation: 'createVerificationToken',
			clientId: 'customer-43',
			additionalFields: {
				field: [
					{ name: 'locale', value: 'lt' },
					{ name: 'expiryTime', value: '={{ 900 }}' },
				],
			},
		});
		expect(error).toBeUndefined();
		const session = ctx.sb.kyc.get(String(items[0].json.scanRef));
		expect(session?.request).toMatchObject({
			clientId: 'customer-43',
			locale: 'lt',
			expiryTime: 900,
		});
		expect(items[0].json.expiryTime).toBe(900);
	});

	it('uses the Client ID of each item (expressions per item)', async () => {
		const { items, error } = await ctx.run(
			{
				resource: 'identification',
				operation: 'createVerificationToken',
				clientId: '={{ $json.customer }}',
			},
			{ input: [{ json: { customer: 'a-1' } }, { json: { customer: 'b-2' } }] },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.clientId)).toEqual(['a-1', 'b-2']);
		expectPaired(items, (i) => i);
	});

	it('refuses an empty Client ID before sending anything', async () => {
		const result = await ctx.run({
			resource: 'identification',
			operation: 'createVerificationToken',
			clientId: ' ',
		});
		const error = expectError(result, 'Client ID', 'must not be empty');
		expect(error.message).not.toMatch(/Client ID: Client ID/);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	it('requests information for a finished verification', async () => {
		ctx.sb.webhooks.configure({ url: receiverUrl });
		const { scanRef } = ctx.sb.kyc.createSession('customer-44');
		await ctx.sb.kyc.autoFinish(scanRef, { final: true });
		const { items, error } = await ctx.run({
			resource: 'identification',
			operation: 'requestInformation',
			scanRef,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		expect(items[0].json.scanRef).toBe(scanRef);
		expect(ctx.sb.kyc.get(scanRef)?.state).toBe('REUPLOAD_REQUESTED');

		const again = await ctx.run({
			resource: 'identification',
			operation: 'requestInformation',
			scanRef,
		});
		const againError = expectError(again, '409');
		expect(`${againError.message} ${againError.description}`).toContain('already been requested');
	});

	it('outputs { scanRef, requested: true } when the service answers without a body', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-45');
		ctx.sb.faults.add({ method: 'POST', path: '/kyc/', status: 204 });
		const { items, error } = await ctx.run({
			resource: 'identification',
			operation: 'requestInformation',
			scanRef,
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ scanRef, requested: true });
	});

	it('explains an unknown scanRef clearly (404)', async () => {
		const result = await ctx.run({
			resource: 'identification',
			operation: 'requestInformation',
			scanRef: 'no-such-scan',
		});
		const error = expectError(result, '404');
		expect(error.description).toMatch(/check the ids/i);
	});
});
