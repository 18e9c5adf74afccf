/** AML Monitoring → Remove Profile: a cleared hit is no longer listed, and cannot be removed twice. */
import { monitoring as op, useAmlSandbox } from '../aml-util.cjs';
import { expectError } from '../util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Remove Profile', () => {
	test('Remove Profile: the cleared hit is no longer listed and the monitoring is ACTIVE again', async () => {
		const id = ctx.seed();
		const { items, error } = await ctx.run(
			op('removeProfile', { monitoringId: id, profileId: 'prof-pep-002' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ monitoringId: id, profileId: 'prof-pep-002', removed: true });
		const after = await ctx.run(op('get', { monitoringId: id }));
		expect(after.items[0].json).toMatchObject({ status: 'ACTIVE', amlCheck: { amlCheck: [] } });
		const again = await ctx.run(
			op('removeProfile', { monitoringId: id, profileId: 'prof-pep-002' }),
		);
		expectError(again, 'no profile with this Profile ID in the AML monitoring');
	});
});
