/**
 * KYB Company → Set Review Decision: the service records it and the company shows it; its bounds,
 * a refusal that is not repeated, and Continue On Fail.
 */
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../../../nodes/IdentityVerification/actions/resources';
import * as contract from '../../../../nodes/shared/contract';
import { SEED } from '../../../sandbox/index.cjs';
import { expectError, expectPaired, serviceRequests, useSandbox } from '../util.cjs';

const ctx = useSandbox();

const company = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'kybCompany',
	operation,
	...extra,
});

/** A company whose form was submitted from a session's link (waiting for the review). */
async function submitted(input: Parameters<typeof ctx.sb.kyb.submitSession>[1] = {}) {
	const { items } = await ctx.run({
		resource: 'kyb',
		operation: 'createSession',
		clientId: 'deal-42',
	});
	const { companyId } = await ctx.sb.kyb.submitSession(items[0].json.tokenString as string, input);
	ctx.sb.resetLog();
	return companyId;
}

// The output schemas the build writes (gulpfile.js), read as output-schema.test.cts reads them.
const GULPFILE = path.resolve(__dirname, '..', '..', '..', '..', '..', 'gulpfile.js');
const SCHEMAS = (
	require(GULPFILE) as {
		outputSchemas(
			source: typeof contract,
			list: typeof resources,
		): Record<string, { properties?: Record<string, unknown> }>;
	}
).outputSchemas(contract, resources);

/** The fields of an item that n8n's schema preview of the operation does not list. */
function unlisted(operation: string, item: IDataObject): string[] {
	const schema = SCHEMAS[`IdentityVerification/__schema__/v1.0.0/kybCompany/${operation}.json`];
	if (!schema) throw new Error(`the build writes no schema for ${operation}`);
	return Object.keys(item).filter((key) => !schema.properties?.[key]);
}

describe('KYB Company → Set Review Decision', () => {
	test('Approve: the service records it, the company shows it, and Company Reviewed is sent', async () => {
		const companyId = await submitted();
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
		const companyId = await submitted();
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
		const companyId = await submitted();
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
		expect(error.description).toMatch(/cannot be changed from PENDING/);
		expect(serviceRequests(ctx.sb)).toBe(1);
	});

	test('Continue On Fail: an unknown company becomes an error item, the others are decided', async () => {
		const first = await submitted();
		const third = await submitted();
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
