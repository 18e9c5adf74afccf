/**
 * AML Check → Download PDF: the check's report as n8n binary data, after Create or by a Check ID,
 * with Max File Size, an unknown check and Continue On Fail.
 */
import { SEED } from '../../../sandbox/index.cjs';
import { createCheck } from '../aml-util.cjs';
import {
	binaryBytes,
	expectError,
	expectPaired,
	outputOf,
	testRefusals,
	useSandbox,
} from '../util.cjs';

const ctx = useSandbox();
const downloadPdf = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'downloadPdf',
	checkId: '={{ $json.checkId }}',
	...extra,
});

describe('AML Check: Download PDF', () => {
	test('Create → Download PDF: the check’s report, without a password by default', async () => {
		const result = await ctx.run(createCheck(), {
			after: [{ name: 'Download PDF', parameters: downloadPdf({ binaryPropertyName: 'report' }) }],
		});
		expect(result.run.data.resultData.error).toBeUndefined();
		const items = outputOf(result, 'Download PDF');
		const bytes = binaryBytes(items[0], 'report');
		expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(items[0].json).toEqual({
			checkId: expect.any(String),
			fileName: `aml-check-${String(items[0].json.checkId)}.pdf`,
			mimeType: 'application/pdf',
			fileSize: bytes.length,
		});
	});

	test('Download PDF: Max File Size stops a larger report, with the size named', async () => {
		const result = await ctx.run(
			downloadPdf({ checkId: SEED.aml.checkId, options: { maxFileSizeMb: 0.0001 } }),
		);
		expectError(result, 'larger than the Max File Size');
	});

	testRefusals(ctx, [
		[downloadPdf({ checkId: '={{ "" }}' }), 'Check ID', 'must be a UUID'],
		[
			downloadPdf({ checkId: SEED.aml.checkId, options: { maxFileSizeMb: 0 } }),
			'Max File Size (MB)',
			'above 0',
		],
		// A password an expression gives as a number was named by its key ("password").
		[downloadPdf({ checkId: SEED.aml.checkId, password: '={{ 1234 }}' }), 'Password', ''],
	]);

	test('an unknown check: 404 in words naming the Check ID', async () => {
		const pdf = await ctx.run(downloadPdf({ checkId: '00000000-0000-4000-8000-000000000000' }));
		expectError(pdf, 'no AML check with this Check ID');
	});

	test('Continue On Fail: an unknown check becomes an error item with its status, the others get their PDF', async () => {
		const { items, error } = await ctx.run(downloadPdf(), {
			continueOnFail: true,
			input: [
				{ json: { checkId: SEED.aml.checkId } },
				{ json: { checkId: '00000000-0000-4000-8000-000000000000' } },
			],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].binary?.data?.mimeType).toBe('application/pdf');
		expect(items[1].json).toMatchObject({ httpCode: '404' });
	});
});
