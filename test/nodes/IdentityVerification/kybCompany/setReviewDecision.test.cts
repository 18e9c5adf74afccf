/**
 * KYB Company → Set Review Decision: the service records it and the company shows it; its bounds,
 * a refusal that is not repeated, and Continue On Fail.
 */

import { SEED } from '../../../sandbox/index.cjs';
import { company, unlisted, useKybSandbox } from '../kyb-util.cjs';
import { expectError, expectPaired, serviceRequests } from '../util.cjs';

const ctx = useKybSandbox();

describe('KYB Company → Set Review Decision', () => {
	test('Approve: the service records it, the company shows it, and Company Reviewed is sent', async () => {
		const companyId = await ctx.submitted();
		const { items, error } = await ctx.run(
			company('setReviewDecision', { companyId, decision: 'APPROVED', denyReason: 'ignored' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			companyId,
			status: 'COMPLETED',
			reviewInfo: { approvalStatus: 'APPROVED', denyReason: null },
		});
		expect(unlisted('setReviewDecision', items[0].json)).toEqual([]);
		const after = await ctx.run(company('get', { companyId, simplify: true }));
		expect(after.items[0].json).toMatchObject({ status: 'COMPLETED', approvalStatus: 'APPROVED' });
	});

	test('Deny with a reason of 64 characters: kept as given', async () => {
		const companyId = await ctx.submitted();
		const reason = 'r'.repeat(64);
		const { items, error } = await ctx.run(
			company('setReviewDecision', { companyId, decision: 'DENIED', denyReason: reason }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.reviewInfo).toEqual({ approvalStatus: 'DENIED', denyReason: reason });
		expect(ctx.sb.kyb.company(companyId)).toMatchObject({
			approvalStatus: 'DENIED',
			denyReason: reason,
		});
	});

	test.each(['NEED_TO_REVIEW', 'NEED_TO_PROCESS'])(
		'%s: a denied company is sent back undecided',
		async (status) => {
			const companyId = await ctx.submitted();
			await ctx.run(company('setReviewDecision', { companyId, decision: 'DENIED' }));
			const { items, error } = await ctx.run(
				company('setReviewDecision', { companyId, decision: status, denyReason: 'typed anyway' }),
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toEqual({ companyId, status });
			expect(ctx.sb.kyb.company(companyId)).toMatchObject({
				status,
				approvalStatus: null,
				denyReason: null,
			});
		},
	);

	test.each([
		[
			'a deny reason of 65 characters',
			{ decision: 'DENIED', denyReason: 'r'.repeat(65) },
			'Deny Reason',
			'at most 64',
		],
		[
			'a decision that is no decision',
			{ decision: '={{ "yes" }}' },
			'Decision',
			'APPROVED or DENIED',
		],
	])('refuses %s before sending anything', async (_name, extra, label, rule) => {
		const companyId = await ctx.submitted();
		const result = await ctx.run(company('setReviewDecision', { companyId, ...extra }));
		const error = expectError(result, label, rule);
		expect(error.message).not.toContain('yes');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('a company still filling its form: the service’s refusal, not repeated', async () => {
		const result = await ctx.run(
			company('setReviewDecision', { companyId: SEED.kyb.companyId, decision: 'APPROVED' }),
		);
		const error = expectError(result, 'HTTP 409');
		expect(error.message).toMatch(/^The company has not submitted its form yet/);
		expect(error.description).toMatch(/cannot be changed from PENDING.*Company Submitted event/);
		expect(error.description).not.toMatch(/Base URL/);
		expect(serviceRequests(ctx.sb)).toBe(1);
	});

	test('Continue On Fail: an unknown company becomes an error item, the others are decided', async () => {
		const first = await ctx.submitted();
		const third = await ctx.submitted();
		const { items, error } = await ctx.run(
			company('setReviewDecision', { companyId: '={{ $json.id }}', decision: 'APPROVED' }),
			{
				continueOnFail: true,
				input: [{ json: { id: first } }, { json: { id: 'gone' } }, { json: { id: third } }],
			},
		);
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items.map((i) => i.json.status ?? null)).toEqual(['COMPLETED', null, 'COMPLETED']);
		expect(items[1].json).toMatchObject({ httpCode: '404' });
		expect(String(items[1].json.error)).toMatch(/no company with this Company ID/);
	});
});
