/**
 * Version 2's KYB chain without a typed ID: Submit Form finds the form of its form token, a company
 * is picked from the list, and Set Review Decision on a company that has not submitted says so.
 * Versions 1 and 1.1 keep their messages.
 */
import { runNode, sandboxCredentials, searchList } from '../../harness/index.cjs';
import { SEED } from '../../sandbox/index.cjs';
import { company, session, useKybSandbox } from './kyb-util.cjs';
import { expectError, serviceRequests } from './util.cjs';

const ctx = useKybSandbox();
const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
const submit = (extra: Record<string, unknown>) => ({
	resource: 'kyb',
	operation: 'submitForm',
	...extra,
});

describe('KYB Form → Submit Form (version 2): the form of the form token', () => {
	test('Form ID left empty with the Form Token Credential: the token’s form is read, then submitted', async () => {
		const { items, error } = await ctx.run(
			submit({ authentication: 'kybFormToken', formId: rl('list', '') }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ submitted: true, formId: SEED.kyb.formId });
		expect(ctx.sb.kyb.isSubmitted(SEED.kyb.formId)).toBe(true);
		expect(ctx.sb.requests).toMatchObject([
			{ method: 'GET', path: '/kyb/forms/', authScheme: 'bearer' },
			{ method: 'POST', path: `/kyb/forms/${SEED.kyb.formId}/submit/`, authScheme: 'bearer' },
		]);
	});

	test('a session’s token whose company has not started its form: says so, submits nothing', async () => {
		const created = await ctx.run(session());
		ctx.sb.resetLog();
		const result = await ctx.run(
			submit({ authentication: 'formToken', formToken: '={{ $json.tokenString }}' }),
			{ input: [{ json: created.items[0].json }] },
		);
		const error = expectError(result, 'Form ID: the form token has no form yet');
		expect(error.description).toContain('opens the link of its session');
		expect(ctx.sb.requests.map((request) => request.method)).toEqual(['GET']);
	});

	test('with the API key, an empty Form ID is refused as in version 1, before any request', async () => {
		const empty = '={{ $json.formId ?? "" }}';
		const v2 = await ctx.run(submit({ formId: rl('id', empty) }));
		const v1 = await runNode({
			node: 'identityVerification',
			typeVersion: 1.1,
			parameters: submit({ formId: empty }),
			credentials: sandboxCredentials(ctx.sb),
		});
		expect(v2.error?.message).toBe(v1.error?.message);
		expect(v2.error?.message).toMatch(/^Form ID: /);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});

describe('KYB Company → Set Review Decision (version 2): a company that has not submitted', () => {
	test('says the company has not submitted its form yet and what to wait for; the service’s words first', async () => {
		const result = await ctx.run(decide(rl('id', SEED.kyb.companyId)));
		const error = expectError(result, 'The company has not submitted its form yet (HTTP 409)');
		expect(error.description).toMatch(
			/^The service said: "The status cannot be changed from PENDING\." A decision can be set once/,
		);
		expect(error.description).toContain('Company Submitted');
		expect(error.description).not.toContain('Base URL');
	});

	test('version 1.1 gets the advice every 409 gets (the state), not the company’s own words', async () => {
		const result = await runNode({
			node: 'identityVerification',
			typeVersion: 1.1,
			parameters: decide(SEED.kyb.companyId),
			credentials: sandboxCredentials(ctx.sb),
		});
		expect(result.error?.message).toBe(
			'The service refused this step in the current state (HTTP 409)',
		);
	});
});

describe('the chain, picked not typed', () => {
	test('Create Session → the company submits → picked From List → Set Review Decision', async () => {
		const created = await ctx.run(session());
		const { companyId } = await ctx.sb.kyb.submitSession(
			created.items[0].json.tokenString as string,
		);
		const { results } = await searchList({
			method: 'companySearch',
			parameters: company('setReviewDecision'),
			credentials: sandboxCredentials(ctx.sb),
		});
		const picked = results[0];
		expect(picked).toEqual({
			name: 'UAB Baltic Widgets — 305123456 — NEED_TO_REVIEW',
			value: companyId,
		});
		const { items, error } = await ctx.run(decide(rl('list', String(picked.value))));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ companyId, status: 'COMPLETED' });
	});
});

function decide(companyId: unknown) {
	return company('setReviewDecision', { companyId: companyId as string, decision: 'APPROVED' });
}
