/**
 * Identification → Add to Blocklist: a fraudster a reviewer confirmed goes on the provider's
 * blocklist, which catches a repeat attempt (a later verification of theirs is SUSPECTED with the
 * list's fraud tag). Taking a wrong decision back: removeFromBlocklist.test.cts.
 */
import { expectError, expectPaired, serviceRequests, startCountingProxy } from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const add = (scanRef: string, extra: Record<string, unknown> = {}) => ({
	resource: 'identification',
	operation: 'addToBlocklist',
	scanRef,
	...extra,
});

describe('Identification: Add to Blocklist', () => {
	test('adds the face with a reason; a repeat attempt of the person is then SUSPECTED', async () => {
		const scanRef = await ctx.finished('fraudster');
		const { items, error } = await ctx.run(add(scanRef, { reason: 'Forged document' }));
		expect(error).toBeUndefined();
		expectPaired(items);
		expect(items[0].json).toEqual({
			id: scanRef,
			reason: 'Forged document',
			created: expect.any(String),
			faceImageUrl: expect.any(String),
			scanRef,
			blocklist: 'SELFIE',
		});
		const repeat = await ctx.finished('fraudster');
		const status = await ctx.run({
			resource: 'identification',
			operation: 'getStatus',
			scanRef: repeat,
		});
		expect(status.items[0].json).toMatchObject({
			status: 'SUSPECTED',
			fraudTags: ['Face_Blacklisted'],
		});
	});

	test('adds the document data; no Reason sends none', async () => {
		const scanRef = await ctx.finished('fraudster-2');
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			const { items, error } = await ctx.run(add(scanRef, { blocklist: 'DOCUMENT_INFO' }), {
				baseUrl: proxy.url,
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ documentNumber: '10293847', reason: null });
			expect(proxy.exchanges.map((e) => [e.path, e.sent.toString()])).toEqual([
				[`/kyc/identifications/${scanRef}/blocklists/DOCUMENT_INFO/`, ''],
			]);
		} finally {
			await proxy.close();
		}
	});

	test('adding twice: the service’s refusal (409) is shown', async () => {
		const scanRef = await ctx.finished('fraudster-3');
		await ctx.run(add(scanRef));
		const error = expectError(await ctx.run(add(scanRef)), '409');
		expect(error.description).toContain('already on the SELFIE blocklist');
	});

	test('a Blocklist no list offers (from an expression) is refused before anything is sent', async () => {
		const result = await ctx.run(add('scan-1', { blocklist: '={{ "FACE" }}' }));
		expectError(result, 'Blocklist: must be SELFIE, DOCUMENT or DOCUMENT_INFO');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('Continue On Fail: an unknown verification becomes an error item, the others are added', async () => {
		const scanRef = await ctx.finished('fraudster-4');
		const { items, error } = await ctx.run(add('={{ $json.scanRef }}'), {
			continueOnFail: true,
			input: [{ json: { scanRef: 'unknown' } }, { json: { scanRef } }],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].json).toMatchObject({ httpCode: '404' });
		expect(items[1].json).toMatchObject({ scanRef, blocklist: 'SELFIE' });
	});
});
