/**
 * Company ID → From List: the KYB companies (`GET /kyb/companies/`, kyb.yaml `kybCompaniesList`),
 * a page per request, found by registration number, each shown with its name and status.
 */
import { useSearchSandbox, wrongSecret } from './search-util.cjs';

const ctx = useSearchSandbox();
const GET = { resource: 'kybCompany', operation: 'get' };

describe('Company ID: From List', () => {
	test('the companies newest first, by name, registration number and status; one request', async () => {
		const id = ctx.sb.kyb.addCompany({
			companyName: 'UAB Newest',
			registrationNumber: '300000001',
		});
		ctx.sb.resetLog();
		const { results, paginationToken } = await ctx.search('companySearch', GET);
		expect(results[0]).toEqual({ name: 'UAB Newest — 300000001 — PENDING', value: id });
		expect(results.map((entry) => entry.value)).toContain('company-001');
		expect(paginationToken).toBeUndefined();
		expect(ctx.sb.requests).toMatchObject([
			{ method: 'GET', path: '/kyb/companies/', query: { page: '1', perPage: '50' } },
		]);
	});

	test('a page at a time: the token names the next page, each page is one request', async () => {
		for (let n = 0; n < 60; n++) ctx.sb.kyb.addCompany({ companyName: `Company ${n}` });
		ctx.sb.resetLog();
		const first = await ctx.search('companySearch', GET);
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('2');
		const second = await ctx.search('companySearch', GET, { paginationToken: '2' });
		expect(second.results).toHaveLength(11);
		expect(second.paginationToken).toBeUndefined();
		expect(ctx.sb.requests.map((request) => request.query.page)).toEqual(['1', '2']);
		const all = [...first.results, ...second.results].map((entry) => entry.value);
		expect(new Set(all).size).toBe(61);
	});

	test('10,000 companies: the first page is one request of one page, never a scan of the account', async () => {
		for (let n = 0; n < 10_000; n++) ctx.sb.kyb.addCompany({ companyName: `Company ${n}` });
		ctx.sb.resetLog();
		const { results, paginationToken } = await ctx.search('companySearch', GET);
		expect(results).toHaveLength(50);
		expect(paginationToken).toBe('2');
		expect(ctx.sb.requests).toHaveLength(1);
	});

	test('the search box finds a company by its registration number, through the service’s filter', async () => {
		const id = ctx.sb.kyb.addCompany({ companyName: 'UAB Found', registrationNumber: '305999999' });
		ctx.sb.resetLog();
		const { results } = await ctx.search('companySearch', GET, { filter: ' 305999999 ' });
		expect(results).toEqual([{ name: 'UAB Found — 305999999 — PENDING', value: id }]);
		expect(ctx.sb.requests[0].query).toMatchObject({ registrationNumber: '305999999' });
	});

	test('a credential the service refuses: says it cannot list, and what to do', async () => {
		const search = ctx.search('companySearch', GET, { credentials: wrongSecret(ctx) });
		await expect(search).rejects.toThrow('This credential cannot list companies');
		await expect(search).rejects.toMatchObject({
			description: expect.stringContaining('Choose "By ID"'),
		});
	});
});
