/**
 * Page-link shapes the sandbox does not produce (its modes always keep DRF's absolute links and a
 * count): a small loopback service that answers the transactions path with scripted pages, to
 * check the node's guards when it follows `next` links one by one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_PAGES } from '../../../nodes/IdentityVerification/transport';
import {
	expectPaired,
	SCRIPTED_PATH as PATH,
	serviceRequests,
	transactions as range,
	useSandbox,
	useScriptedService,
} from './util.cjs';

const service = useScriptedService();
const ctx = useSandbox();
const run = (extra: Record<string, unknown> = {}) =>
	service.list({ options: { perPage: 10 }, ...extra });
/** The absolute link to a page of 10. */
const pageLink = (page: number) => `${service.base}${PATH}?page=${page}&perPage=10`;
/** Return All succeeds with exactly `expected`, after `requests` requests. */
async function expectListed(expected: unknown[], requests: number): Promise<void> {
	const { items, error } = await run();
	expect(error).toBeUndefined();
	expect(items.map((i) => i.json)).toEqual(expected);
	expect(service.hits).toHaveLength(requests);
}

/** Another host, which a link must never lead to. */
let otherHost: http.Server;
let otherBase: string;
let otherHits = 0;
beforeAll(async () => {
	otherHost = http.createServer((_req, res) => {
		otherHits++;
		res.writeHead(500).end();
	});
	await new Promise<void>((resolve) => otherHost.listen(0, '127.0.0.1', resolve));
	otherBase = `http://127.0.0.1:${(otherHost.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise<void>((resolve) => otherHost.close(() => resolve()));
});
beforeEach(() => {
	otherHits = 0;
});

describe('List Transactions: following `next` links (no count)', () => {
	test('follows relative links and returns every result in order', async () => {
		service.script = (page) =>
			page <= 3
				? {
						next: page < 3 ? `${PATH}?page=${page + 1}&perPage=10` : null,
						results: range((page - 1) * 10, page * 10),
					}
				: undefined;
		await expectListed(range(0, 30), 3);
	});

	test('stops with an error when a link goes back to an earlier page', async () => {
		service.script = (page) => ({
			next: pageLink(page === 3 ? 2 : page + 1),
			results: range((page - 1) * 10, page * 10),
		});
		const { error } = await run();
		expect(error?.message).toMatch(/loop/i);
		expect(service.hits).toHaveLength(3);
	});

	test('stops with an error when a link without page numbers comes back', async () => {
		const cursor = (n: number) => `${service.base}${PATH}?cursor=c${n}`;
		let served = 0;
		service.script = () => {
			served++;
			return {
				next: cursor(served === 3 ? 1 : served),
				results: range(served * 10, served * 10 + 10),
			};
		};
		const { error } = await run();
		expect(error?.message).toMatch(/loop/i);
		expect(service.hits).toHaveLength(3);
	});

	test('returns a page that repeats the previous one (no ids: only links decide a loop)', async () => {
		service.script = (page) =>
			page <= 2
				? {
						next: page < 2 ? pageLink(2) : null,
						results: range(0, 10),
					}
				: undefined;
		await expectListed([...range(0, 10), ...range(0, 10)], 2);
	});

	test('refuses a link to another host on a later page before requesting it', async () => {
		service.script = (page) => ({
			next: page === 2 ? `${otherBase}${PATH}?page=3&perPage=10` : pageLink(page + 1),
			results: range((page - 1) * 10, page * 10),
		});
		const { error } = await run();
		expect(error?.message).toContain('Refused to follow a link');
		expect(otherHits).toBe(0);
		expect(service.hits).toHaveLength(2);
	});
});

describe('List Transactions: fetching pages by number (count given)', () => {
	test('uses the page size the service really returns when it caps Per Page', async () => {
		// asked for 10 per page, the service gives 4; count 18 -> pages 1..5
		service.script = (page) => {
			if (page > 5) return undefined;
			return {
				count: 18,
				next: page < 5 ? pageLink(page + 1) : null,
				results: range((page - 1) * 4, Math.min(page * 4, 18)),
			};
		};
		await expectListed(range(0, 18), 5);
	});

	test('with a Limit requests only the pages it needs', async () => {
		service.script = (page) => ({
			count: 100,
			next: pageLink(page + 1),
			results: range((page - 1) * 10, page * 10),
		});
		const { items, error } = await run({ returnAll: false, limit: 25 });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(range(0, 25));
		expect(
			service.hits.map((h) => new URL(h, service.base).searchParams.get('page')).sort(),
		).toEqual(['1', '2', '3']);
	});
});

describe('List Transactions: a count no read can cover, through the engine', () => {
	test('Continue On Fail: the account announcing 20,000,000 transactions at 1 per page becomes an error item after one request, the next item is still read', async () => {
		const huge = ctx.sb.bank.seedAccount({ transactions: 20_000_000 });
		const small = ctx.sb.bank.seedAccount({ transactions: 3 });
		ctx.sb.resetLog();
		const { items, error } = await ctx.run(
			{
				resource: 'bank',
				operation: 'listTransactions',
				verificationId: '={{ $json.verificationId }}',
				accountId: '={{ $json.accountId }}',
				returnAll: true,
				options: { perPage: 1 },
			},
			{ continueOnFail: true, input: [{ json: huge }, { json: small }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(4);
		expectPaired(items, (i) => (i === 0 ? 0 : 1));
		expect(String(items[0].json.error)).toContain(
			`take 20000000 pages, more than the ${MAX_PAGES} pages a read may take`,
		);
		expect(items.slice(1).every((item) => item.json.error === undefined)).toBe(true);
		// One page for the huge account, three for the small one.
		expect(serviceRequests(ctx.sb, '/bank/verifications/')).toBe(4);
	});
});
