/** KYB Company → Get: the whole record of a submitted company, Simplify, and an unknown company. */
import { company, useKybSandbox } from '../kyb-util.cjs';
import { expectError } from '../util.cjs';

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
