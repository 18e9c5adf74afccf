/** KYB Form → Delete Questionnaire Answers. */
import { SEED } from '../../../sandbox/index.cjs';
import { useSandbox } from '../util.cjs';

const ctx = useSandbox();
const { companyId, questionnaireId } = SEED.kyb;

describe('KYB Form → Delete Questionnaire Answers', () => {
	test('deletes questionnaire answers and says so', async () => {
		const { items, error } = await ctx.run({
			resource: 'kyb',
			operation: 'deleteAnswers',
			authentication: 'kybFormToken',
			companyId,
			questionnaireId,
		});
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{ json: { deleted: true, companyId, questionnaireId }, pairedItem: { item: 0 } },
		]);
		const after = await ctx.run({
			resource: 'kyb',
			operation: 'getAnswers',
			companyId,
			questionnaireId,
		});
		// The service answers 204 with no body for a questionnaire without answers.
		expect(after.error).toBeUndefined();
		expect(after.items).toEqual([{ json: {}, pairedItem: { item: 0 } }]);
	});
});
