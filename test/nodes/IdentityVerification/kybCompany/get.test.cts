/**
 * KYB Company: Get, Get Many (pages, Limit, registration number, Simplify), Set Review Decision,
 * Download PDF (the transport's streamed path) and Delete, against the sandbox's companies, with
 * their state: a decided company shows its decision, a deleted one is gone.
 */
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../../../nodes/IdentityVerification/actions/resources';
import * as contract from '../../../../nodes/shared/contract';
import { SEED } from '../../../sandbox/index.cjs';
import { binaryBytes, expectError, expectPaired, serviceRequests, useSandbox } from '../util.cjs';

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

describe('KYB Company → Get', () => {
	test('the whole record of a submitted company', async () => {
		const companyId = await submitted();
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
		const companyId = await submitted();
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

describe('KYB Company → Get Many', () => {
	test('Return All reads every page, newest first', async () => {
		const ids = [];
		for (let i = 0; i < 12; i++) ids.push(ctx.sb.kyb.addCompany({ companyName: `Company ${i}` }));
		const { items, error } = await ctx.run(company('getAll', { returnAll: true }));
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.id)).toEqual([...ids].reverse().concat(SEED.kyb.companyId));
		// The sandbox's pages hold 10: two pages.
		expect(serviceRequests(ctx.sb, '/kyb/companies/')).toBe(2);
		expect(unlisted('getAll', items[0].json)).toEqual([]);
	});

	test('Limit stops there; the registration number filters at the service', async () => {
		for (let i = 0; i < 3; i++) ctx.sb.kyb.addCompany();
		const other = ctx.sb.kyb.addCompany({ registrationNumber: 'LT-999' });
		const limited = await ctx.run(company('getAll', { limit: 2 }));
		expect(limited.items).toHaveLength(2);
		const found = await ctx.run(
			company('getAll', { returnAll: true, filters: { registrationNumber: ' LT-999 ' } }),
		);
		expect(found.items.map((i) => i.json.id)).toEqual([other]);
		expect(ctx.sb.requests.at(-1)?.query).toEqual({ registrationNumber: 'LT-999', page: '1' });
	});

	test('a registration number an expression gives as a number still filters (it listed every company)', async () => {
		const other = ctx.sb.kyb.addCompany({ registrationNumber: '305999111' });
		const found = await ctx.run(
			company('getAll', { returnAll: true, filters: { registrationNumber: '={{ 305999111 }}' } }),
		);
		expect(found.items.map((i) => i.json.id)).toEqual([other]);
		expect(ctx.sb.requests.at(-1)?.query).toEqual({ registrationNumber: '305999111', page: '1' });
	});

	test('Simplify: one flat row per company', async () => {
		const { items } = await ctx.run(company('getAll', { limit: 1, simplify: true }));
		expect(items[0].json).toEqual({
			id: SEED.kyb.companyId,
			companyName: 'UAB Baltic Widgets',
			registrationNumber: '305123456',
			country: 'LT',
			status: 'PENDING',
			approvalStatus: null,
			denyReason: null,
			submissionTime: null,
		});
	});

	test('a Limit of 0 is refused before sending anything', async () => {
		expectError(await ctx.run(company('getAll', { limit: 0 })), 'Limit', 'at least 1');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});

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

describe('KYB Company → Download PDF', () => {
	test('the PDF in binary field data, typed by its bytes, with the sections asked for', async () => {
		const companyId = await submitted();
		const { items, error } = await ctx.run(
			company('downloadPdf', {
				companyId,
				password: 'file-password-1',
				sections: ['SUBMITTED_COMPANY_INFO', 'RELATED_SUBJECTS'],
				binaryPropertyName: 'report',
			}),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			companyId,
			fileName: `kyb-company-${companyId}.pdf`,
			mimeType: 'application/pdf',
			fileSize: expect.any(Number),
		});
		expect(unlisted('downloadPdf', items[0].json)).toEqual([]);
		const bytes = binaryBytes(items[0], 'report');
		expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(bytes.toString('latin1')).toContain(
			'Sections: SUBMITTED_COMPANY_INFO, RELATED_SUBJECTS',
		);
	});

	test('no sections chosen: all of them (the field is not sent)', async () => {
		const companyId = await submitted();
		const { items } = await ctx.run(company('downloadPdf', { companyId }));
		expect(binaryBytes(items[0]).toString('latin1')).toContain('Sections: all');
	});

	test('an answer that is no PDF (a proxy’s page) is refused, naming what came', async () => {
		const companyId = await submitted();
		ctx.sb.faults.add({ path: '/kyb/companies/', status: 200, body: { detail: 'not a file' } });
		const result = await ctx.run(company('downloadPdf', { companyId }));
		expectError(result, 'did not return a PDF report');
	});

	test('a file over Max File Size stops with the size named', async () => {
		const companyId = await submitted();
		const result = await ctx.run(
			company('downloadPdf', { companyId, options: { maxFileSizeMb: 0.0001 } }),
		);
		expectError(result, /MB|bytes|size/i);
	});

	test('the password is in no error, also when the service echoes it', async () => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 400,
			body: { identifier: 'BAD_VALUE', message: 'Bad password file-password-2' },
		});
		const result = await ctx.run(
			company('downloadPdf', { companyId: SEED.kyb.companyId, password: 'file-password-2' }),
		);
		const error = expectError(result, 'HTTP 400');
		expect(JSON.stringify({ m: error.message, d: error.description })).not.toContain(
			'file-password-2',
		);
	});
});

describe('KYB Company → Delete', () => {
	test('deletes the company: then it is gone (Get 404, not listed), and a second Delete says so', async () => {
		const companyId = await submitted();
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
