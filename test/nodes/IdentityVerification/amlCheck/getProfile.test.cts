/**
 * AML Check → Get Profile: one hit of a check in full, with the IDs read from the Create step
 * before it, and a profile the check did not find.
 */
import { SEED } from '../../../sandbox/index.cjs';
import { createCheck, getProfile } from '../aml-util.cjs';
import { expectError, expectPaired, outputOf, testRefusals, useSandbox } from '../util.cjs';

const ctx = useSandbox();

describe('AML Check: Get Profile', () => {
	test('Create → Get Profile reads its IDs from the step before', async () => {
		const result = await ctx.run(createCheck(), {
			after: [{ name: 'Get Profile', parameters: getProfile() }],
		});
		expect(result.run.data.resultData.error).toBeUndefined();
		const items = outputOf(result, 'Get Profile');
		expect(items[0].json).toMatchObject({
			checkId: expect.any(String),
			profileId: 'prof-001',
			resourceId: 'prof-001',
			lastName: 'Volkov',
			sanEntries: { current: [expect.objectContaining({ sanctionId: 'EU-2022-0311' })] },
		});
		expectPaired(items);
	});

	testRefusals(ctx, [
		[getProfile({ checkId: 'check-1', profileId: 'p' }), 'Check ID', 'must be a UUID'],
		[getProfile({ checkId: SEED.aml.checkId, profileId: '..' }), 'Profile ID', 'only dots'],
	]);

	test('a profile the check did not find: 404 in words naming the IDs', async () => {
		const profile = await ctx.run(getProfile({ checkId: SEED.aml.checkId, profileId: 'biz-003' }));
		const error = expectError(profile, 'no profile with this Profile ID', 'Check ID');
		expect(error.description).toMatch(/within the check/);
	});
});
