/**
 * Identification → Download Report PDF: the verification's report as n8n binary data, whether the
 * service sends it as base64 text (as its page says) or as the PDF's bytes, decoded as it arrives.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

import type { IExecuteFunctions } from 'n8n-workflow';

import { execute } from '../../../../nodes/IdentityVerification/actions/identification/downloadReportPdf.operation';
import {
	binaryBytes,
	expectError,
	expectPaired,
	serviceRequests,
	startCountingProxy,
} from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const report = (scanRef: string, extra: Record<string, unknown> = {}) => ({
	resource: 'identification',
	operation: 'downloadReportPdf',
	scanRef,
	...extra,
});

const finished = () => ctx.finished('customer-report');

describe('Identification: Download Report PDF', () => {
	test('decodes the base64 answer into the PDF, with the same bytes the service would send as a file', async () => {
		const scanRef = await finished();
		const { items, error } = await ctx.run(report(scanRef));
		expect(error).toBeUndefined();
		expectPaired(items);
		const fromText = binaryBytes(items[0]);
		expect(fromText.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(fromText.toString('latin1')).toContain(`Scan reference: ${scanRef}`);
		const fileName = `report-${scanRef}.pdf`;
		expect(items[0].binary?.data).toMatchObject({ fileName, mimeType: 'application/pdf' });
		expect(items[0].json).toEqual({
			scanRef,
			fileName,
			mimeType: 'application/pdf',
			fileSize: fromText.length,
		});

		ctx.sb.kyc.setReportEncoding('bytes');
		const raw = await ctx.run(report(scanRef));
		expect(raw.error).toBeUndefined();
		expect(binaryBytes(raw.items[0])).toEqual(fromText);
	});

	test('sends the language and the photo options, and only those set', async () => {
		const scanRef = await finished();
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			const plain = await ctx.run(report(scanRef), { baseUrl: proxy.url });
			expect(plain.error).toBeUndefined();
			const options = { includeMainStepFiles: false, includeAdditionalStepFiles: true };
			const set = await ctx.run(report(scanRef, { language: 'lt', options }), {
				baseUrl: proxy.url,
			});
			expect(set.error).toBeUndefined();
			expect(proxy.exchanges.map((e) => JSON.parse(e.sent.toString()))).toEqual([
				{ scanRef, language: 'en' },
				{ scanRef, language: 'lt', ...options },
			]);
			const pdf = binaryBytes(set.items[0]).toString('latin1');
			expect(pdf).toContain('Language: lt');
			expect(pdf).toContain('Photos: not included');
		} finally {
			await proxy.close();
		}
	});

	test('puts the file in the field the user chose', async () => {
		const scanRef = await finished();
		const { items } = await ctx.run(report(scanRef, { binaryPropertyName: 'report' }));
		expect(items[0].binary?.data).toBeUndefined();
		expect(binaryBytes(items[0], 'report').subarray(0, 5).toString('latin1')).toBe('%PDF-');
	});

	// Max File Size of 0 or of words was once taken as 100 MB without a word.
	test.each([
		['report', report],
		[
			'files',
			(scanRef: string, extra = {}) => ({ ...report(scanRef, extra), operation: 'downloadFiles' }),
		],
	])(
		'%s: a Max File Size of 0 or of words is refused, naming the field, before anything is sent',
		async (_name, parameters) => {
			for (const maxFileSizeMb of [0, '={{ "ten" }}']) {
				const result = await ctx.run(parameters('scan-1', { options: { maxFileSizeMb } }));
				expectError(result, 'Max File Size (MB): must be ');
				expect(serviceRequests(ctx.sb)).toBe(0);
			}
		},
	);

	test('a Language no list offers (from an expression) is refused before anything is sent', async () => {
		const result = await ctx.run(report('scan-1', { language: '={{ "de" }}' }));
		expectError(result, 'Language: must be en or lt');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('an answer that is no PDF, as bytes or as base64 text, is refused naming what it was', async () => {
		const scanRef = await finished();
		ctx.sb.faults.add({ path: '/api/v2/generate-pdf', status: 200, body: { status: 'queued' } });
		expectError(await ctx.run(report(scanRef)), 'did not return a PDF report', 'text file');
		const html = Buffer.from('<html><body>Report</body></html>').toString('base64');
		ctx.sb.faults.add({ path: '/api/v2/generate-pdf', status: 200, body: html });
		expectError(await ctx.run(report(scanRef)), 'did not return a PDF report', 'text file');
	});

	test('a deleted verification has no report: the 404 says so', async () => {
		const scanRef = await finished();
		await ctx.run({ resource: 'identification', operation: 'deletePersonalData', scanRef });
		const error = expectError(await ctx.run(report(scanRef)), '404', 'no report');
		expect(error.description).toContain('DELETED');
	});

	test('Continue On Fail: an unknown verification becomes an error item, the others get their report', async () => {
		const scanRef = await finished();
		const { items, error } = await ctx.run(report('={{ $json.scanRef }}'), {
			continueOnFail: true,
			input: [{ json: { scanRef } }, { json: { scanRef: 'unknown' } }, { json: { scanRef } }],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[1].json).toMatchObject({ httpCode: '404' });
		expect(items[1].binary).toBeUndefined();
		expect(binaryBytes(items[2])).toEqual(binaryBytes(items[0]));
	});
});

describe('Identification: Download Report PDF decodes while the answer arrives', () => {
	const SIZE = 6 * 1024 * 1024;
	const CHUNK = 64 * 1024;

	/** Base64 text (76-character lines) of a PDF of SIZE bytes, produced chunk by chunk on demand. */
	function lazyBase64Pdf() {
		const state = { produced: 0, hash: createHash('sha256') };
		let made = 0;
		const stream = new Readable({
			read() {
				if (made >= SIZE) return void this.push(null);
				// 57 bytes make one 76-character line.
				const bytes = Buffer.alloc(Math.min(57 * 1024, SIZE - made), 0x20);
				if (made === 0) bytes.write('%PDF-1.4\n', 'latin1');
				bytes.writeUInt32BE(made, bytes.length - 4);
				made += bytes.length;
				state.hash.update(bytes);
				const text = bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
				state.produced += text.length;
				this.push(Buffer.from(text, 'latin1'));
			},
		});
		return { stream, state };
	}

	test('hands a stream to prepareBinaryData while most of the text has not arrived; the bytes are the PDF', async () => {
		const pdf = lazyBase64Pdf();
		const seen: { producedAtHandOver?: number; stored?: string; bytes?: number } = {};
		const parameters: Record<string, unknown> = { scanRef: 'scan-1', language: 'en' };
		const context = {
			getNode: () => ({ id: 'n', name: 'Identity Verification', type: 'x', typeVersion: 1.1 }),
			getNodeParameter: (name: string, _i: number, fallback?: unknown) =>
				name in parameters ? parameters[name] : fallback,
			getCredentials: async () => ({
				apiKey: 'k',
				apiSecret: 's',
				baseUrl: 'https://ivs.example.com',
			}),
			helpers: {
				httpRequestWithAuthentication: async () => ({
					statusCode: 200,
					headers: { 'content-type': 'text/plain' },
					body: pdf.stream,
				}),
				prepareBinaryData: async (data: unknown, fileName: string, mimeType: string) => {
					seen.producedAtHandOver = pdf.state.produced;
					expect(data).toBeInstanceOf(Readable);
					const hash = createHash('sha256');
					let bytes = 0;
					for await (const chunk of data as AsyncIterable<Buffer>) {
						hash.update(chunk);
						bytes += chunk.length;
					}
					seen.stored = hash.digest('hex');
					seen.bytes = bytes;
					return { data: '', mimeType, fileName, bytes };
				},
			},
		} as unknown as IExecuteFunctions;

		const [item] = await execute.call(context, 0);

		expect(seen.producedAtHandOver).toBeLessThan(SIZE / 4);
		expect(seen.bytes).toBe(SIZE);
		expect(seen.stored).toBe(pdf.state.hash.digest('hex'));
		expect(item.json).toMatchObject({ fileSize: SIZE, mimeType: 'application/pdf' });
	});
});
