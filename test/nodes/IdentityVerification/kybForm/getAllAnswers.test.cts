/** KYB Form → Get All Answers: every questionnaire's answers of a submitted company, one item each. */
import { SEED } from '../../../sandbox/index.cjs';
import { expectError, serviceRequests, useSandbox } from '../util.cjs';

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

describe('KYB Form → Get All Answers', () => {
	test('every questionnaire’s answers, one item each, with the API key', async () => {
		const { companyId } = await submittedSession();
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
