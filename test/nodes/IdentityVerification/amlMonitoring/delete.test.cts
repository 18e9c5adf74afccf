/** AML Monitoring → Delete: the monitoring is gone, and deleting it again is a 404 in words. */
import { monitoring as op, testMonitoringId, useAmlSandbox } from '../aml-util.cjs';
import { expectError } from '../util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Delete', () => {
	test('Delete: gone afterwards, and a second Delete says it is not found', async () => {
		const id = ctx.seed();
		const { items, error } = await ctx.run(op('delete', { monitoringId: id }));
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: { monitoringId: id, deleted: true }, pairedItem: { item: 0 } }]);
		expect(ctx.sb.aml.monitoring(id)).toBeUndefined();
		const again = await ctx.run(op('delete', { monitoringId: id }));
		const error404 = expectError(again, 'no AML monitoring with this Monitoring ID');
		expect(error404.description).toMatch(/deleted monitoring is gone/);
	});

	testMonitoringId(ctx, 'delete');
});
