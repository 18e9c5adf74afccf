/** KYB Form → Get Many Beneficiaries: each beneficiary an item, and an unknown company's 404. */
import { session, useKybSandbox } from '../kyb-util.cjs';
import { expectError, expectPaired } from '../util.cjs';

const ctx = useKybSandbox();

describe('KYB Form → Get Many Beneficiaries', () => {
	test('each beneficiary an item, paired with its company’s item', async () => {
		const first = await ctx.submittedSession();
		const second = await ctx.submittedSession();
		const { items, error } = await ctx.run(
			{ resource: 'kyb', operation: 'getBeneficiaries', companyId: '={{ $json.company }}' },
			{ input: [{ json: { company: first.companyId } }, { json: { company: second.companyId } }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(4);
		expectPaired(items, (i) => (i < 2 ? 0 : 1));
		expect(items.map((i) => (i.json.info as { surname: string }).surname)).toEqual([
			'Jonaitis',
			'Onaitė',
			'Jonaitis',
			'Onaitė',
		]);
	});

	test('an unknown company: the company’s own 404 words', async () => {
		const result = await ctx.run({
			resource: 'kyb',
			operation: 'getBeneficiaries',
			companyId: 'nope',
		});
		const error = expectError(result, 'no company with this Company ID');
		expect(error.description).toMatch(/companyId of a KYB event/);
	});
});
