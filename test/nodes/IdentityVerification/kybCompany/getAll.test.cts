/**
 * KYB Company → Get Many: every page, Limit, the registration number filter, Simplify, and a page
 * with an element nested deeper than n8n can store.
 */
import { SEED } from '../../../sandbox/index.cjs';
import { company, unlisted } from '../kyb-util.cjs';
import {
	TOO_DEEP,
	expectError,
	nestedArrays as nested,
	serviceRequests,
	useSandbox,
} from '../util.cjs';

const ctx = useSandbox();

describe('KYB Company → Get Many', () => {
	test('Return All reads every page, newest first', async () => {
		const ids = [];
		for (let i = 0; i < 12; i++) ids.push(ctx.sb.kyb.addCompany({ companyName: `Company ${i}` }));
		const { items, error } = await ctx.run(company('getAll', { returnAll: true }));
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual([...ids].reverse().concat(SEED.kyb.companyId));
		// The sandbox's pages hold 10: two pages.
		expect(serviceRequests(ctx.sb, '/kyb/companies/')).toBe(2);
		expect(unlisted('getAll', items[0].json)).toEqual([]);
	});

	test('Limit stops there; the registration number filters at the service', async () => {
		for (let i = 0; i < 3; i++) ctx.sb.kyb.addCompany();
		const other = ctx.sb.kyb.addCompany({ registrationNumber: 'LT-999' });
		const limited = await ctx.run(company('getAll', { limit: 2 }));
		expect(limited.items).toHaveLength(2);
		const found = await ctx.run(
			company('getAll', { returnAll: true, filters: { registrationNumber: ' LT-999 ' } }),
		);
		expect(found.items.map((i) => i.json.id)).toEqual([other]);
		expect(ctx.sb.requests.at(-1)?.query).toEqual({ registrationNumber: 'LT-999', page: '1' });
	});

	test('a registration number an expression gives as a number still filters (it listed every company)', async () => {
		const other = ctx.sb.kyb.addCompany({ registrationNumber: '305999111' });
		const found = await ctx.run(
			company('getAll', { returnAll: true, filters: { registrationNumber: '={{ 305999111 }}' } }),
		);
		expect(found.items.map((i) => i.json.id)).toEqual([other]);
		expect(ctx.sb.requests.at(-1)?.query).toEqual({ registrationNumber: '305999111', page: '1' });
	});

	test('Simplify: one flat row per company', async () => {
		const { items } = await ctx.run(company('getAll', { limit: 1, simplify: true }));
		expect(items[0].json).toEqual({
			id: SEED.kyb.companyId,
			companyName: 'UAB Baltic Widgets',
			registrationNumber: '305123456',
			country: 'LT',
			status: 'PENDING',
			approvalStatus: null,
			denyReason: null,
			submissionTime: null,
		});
	});

	test('a Limit of 0 is refused before sending anything', async () => {
		expectError(await ctx.run(company('getAll', { limit: 0 })), 'Limit', 'at least 1');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test.each([5_000, 1_000_000])(
		'an element of a list page %s levels deep is refused, naming the limit',
		async (levels) => {
			ctx.sb.faults.add({
				path: '/kyb/companies/',
				status: 200,
				jsonText: `{"count":2,"next":null,"previous":null,"results":[{"id":"c-1"},${nested(levels - 2)}]}`,
			});
			const result = await ctx.run(company('getAll', { returnAll: true }));
			expectError(result, TOO_DEEP);
			expect(serviceRequests(ctx.sb, '/kyb/companies/')).toBe(1);
		},
	);
});
