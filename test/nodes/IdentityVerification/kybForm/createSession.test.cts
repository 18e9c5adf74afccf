/**
 * KYB Form → Create Session: the company's link and its form token, the Additional Fields as the
 * provider names them, their bounds, and a server error that is not repeated.
 */
import { kybFormLink } from '../../../../nodes/shared/contract';
import { session } from '../kyb-util.cjs';
import { expectError, expectPaired, serviceRequests, useSandbox } from '../util.cjs';

const ctx = useSandbox();

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
