/**
 * KYB Company → Get: the whole record of a submitted company, Simplify, an unknown company, and an
 * answer nested deeper than n8n can store (refused with the limit named, not retried, never output).
 */
import { MAX_JSON_DEPTH } from '../../../../nodes/shared/jsonDepth';
import { SEED } from '../../../sandbox/index.cjs';
import { company, useKybSandbox } from '../kyb-util.cjs';
import { TOO_DEEP, expectError, nestedArrays as nested, serviceRequests } from '../util.cjs';

const ctx = useKybSandbox();

describe('KYB Company → Get', () => {
	test('the whole record of a submitted company', async () => {
		const companyId = await ctx.submitted();
		const { items, error } = await ctx.run(company('get', { companyId }));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: companyId,
			company: { companyName: 'UAB Baltic Widgets', registrationNumber: '305123456' },
			meta: { status: 'NEED_TO_REVIEW', approvalStatus: null },
		});
		expect(items[0].json.beneficiaries).toHaveLength(2);
		expect(ctx.sb.requests).toMatchObject([
			{ method: 'GET', path: `/kyb/companies/${companyId}/`, authScheme: 'basic' },
		]);
	});

	test('Simplify: the main fields, the beneficiaries by name', async () => {
		const companyId = await ctx.submitted();
		const { items } = await ctx.run(company('get', { companyId, simplify: true }));
		expect(items[0].json).toEqual({
			id: companyId,
			companyName: 'UAB Baltic Widgets',
			registrationNumber: '305123456',
			country: 'LT',
			status: 'NEED_TO_REVIEW',
			approvalStatus: null,
			denyReason: null,
			submissionTime: expect.any(String),
			beneficiaries: [
				{
					id: expect.any(String),
					name: 'Jonas Jonaitis',
					types: ['UBO', 'CEO'],
					ownershipPercentage: 60,
				},
				{ id: expect.any(String), name: 'Ona Onaitė', types: ['UBO'], ownershipPercentage: 40 },
			],
		});
	});

	test('an unknown company: what to check', async () => {
		const result = await ctx.run(company('get', { companyId: 'company-404' }));
		const error = expectError(result, 'no company with this Company ID');
		expect(error.description).toMatch(/A deleted company is gone for good/);
	});

	test('an ID with a slash stays one path segment', async () => {
		await ctx.run(company('get', { companyId: 'a/b?c' }));
		expect(ctx.sb.requests[0].path).toBe('/kyb/companies/a%2Fb%3Fc/');
	});
});

describe('KYB Company → Get: an answer nested deeper than the limit is refused, naming it', () => {
	const companyGet = company('get', { companyId: 'c-1' });

	test.each([5_000, 1_000_000])('a whole answer %s levels deep', async (levels) => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"id":"c-1","deep":${nested(levels - 1)}}`,
		});
		const result = await ctx.run(companyGet);
		const error = expectError(result, TOO_DEEP);
		expect(error.description).toContain('/kyb/companies/c-1/');
		// Not retried: the same answer would come again.
		expect(serviceRequests(ctx.sb, '/kyb/companies/')).toBe(1);
	});

	test('a whole answer just past the limit; one at the limit is output', async () => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"id":"c-1","deep":${nested(MAX_JSON_DEPTH)}}`,
		});
		expectError(await ctx.run(companyGet), TOO_DEEP);
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"id":"c-1","deep":${nested(MAX_JSON_DEPTH - 1)}}`,
		});
		const { items, error } = await ctx.run(companyGet);
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe('c-1');
	});

	test('with Continue On Fail the item becomes an error item and the others go on', async () => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"id":"c-1","deep":${nested(5_000)}}`,
		});
		const { items } = await ctx.run(company('get', { companyId: SEED.kyb.companyId }), {
			continueOnFail: true,
			input: [{ json: {} }, { json: {} }],
		});
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toBe(TOO_DEEP);
		expect(items[1].json.error).toBeUndefined();
	});

	test('an error answer nested deep gives the status’s error, cut to a few levels', async () => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 404,
			jsonText: `{"detail":"Not found.","deep":${nested(30_000)}}`,
		});
		const result = await ctx.run(companyGet);
		expect(result.error).toBeDefined();
		expect(result.error!.message).not.toContain('nested');
		expect(result.error!.description).toContain('Not found.');
	});
});
