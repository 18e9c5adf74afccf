/**
 * AML Check: Create (a person or a company against the lists), Get Profile and Download PDF, each
 * feeding the next with its IDs, through n8n's engine against the sandbox.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import type { RunNodeResult } from '../../../harness/index.cjs';
import { SEED } from '../../../sandbox/index.cjs';
import { binaryBytes, expectError, expectPaired, serviceRequests, useSandbox } from '../util.cjs';

const ctx = useSandbox();
const create = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'create',
	clientId: 'customer-42',
	fullName: 'Aleksandr Volkov',
	...extra,
});
const getProfile = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'getProfile',
	checkId: '={{ $json.checkId }}',
	profileId: '={{ $json.amlCheck[0].resourceId }}',
	...extra,
});
const downloadPdf = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'downloadPdf',
	checkId: '={{ $json.checkId }}',
	...extra,
});
/** The last request to create a check the sandbox answered. */
const lastCheck = () => ctx.sb.requests.filter((r) => r.path === '/aml/checks/').at(-1);
/** The output of a step chained after the node under test (`after`). */
const outputOf = (result: RunNodeResult, name: string): INodeExecutionData[] =>
	result.run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? [];

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

describe('AML Check: Get Profile and Download PDF after Create', () => {
	test('Create → Get Profile reads its IDs from the step before', async () => {
		const result = await ctx.run(create(), {
			after: [{ name: 'Get Profile', parameters: getProfile() }],
		});
		expect(result.run.data.resultData.error).toBeUndefined();
		const items = outputOf(result, 'Get Profile');
		expect(items[0].json).toMatchObject({
			checkId: expect.any(String),
			profileId: 'prof-001',
			resourceId: 'prof-001',
			lastName: 'Volkov',
			sanEntries: { current: [expect.objectContaining({ sanctionId: 'EU-2022-0311' })] },
		});
		expectPaired(items);
	});

	test('Get Profile → Download Profile PDF with {{ $json.checkId }} and {{ $json.profileId }}', async () => {
		const result = await ctx.run(
			getProfile({ checkId: SEED.aml.checkId, profileId: SEED.aml.profileId }),
			{
				after: [
					{
						name: 'Download Profile PDF',
						parameters: {
							resource: 'aml',
							operation: 'downloadProfilePdf',
							checkId: '={{ $json.checkId }}',
							profileId: '={{ $json.profileId }}',
							password: 'secret',
						},
					},
				],
			},
		);
		expect(result.run.data.resultData.error).toBeUndefined();
		expect(outputOf(result, 'Download Profile PDF')[0].json).toMatchObject({
			checkId: SEED.aml.checkId,
			profileId: SEED.aml.profileId,
			mimeType: 'application/pdf',
		});
	});

	test('Create → Download PDF: the check’s report, without a password by default', async () => {
		const result = await ctx.run(create(), {
			after: [{ name: 'Download PDF', parameters: downloadPdf({ binaryPropertyName: 'report' }) }],
		});
		expect(result.run.data.resultData.error).toBeUndefined();
		const items = outputOf(result, 'Download PDF');
		const bytes = binaryBytes(items[0], 'report');
		expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(items[0].json).toEqual({
			checkId: expect.any(String),
			fileName: `aml-check-${String(items[0].json.checkId)}.pdf`,
			mimeType: 'application/pdf',
			fileSize: bytes.length,
		});
	});

	test('Download PDF: Max File Size stops a larger report, with the size named', async () => {
		const result = await ctx.run(
			downloadPdf({ checkId: SEED.aml.checkId, options: { maxFileSizeMb: 0.0001 } }),
		);
		expectError(result, 'larger than the Max File Size');
	});

	test.each([
		[getProfile({ checkId: 'check-1', profileId: 'p' }), 'Check ID', 'must be a UUID'],
		[getProfile({ checkId: SEED.aml.checkId, profileId: '..' }), 'Profile ID', 'only dots'],
		[downloadPdf({ checkId: '={{ "" }}' }), 'Check ID', 'must be a UUID'],
		[
			downloadPdf({ checkId: SEED.aml.checkId, options: { maxFileSizeMb: 0 } }),
			'Max File Size (MB)',
			'above 0',
		],
		// A password an expression gives as a number was named by its key ("password").
		[downloadPdf({ checkId: SEED.aml.checkId, password: '={{ 1234 }}' }), 'Password', ''],
	])('refuses %j before sending anything', async (parameters, label, rule) => {
		const result = await ctx.run(parameters);
		expectError(result, `${label}:`, rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('a profile the check did not find, and an unknown check: 404 in words naming the IDs', async () => {
		const profile = await ctx.run(getProfile({ checkId: SEED.aml.checkId, profileId: 'biz-003' }));
		const error = expectError(profile, 'no profile with this Profile ID', 'Check ID');
		expect(error.description).toMatch(/within the check/);
		const pdf = await ctx.run(downloadPdf({ checkId: '00000000-0000-4000-8000-000000000000' }));
		expectError(pdf, 'no AML check with this Check ID');
	});

	test('Continue On Fail: an unknown check becomes an error item with its status, the others get their PDF', async () => {
		const { items, error } = await ctx.run(downloadPdf(), {
			continueOnFail: true,
			input: [
				{ json: { checkId: SEED.aml.checkId } },
				{ json: { checkId: '00000000-0000-4000-8000-000000000000' } },
			],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].binary?.data?.mimeType).toBe('application/pdf');
		expect(items[1].json).toMatchObject({ httpCode: '404' });
	});
});
