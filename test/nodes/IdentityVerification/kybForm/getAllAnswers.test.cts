/** KYB Form → Get All Answers: every questionnaire's answers of a submitted company, one item each. */
import { SEED } from '../../../sandbox/index.cjs';
import { session, useKybSandbox } from '../kyb-util.cjs';
import { expectError, serviceRequests } from '../util.cjs';

const ctx = useKybSandbox();

describe('KYB Form → Get All Answers', () => {
	test('every questionnaire’s answers, one item each, with the API key', async () => {
		const { companyId } = await ctx.submittedSession();
		const { items, error } = await ctx.run({
			resource: 'kyb',
			operation: 'getAllAnswers',
			companyId,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: SEED.kyb.questionnaireId,
			title: 'Company onboarding',
		});
		const sections = items[0].json.sections as Array<{ questions: Array<{ key: string }> }>;
		expect(sections.flatMap((s) => s.questions.map((q) => q.key))).toContain('beneficialOwners');
	});

	test.each([
		['empty', '={{ "" }}', 'must not be empty'],
		['only dots', '..', 'only dots'],
	])('refuses a Company ID that is %s before sending anything', async (_name, companyId, rule) => {
		const result = await ctx.run({ resource: 'kyb', operation: 'getAllAnswers', companyId });
		expectError(result, 'Company ID', rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});
