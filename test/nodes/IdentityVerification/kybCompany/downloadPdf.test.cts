/** KYB Company → Download PDF (the transport's streamed path): the file, its sections, its bounds. */
import { SEED } from '../../../sandbox/index.cjs';
import { company, unlisted, useKybSandbox } from '../kyb-util.cjs';
import { binaryBytes, expectError } from '../util.cjs';

const ctx = useKybSandbox();

describe('KYB Company → Download PDF', () => {
	test('the PDF in binary field data, typed by its bytes, with the sections asked for', async () => {
		const companyId = await ctx.submitted();
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
		const companyId = await ctx.submitted();
		const { items } = await ctx.run(company('downloadPdf', { companyId }));
		expect(binaryBytes(items[0]).toString('latin1')).toContain('Sections: all');
	});

	test('an answer that is no PDF (a proxy’s page) is refused, naming what came', async () => {
		const companyId = await ctx.submitted();
		ctx.sb.faults.add({ path: '/kyb/companies/', status: 200, body: { detail: 'not a file' } });
		const result = await ctx.run(company('downloadPdf', { companyId }));
		expectError(result, 'did not return a PDF report');
	});

	test('a file over Max File Size stops with the size named', async () => {
		const companyId = await ctx.submitted();
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
