/** KYB Company → Download PDF (the transport's streamed path): the file, its sections, its bounds. */
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../../../nodes/IdentityVerification/actions/resources';
import * as contract from '../../../../nodes/shared/contract';
import { SEED } from '../../../sandbox/index.cjs';
import { binaryBytes, expectError, useSandbox } from '../util.cjs';

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
