/** AML Check → Create: a person or a company screened against the lists, through n8n's engine. */
import { createCheck as create } from '../aml-util.cjs';
import { expectError, expectPaired, serviceRequests, useSandbox } from '../util.cjs';

const ctx = useSandbox();
/** The last request to create a check the sandbox answered. */
const lastCheck = () => ctx.sb.requests.filter((r) => r.path === '/aml/checks/').at(-1);

describe('AML Check: Create', () => {
	test('screens a person with every list by default; the item leads with the result and the number of hits', async () => {
		const { items, error } = await ctx.run(create());
		expect(error).toBeUndefined();
		expectPaired(items);
		const item = items[0].json;
		expect(Object.keys(item).slice(0, 4)).toEqual([
			'overallStatus',
			'hitCount',
			'adverseMediaCount',
			'checkId',
		]);
		expect(item).toMatchObject({
			overallStatus: 'FLAGS_FOUND',
			hitCount: 1,
			adverseMediaCount: 0,
			checkId: item.id,
			clientId: 'customer-42',
			userType: 'PERSON',
			input: { fullName: 'Aleksandr Volkov' },
			filter: { threshold: 85 },
		});
		expect((item.filter as { datasets: string[] }).datasets).toHaveLength(10);
		expect(item.amlCheck).toEqual([expect.objectContaining({ resourceId: 'prof-001' })]);
		expect(lastCheck()?.status).toBe(201);
	});

	test('a company, with the datasets, threshold and options chosen; a clean result has no hits', async () => {
		const { items, error } = await ctx.run(
			create({
				userType: 'COMPANY',
				companyName: 'Baltic Shadow Trading',
				companyFields: { country: 'cy' },
				threshold: 90,
				companyDatasets: ['SAN_CURRENT', 'SOE_CURRENT'],
				options: { sanctionBodies: '40, 1', dateOfBirthMatching: 'SAME_YEAR' },
			}),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			overallStatus: 'FLAGS_FOUND',
			hitCount: 1,
			adverseMediaCount: 1,
			userType: 'COMPANY',
			input: { companyName: 'Baltic Shadow Trading', country: 'CY' },
			filter: { threshold: 90, datasets: ['SAN_CURRENT', 'SOE_CURRENT'], sanctionBodies: [40, 1] },
		});
		// Date of Birth Matching is a person's: not sent for a company.
		expect(items[0].json.filter).not.toHaveProperty('dateOfBirthMatching');
		const clean = await ctx.run(create({ fullName: 'Ona Petraitė' }));
		expect(clean.items[0].json).toMatchObject({ overallStatus: 'NO_FLAGS', hitCount: 0 });
	});

	test('a person’s details: date of birth as a day, nationality in any case, M for MALE', async () => {
		const { items, error } = await ctx.run(
			create({
				dateOfBirth: '1968-02-11',
				dateOfBirthMatching: 'WITHIN_ONE_YEAR',
				personFields: { nationality: ' ru ', sex: 'M' },
				options: { pepTiers: ['PEP_TIER_1'] },
			}),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			hitCount: 1,
			input: { dateOfBirth: '1968-02-11', nationality: 'RU', sex: 'MALE' },
			filter: { dateOfBirthMatching: 'WITHIN_ONE_YEAR', pepTiers: ['PEP_TIER_1'] },
		});
	});

	test.each([
		[{ clientId: '={{ "" }}' }, 'Client ID', 'must not be empty'],
		[{ clientId: 'c'.repeat(101) }, 'Client ID', 'at most 100 characters'],
		[{ fullName: '={{ "" }}' }, 'Full Name', 'must not be empty'],
		[{ fullName: 'N'.repeat(201) }, 'Full Name', 'at most 200 characters'],
		[{ threshold: 74 }, 'Match Threshold', 'at least 75'],
		[{ threshold: 101 }, 'Match Threshold', 'at most 100'],
		[{ threshold: 80.5 }, 'Match Threshold', 'whole number'],
		[{ personDatasets: [] }, 'Datasets', 'at least one dataset'],
		[{ personFields: { nationality: 'Lithuania' } }, 'Nationality', 'two-letter country code'],
		[{ dateOfBirth: '1985-02-30' }, 'Date of Birth', 'date such as'],
		[{ personFields: { sex: 'O' } }, 'Sex', 'MALE, FEMALE'],
		[{ options: { sanctionBodies: '0' } }, 'Sanction Bodies', 'from 1 to 80'],
		[{ options: { sanctionBodies: 'EU' } }, 'Sanction Bodies', 'whole numbers'],
	])('refuses %j before sending anything: %s %s', async (extra, label, rule) => {
		const result = await ctx.run(create(extra));
		const error = expectError(result, `${label}:`, rule);
		expect(error.description).toBeTruthy();
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('Continue On Fail: the item the service refuses becomes an error item, the others are screened', async () => {
		const { items, error } = await ctx.run(create({ fullName: '={{ $json.name }}' }), {
			continueOnFail: true,
			input: [
				{ json: { name: 'Aleksandr Volkov' } },
				{ json: { name: '' } },
				{ json: { name: 'Ona' } },
			],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].json.hitCount).toBe(1);
		expect(items[1].json.error).toBe('Full Name: must not be empty');
		expect(items[2].json.hitCount).toBe(0);
	});

	test('a service error is worded and not repeated (a check may have been made)', async () => {
		ctx.sb.faults.add({ method: 'POST', path: '/aml/checks/', status: 502 });
		const result = await ctx.run(create());
		expectError(result, '502');
		expect(serviceRequests(ctx.sb, '/aml/checks/')).toBe(1);
	});
});
