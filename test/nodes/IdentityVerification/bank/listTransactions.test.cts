/**
 * Bank → List Transactions through n8n's engine: Return All and Limit over pages (by number when
 * the service gives a count, by `next` links when it does not), faults on a page, Simplify (one flat
 * row per transaction, for a spreadsheet), the Booked From / Booked To filter the node applies to
 * what the service returns, and page-link shapes the sandbox does not produce (a small loopback
 * service answers the transactions path with scripted pages, to check the node's guards when it
 * follows `next` links one by one).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_PAGES } from '../../../../nodes/IdentityVerification/transport';
import type { BankTransaction } from '../../../../nodes/shared/contract';
import { SEED, startSandbox } from '../../../sandbox/index.cjs';
import { transactionsRange } from '../../../sandbox/data.cjs';
import {
	SCRIPTED_PATH,
	expectError,
	expectPaired,
	serviceRequests,
	simplifyDefault,
	startCountingProxy,
	transaction,
	transactions as range,
	useSandbox,
	useScriptedService,
} from '../util.cjs';

const ctx = useSandbox();
const scripted = useScriptedService();
const TX_PATH = '/bank/verifications/';
const { verificationId, accountId } = SEED.bank;

const listParams = (extra: Record<string, unknown> = {}) => ({
	resource: 'bank',
	operation: 'listTransactions',
	verificationId,
	accountId,
	...extra,
});

/** A payment as the service sends it. */
const payment = (
	bookingDate: string | null,
	amount: string,
	creditor: string | null,
	debtor: string | null = 'Jonas Jonaitis',
	transactionDate: string | null = bookingDate,
	currency = 'EUR',
): BankTransaction => ({
	creditor: { fullName: creditor },
	debtor: { fullName: debtor },
	bookingDate,
	transactionDate,
	transactionAmount: { amount, currency },
});

/** An account seeded with these transactions; List Transactions of it with `extra`. */
async function listOf(transactions: BankTransaction[], extra: Record<string, unknown> = {}) {
	const ids = ctx.sb.bank.seedAccount({ transactions });
	const result = await ctx.run({
		resource: 'bank',
		operation: 'listTransactions',
		...ids,
		returnAll: true,
		...extra,
	});
	return { ...result, ids };
}

const hintsOf = (run: { data: { resultData: { runData: Record<string, any> } } }) =>
	(run.data.resultData.runData['Identity Verification']?.[0]?.hints ?? []) as Array<{
		message: string;
	}>;

const run = (extra: Record<string, unknown> = {}) =>
	scripted.list({ options: { perPage: 10 }, ...extra });
/** The absolute link to a page of 10. */
const pageLink = (page: number) => `${scripted.base}${SCRIPTED_PATH}?page=${page}&perPage=10`;
/** Return All succeeds with exactly `expected`, after `requests` requests. */
async function expectListed(expected: unknown[], requests: number): Promise<void> {
	const { items, error } = await run();
	expect(error).toBeUndefined();
	expect(items.map((i) => i.json)).toEqual(expected);
	expect(scripted.hits).toHaveLength(requests);
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

describe('List Transactions: Simplify', () => {
	const ledger = [
		payment('2026-03-14', '-0.5', 'Ελένη Παπαδοπούλου'),
		payment('2026-03-14', '12345678901234.99', 'Jonas Jonaitis', 'UAB „Šviesos tinklai“'),
		payment('2026-03-13', '-99999999999999.99', '李小龍 & Søn', 'Jonas Jonaitis', null),
		payment(null, '0.00', null, null, null, 'CHF'),
	];

	test('off (the default): each item is the transaction exactly as the service sent it', async () => {
		const { items, error } = await listOf(ledger);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(ledger);
	});

	test('on: one flat row per transaction, the amount as a number and as the exact text sent, in and out from the sign', async () => {
		const { items, error, ids } = await listOf(ledger, { simplify: true });
		expect(error).toBeUndefined();
		expectPaired(items);
		const account = { verificationId: ids.verificationId, accountId: ids.accountId };
		expect(items.map((i) => i.json)).toEqual([
			{
				bookingDate: '2026-03-14',
				transactionDate: '2026-03-14',
				direction: 'out',
				amount: -0.5,
				amountText: '-0.5',
				currency: 'EUR',
				creditorName: 'Ελένη Παπαδοπούλου',
				debtorName: 'Jonas Jonaitis',
				...account,
			},
			{
				bookingDate: '2026-03-14',
				transactionDate: '2026-03-14',
				direction: 'in',
				amount: 12345678901234.99,
				amountText: '12345678901234.99',
				currency: 'EUR',
				creditorName: 'Jonas Jonaitis',
				debtorName: 'UAB „Šviesos tinklai“',
				...account,
			},
			{
				bookingDate: '2026-03-13',
				transactionDate: null,
				direction: 'out',
				// A number cannot hold this amount; the text keeps it whole.
				amount: -99999999999999.98,
				amountText: '-99999999999999.99',
				currency: 'EUR',
				creditorName: '李小龍 & Søn',
				debtorName: 'Jonas Jonaitis',
				...account,
			},
			{
				bookingDate: null,
				transactionDate: null,
				direction: 'in',
				amount: 0,
				amountText: '0.00',
				currency: 'CHF',
				creditorName: null,
				debtorName: null,
				...account,
			},
		]);
		// The columns come in the same order on every row (a spreadsheet's header is the first row's).
		for (const item of items)
			expect(Object.keys(item.json)).toEqual([
				'bookingDate',
				'transactionDate',
				'direction',
				'amount',
				'amountText',
				'currency',
				'creditorName',
				'debtorName',
				'verificationId',
				'accountId',
			]);
	});

	test('on: two identical payments stay two rows', async () => {
		const twice = payment('2026-03-14', '-20.00', 'Maxima LT, UAB');
		const { items } = await listOf([twice, twice], { simplify: true });
		expect(items).toHaveLength(2);
		expect(items[0].json).toEqual(items[1].json);
		expect(items[0].json).toMatchObject({ amountText: '-20.00', creditorName: 'Maxima LT, UAB' });
	});

	test('on: a transaction of another shape than the contract gives a row with what it has, the rest null', async () => {
		scripted.script = () => ({
			count: 6,
			next: null,
			results: [
				{ bookingDate: '2026-03-14', transactionAmount: { amount: '5.10', currency: 'EUR' } },
				{ creditor: null, debtor: 'Jonas', transactionAmount: null },
				{ ...transaction(1), transactionAmount: { amount: 7.25, currency: 'EUR' } },
				{ ...transaction(2), transactionAmount: { amount: '-', currency: 'EUR' } },
				'not a transaction',
				null,
			],
		});
		const { items, error } = await scripted.list({ simplify: true });
		expect(error).toBeUndefined();
		const rows = items.map((i) => i.json);
		expect(rows).toHaveLength(6);
		expect(rows[0]).toMatchObject({
			bookingDate: '2026-03-14',
			amount: 5.1,
			amountText: '5.10',
			direction: 'in',
			creditorName: null,
			debtorName: null,
			verificationId: 'v-1',
			accountId: 'a-1',
		});
		expect(rows[1]).toMatchObject({ amount: null, amountText: null, direction: null });
		expect(rows[2]).toMatchObject({ amount: 7.25, amountText: '7.25', creditorName: 'Creditor 1' });
		expect(rows[3]).toMatchObject({ amount: null, amountText: '-', direction: null });
		for (const row of rows.slice(4))
			expect(row).toEqual({
				bookingDate: null,
				transactionDate: null,
				direction: null,
				amount: null,
				amountText: null,
				currency: null,
				creditorName: null,
				debtorName: null,
				verificationId: 'v-1',
				accountId: 'a-1',
			});
		expect(scripted.hits.every((hit) => hit.includes(SCRIPTED_PATH))).toBe(true);
	});

	test('on, for two accounts (two input items): each row names its own account and is paired to its item', async () => {
		const a = ctx.sb.bank.seedAccount({ transactions: [payment('2026-03-14', '1.00', 'A')] });
		const b = ctx.sb.bank.seedAccount({
			transactions: [payment('2026-03-14', '2.00', 'B'), payment('2026-03-14', '3.00', 'B')],
		});
		const { items, error } = await ctx.run(
			{
				resource: 'bank',
				operation: 'listTransactions',
				verificationId: '={{ $json.verificationId }}',
				accountId: '={{ $json.accountId }}',
				returnAll: true,
				simplify: true,
			},
			{ input: [{ json: a }, { json: b }] },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.accountId, i.json.amountText])).toEqual([
			[a.accountId, '1.00'],
			[b.accountId, '2.00'],
			[b.accountId, '3.00'],
		]);
		expectPaired(items, (i) => (i === 0 ? 0 : 1));
	});

	test('is off by default on the canvas and in the AI tool variant: saved nodes keep their output', () => {
		expect(simplifyDefault('bank', 'listTransactions', 'identityVerification')).toBe(false);
		expect(simplifyDefault('bank', 'listTransactions', 'identityVerificationTool')).toBe(false);
	});
});

describe('List Transactions: Booked From / Booked To', () => {
	const alike = payment('2026-03-14', '-20.00', 'Maxima LT, UAB');
	const ledger = [
		payment('2026-03-15', '-1.00', 'Today'),
		alike,
		payment('2026-03-14', '100.00', 'Jonas Jonaitis', 'Café Crème SARL'),
		alike,
		payment(null, '-5.00', 'Pending'),
		payment('2026-03-13', '-3.00', 'Before'),
		payment('2026-03-12', '-4.00', 'Long before'),
	];
	const booked = (from?: string, to?: string) => ({
		filters: { ...(from ? { bookedFrom: from } : {}), ...(to ? { bookedTo: to } : {}) },
	});
	const creditors = (items: Array<{ json: any }>) =>
		items.map((i) => i.json.creditor.fullName as string);

	test('one day (From = To) gives every transaction booked that day, identical ones included, in order', async () => {
		const { items, error } = await listOf(ledger, booked('2026-03-14', '2026-03-14'));
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([ledger[1], ledger[2], ledger[3]]);
		expectPaired(items);
	});

	test.each([
		[
			'From only',
			booked('2026-03-14'),
			['Today', 'Maxima LT, UAB', 'Jonas Jonaitis', 'Maxima LT, UAB'],
		],
		['To only', booked(undefined, '2026-03-13'), ['Before', 'Long before']],
		[
			'From and To',
			booked('2026-03-13', '2026-03-14'),
			['Maxima LT, UAB', 'Jonas Jonaitis', 'Maxima LT, UAB', 'Before'],
		],
		['a day without transactions', booked('2026-03-20', '2026-03-21'), []],
	])('%s: both days included', async (_name, extra, expected) => {
		const { items, error } = await listOf(ledger, extra);
		expect(error).toBeUndefined();
		expect(creditors(items)).toEqual(expected);
	});

	test('a transaction without a booking date is left out, and the output says so', async () => {
		const { items, run } = await listOf(ledger, booked('2026-03-01'));
		expect(creditors(items)).not.toContain('Pending');
		expect(hintsOf(run).map((h) => h.message)).toEqual([
			'1 transaction without a booking date (not booked yet) was left out by Booked From / Booked To: once booked, it is returned for its day of booking.',
		]);
		const unfiltered = await listOf(ledger);
		expect(unfiltered.items).toHaveLength(ledger.length);
		expect(hintsOf(unfiltered.run)).toEqual([]);
	});

	test('reads every page and Limit counts what the dates leave', async () => {
		const many = [
			...Array.from({ length: 120 }, (_, i) => payment('2026-03-15', `${i}.00`, 'Later')),
			...Array.from({ length: 5 }, (_, i) => payment('2026-03-14', `-${i}.00`, 'That day')),
		];
		ctx.sb.resetLog();
		const { items, error } = await listOf(many, {
			returnAll: false,
			limit: 3,
			options: { perPage: 50 },
			...booked('2026-03-14', '2026-03-14'),
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => (i.json as BankTransaction).transactionAmount.amount)).toEqual([
			'-0.00',
			'-1.00',
			'-2.00',
		]);
		expect(serviceRequests(ctx.sb, TX_PATH)).toBe(3);
	});

	test('with Simplify: the rows of one day', async () => {
		const { items } = await listOf(ledger, {
			simplify: true,
			...booked('2026-03-14', '2026-03-14'),
		});
		expect(items.map((i) => [i.json.bookingDate, i.json.amountText])).toEqual([
			['2026-03-14', '-20.00'],
			['2026-03-14', '100.00'],
			['2026-03-14', '-20.00'],
		]);
	});

	test.each([
		["the editor's date picker (2026-03-14T00:00:00)", '2026-03-14T00:00:00'],
		['a date as text', '2026-03-14'],
		[
			'a date in an expression',
			"={{ $today.set({ year: 2026, month: 3, day: 14 }).toFormat('yyyy-MM-dd') }}",
		],
		['a Luxon date from an expression', '={{ DateTime.fromISO("2026-03-14T23:30:00") }}'],
	])('takes %s', async (_name, day) => {
		const { items, error } = await listOf(ledger, booked(day, day));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
	});

	test('an empty or blank date is no filter (as when the field is not added)', async () => {
		const { items, error, run } = await listOf(ledger, {
			filters: { bookedFrom: ' ', bookedTo: '' },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(ledger.length);
		expect(hintsOf(run)).toEqual([]);
	});

	test('reads the day of a booking date written with a time', async () => {
		scripted.script = () => ({
			count: 2,
			next: null,
			results: [
				{ ...transaction(1), bookingDate: '2026-03-14T22:10:00+02:00' },
				{ ...transaction(2), bookingDate: 'yesterday' },
			],
		});
		const { items, run } = await scripted.list(booked('2026-03-14', '2026-03-14'));
		expect(items.map((i) => i.json.bookingDate)).toEqual(['2026-03-14T22:10:00+02:00']);
		expect(hintsOf(run)).toHaveLength(1);
	});

	test.each([
		[
			'a day that is not in the calendar',
			booked('2026-02-30'),
			['Booked From', 'is not a day of the calendar'],
		],
		[
			'a date written another way',
			booked(undefined, '14/03/2026'),
			['Booked To', 'must be a date such as 2026-03-14'],
		],
		[
			'From after To',
			booked('2026-03-15', '2026-03-14'),
			['Booked From', 'must not be after Booked To'],
		],
		[
			'a number',
			{ filters: { bookedFrom: '={{ 20260314 }}' } },
			['Booked From', 'must be a date such as 2026-03-14'],
		],
	])('refuses %s before sending anything', async (_name, extra, texts) => {
		const ids = ctx.sb.bank.seedAccount({ transactions: ledger });
		ctx.sb.resetLog();
		const result = await ctx.run({
			resource: 'bank',
			operation: 'listTransactions',
			...ids,
			returnAll: true,
			...extra,
		});
		const error = expectError(result, ...texts);
		expect(error.description).toBeTruthy();
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});

describe('List Transactions: following `next` links (no count)', () => {
	test('follows relative links and returns every result in order', async () => {
		scripted.script = (page) =>
			page <= 3
				? {
						next: page < 3 ? `${SCRIPTED_PATH}?page=${page + 1}&perPage=10` : null,
						results: range((page - 1) * 10, page * 10),
					}
				: undefined;
		await expectListed(range(0, 30), 3);
	});

	test('stops with an error when a link goes back to an earlier page', async () => {
		scripted.script = (page) => ({
			next: pageLink(page === 3 ? 2 : page + 1),
			results: range((page - 1) * 10, page * 10),
		});
		const { error } = await run();
		expect(error?.message).toMatch(/loop/i);
		expect(scripted.hits).toHaveLength(3);
	});

	test('stops with an error when a link without page numbers comes back', async () => {
		const cursor = (n: number) => `${scripted.base}${SCRIPTED_PATH}?cursor=c${n}`;
		let served = 0;
		scripted.script = () => {
			served++;
			return {
				next: cursor(served === 3 ? 1 : served),
				results: range(served * 10, served * 10 + 10),
			};
		};
		const { error } = await run();
		expect(error?.message).toMatch(/loop/i);
		expect(scripted.hits).toHaveLength(3);
	});

	test('returns a page that repeats the previous one (no ids: only links decide a loop)', async () => {
		scripted.script = (page) =>
			page <= 2
				? {
						next: page < 2 ? pageLink(2) : null,
						results: range(0, 10),
					}
				: undefined;
		await expectListed([...range(0, 10), ...range(0, 10)], 2);
	});

	test('refuses a link to another host on a later page before requesting it', async () => {
		scripted.script = (page) => ({
			next: page === 2 ? `${otherBase}${SCRIPTED_PATH}?page=3&perPage=10` : pageLink(page + 1),
			results: range((page - 1) * 10, page * 10),
		});
		const { error } = await run();
		expect(error?.message).toContain('Refused to follow a link');
		expect(otherHits).toBe(0);
		expect(scripted.hits).toHaveLength(2);
	});
});

describe('List Transactions: fetching pages by number (count given)', () => {
	test('uses the page size the service really returns when it caps Per Page', async () => {
		// asked for 10 per page, the service gives 4; count 18 -> pages 1..5
		scripted.script = (page) => {
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
		scripted.script = (page) => ({
			count: 100,
			next: pageLink(page + 1),
			results: range((page - 1) * 10, page * 10),
		});
		const { items, error } = await run({ returnAll: false, limit: 25 });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(range(0, 25));
		expect(
			scripted.hits.map((h) => new URL(h, scripted.base).searchParams.get('page')).sort(),
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
