/**
 * AML Check → Download Profile PDF as n8n binary data: through n8n's engine against the sandbox
 * (after Get Profile, a safe file name, byte-exact bytes, the password's rules, n8n 1.x's stored
 * size), and with a stub of n8n's helpers to show that the file is streamed: handed to n8n while
 * most of it has not been produced yet, so a 50 MB report never sits whole in the node's memory.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { BinaryDataService } from 'n8n-core';
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { execute } from '../../../../nodes/IdentityVerification/actions/amlCheck/downloadProfilePdf.operation';
import { stubRequestContext } from '../../../harness/fixtures/request-context.cjs';
import { SEED } from '../../../sandbox/index.cjs';
import { getProfile } from '../aml-util.cjs';
import {
	binaryBytes,
	expectError,
	expectPaired,
	outputOf,
	serviceRequests,
	sha256,
	startCountingProxy,
	useSandbox,
} from '../util.cjs';

const ctx = useSandbox();
const { checkId, profileId, password } = SEED.aml;
const params = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'downloadProfilePdf',
	checkId,
	profileId,
	password,
	...extra,
});

describe('AML: Download Profile PDF', () => {
	test('outputs the PDF as binary data (mime, file name, %PDF- bytes) with ids and size in JSON', async () => {
		const { items, error } = await ctx.run(params());
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		const fileName = `aml-${checkId}-${profileId}.pdf`;
		const binary = items[0].binary?.data;
		expect(binary?.mimeType).toBe('application/pdf');
		expect(binary?.fileName).toBe(fileName);
		expect(binary?.fileExtension).toBe('pdf');
		const bytes = binaryBytes(items[0]);
		expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(bytes.toString('latin1')).toContain(profileId);
		expect(items[0].json).toEqual({
			checkId,
			profileId,
			fileName,
			mimeType: 'application/pdf',
			fileSize: bytes.length,
		});
	});

	test('Get Profile → Download Profile PDF with {{ $json.checkId }} and {{ $json.profileId }}', async () => {
		const result = await ctx.run(
			getProfile({ checkId: SEED.aml.checkId, profileId: SEED.aml.profileId }),
			{
				after: [
					{
						name: 'Download Profile PDF',
						parameters: {
							resource: 'aml',
							operation: 'downloadProfilePdf',
							checkId: '={{ $json.checkId }}',
							profileId: '={{ $json.profileId }}',
							password: 'secret',
						},
					},
				],
			},
		);
		expect(result.run.data.resultData.error).toBeUndefined();
		expect(outputOf(result, 'Download Profile PDF')[0].json).toMatchObject({
			checkId: SEED.aml.checkId,
			profileId: SEED.aml.profileId,
			mimeType: 'application/pdf',
		});
	});

	test('puts the file in the output field the user chose', async () => {
		const { items } = await ctx.run(params({ binaryPropertyName: 'report' }));
		expect(items[0].binary?.data).toBeUndefined();
		expect(binaryBytes(items[0], 'report').subarray(0, 5).toString('latin1')).toBe('%PDF-');
	});

	test('makes a safe file name from a profile ID with unusual characters, and finds the profile', async () => {
		const odd = ctx.sb.aml.seedProfile({ profileId: 'ofac/12 34:x' });
		const { items, error } = await ctx.run(
			params({ checkId: odd.checkId, profileId: odd.profileId }),
		);
		expect(error).toBeUndefined();
		expect(items[0].binary?.data?.fileName).toBe(`aml-${odd.checkId}-ofac_12_34_x.pdf`);
		expect(items[0].json.profileId).toBe('ofac/12 34:x');
	});

	test('keeps a large PDF byte-exact (2 MB): the output holds the very bytes the service sent', async () => {
		const big = ctx.sb.aml.seedProfile({ sizeBytes: 2 * 1024 * 1024 });
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			const { items, error } = await ctx.run(
				params({ checkId: big.checkId, profileId: big.profileId }),
				{ baseUrl: proxy.url },
			);
			expect(error).toBeUndefined();
			expect(proxy.exchanges).toHaveLength(1);
			const sent = proxy.exchanges[0].received;
			expect(sent.length).toBe(2 * 1024 * 1024);
			const output = binaryBytes(items[0]);
			expect(sha256(output)).toBe(sha256(sent));
			expect(items[0].json.fileSize).toBe(2 * 1024 * 1024);
		} finally {
			await proxy.close();
		}
	});

	test('refuses an empty password (from an expression) before sending anything', async () => {
		const result = await ctx.run(params({ password: '={{ $json.password }}' }), {
			input: [{ json: { password: '' } }],
		});
		const error = expectError(result, 'Password', 'at least 1 character');
		expect(error.description).toBeTruthy();
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('an empty password typed in the field is flagged by n8n as a required parameter; nothing is sent', async () => {
		await expect(ctx.run(params({ password: '' }))).rejects.toThrow(
			'Parameter "Password" is required',
		);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('Continue On Fail: the item with the empty password becomes an error item, the others get their PDF', async () => {
		const { items, error } = await ctx.run(params({ password: '={{ $json.password }}' }), {
			continueOnFail: true,
			input: [{ json: { password: 'a' } }, { json: { password: '' } }, { json: { password: 'b' } }],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expectPaired(items, (i) => i);
		expect(items[0].binary?.data?.mimeType).toBe('application/pdf');
		expect(items[2].binary?.data?.mimeType).toBe('application/pdf');
		expect(items[1].binary).toBeUndefined();
		expect(items[1].json.error).toBe('Password: must be at least 1 character');
		expect(serviceRequests(ctx.sb)).toBe(2);
	});

	test('refuses a Check ID that is not a UUID before sending anything', async () => {
		ctx.sb.resetLog();
		const result = await ctx.run(params({ checkId: 'check-1' }));
		expectError(result, 'Check ID', 'must be a UUID');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('explains an unknown profile clearly (404)', async () => {
		const result = await ctx.run(params({ profileId: 'no-such-profile' }));
		const error = expectError(result, 'Not found', '404');
		expect(error.description).toMatch(/check the ids/i);
	});

	test('an unknown profile is named as such, as Get Profile names it (404)', async () => {
		const result = await ctx.run(params({ profileId: 'no-such-profile' }));
		const error = expectError(result, 'no profile with this Profile ID', 'Check ID');
		expect(error.description).toMatch(/within the check/);
	});

	test('errors clearly when the service answers with something that is not a PDF', async () => {
		ctx.sb.faults.add({
			method: 'POST',
			path: '/aml/',
			status: 200,
			body: { detail: 'not a pdf' },
		});
		const result = await ctx.run(params());
		expectError(result, 'did not return a PDF');
	});
});

describe('AML: Download Profile PDF on n8n 1.x, whose stored binary data carries no byte count', () => {
	// n8n 1.x's BinaryDataService.store is 2.x's without `bytes`: it sets only `fileSize`, a rounded
	// text ("1.16 kB"). The harness's service (n8n-core 2.x, data kept inline as in n8n's default
	// mode) is made to answer the same way.
	let restore: () => void;
	beforeEach(() => {
		// The engine's Container: n8n-core's own copy of @n8n/di (as in the harness).
		const { Container } = require(
			require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }),
		) as typeof import('@n8n/di');
		const service = Container.get(BinaryDataService);
		const store = service.store;
		service.store = async function (...args: Parameters<typeof store>) {
			const stored = await store.apply(this, args);
			delete (stored as { bytes?: number }).bytes;
			return stored;
		};
		restore = () => {
			service.store = store;
		};
	});
	afterEach(() => restore());

	test('reports the size of the file it stored, not 0', async () => {
		const big = ctx.sb.aml.seedProfile({ sizeBytes: 300_001 });
		const { items, error } = await ctx.run(
			params({ checkId: big.checkId, profileId: big.profileId }),
		);
		expect(error).toBeUndefined();
		expect(items[0].binary?.data?.bytes).toBeUndefined();
		expect(items[0].binary?.data?.fileSize).toBe('300 kB');
		expect(binaryBytes(items[0]).length).toBe(300_001);
		expect(items[0].json.fileSize).toBe(300_001);
	});
});

describe('AML: Download Profile PDF streams the file', () => {
	const SIZE = 50 * 1024 * 1024;
	const CHUNK = 64 * 1024;

	/** A PDF of SIZE bytes produced chunk by chunk on demand; `produced` counts what was read so far. */
	function lazyPdf() {
		const state = { produced: 0, hash: createHash('sha256') };
		const stream = new Readable({
			highWaterMark: CHUNK,
			read() {
				if (state.produced >= SIZE) {
					this.push(null);
					return;
				}
				const chunk = Buffer.alloc(Math.min(CHUNK, SIZE - state.produced), 0x20);
				if (state.produced === 0) chunk.write('%PDF-1.4\n', 'latin1');
				chunk.writeUInt32BE(state.produced / CHUNK, chunk.length - 4);
				state.produced += chunk.length;
				state.hash.update(chunk);
				this.push(chunk);
			},
		});
		return { stream, state };
	}

	/**
	 * How the stand-in for n8n stores the file: as 2.x (`bytes` set), as 1.x in filesystem mode (by
	 * id, `fileSize` a rounded text, the byte count in the file's metadata), as an n8n that kept none
	 * of it (0 bytes stored), or one that reports no size at all.
	 */
	type Storage = '2.x' | '1.x filesystem' | '1.x lost the file' | '1.x no size';

	/** n8n's helpers answering with `pdf.stream` and storing it as `storage` says, recording what they saw. */
	function fakeContext(
		pdf: { stream: Readable; state?: { produced: number } },
		storage: Storage = '2.x',
	) {
		const seen: {
			producedWhenHandedOver?: number;
			handedStream?: boolean;
			storedBytes?: number;
			storedHash?: string;
			metadataAskedFor?: string[];
		} = {};
		const parameters: Record<string, unknown> = {
			checkId: '0b0c2f4e-7f0e-4a8e-9f4e-3c2b1a0f9e8d',
			profileId: 'ofac-123',
			password: 'pdf-password',
			binaryPropertyName: 'data',
		};
		const { context, sent } = stubRequestContext({
			answer: () => ({
				statusCode: 200,
				headers: { 'content-type': 'application/pdf' },
				body: pdf.stream,
			}),
			signal: null,
		});
		context.getNodeParameter = ((name: string, _i: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback) as IExecuteFunctions['getNodeParameter'];
		Object.assign(context.helpers, {
			prepareBinaryData: async (data: unknown, fileName: string, mimeType: string) => {
				seen.handedStream = data instanceof Readable;
				seen.producedWhenHandedOver = pdf.state?.produced ?? 0;
				const hash = createHash('sha256');
				let bytes = 0;
				const source = Buffer.isBuffer(data) ? [data] : (data as AsyncIterable<Buffer>);
				for await (const chunk of source) {
					hash.update(chunk);
					bytes += chunk.length;
				}
				seen.storedBytes = storage === '1.x lost the file' ? 0 : bytes;
				seen.storedHash = hash.digest('hex');
				if (storage === '2.x') return { data: '', mimeType, fileName, bytes };
				return {
					data: 'filesystem-v2',
					id: 'filesystem-v2:workflows/w/executions/1/binary_data/f',
					mimeType,
					fileName,
					fileSize: `${(bytes / 1e6).toFixed(1)} MB`,
				};
			},
			getBinaryMetadata: async (id: string) => {
				(seen.metadataAskedFor ??= []).push(id);
				if (storage === '1.x no size') return { fileName: 'x.pdf', mimeType: 'application/pdf' };
				return { fileName: 'x.pdf', mimeType: 'application/pdf', fileSize: seen.storedBytes };
			},
		});
		return { context, seen, sent: sent as IHttpRequestOptions[] };
	}

	/** The error the operation fails with when n8n stores a 50 MB PDF as `storage` says. */
	async function failureWhenStored(storage: Storage) {
		const { context } = fakeContext(lazyPdf(), storage);
		return await execute.call(context, 0).then(
			() => undefined,
			(e: unknown) => e as Error & { description?: string },
		);
	}

	test('asks for a stream and hands the still-unread stream to prepareBinaryData, bytes intact', async () => {
		const pdf = lazyPdf();
		const { context, seen, sent } = fakeContext(pdf);

		const [item] = await execute.call(context, 0);

		expect(sent[0]?.encoding).toBe('stream');
		expect(seen.handedStream).toBe(true);
		// Only the first chunks (to check the %PDF- signature) were read before the hand-over.
		expect(seen.producedWhenHandedOver).toBeLessThanOrEqual(4 * CHUNK);
		expect(seen.storedBytes).toBe(SIZE);
		expect(seen.storedHash).toBe(pdf.state.hash.digest('hex'));
		expect(item.json.fileSize).toBe(SIZE);
		// n8n 2.x reports the size: the stored file is not asked about.
		expect(seen.metadataAskedFor).toBeUndefined();
	});

	test('an answer of exactly the 5 signature bytes, in pieces, is stored whole (the peek puts them back)', async () => {
		const { context, seen } = fakeContext({
			stream: Readable.from([Buffer.from('%PD'), Buffer.from('F-')]),
		});

		const [item] = await execute.call(context, 0);

		expect(seen.storedBytes).toBe(5);
		expect(item.json.fileSize).toBe(5);
	});

	test('on n8n 1.x (no byte count, only "52.4 MB") the size is the stored file’s, still streamed', async () => {
		const { context, seen } = fakeContext(lazyPdf(), '1.x filesystem');

		const [item] = await execute.call(context, 0);

		expect(seen.handedStream).toBe(true);
		expect(seen.producedWhenHandedOver).toBeLessThanOrEqual(4 * CHUNK);
		expect(seen.metadataAskedFor).toEqual(['filesystem-v2:workflows/w/executions/1/binary_data/f']);
		expect(item.json.fileSize).toBe(SIZE);
		expect(item.binary?.data.fileSize).toBe('52.4 MB');
	});

	test('a stored file smaller than what arrived fails the item, naming n8n 1.x and what to do', async () => {
		const error = await failureWhenStored('1.x lost the file');

		expect(error?.message).toBe('n8n stored an incomplete PDF file (0 bytes)');
		expect(error?.description).toMatch(/n8n 1\.x/);
		expect(error?.description).toMatch(/update n8n/i);
	});

	test('no size from n8n at all fails the item instead of reporting 0 bytes', async () => {
		const error = await failureWhenStored('1.x no size');

		expect(error?.message).toBe('n8n stored the PDF file but reported no size for it');
		expect(error?.description).toMatch(/n8n 1\.x/);
	});
});
