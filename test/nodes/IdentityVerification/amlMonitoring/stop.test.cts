/**
 * AML Monitoring → Stop: the comment's limit, a stop not repeated after a server error, and
 * Continue On Fail. (Stop then Start, the monitoring listed as STOPPED between: start.test.cts.)
 */
import {
	UNKNOWN,
	monitoring as op,
	testComment,
	testMonitoringId,
	useAmlSandbox,
} from '../aml-util.cjs';
import { expectError, expectPaired, serviceRequests } from '../util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Stop', () => {
	testComment(ctx, 'stop');

	test('Stop refuses a comment over 10,000 characters; a start or stop is not repeated after a server error', async () => {
		const id = ctx.seed();
		expectError(
			await ctx.run(op('stop', { monitoringId: id, comment: 'c'.repeat(10_001) })),
			'Comment:',
			'at most 10000 characters',
		);
		ctx.sb.faults.add({ method: 'POST', path: `/aml/monitorings/${id}/stop/`, status: 503 });
		expectError(await ctx.run(op('stop', { monitoringId: id })), '503');
		expect(serviceRequests(ctx.sb, `/aml/monitorings/${id}/stop/`)).toBe(1);
	});

	test('Continue On Fail: an unknown monitoring becomes an error item with its status, the others go on', async () => {
		const id = ctx.seed();
		const { items, error } = await ctx.run(op('stop', { monitoringId: '={{ $json.id }}' }), {
			continueOnFail: true,
			input: [{ json: { id } }, { json: { id: UNKNOWN } }, { json: { id: 'x' } }],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].json.status).toBe('STOPPED');
		expect(items[1].json).toMatchObject({ httpCode: '404' });
		expect(items[2].json.error).toBe(
			'Monitoring ID: must be a UUID such as 5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10',
		);
	});

	testMonitoringId(ctx, 'stop');
});
