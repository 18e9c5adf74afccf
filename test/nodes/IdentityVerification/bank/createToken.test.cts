/** Bank → Create Token through n8n's engine against the sandbox. */
import { expectError, expectPaired, serviceRequests, useSandbox } from '../util.cjs';

const ctx = useSandbox();

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
		// The link the person opens: the provider's hosted page with the token (its bank guide).
		expect(token.verificationUrl).toBe(
			`https://bank-verification.ui.idenfy.com/?token=${encodeURIComponent(String(token.tokenString))}`,
		);
		expect(Object.keys(token)[0]).toBe('verificationUrl');
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
