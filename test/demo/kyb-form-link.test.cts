/**
 * In the demo, KYB Form → Create Session's formUrl opens the sandbox's own KYB form (the demo's
 * sandbox answers with that link; the provider's answer has none, and the node then links to the
 * provider's hosted form): a company can be onboarded without a page outside the sandbox.
 */
import { runNode, sandboxCredentials } from '../harness/index.cjs';
import { demoStackOptions } from '../n8n/examples.cjs';
import { startSandbox } from '../sandbox/index.cjs';
import type { Sandbox } from '../sandbox/index.cjs';
import { call } from '../sandbox/test-helpers.cjs';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox(demoStackOptions().sandbox);
});
afterAll(async () => {
	await sb?.close();
});

test('Create Session in the demo outputs the sandbox’s form link, whose page makes the company', async () => {
	const { items, error } = await runNode({
		node: 'identityVerification',
		parameters: { resource: 'kyb', operation: 'createSession', clientId: 'demo-company-1' },
		credentials: sandboxCredentials(sb),
	});
	expect(error).toBeUndefined();
	const { formUrl, tokenString } = items[0].json as { formUrl: string; tokenString: string };
	expect(formUrl).toBe(`${sb.url}/kyb-ui/welcome?authToken=${encodeURIComponent(tokenString)}`);
	expect(Object.keys(items[0].json)[0]).toBe('formUrl');

	const form = await call(sb, 'GET', formUrl, { auth: 'none' });
	expect(form.status).toBe(200);
	const submitted = await call(sb, 'POST', '/kyb-ui/welcome', {
		auth: 'none',
		body: new URLSearchParams({
			authToken: tokenString,
			'owner0.name': 'Rasa',
			'owner0.surname': 'Kairytė',
		}).toString(),
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
	});
	expect(submitted.status).toBe(200);
	const companyId = /company <code>([^<]+)<\/code>/.exec(submitted.text)![1];
	const company = await call(sb, 'GET', `/kyb/companies/${companyId}/`);
	expect(company.status).toBe(200);
	expect(company.text).toContain('Kairytė');
});
