/**
 * Bank → List Transactions: Simplify (one flat row per transaction, for a spreadsheet) and the
 * Booked From / Booked To filter the node applies to what the service returns.
 */
import { NodeHelpers, type INode, type INodeProperties } from 'n8n-workflow';
import { IdentityVerification } from '../../../../nodes/IdentityVerification/IdentityVerification.node';
import type { BankTransaction } from '../../../../nodes/shared/contract';
import {
	SCRIPTED_PATH,
	expectError,
	expectPaired,
	serviceRequests,
	transaction,
	useSandbox,
	useScriptedService,
} from '../util.cjs';

const ctx = useSandbox();
const scripted = useScriptedService();
const TX_PATH = '/bank/verifications/';

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
		const { description } = new IdentityVerification();
		const defaultsFor = (name: string) => {
			const node: INode = {
				id: 'n',
				name: 'n',
				type: `n8n-nodes-identity-verification.${name}`,
				typeVersion: 1,
				position: [0, 0],
				parameters: { resource: 'bank', operation: 'listTransactions' },
			};
			return NodeHelpers.getNodeParameters(
				description.properties as INodeProperties[],
				node.parameters,
				true,
				false,
				node,
				{ ...description, name },
			);
		};
		expect(defaultsFor('identityVerification')?.simplify).toBe(false);
		expect(defaultsFor('identityVerificationTool')?.simplify).toBe(false);
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
