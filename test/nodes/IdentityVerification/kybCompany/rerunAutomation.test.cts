/**
 * KYB Company → Re-Run Automated Checks: the service runs them again; a form still being filled,
 * an unknown company, and the 402 of an account whose funds ran out, none of them repeated.
 */
import { SEED } from '../../../sandbox/index.cjs';
import { company, unlisted, useKybSandbox } from '../kyb-util.cjs';
import { expectError, serviceRequests } from '../util.cjs';

const ctx = useKybSandbox();
const rerun = (companyId: string) => company('rerunAutomation', { companyId });
const pathOf = (companyId: string) => `/kyb/companies/${companyId}/automation/`;

describe('KYB Company → Re-Run Automated Checks', () => {
	test('a submitted company: the checks run again, once per item', async () => {
		const companyId = await ctx.submitted();
		const { items, error } = await ctx.run(rerun(companyId));
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: { started: true, companyId }, pairedItem: { item: 0 } }]);
		expect(unlisted('rerunAutomation', items[0].json)).toEqual([]);
		expect(ctx.sb.kyb.company(companyId)?.automationRuns).toBe(1);
	});

	test('HTTP 402 (the account’s funds ran out): said plainly, with what to do, sent once', async () => {
		const companyId = await ctx.submitted();
		ctx.sb.faults.add({ method: 'POST', path: pathOf(companyId), status: 402 });
		const error = expectError(await ctx.run(rerun(companyId)), 'HTTP 402');
		expect(error.message).toMatch(/^The account’s funds for automated checks have run out/);
		expect(error.description).toMatch(/Top up the funds/);
		expect(error.description).not.toMatch(/Base URL/);
		expect(serviceRequests(ctx.sb, pathOf(companyId))).toBe(1);
	});

	test('a 5xx is not repeated: the run may have been paid for', async () => {
		const companyId = await ctx.submitted();
		ctx.sb.faults.add({ method: 'POST', path: pathOf(companyId), status: 502 });
		expectError(await ctx.run(rerun(companyId)), 'HTTP 502');
		expect(serviceRequests(ctx.sb, pathOf(companyId))).toBe(1);
	});

	test('a company still filling its form: the service’s refusal', async () => {
		const error = expectError(await ctx.run(rerun(SEED.kyb.companyId)), 'HTTP 409');
		expect(error.description).toMatch(/before the form is submitted/);
	});

	test('an unknown company: the company’s 404; a Company ID of spaces is refused before sending', async () => {
		expectError(await ctx.run(rerun('gone')), 'no company with this Company ID');
		ctx.sb.resetLog();
		expectError(await ctx.run(rerun('={{ "  " }}')), 'Company ID');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});
