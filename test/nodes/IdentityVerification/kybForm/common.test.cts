/**
 * The Form Token field every KYB form operation accepts instead of a credential (actions/kybForm/
 * common.ts): a company's token from Create Session, sent as Bearer to the API credential's Base URL.
 */
import { SEED } from '../../../sandbox/index.cjs';
import { session, useKybSandbox } from '../kyb-util.cjs';
import { expectError, serviceRequests } from '../util.cjs';

const ctx = useKybSandbox();

describe('KYB Form → Authentication: Form Token (a company’s token from Create Session)', () => {
	const withToken = (
		operation: string,
		formToken: string,
		extra: Record<string, unknown> = {},
	) => ({
		resource: 'kyb',
		operation,
		authentication: 'formToken',
		formToken,
		...extra,
	});

	test('Create Session’s item, mapped into the field ({{ $json.tokenString }}), reads its company’s form with no credential of its own', async () => {
		const created = await ctx.run(session(), { credentials: 'apiKeyOnly' });
		const sessionItem = created.items[0].json;
		const { companyId } = await ctx.sb.kyb.submitSession(sessionItem.tokenString as string);
		ctx.sb.resetLog();
		const { items, error } = await ctx.run(
			withToken('getAllAnswers', '={{ $json.tokenString }}', { companyId }),
			{ credentials: 'apiKeyOnly', input: [{ json: sessionItem }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(ctx.sb.requests).toMatchObject([
			{ authScheme: 'bearer', authorized: true, status: 200 },
		]);
	});

	test('sent as Bearer to the API credential’s Base URL, for the existing form operations too', async () => {
		const { token, companyId } = await ctx.submittedSession();
		ctx.sb.resetLog();
		const owners = await ctx.run(withToken('getBeneficiaries', token, { companyId }), {
			credentials: 'apiKeyOnly',
		});
		expect(owners.error).toBeUndefined();
		expect(owners.items).toHaveLength(2);
		const answers = await ctx.run(
			withToken('getAnswers', token, { companyId, questionnaireId: SEED.kyb.questionnaireId }),
			{ credentials: 'apiKeyOnly' },
		);
		expect(answers.error).toBeUndefined();
		expect(ctx.sb.requests.map((r) => [r.authScheme, r.authorized, r.status])).toEqual([
			['bearer', true, 200],
			['bearer', true, 200],
		]);
	});

	test('another company’s form: 403, with what to check', async () => {
		const { token } = await ctx.submittedSession();
		const other = ctx.sb.kyb.addCompany();
		const result = await ctx.run(withToken('getBeneficiaries', token, { companyId: other }), {
			credentials: 'apiKeyOnly',
		});
		const error = expectError(result, 'HTTP 403');
		expect(error.description).toMatch(/only works for the company whose session made it/);
	});

	test('an expired token: 401 says to run Create Session again, and never shows the token', async () => {
		const expired = await ctx.run(session({ sessionFields: { lifetime: 0 } }));
		const token = expired.items[0].json.tokenString as string;
		const result = await ctx.run(
			withToken('getAllAnswers', token, { companyId: SEED.kyb.companyId }),
			{ credentials: 'apiKeyOnly' },
		);
		const error = expectError(result, 'token in the Form Token field', 'HTTP 401');
		expect(error.description).toMatch(/Run Create Session again/);
		expect(JSON.stringify({ m: error.message, d: error.description })).not.toContain(token);
	});

	test('an empty Form Token is refused before anything is sent', async () => {
		const result = await ctx.run(
			withToken('getAllAnswers', '={{ "  " }}', { companyId: SEED.kyb.companyId }),
			{ credentials: 'apiKeyOnly' },
		);
		expectError(result, 'Form Token', 'must not be empty');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('the saved form token credential still works as before (Authentication → Form Token Credential)', async () => {
		const { items, error } = await ctx.run(
			{
				resource: 'kyb',
				operation: 'submitForm',
				authentication: 'kybFormToken',
				formId: SEED.kyb.formId,
			},
			{ credentials: 'formTokenOnly' },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ submitted: true, formId: SEED.kyb.formId });
		expect(ctx.sb.requests[0]).toMatchObject({ authScheme: 'bearer', authorized: true });
	});
});
