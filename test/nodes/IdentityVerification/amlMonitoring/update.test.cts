/** AML Monitoring → Update: renewal and tags replaced, in the output and at the service. */
import { CLEAN, monitoring as op, testMonitoringId, useAmlSandbox } from '../aml-util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Update', () => {
	test('Update renews and replaces the tags; empty Tags removes them', async () => {
		const id = ctx.seed(CLEAN, new Date(Date.now() + 86_400_000).toISOString());
		const renewed = await ctx.run(
			op('update', { monitoringId: id, updateFields: { isSubscribed: true, tags: 'renewed' } }),
		);
		expect(renewed.error).toBeUndefined();
		expect(renewed.items[0].json).toMatchObject({ isSubscribed: true, tags: ['renewed'] });
		const cleared = await ctx.run(op('update', { monitoringId: id, updateFields: { tags: '' } }));
		expect(cleared.items[0].json.tags).toEqual([]);
		expect(ctx.sb.aml.monitoring(id)).toMatchObject({ isSubscribed: true, tags: [] });
	});

	testMonitoringId(ctx, 'update');
});
