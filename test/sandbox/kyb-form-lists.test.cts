/**
 * The KYB form lists the node's From List reads, in the provider's shapes (kyb.yaml):
 * `GET /kyb/forms/{companyId}/questionnaires/` (`kybFormsQuestionnairesList`, API key or form token)
 * and `GET /kyb/forms/` (`kybFormsList`: the token's form, "one or zero items", token only).
 */
import { responseSchema, schemaErrors } from '../real-service/provider.cjs';
import { SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';

describe('sandbox KYB form lists', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s));

	test('a company’s questionnaires, with the API key or the form token, as kyb.yaml’s Questionnaire', async () => {
		const path = `/kyb/forms/${SEED.kyb.companyId}/questionnaires/`;
		for (const auth of ['basic', 'bearer'] as const) {
			const res = await call(sb, 'GET', path, { auth });
			expect(res.status).toBe(200);
			expect(res.json).toMatchObject([
				{ id: SEED.kyb.questionnaireId, title: 'Company onboarding' },
			]);
			const schema = responseSchema('/kyb/forms/{companyId}/questionnaires/', 'GET', 200);
			expect(schemaErrors(schema!, res.json)).toEqual([]);
		}
		expect((await call(sb, 'GET', '/kyb/forms/no-such-company/questionnaires/')).status).toBe(404);
	});

	test('the form of the sandbox’s form token, as kyb.yaml’s KybFormList; the API key is refused', async () => {
		const res = await call(sb, 'GET', '/kyb/forms/', { auth: 'bearer' });
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject([
			{ id: SEED.kyb.formId, company: { companyName: 'UAB Baltic Widgets' } },
		]);
		expect(schemaErrors(responseSchema('/kyb/forms/', 'GET', 200)!, res.json)).toEqual([]);
		expect((await call(sb, 'GET', '/kyb/forms/', { auth: 'basic' })).status).toBe(403);
	});

	test('a session’s token: no form until its company submits, then that company’s', async () => {
		const created = await call(sb, 'POST', '/kyb/tokens/', {
			body: { tokenType: 'FORM', clientId: 'deal-1' },
		});
		const token = created.json.tokenString as string;
		const before = await call(sb, 'GET', '/kyb/forms/', { auth: `Bearer ${token}` });
		expect(before.json).toEqual([]);
		const { companyId } = await sb.kyb.submitSession(token);
		const after = await call(sb, 'GET', '/kyb/forms/', { auth: `Bearer ${token}` });
		expect(after.json).toMatchObject([{ id: companyId, meta: { status: 'NEED_TO_REVIEW' } }]);
	});
});
