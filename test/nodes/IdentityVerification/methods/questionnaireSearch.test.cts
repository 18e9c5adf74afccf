/**
 * Questionnaire ID → From List: the questionnaires of the company in Company ID
 * (`GET /kyb/forms/{companyId}/questionnaires/`, kyb.yaml `kybFormsQuestionnairesList`, one unpaged
 * list, with the API key or the form token), found by title.
 */
import { SEED } from '../../../sandbox/index.cjs';
import { useSearchSandbox } from './search-util.cjs';

const ctx = useSearchSandbox();
const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
const answers = (extra: Record<string, unknown>) => ({
	resource: 'kyb',
	operation: 'getAnswers',
	...extra,
});
const QUESTIONNAIRE = { name: 'Company onboarding', value: SEED.kyb.questionnaireId };

describe('Questionnaire ID: From List', () => {
	test('the questionnaires of the chosen company, with the API key', async () => {
		ctx.sb.resetLog();
		const { results } = await ctx.search(
			'questionnaireSearch',
			answers({ companyId: rl('list', SEED.kyb.companyId) }),
		);
		expect(results).toEqual([QUESTIONNAIRE]);
		expect(ctx.sb.requests).toMatchObject([
			{ path: `/kyb/forms/${SEED.kyb.companyId}/questionnaires/`, authScheme: 'basic' },
		]);
	});

	test('with the Form Token Credential: sent with the form token', async () => {
		ctx.sb.resetLog();
		const { results } = await ctx.search(
			'questionnaireSearch',
			answers({ authentication: 'kybFormToken', companyId: rl('id', SEED.kyb.companyId) }),
		);
		expect(results).toEqual([QUESTIONNAIRE]);
		expect(ctx.sb.requests[0].authScheme).toBe('bearer');
	});

	test('the search box filters by title', async () => {
		const parameters = answers({ companyId: rl('list', SEED.kyb.companyId) });
		const found = await ctx.search('questionnaireSearch', parameters, { filter: 'onboard' });
		expect(found.results).toEqual([QUESTIONNAIRE]);
		const none = await ctx.search('questionnaireSearch', parameters, { filter: 'tax' });
		expect(none.results).toEqual([]);
	});

	test('no company chosen yet, or one given by an expression: says to choose it first', async () => {
		for (const companyId of [rl('list', ''), rl('id', '={{ $json.companyId }}')]) {
			await expect(ctx.search('questionnaireSearch', answers({ companyId }))).rejects.toThrow(
				'Choose the company first',
			);
		}
		expect(ctx.sb.requests).toHaveLength(0);
	});

	test('an unknown company: the service’s 404, in the transport’s words', async () => {
		await expect(
			ctx.search('questionnaireSearch', answers({ companyId: rl('id', 'no-such-company') })),
		).rejects.toThrow(/404/);
	});
});
