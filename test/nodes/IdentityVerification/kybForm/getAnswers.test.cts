/** KYB Form → Get Questionnaire Answers with either credential: Simplify, the service's 404, Continue On Fail. */
import { SEED } from '../../../sandbox/index.cjs';
import { expectError, expectPaired, useSandbox } from '../util.cjs';

const ctx = useSandbox();
const { companyId, questionnaireId } = SEED.kyb;
const ANSWERS = `/kyb/forms/${companyId}/questionnaires/${questionnaireId}/answers/`;

describe('KYB Form → Get Questionnaire Answers', () => {
	test.each([
		['API key', 'apiKey', 'apiKeyOnly', 'basic'],
		['KYB form token', 'kybFormToken', 'formTokenOnly', 'bearer'],
	] as const)(
		'gets questionnaire answers with the %s',
		async (_name, authentication, credentials, scheme) => {
			const { items, error } = await ctx.run(
				{ resource: 'kyb', operation: 'getAnswers', authentication, companyId, questionnaireId },
				{ credentials },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expectPaired(items);
			expect(typeof items[0].json.sections).toBe('object');
			expect(Object.keys(items[0].json.sections as object).length).toBeGreaterThan(0);
			const request = ctx.sb.requests.find((r) => r.path === ANSWERS);
			expect(request?.authScheme).toBe(scheme);
			expect(request?.authorized).toBe(true);
		},
	);

	test('Simplify: one row per answer with the company and questionnaire IDs, for a spreadsheet', async () => {
		const { items, error } = await ctx.run({
			resource: 'kyb',
			operation: 'getAnswers',
			companyId,
			questionnaireId,
			simplify: true,
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			companyId,
			questionnaireId,
			section: 'companyDetails',
			question: 'legalName',
			value: 'UAB Baltic Widgets',
		});
		expect(items.length).toBeGreaterThan(10);
		for (const item of items)
			expect(Object.keys(item.json)).toEqual([
				'companyId',
				'questionnaireId',
				'section',
				'question',
				'value',
			]);
		expectPaired(items);
	});

	test('explains an unknown company clearly (404)', async () => {
		const result = await ctx.run({
			resource: 'kyb',
			operation: 'getAnswers',
			companyId: 'nope',
			questionnaireId,
		});
		const error = expectError(result, '404');
		expect(error.description).toMatch(/check the ids/i);
	});

	test('Continue On Fail: a service error (404) on the middle item becomes an error item with its details, no secrets', async () => {
		const { items, error } = await ctx.run(
			{ resource: 'kyb', operation: 'getAnswers', companyId, questionnaireId: '={{ $json.q }}' },
			{
				continueOnFail: true,
				input: [
					{ json: { q: questionnaireId } },
					{ json: { q: 'unknown' } },
					{ json: { q: questionnaireId } },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expectPaired(items, (i) => i);
		expect(Object.keys(items[0].json.sections as object).length).toBeGreaterThan(0);
		expect(items[2].json).toEqual(items[0].json);
		expect(items[1].json).toMatchObject({ httpCode: '404' });
		expect(String(items[1].json.error)).toContain('Not found');
		expect(String(items[1].json.description)).toMatch(/check the ids/i);
		const text = JSON.stringify(items[1].json);
		expect(text).not.toContain(ctx.sb.credentials.apiSecret);
		expect(text).not.toContain(
			Buffer.from(`${ctx.sb.credentials.apiKey}:${ctx.sb.credentials.apiSecret}`).toString(
				'base64',
			),
		);
	});

	test('a wrong form token is reported as a credential problem', async () => {
		const result = await ctx.run(
			{
				resource: 'kyb',
				operation: 'getAnswers',
				authentication: 'kybFormToken',
				companyId,
				questionnaireId,
			},
			{ credentials: 'formTokenOnly', formToken: 'wrong-token' },
		);
		const error = expectError(result, '401');
		expect(
			JSON.stringify({ message: error.message, description: error.description }),
		).not.toContain('wrong-token');
	});
});
