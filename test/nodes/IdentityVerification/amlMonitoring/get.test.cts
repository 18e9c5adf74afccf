/** AML Monitoring → Get: one monitoring by its ID, as the trigger's AML_MONITORING event gives it. */
import { monitoring as op, testMonitoringId, useAmlSandbox } from '../aml-util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Get', () => {
	test('Get by the ID of the trigger’s event ({{ $json.body.monitoringId }})', async () => {
		const id = ctx.seed();
		const { items, error } = await ctx.run(
			op('get', { monitoringId: '={{ $json.body.monitoringId }}' }),
			{ input: [{ json: { eventType: 'AML_MONITORING', body: { monitoringId: id } } }] },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			monitoringId: id,
			status: 'ALERT',
			amlCheck: { amlCheck: [expect.objectContaining({ resourceId: 'prof-pep-002' })] },
		});
	});

	testMonitoringId(ctx, 'get');
});
