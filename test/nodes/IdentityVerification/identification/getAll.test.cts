/**
 * Identification → Get Many: every verification of one client, with List Transactions' paging
 * (pages by number, several at a time, in order), Limit and Simplify.
 */
import { expectError, expectPaired, serviceRequests, startCountingProxy } from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const getMany = (clientId: string, extra: Record<string, unknown> = {}) => ({
	resource: 'identification',
	operation: 'getAll',
	clientId,
	...extra,
});

describe('Identification: Get Many', () => {
	test('lists the verifications of the client, as the service sends them', async () => {
		const approved = await ctx.finished('customer-many');
		const suspected = await ctx.finished('customer-many', 'SUSPECTED');
		await ctx.finished('someone-else');
		const { items, error } = await ctx.run(getMany('customer-many', { returnAll: true }));
		expect(error).toBeUndefined();
		expectPaired(items);
		expect(items.map((item) => item.json)).toEqual([
			{ scanRef: suspected, status: 'SUSPECTED', suspected: true },
			{ scanRef: approved, status: 'APPROVED', suspected: false },
		]);
		expect(ctx.sb.requests.map((r) => r.query)).toEqual([{ clientId: 'customer-many', page: '1' }]);
	});

	test('Return All reads every page, several at a time, and keeps the service’s order', async () => {
		const refs: string[] = [];
		for (let i = 0; i < 23; i++) refs.push(ctx.sb.kyc.createSession('customer-pages').scanRef);
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			const { items, error } = await ctx.run(
				getMany('customer-pages', {
					returnAll: true,
					options: { perPage: 3, maxParallelRequests: 4 },
				}),
				{ baseUrl: proxy.url },
			);
			expect(error).toBeUndefined();
			// Newest first, as the sandbox lists them.
			expect(items.map((item) => item.json.scanRef)).toEqual([...refs].reverse());
			expect(proxy.starts).toHaveLength(8);
			expect(proxy.maxInFlight).toBeGreaterThan(1);
			expect(proxy.maxInFlight).toBeLessThanOrEqual(4);
		} finally {
			await proxy.close();
		}
	});

	test('Limit stops at that many, reading only the pages it needs', async () => {
		for (let i = 0; i < 12; i++) ctx.sb.kyc.createSession('customer-limit');
		const { items, error } = await ctx.run(
			getMany('customer-limit', { limit: 4, options: { perPage: 3 } }),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(4);
		expect(serviceRequests(ctx.sb, '/kyc/identifications/')).toBe(2);
	});

	test('Simplify gives one flat row per verification, with the Client ID', async () => {
		const scanRef = await ctx.finished('customer-flat');
		const { items } = await ctx.run(getMany('customer-flat', { simplify: true }));
		expect(items.map((item) => item.json)).toEqual([
			{ scanRef, clientId: 'customer-flat', status: 'APPROVED', suspected: false },
		]);
	});

	test('a client without verifications gives no items', async () => {
		const { items, error } = await ctx.run(getMany('nobody', { returnAll: true }));
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
	});

	test('version 2: an empty Client ID lists the whole account, newest first, Limit applying', async () => {
		const first = await ctx.finished('customer-a');
		const second = await ctx.finished('customer-b');
		const { items, error } = await ctx.run(getMany('', { limit: 2 }));
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.scanRef)).toEqual([second, first]);
		expect(ctx.sb.requests.map((r) => r.query)).toEqual([{ page: '1' }]);
	});

	test('versions 1 and 1.1: an empty Client ID is still refused before anything is sent', async () => {
		for (const typeVersion of [1, 1.1]) {
			const result = await ctx.run(getMany('={{ $json.client }}'), {
				typeVersion,
				input: [{ json: { client: '' } }],
			});
			expectError(result, 'Client ID: must not be empty');
		}
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('a blank Client ID is refused before anything is sent (it would list every client)', async () => {
		const result = await ctx.run(getMany('={{ $json.client }}'), {
			input: [{ json: { client: ' ' } }],
		});
		const error = expectError(result, 'Client ID: must not be empty');
		expect(error.description).toContain('every client');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test.each([
		['Per Page', { options: { perPage: 0 } }, 'Per Page: must be at least 1'],
		['Limit', { limit: 1.5 }, 'Limit: must be a whole number'],
		['Max Parallel Requests', { options: { maxParallelRequests: 17 } }, 'at most 16'],
	])('%s out of range is refused before anything is sent', async (_name, extra, words) => {
		expectError(await ctx.run(getMany('customer-1', extra)), words);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('Continue On Fail: a refused item becomes an error item, the others go on', async () => {
		const scanRef = await ctx.finished('customer-cof');
		const { items, error } = await ctx.run(getMany('={{ $json.client }}'), {
			continueOnFail: true,
			input: [{ json: { client: 'customer-cof' } }, { json: { client: ' ' } }],
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json.scanRef).toBe(scanRef);
		expect(String(items[1].json.error)).toContain('Client ID');
	});
});
