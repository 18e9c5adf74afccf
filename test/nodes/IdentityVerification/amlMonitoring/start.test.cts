/** AML Monitoring → Start: a stopped monitoring screens again, with the comment it was sent. */
import { monitoring as op, testComment, testMonitoringId, useAmlSandbox } from '../aml-util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Start', () => {
	test('Stop with a comment lists it as STOPPED; Start brings it back', async () => {
		const id = ctx.seed();
		const stopped = await ctx.run(op('stop', { monitoringId: id, comment: 'Customer offboarded' }));
		expect(stopped.error).toBeUndefined();
		expect(stopped.items[0].json).toMatchObject({ monitoringId: id, status: 'STOPPED' });
		const listed = await ctx.run(op('getAll', { returnAll: true, filters: { status: 'STOPPED' } }));
		expect(listed.items.map((i) => i.json.monitoringId)).toEqual([id]);
		const started = await ctx.run(op('start', { monitoringId: id }));
		expect(started.items[0].json.status).toBe('ALERT');
	});

	testComment(ctx, 'start');
	testMonitoringId(ctx, 'start');
});
