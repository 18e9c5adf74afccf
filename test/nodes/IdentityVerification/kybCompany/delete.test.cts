/** KYB Company → Delete: the company is gone afterwards (Get 404, not listed). */
import { company, unlisted, useKybSandbox } from '../kyb-util.cjs';
import { expectError } from '../util.cjs';

const ctx = useKybSandbox();

describe('KYB Company → Delete', () => {
	test('deletes the company: then it is gone (Get 404, not listed), and a second Delete says so', async () => {
		const companyId = await ctx.submitted();
		const { items, error } = await ctx.run(company('delete', { companyId }));
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: { deleted: true, companyId }, pairedItem: { item: 0 } }]);
		expect(unlisted('delete', items[0].json)).toEqual([]);
		expectError(await ctx.run(company('get', { companyId })), 'HTTP 404');
		const listed = await ctx.run(company('getAll', { returnAll: true }));
		expect(listed.items.map((i) => i.json.id)).not.toContain(companyId);
		const again = expectError(await ctx.run(company('delete', { companyId })), 'HTTP 404');
		expect(again.message).toMatch(/it may have been deleted already/);
	});
});
