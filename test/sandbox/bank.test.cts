import { bankTransactionSchema, LIMITS } from '../../nodes/shared/contract';
import { MAX_PER_PAGE, SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';

const txPath = (v: string, a: string) => `/bank/verifications/${v}/accounts/${a}/transactions/`;
const TX = txPath(SEED.bank.verificationId, SEED.bank.accountId);

describe('sandbox bank', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s));

	describe('POST /bank/tokens/', () => {
		test('creates a token valid for the requested lifetime', async () => {
			const before = Date.now();
			const res = await call(sb, 'POST', '/bank/tokens/', {
				body: { lifetime: 600, country: 'LT', bank: 'Swedbank', access: { transactions: true } },
			});
			expect(res.status).toBe(201);
			expect(res.json).toMatchObject({
				isValid: true,
				country: 'LT',
				bank: 'Swedbank',
				access: { accounts: false, balances: false, transactions: true },
			});
			expect(res.json.tokenString).toEqual(expect.any(String));
			const expiresIn = Date.parse(res.json.expiration) - before;
			expect(expiresIn).toBeGreaterThanOrEqual(600 * 1000 - 1000);
			expect(expiresIn).toBeLessThanOrEqual(600 * 1000 + 60000);
		});

		test('needs no field at all (lifetime defaults to 3600 s)', async () => {
			const res = await call(sb, 'POST', '/bank/tokens/');
			expect(res.status).toBe(201);
			expect(Date.parse(res.json.expiration) - Date.now()).toBeGreaterThan(3500 * 1000);
			expect(res.json).toMatchObject({ country: null, bank: null });
		});

		test.each([
			[{ lifetime: LIMITS.bankTokenLifetime.max + 1 }, 'lifetime', 'at most 2592000'],
			[{ lifetime: -1 }, 'lifetime', 'at least 0'],
			[{ lifetime: 1.5 }, 'lifetime', 'whole number'],
			[{ bank: 'x'.repeat(33) }, 'bank', 'at most 32'],
			[{ country: 'US' }, 'country', 'bank countries'],
			[{ access: { accounts: 'yes' } }, 'access.accounts', 'boolean'],
		])('answers 400 BAD_VALUE naming the field for %j', async (body, field, rule) => {
			const res = await call(sb, 'POST', '/bank/tokens/', { body });
			expect(res.status).toBe(400);
			expect(res.json.identifier).toBe('BAD_VALUE');
			expect(res.json.message).toMatch(new RegExp(`^Field '${field}'.*${rule}`));
			expect(res.json.message).toContain(`Field '${field}'`);
			expect(res.json.message).toContain(rule);
		});

		test('accepts the limits themselves', async () => {
			const res = await call(sb, 'POST', '/bank/tokens/', {
				body: { lifetime: 2592000, bank: 'x'.repeat(32) },
			});
			expect(res.status).toBe(201);
			expect(
				(await call(sb, 'POST', '/bank/tokens/', { body: { lifetime: 0 } })).json.isValid,
			).toBe(false);
		});

		test('answers 400 for malformed JSON and for a body that is not an object', async () => {
			const bad = await call(sb, 'POST', '/bank/tokens/', { body: '{"lifetime":' });
			expect(bad.status).toBe(400);
			expect(bad.json).toMatchObject({
				identifier: 'JSON_ERROR',
				message: expect.stringMatching(/JSON parse error/),
			});
			const arr = await call(sb, 'POST', '/bank/tokens/', { body: [] });
			expect(arr.status).toBe(400);
			expect(arr.json).toEqual({
				identifier: 'JSON_ERROR',
				message: 'Invalid data: the body must be a JSON object.',
			});
		});
	});

	describe('GET transactions', () => {
		test('pages through the 1,037 seeded transactions 50 at a time with absolute links', async () => {
			const pages: any[] = [];
			let url: string | null = `${sb.url}${TX}?perPage=50`;
			while (url) {
				const res = await call(sb, 'GET', url);
				expect(res.status).toBe(200);
				pages.push(res.json);
				url = res.json.next;
				expect(pages.length).toBeLessThanOrEqual(21);
			}
			expect(pages).toHaveLength(21);
			expect(pages.map((p) => p.count)).toEqual(Array(21).fill(1037));
			expect(pages.map((p) => p.results.length)).toEqual([...Array(20).fill(50), 37]);
			expect(pages[0].previous).toBeNull();
			expect(pages[1].previous).toBe(`${sb.url}${TX}?perPage=50`);
			expect(pages[2].previous).toBe(`${sb.url}${TX}?perPage=50&page=2`);
			expect(pages[0].next).toBe(`${sb.url}${TX}?perPage=50&page=2`);
			const all = pages.flatMap((p) => p.results);
			expect(all).toHaveLength(1037);
			for (const tx of all) expect(bankTransactionSchema.safeParse(tx).success).toBe(true);
		});

		test('generates contract-valid, deterministic and varied transactions', async () => {
			const first = await call(sb, 'GET', `${TX}?perPage=500`);
			const again = await call(sb, 'GET', `${TX}?perPage=500`);
			expect(again.json.results).toEqual(first.json.results);
			const results = first.json.results as any[];
			const currencies = new Set(results.map((t) => t.transactionAmount.currency));
			expect(currencies.has('EUR')).toBe(true);
			expect(currencies.size).toBeGreaterThan(1);
			const names = results
				.flatMap((t) => [t.creditor.fullName, t.debtor.fullName])
				.filter((n) => n !== null);
			expect(Math.max(...names.map((n: string) => n.length))).toBe(128);
			expect(results.some((t) => t.transactionAmount.amount.startsWith('-'))).toBe(true);
			for (const t of results) {
				expect(t.transactionAmount.amount).toMatch(LIMITS.amountPattern);
				expect(t.transactionAmount.currency.length).toBeLessThanOrEqual(3);
			}
		});

		test('builds links from the Host header the client used', async () => {
			const res = await call(sb, 'GET', `${TX}?perPage=10`, {
				headers: { host: 'proxy.test:4443' },
			});
			expect(res.json.next).toBe(`http://proxy.test:4443${TX}?perPage=10&page=2`);
		});

		test('defaults perPage to 50 and caps it at 500', async () => {
			expect((await call(sb, 'GET', TX)).json.results).toHaveLength(50);
			expect((await call(sb, 'GET', `${TX}?perPage=0`)).json.results).toHaveLength(50);
			expect((await call(sb, 'GET', `${TX}?perPage=abc`)).json.results).toHaveLength(50);
			const capped = await call(sb, 'GET', `${TX}?perPage=100000`);
			expect(capped.json.results).toHaveLength(MAX_PER_PAGE);
			expect(capped.json.next).toContain('page=2');
		});

		test.each(['0', '-1', 'abc', '22'])('answers 404 "Invalid page." for page=%s', async (page) => {
			const res = await call(sb, 'GET', `${TX}?perPage=50&page=${page}`);
			expect(res.status).toBe(404);
			expect(res.json).toEqual({ detail: 'Invalid page.' });
		});

		test('answers 404 for an unknown verification or account', async () => {
			expect(
				(await call(sb, 'GET', txPath('00000000-0000-4000-8000-000000000000', SEED.bank.accountId)))
					.status,
			).toBe(404);
			expect((await call(sb, 'GET', txPath(SEED.bank.verificationId, 'nope'))).status).toBe(404);
		});

		test('serves seeded accounts, including empty and very large ones', async () => {
			const empty = sb.bank.seedAccount({ transactions: 0 });
			const res = await call(sb, 'GET', txPath(empty.verificationId, empty.accountId));
			expect(res.json).toEqual({ count: 0, next: null, previous: null, results: [] });
			const big = sb.bank.seedAccount({
				transactions: 100000,
				verificationId: 'v-big',
				accountId: 'a-big',
			});
			const last = await call(
				sb,
				'GET',
				`${txPath(big.verificationId, big.accountId)}?perPage=500&page=200`,
			);
			expect(last.json.count).toBe(100000);
			expect(last.json.results).toHaveLength(500);
			expect(last.json.next).toBeNull();
		});

		test('serves the transactions an account was seeded with, in order and as given (two alike stay two)', async () => {
			const payment = {
				creditor: { fullName: 'Žemaitė Petraitienė' },
				debtor: { fullName: 'Jonas Jonaitis' },
				bookingDate: '2026-03-14',
				transactionDate: null,
				transactionAmount: { amount: '-12.50', currency: 'EUR' },
			};
			const other = { ...payment, transactionAmount: { amount: '3.00', currency: 'EUR' } };
			const ids = sb.bank.seedAccount({ transactions: [payment, payment, other] });
			const first = await call(sb, 'GET', `${txPath(ids.verificationId, ids.accountId)}?perPage=2`);
			expect(first.json.count).toBe(3);
			expect(first.json.results).toEqual([payment, payment]);
			const second = await call(sb, 'GET', first.json.next);
			expect(second.json.results).toEqual([other]);
			expect(second.json.next).toBeNull();
		});

		test('refuses to be seeded with a transaction the contract does not allow', () => {
			const broken = { creditor: {}, debtor: {}, transactionAmount: { amount: '1.234' } };
			expect(() => sb.bank.seedAccount({ transactions: [broken as never] })).toThrow(
				/transaction 0 does not match the contract/,
			);
		});
	});

	describe('misbehaving page links', () => {
		test('loop: page 3 links back to page 2', async () => {
			sb.bank.setPageLinks('loop');
			const p3 = await call(sb, 'GET', `${TX}?perPage=50&page=3`);
			expect(p3.json.next).toBe(`${sb.url}${TX}?perPage=50&page=2`);
			const p2 = await call(sb, 'GET', `${TX}?perPage=50&page=2`);
			expect(p2.json.next).toBe(`${sb.url}${TX}?perPage=50&page=3`);
		});

		test('repeat: page N+1 returns page N again, still with a next link', async () => {
			sb.bank.setPageLinks('repeat');
			const p1 = await call(sb, 'GET', `${TX}?perPage=50`);
			const p2 = await call(sb, 'GET', p1.json.next);
			expect(p2.json.results).toEqual(p1.json.results);
			expect(p2.json.next).toBe(`${sb.url}${TX}?perPage=50&page=3`);
		});

		test('cross-host: next points to another origin', async () => {
			sb.bank.setPageLinks('cross-host', 'http://localhost:9');
			const p1 = await call(sb, 'GET', `${TX}?perPage=50`);
			expect(p1.json.next).toBe(`http://localhost:9${TX}?perPage=50&page=2`);
			sb.bank.setPageLinks('cross-host');
			expect((await call(sb, 'GET', `${TX}?perPage=50`)).json.next.startsWith(sb.url)).toBe(false);
		});

		test('no-count: the count is omitted', async () => {
			sb.bank.setPageLinks('no-count');
			const p1 = await call(sb, 'GET', `${TX}?perPage=50`);
			expect(p1.json).not.toHaveProperty('count');
			expect(p1.json.results).toHaveLength(50);
			sb.bank.setPageLinks('normal');
			expect((await call(sb, 'GET', `${TX}?perPage=50`)).json.count).toBe(1037);
		});
	});
});
