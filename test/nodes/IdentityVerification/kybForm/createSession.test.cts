/**
 * KYB Form: Create Session (the company's link and its form token), Get All Answers and Get Many
 * Beneficiaries, and the Form Token field every form operation accepts instead of a credential.
 */
import { kybFormLink } from '../../../../nodes/shared/contract';
import { SEED } from '../../../sandbox/index.cjs';
import { expectError, expectPaired, serviceRequests, useSandbox } from '../util.cjs';

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

describe('KYB Form → Create Session', () => {
	test('outputs the link to send the company, then the session as the service answered', async () => {
		const { items, error } = await ctx.run(session(), { credentials: 'apiKeyOnly' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		const item = items[0].json;
		expect(Object.keys(item)[0]).toBe('formUrl');
		expect(item.formUrl).toBe(kybFormLink(item.tokenString as string));
		expect(item.formUrl).toMatch(/^https:\/\/kyb\.ui\.idenfy\.com\/welcome\?authToken=[\w-]+$/);
		expect(item).toMatchObject({ tokenType: 'FORM', clientId: 'deal-42', companyId: null });
		expect(ctx.sb.requests).toMatchObject([
			{ method: 'POST', path: '/kyb/tokens/', authScheme: 'basic', status: 201 },
		]);
	});

	test('sends every Additional Field as the provider names it; empty ones are left out', async () => {
		const { items, error } = await ctx.run(
			session({
				sessionFields: {
					externalRef: 'order-7',
					locale: 'lt',
					lifetime: '86400',
					tags: ' crm , priority ,',
					scanRefs: 'scan-1,scan-2',
					flow: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
					theme: '',
					questionnaire: '',
					questionnaireRequired: false,
				},
			}),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			externalRef: 'order-7',
			locale: 'lt',
			tags: ['crm', 'priority'],
			scanRefs: ['scan-1', 'scan-2'],
			flow: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
			theme: null,
		});
		// 86,400 seconds from now, as the service counts the lifetime.
		const expires = Date.parse(items[0].json.expiration as string);
		expect(Math.abs(expires - Date.now() - 86_400_000)).toBeLessThan(60_000);
	});

	test.each([
		['an empty Client ID', { clientId: '  ' }, 'Client ID', 'must not be empty'],
		['a Client ID of 101 characters', { clientId: 'c'.repeat(101) }, 'Client ID', 'at most 100'],
		[
			'a lifetime over 30 days',
			{ sessionFields: { lifetime: 2592001 } },
			'Lifetime (Seconds)',
			'at most 2592000',
		],
		[
			'a negative lifetime',
			{ sessionFields: { lifetime: -1 } },
			'Lifetime (Seconds)',
			'at least 0',
		],
		['a lifetime of 1.5 s', { sessionFields: { lifetime: 1.5 } }, 'Lifetime (Seconds)', 'whole'],
		[
			'an External Reference of 41 characters',
			{ sessionFields: { externalRef: 'r'.repeat(41) } },
			'External Reference',
			'at most 40',
		],
		['six tags', { sessionFields: { tags: 'a,b,c,d,e,f' } }, 'Tags', 'at most 5'],
		['a tag of 33 characters', { sessionFields: { tags: 't'.repeat(33) } }, 'Tags', 'at most 32'],
		['a Flow ID that is no UUID', { sessionFields: { flow: 'default' } }, 'Flow ID', 'UUID'],
		[
			'a linked verification of 41 characters',
			{ sessionFields: { scanRefs: 's'.repeat(41) } },
			'Linked Verifications',
			'at most 40',
		],
		[
			'a language the form has not',
			{ sessionFields: { locale: '={{ "zz" }}' } },
			'Language',
			'must be one of',
		],
	])('refuses %s before sending anything', async (_name, extra, label, rule) => {
		const result = await ctx.run(session(extra));
		expectError(result, label, rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('accepts the bounds: a lifetime of 0 and of 30 days, 5 tags of 32 characters', async () => {
		for (const lifetime of [0, 2592000]) {
			const { error } = await ctx.run(
				session({ sessionFields: { lifetime, tags: Array(5).fill('t'.repeat(32)).join(',') } }),
			);
			expect(error).toBeUndefined();
		}
	});

	test('a server error is not repeated (each session is a new one) and says to check the dashboard', async () => {
		ctx.sb.faults.add({ method: 'POST', path: '/kyb/tokens/', status: 500 });
		const result = await ctx.run(session());
		const error = expectError(result, 'HTTP 500');
		expect(error.description).toMatch(/not repeated/);
		expect(serviceRequests(ctx.sb, '/kyb/tokens/')).toBe(1);
	});

	test('Continue On Fail: an item without a Client ID becomes an error item, the others get their sessions', async () => {
		const { items, error } = await ctx.run(session({ clientId: '={{ $json.deal }}' }), {
			continueOnFail: true,
			input: [{ json: { deal: 'deal-1' } }, { json: { deal: '' } }, { json: { deal: 'deal-3' } }],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items.map((item) => item.json.clientId ?? null)).toEqual(['deal-1', null, 'deal-3']);
		expect(items[1].json.error).toMatch(/Client ID: must not be empty/);
		expect(serviceRequests(ctx.sb, '/kyb/tokens/')).toBe(2);
	});
});

describe('KYB Form → Get All Answers, Get Many Beneficiaries', () => {
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

	test.each([
		['empty', '={{ "" }}', 'must not be empty'],
		['only dots', '..', 'only dots'],
	])('refuses a Company ID that is %s before sending anything', async (_name, companyId, rule) => {
		const result = await ctx.run({ resource: 'kyb', operation: 'getAllAnswers', companyId });
		expectError(result, 'Company ID', rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});

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
		const { token, companyId } = await submittedSession();
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
		const { token } = await submittedSession();
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
