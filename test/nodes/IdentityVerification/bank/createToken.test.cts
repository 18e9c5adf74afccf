/** Bank resource: Create Token and List Transactions (pagination) through n8n's engine against the sandbox. */
import { SEED } from '../../../sandbox/index.cjs';
import { startSandbox } from '../../../sandbox/index.cjs';
import { transactionsRange } from '../../../sandbox/data.cjs';
import {
	expectError,
	expectPaired,
	serviceRequests,
	startCountingProxy,
	useSandbox,
} from '../util.cjs';

const ctx = useSandbox();
const TX_PATH = '/bank/verifications/';
const { verificationId, accountId } = SEED.bank;

const listParams = (extra: Record<string, unknown> = {}) => ({
	resource: 'bank',
	operation: 'listTransactions',
	verificationId,
	accountId,
	...extra,
});

describe('Bank: Create Token', () => {
	test('creates a token with the chosen country, bank and access and outputs the token as one item', async () => {
		const { items, error } = await ctx.run({
			resource: 'bank',
			operation: 'createToken',
			lifetime: 600,
			country: 'LT',
			bank: 'SWEDBANK_LT',
			accounts: true,
			balances: false,
			transactions: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		const token = items[0].json;
		expect(typeof token.tokenString).toBe('string');
		expect(token.isValid).toBe(true);
		expect(token.country).toBe('LT');
		expect(token.bank).toBe('SWEDBANK_LT');
		expect(token.access).toEqual({ accounts: true, balances: false, transactions: true });
		const lifetimeMs = Date.parse(String(token.expiration)) - Date.now();
		expect(lifetimeMs).toBeGreaterThan(500_000);
		expect(lifetimeMs).toBeLessThanOrEqual(600_000);
	});

	test('sends no country when Any is chosen and uses the contract defaults', async () => {
		const { items, error } = await ctx.run({ resource: 'bank', operation: 'createToken' });
		expect(error).toBeUndefined();
		expect(items[0].json.country).toBeNull();
		expect(items[0].json.access).toEqual({ accounts: false, balances: false, transactions: false });
	});

	test.each([
		[
			'lifetime 2592001',
			{ lifetime: 2592001 },
			['Lifetime (Seconds)', 'at most 2592000 seconds (30 days)'],
		],
		['lifetime -1', { lifetime: -1 }, ['Lifetime (Seconds)', 'at least 0']],
		['a bank name of 33 characters', { bank: 'B'.repeat(33) }, ['Bank', 'at most 32 characters']],
		['an unknown country', { country: 'XX' }, ['Country', 'must be one of the 28 bank countries']],
		[
			'a country outside the bank list',
			{ country: 'US' },
			['Country', 'must be one of the 28 bank countries'],
		],
		[
			'a lifetime that is not a number',
			{ lifetime: '={{ "one hour" }}' },
			['Lifetime (Seconds)', 'must be a whole number of seconds'],
		],
		[
			'a lifetime with decimals',
			{ lifetime: 1.5 },
			['Lifetime (Seconds)', 'must be a whole number of seconds'],
		],
	])(
		'refuses %s before sending anything, naming the field and the rule',
		async (_name, extra, texts) => {
			ctx.sb.resetLog();
			const result = await ctx.run({ resource: 'bank', operation: 'createToken', ...extra });
			const error = expectError(result, ...texts);
			expect(error.description).toBeTruthy();
			expect(serviceRequests(ctx.sb)).toBe(0);
		},
	);

	test('takes a number given as text by an expression (e.g. "7200" from a previous node)', async () => {
		const { items, error } = await ctx.run(
			{ resource: 'bank', operation: 'createToken', lifetime: '={{ $json.seconds }}' },
			{ input: [{ json: { seconds: '7200' } }] },
		);
		expect(error).toBeUndefined();
		const lifetimeMs = Date.parse(String(items[0].json.expiration)) - Date.now();
		expect(lifetimeMs).toBeGreaterThan(7000_000);
		expect(lifetimeMs).toBeLessThanOrEqual(7200_000);
	});

	test('accepts the limits themselves (0 and 2592000 seconds, 32 characters)', async () => {
		for (const extra of [{ lifetime: 0 }, { lifetime: 2592000, bank: 'B'.repeat(32) }]) {
			const { error, items } = await ctx.run({
				resource: 'bank',
				operation: 'createToken',
				...extra,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
		}
	});

	test('Continue On Fail: 3 items with the middle one invalid give 3 items, the middle an error item paired to it', async () => {
		ctx.sb.resetLog();
		const { items, error } = await ctx.run(
			{ resource: 'bank', operation: 'createToken', lifetime: '={{ $json.lifetime }}' },
			{
				continueOnFail: true,
				input: [
					{ json: { lifetime: 60 } },
					{ json: { lifetime: 2592001 } },
					{ json: { lifetime: 120 } },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expectPaired(items, (i) => i);
		expect(typeof items[0].json.tokenString).toBe('string');
		expect(typeof items[2].json.tokenString).toBe('string');
		expect(items[1].json.tokenString).toBeUndefined();
		expect(String(items[1].json.error)).toContain('Lifetime (Seconds)');
		expect(String(items[1].json.error)).toContain('at most 2592000');
		expect(serviceRequests(ctx.sb, '/bank/tokens/')).toBe(2);
	});

	test('without Continue On Fail the run stops at the invalid item', async () => {
		const result = await ctx.run(
			{ resource: 'bank', operation: 'createToken', lifetime: '={{ $json.lifetime }}' },
			{ input: [{ json: { lifetime: 60 } }, { json: { lifetime: 2592001 } }] },
		);
		expectError(result, 'Lifetime (Seconds)');
	});
});

describe('Bank: List Transactions', () => {
	const expected = transactionsRange(accountId, 0, SEED.bank.transactions);

	test('Return All gives all 1,037 transactions as items, in order, each paired with its input item', async () => {
		const { items, error } = await ctx.run(
			listParams({ returnAll: true, options: { perPage: 50 } }),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1037);
		expect(items.map((i) => i.json)).toEqual(expected);
		expectPaired(items);
		// 21 pages, each fetched exactly once
		expect(serviceRequests(ctx.sb, TX_PATH)).toBe(21);
		const pages = ctx.sb.requests
			.filter((r) => r.path.startsWith(TX_PATH))
			.map((r) => Number(r.query.page));
		expect([...pages].sort((a, b) => a - b)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
	});

	test('Return All failing on page 3 says what was read and that none of it was output', async () => {
		ctx.sb.faults.add({ method: 'GET', path: TX_PATH, query: { page: 3 }, status: 404 });
		const result = await ctx.run(
			listParams({ returnAll: true, options: { perPage: 100, maxParallelRequests: 1 } }),
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			httpCode: '404',
			verificationId,
			accountId,
			description: expect.stringMatching(
				/^Reading stopped at page 3: 2 pages with 200 transactions had been read, and none of them were output for this item\. Run it again once the cause below is fixed\. ./,
			),
		});
	});

	test('Limit 120 at 50 per page gives 120 items and requests only 3 pages', async () => {
		const { items, error } = await ctx.run(
			listParams({ returnAll: false, limit: 120, options: { perPage: 50 } }),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(120);
		expect(items.map((i) => i.json)).toEqual(expected.slice(0, 120));
		expect(serviceRequests(ctx.sb, TX_PATH)).toBe(3);
	});

	test('Limit smaller than a page requests one page only', async () => {
		const { items } = await ctx.run(listParams({ limit: 7, options: { perPage: 50 } }));
		expect(items).toHaveLength(7);
		expect(serviceRequests(ctx.sb, TX_PATH)).toBe(1);
	});

	test('follows `next` links one by one when the service gives no count', async () => {
		ctx.sb.bank.setPageLinks('no-count');
		const { items, error } = await ctx.run(
			listParams({ returnAll: true, options: { perPage: 100 } }),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1037);
		expect(items.map((i) => i.json)).toEqual(expected);
		expect(serviceRequests(ctx.sb, TX_PATH)).toBe(11);
	});

	test('with no count, Limit stops following links as soon as it has enough', async () => {
		ctx.sb.bank.setPageLinks('no-count');
		const { items } = await ctx.run(listParams({ limit: 120, options: { perPage: 50 } }));
		expect(items).toHaveLength(120);
		expect(serviceRequests(ctx.sb, TX_PATH)).toBe(3);
	});

	test('with `count`, pages are read by number: a `next` link going back on page 3 is never followed', async () => {
		ctx.sb.bank.setPageLinks('loop');
		const { items, error } = await ctx.run(
			listParams({ returnAll: true, options: { perPage: 50 } }),
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(expected);
		expect(serviceRequests(ctx.sb, TX_PATH)).toBe(21);
	});

	test('returns pages as the service sends them, even when a page holds the same transactions as the one before (transactions have no id, so that is no loop)', async () => {
		ctx.sb.bank.setPageLinks('repeat');
		const { items, error } = await ctx.run(
			listParams({ returnAll: true, options: { perPage: 50 } }),
		);
		expect(error).toBeUndefined();
		// 21 pages of 50: in this mode the last page repeats the full page 20
		expect(items).toHaveLength(21 * 50);
		expect(items.slice(50, 100).map((i) => i.json)).toEqual(expected.slice(0, 50));
	});

	test('refuses a `next` link to another host: the other host never sees a request (nor the credentials)', async () => {
		const other = await startSandbox();
		try {
			ctx.sb.bank.setPageLinks('cross-host', other.url);
			const result = await ctx.run(listParams({ returnAll: true, options: { perPage: 50 } }));
			const error = expectError(result, 'Refused to follow a link');
			expect(error.message).toContain(other.url);
			expect(error.description).toMatch(/credential/i);
			expect(other.requests).toHaveLength(0);
			expect(serviceRequests(ctx.sb, TX_PATH)).toBe(1);
		} finally {
			await other.close();
		}
	});

	test('keeps going after a 429 (Retry-After honoured) and still returns every transaction in order', async () => {
		ctx.sb.faults.add({ method: 'GET', path: TX_PATH, status: 429, retryAfter: 1, times: 2 });
		const { items, error } = await ctx.run(
			listParams({ returnAll: true, options: { perPage: 100 } }),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1037);
		expect(items.map((i) => i.json)).toEqual(expected);
		expect(ctx.sb.requests.filter((r) => r.status === 429)).toHaveLength(2);
	});

	test.each([
		['the default (no option set)', 4, undefined],
		['Max Parallel Requests 2', 2, 2],
		['Max Parallel Requests 1', 1, 1],
	])(
		'with %s, exactly %s page requests are in flight at the busiest moment',
		async (_name, max, option) => {
			const proxy = await startCountingProxy(ctx.sb.url);
			try {
				ctx.sb.faults.setLatency(20);
				const options: Record<string, number> = { perPage: 50 };
				if (option !== undefined) options.maxParallelRequests = option;
				const { items, error } = await ctx.run(listParams({ returnAll: true, options }), {
					baseUrl: proxy.url,
				});
				expect(error).toBeUndefined();
				expect(items.map((i) => i.json)).toEqual(expected);
				// 20 pages after the first, 20 ms each: the pool fills every slot it is allowed
				expect(proxy.maxInFlight).toBe(max);
			} finally {
				await proxy.close();
			}
		},
	);

	test('halves the parallelism after a 429 on a page: at most 2 of 4 requests in flight from then on', async () => {
		// Pages 2-5 start together; the proxy answers page 3 with 429 once (Retry-After: 1).
		const proxy = await startCountingProxy(ctx.sb.url, { rateLimitPage: 3 });
		try {
			ctx.sb.faults.setLatency(10);
			const { items, error } = await ctx.run(
				listParams({ returnAll: true, options: { perPage: 50, maxParallelRequests: 4 } }),
				{ baseUrl: proxy.url },
			);
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual(expected);
			expect(proxy.starts.filter((s) => s.page === 3)).toHaveLength(2);
			// Every request started after that first batch (pages 6-21 and page 3 again): the pool
			// allows 2, one of them held by page 3 while it waits. Without the throttle the three
			// other slots keep going during that wait: 3 in flight.
			const first429 = proxy.starts.findIndex((s) => s.page === 3);
			const later = proxy.starts.filter(
				(s, index) => s.page > 5 || (s.page === 3 && index > first429),
			);
			expect(later).toHaveLength(17);
			expect(Math.max(...later.map((s) => s.inFlight))).toBeLessThanOrEqual(2);
			expect(serviceRequests(ctx.sb, TX_PATH)).toBe(21);
		} finally {
			await proxy.close();
		}
	});

	test.each([
		['an unknown Account ID', { accountId: 'does-not-exist' }],
		['an unknown Verification ID', { verificationId: 'does-not-exist' }],
	])('explains %s (404): both IDs are checked together, and what to check', async (_what, ids) => {
		const result = await ctx.run(listParams({ ...ids, returnAll: true }));
		const error = expectError(
			result,
			'Not found (HTTP 404): the service has no account with this Account ID in the bank verification with this Verification ID',
		);
		expect(error.description).toMatch(/The service checks both IDs together/);
		expect(error.description).toMatch(
			/Verification ID \(the "id" of the Bank Verification webhook\)/,
		);
		expect(error.description).toMatch(/Account ID \(the "id" of one of its "accounts"\)/);
	});

	test('refuses an empty Verification ID before sending anything', async () => {
		const result = await ctx.run(listParams({ verificationId: '  ' }));
		expectError(result, 'Verification ID', 'must not be empty');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});
