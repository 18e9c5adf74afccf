/**
 * AML Monitoring → Create: a person or a company put under monitoring, the first screening's
 * result in the item, and each validation rule checked before anything is sent.
 */
import { monitoring as op, useAmlSandbox } from '../aml-util.cjs';
import { expectError, expectPaired, serviceRequests } from '../util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Create', () => {
	test('a person with tags: the item leads with monitoringId and status; the first screening found the PEP', async () => {
		const { items, error } = await ctx.run(
			op('create', {
				clientId: 'customer-7',
				fullName: 'Łukasz Müller-Wiśniewski',
				personFields: { nationality: 'pl' },
				isSubscribed: true,
				tags: 'vip, onboarding-2026',
			}),
		);
		expect(error).toBeUndefined();
		expectPaired(items);
		const item = items[0].json;
		expect(Object.keys(item).slice(0, 2)).toEqual(['monitoringId', 'status']);
		expect(item).toMatchObject({
			monitoringId: item.id,
			status: 'ALERT',
			isSubscribed: true,
			tags: ['vip', 'onboarding-2026'],
			amlCheck: { input: { fullName: 'Łukasz Müller-Wiśniewski', nationality: 'PL' } },
		});
		expect(ctx.sb.aml.monitoring(String(item.id))).toBeDefined();
	});

	test('a company, not renewed, without tags', async () => {
		const { items, error } = await ctx.run(
			op('create', { userType: 'COMPANY', clientId: 'c-1', companyName: 'Baltic Widgets UAB' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'ACTIVE', isSubscribed: false, tags: [] });
	});

	test.each([
		[{ tags: 'a,b,c,d,e,f' }, 'Tags', 'at most 5 tags'],
		[{ tags: 't'.repeat(33) }, 'Tags', 'at most 32 characters'],
		[{ tags: '={{ ["a,b"] }}' }, 'Tags', 'must not contain a comma'],
		[{ fullName: '={{ "" }}' }, 'Full Name', 'must not be empty'],
		[{ personFields: { nationality: 'XX' } }, 'Nationality', 'two-letter country code'],
		[{ isSubscribed: '={{ "yes" }}' }, 'Renew Automatically', 'true or false'],
	])('refuses %j before sending anything', async (extra, label, rule) => {
		const result = await ctx.run(op('create', { clientId: 'c', fullName: 'N', ...extra }));
		expectError(result, `${label}:`, rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});
