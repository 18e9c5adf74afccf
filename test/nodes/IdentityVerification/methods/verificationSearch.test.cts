/**
 * Scan Reference → From List: the KYC verifications (`GET /kyc/identifications/`, kyc.yaml
 * `kycIdentificationsList`: `clientId`, `page`, `perPage`; no ordering, and `scanRef`, `status`,
 * `suspected` only, no date), in the service's order, found by Client ID.
 */
import { useSearchSandbox, wrongSecret } from './search-util.cjs';

const ctx = useSearchSandbox();
const STATUS = { resource: 'identification', operation: 'getStatus' };

describe('Scan Reference: From List', () => {
	test('the verifications with their status, in the service’s order (newest first); one request', async () => {
		const older = ctx.sb.kyc.createSession('customer-1').scanRef;
		const newer = ctx.sb.kyc.createSession('customer-2').scanRef;
		ctx.sb.resetLog();
		const { results, paginationToken } = await ctx.search('verificationSearch', STATUS);
		const values = results.map((entry) => entry.value);
		expect(values.indexOf(newer)).toBeLessThan(values.indexOf(older));
		expect(results.find((entry) => entry.value === newer)?.name).toMatch(
			new RegExp(`^${newer} — [A-Z_]+$`),
		);
		expect(paginationToken).toBeUndefined();
		expect(ctx.sb.requests).toMatchObject([
			{ path: '/kyc/identifications/', query: { page: '1', perPage: '50' } },
		]);
	});

	test('the search box finds a person’s verifications by Client ID', async () => {
		const mine = ctx.sb.kyc.createSession('customer-42').scanRef;
		ctx.sb.kyc.createSession('customer-43');
		ctx.sb.resetLog();
		const { results } = await ctx.search('verificationSearch', STATUS, { filter: 'customer-42' });
		expect(results.map((entry) => entry.value)).toEqual([mine]);
		expect(ctx.sb.requests[0].query).toMatchObject({ clientId: 'customer-42' });
	});

	test('a page at a time', async () => {
		for (let n = 0; n < 51; n++) ctx.sb.kyc.createSession(`paged-${n}`);
		const first = await ctx.search('verificationSearch', STATUS);
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('2');
		const second = await ctx.search('verificationSearch', STATUS, { paginationToken: '2' });
		expect(second.paginationToken).toBeUndefined();
	});

	test('a credential the service refuses: says it cannot list', async () => {
		await expect(
			ctx.search('verificationSearch', STATUS, { credentials: wrongSecret(ctx) }),
		).rejects.toThrow('This credential cannot list verifications');
	});
});
