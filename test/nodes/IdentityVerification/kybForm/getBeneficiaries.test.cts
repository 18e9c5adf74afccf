/** KYB Form → Get Many Beneficiaries: each beneficiary an item, and an unknown company's 404. */
import { expectError, expectPaired, useSandbox } from '../util.cjs';

const ctx = useSandbox();

const session = (extra: Record<string, unknown> = {}) => ({
	resource: 'kyb',
	operation: 'createSession',
	clientId: 'deal-42',
	...extra,
});

/** A session made over the API, and its company's form filled and submitted from its link. */
async function submittedSession() {
	const { items } = await ctx.run(session());
	const token = items[0].json.tokenString as string;
	const { companyId } = await ctx.sb.kyb.submitSession(token);
	return { token, companyId };
}

describe('KYB Form → Get Many Beneficiaries', () => {
	test('each beneficiary an item, paired with its company’s item', async () => {
		const first = await submittedSession();
		const second = await submittedSession();
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
