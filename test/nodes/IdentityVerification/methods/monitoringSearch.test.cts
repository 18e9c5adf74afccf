/**
 * Monitoring ID → From List: the AML monitorings (`GET /aml/monitorings/`, aml.yaml
 * `amlMonitoringsList`, filters `status`, `name`, `orderBy`), those in ALERT first, found by name.
 */
import { SEED } from '../../../sandbox/index.cjs';
import { useSearchSandbox, wrongSecret } from './search-util.cjs';

const ctx = useSearchSandbox();
const GET = { resource: 'amlMonitoring', operation: 'get' };
const seed = (fullName: string, clientId: string) =>
	ctx.sb.aml.seedMonitoring({
		isSubscribed: false,
		amlCheck: { userType: 'PERSON', clientId, input: { fullName } },
	});

describe('Monitoring ID: From List', () => {
	test('monitorings in ALERT first, each by name and status; one request per page', async () => {
		const pep = seed('Łukasz Müller-Wiśniewski', 'customer-7');
		expect(pep.status).toBe('ALERT');
		ctx.sb.resetLog();
		const first = await ctx.search('monitoringSearch', GET);
		expect(first.results).toEqual([
			{ name: 'Łukasz Müller-Wiśniewski — ALERT — PERSON', value: pep.monitoringId },
		]);
		expect(first.paginationToken).toBe('ACTIVE:1');
		expect(ctx.sb.requests).toMatchObject([
			{ path: '/aml/monitorings/', query: { status: 'ALERT', orderBy: '-created', page: '1' } },
		]);
		const next = await ctx.search('monitoringSearch', GET, { paginationToken: 'ACTIVE:1' });
		expect(next.results.map((entry) => entry.value)).toContain(SEED.aml.monitoringId);
		expect(next.results.every((entry) => entry.name.includes('— ACTIVE —'))).toBe(true);
	});

	test('a status without monitorings is passed over in the same call', async () => {
		ctx.sb.resetLog();
		const { results } = await ctx.search('monitoringSearch', GET);
		expect(results.map((entry) => entry.value)).toEqual([SEED.aml.monitoringId]);
		expect(ctx.sb.requests.map((request) => request.query.status)).toEqual(['ALERT', 'ACTIVE']);
	});

	test('the search box finds monitorings by name, through the service’s filter', async () => {
		const clean = seed('Ona Petraitė', 'customer-8');
		ctx.sb.resetLog();
		const { results } = await ctx.search('monitoringSearch', GET, { filter: 'Ona Petraitė' });
		expect(results.map((entry) => entry.value)).toEqual([clean.monitoringId]);
		expect(ctx.sb.requests.every((request) => request.query.name === 'Ona Petraitė')).toBe(true);
	});

	test('the last status ends the list', async () => {
		const { results, paginationToken } = await ctx.search('monitoringSearch', GET, {
			paginationToken: 'STOPPED:1',
		});
		expect(results).toEqual([]);
		expect(paginationToken).toBeUndefined();
	});

	test('a credential the service refuses: says it cannot list', async () => {
		await expect(
			ctx.search('monitoringSearch', GET, { credentials: wrongSecret(ctx) }),
		).rejects.toThrow('This credential cannot list AML monitorings');
	});
});
