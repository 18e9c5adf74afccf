/**
 * Page-link shapes the sandbox does not produce (its modes always keep DRF's absolute links and a
 * count): a small loopback service that answers the transactions path with scripted pages, to
 * check the node's guards when it follows `next` links one by one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runNode } from '../../harness/index.cjs';
import { transaction, transactions } from './util.cjs';

interface Page {
	count?: number;
	next: string | null;
	results: unknown[];
}

const PATH = '/bank/verifications/v-1/accounts/a-1/transactions/';
let server: http.Server;
let base: string;
let otherHost: http.Server;
let otherBase: string;
let otherHits = 0;
let script: (page: number, perPage: number) => Page | undefined;
let hits: string[] = [];

const tx = transaction;
const range = transactions;

beforeAll(async () => {
	server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', base);
		hits.push(`${url.pathname}${url.search}`);
		const page = Number(url.searchParams.get('page') ?? '1');
		const perPage = Number(url.searchParams.get('perPage') ?? '50');
		const body = url.pathname === PATH ? script(page, perPage) : undefined;
		if (!body) {
			res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Invalid page."}');
			return;
		}
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	otherHost = http.createServer((_req, res) => {
		otherHits++;
		res.writeHead(500).end();
	});
	await new Promise<void>((resolve) => otherHost.listen(0, '127.0.0.1', resolve));
	otherBase = `http://127.0.0.1:${(otherHost.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
	await new Promise<void>((resolve) => otherHost.close(() => resolve()));
});
beforeEach(() => {
	hits = [];
	otherHits = 0;
});

const run = (extra: Record<string, unknown> = {}) =>
	runNode({
		node: 'identityVerification',
		parameters: {
			resource: 'bank',
			operation: 'listTransactions',
			verificationId: 'v-1',
			accountId: 'a-1',
			returnAll: true,
			options: { perPage: 10 },
			...extra,
		},
		credentials: {
			identityVerificationApi: { apiKey: 'k', apiSecret: 'secret-value', baseUrl: base },
		},
	});

describe('List Transactions: following `next` links (no count)', () => {
	test('follows relative links and returns every result in order', async () => {
		script = (page) =>
			page <= 3
				? {
						next: page < 3 ? `${PATH}?page=${page + 1}&perPage=10` : null,
						results: range((page - 1) * 10, page * 10),
					}
				: undefined;
		const { items, error } = await run();
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(range(0, 30));
		expect(hits).toHaveLength(3);
	});

	test('stops with an error when a link goes back to an earlier page', async () => {
		script = (page) => ({
			next: `${base}${PATH}?page=${page === 3 ? 2 : page + 1}&perPage=10`,
			results: range((page - 1) * 10, page * 10),
		});
		const { error } = await run();
		expect(error?.message).toMatch(/loop/i);
		expect(hits).toHaveLength(3);
	});

	test('stops with an error when a link without page numbers comes back', async () => {
		const cursor = (n: number) => `${base}${PATH}?cursor=c${n}`;
		let served = 0;
		script = () => {
			served++;
			return {
				next: cursor(served === 3 ? 1 : served),
				results: range(served * 10, served * 10 + 10),
			};
		};
		const { error } = await run();
		expect(error?.message).toMatch(/loop/i);
		expect(hits).toHaveLength(3);
	});

	test('returns a page that repeats the previous one (no ids: only links decide a loop)', async () => {
		script = (page) =>
			page <= 2
				? { next: page < 2 ? `${base}${PATH}?page=2&perPage=10` : null, results: range(0, 10) }
				: undefined;
		const { items, error } = await run();
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([...range(0, 10), ...range(0, 10)]);
		expect(hits).toHaveLength(2);
	});

	test('refuses a link to another host on a later page before requesting it', async () => {
		script = (page) => ({
			next:
				page === 2
					? `${otherBase}${PATH}?page=3&perPage=10`
					: `${base}${PATH}?page=${page + 1}&perPage=10`,
			results: range((page - 1) * 10, page * 10),
		});
		const { error } = await run();
		expect(error?.message).toContain('Refused to follow a link');
		expect(otherHits).toBe(0);
		expect(hits).toHaveLength(2);
	});
});

describe('List Transactions: fetching pages by number (count given)', () => {
	test('uses the page size the service really returns when it caps Per Page', async () => {
		// asked for 10 per page, the service gives 4; count 18 -> pages 1..5
		script = (page) => {
			if (page > 5) return undefined;
			return {
				count: 18,
				next: page < 5 ? `${base}${PATH}?page=${page + 1}&perPage=10` : null,
				results: range((page - 1) * 4, Math.min(page * 4, 18)),
			};
		};
		const { items, error } = await run();
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(range(0, 18));
		expect(hits).toHaveLength(5);
	});

	test('with a Limit requests only the pages it needs', async () => {
		script = (page) => ({
			count: 100,
			next: `${base}${PATH}?page=${page + 1}&perPage=10`,
			results: range((page - 1) * 10, page * 10),
		});
		const { items, error } = await run({ returnAll: false, limit: 25 });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(range(0, 25));
		expect(hits.map((h) => new URL(h, base).searchParams.get('page')).sort()).toEqual([
			'1',
			'2',
			'3',
		]);
	});
});
