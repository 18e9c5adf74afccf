/** AML Monitoring → Get Many: by status, Return All or a Limit over pages, the filters sent. */
import { CLEAN, monitoring as op, useAmlSandbox } from '../aml-util.cjs';
import { expectError, expectPaired, serviceRequests } from '../util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Get Many', () => {
	test('Get Many: status ALERT, Return All or a Limit over several pages, filters sent as the provider names them', async () => {
		const alerts = [ctx.seed(), ctx.seed(), ctx.seed()];
		ctx.seed(CLEAN);
		const all = await ctx.run(op('getAll', { returnAll: true, filters: { status: 'ALERT' } }));
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.monitoringId).sort()).toEqual([...alerts].sort());
		expect(all.items[0].json).toMatchObject({ status: 'ALERT', name: 'Łukasz Müller-Wiśniewski' });
		expectPaired(all.items);

		const limited = await ctx.run(op('getAll', { limit: 2 }));
		expect(limited.items).toHaveLength(2);

		ctx.sb.resetLog();
		const filtered = await ctx.run(
			op('getAll', {
				returnAll: true,
				filters: { userType: 'PERSON', country: 'pl', isExpired: false, name: 'Ona', tags: 'a, b' },
				options: { orderBy: '-expiration' },
			}),
		);
		expect(filtered.error).toBeUndefined();
		expect(ctx.sb.requests[0].query).toEqual({
			page: '1',
			userType: 'PERSON',
			country: 'PL',
			isExpired: 'false',
			name: 'Ona',
			tags: 'a,b',
			orderBy: '-expiration',
		});
	});

	test.each([
		[{ limit: 0 }, 'Limit', 'at least 1'],
		[{ filters: { country: 'LTU' } }, 'Country', 'two-letter'],
	])('Get Many refuses %j before sending anything', async (extra, label, rule) => {
		expectError(await ctx.run(op('getAll', extra)), `${label}:`, rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});
