/**
 * AML Download Profile PDF streams the file: the answer is asked for as a stream and handed to
 * n8n's prepareBinaryData while most of it has not even been produced yet, so a 50 MB report never
 * sits whole in the node's memory. A lazily produced stream shows it without measuring memory.
 * The same on n8n 1.x, whose stored binary data carries no byte count (only a rounded text): the
 * size comes from the stored file's metadata there, and a stored file smaller than what arrived
 * fails the item instead of passing on as a complete report.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { execute } from '../../../nodes/IdentityVerification/actions/amlCheck/downloadProfilePdf.operation';

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

function fakeContext(body: Readable, storage: Storage = '2.x') {
	const seen: {
		options?: IHttpRequestOptions;
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
	const node = {
		id: 'n',
		name: 'Identity Verification',
		type: 'x',
		typeVersion: 1,
		position: [0, 0],
	};
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, _i: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
		getCredentials: async () => ({
			apiKey: 'key',
			apiSecret: 'secret',
			baseUrl: 'https://ivs.example.com',
		}),
		helpers: {
			httpRequestWithAuthentication: async (_name: string, options: IHttpRequestOptions) => {
				seen.options = options;
				return { statusCode: 200, headers: { 'content-type': 'application/pdf' }, body };
			},
			prepareBinaryData: async (data: unknown, fileName: string, mimeType: string) => {
				seen.handedStream = data instanceof Readable;
				seen.producedWhenHandedOver = lazy.state.produced;
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
		},
	};
	const lazy = { state: { produced: 0 } };
	return { context: context as unknown as IExecuteFunctions, seen, lazy };
}

describe('AML: Download Profile PDF streams the file', () => {
	test('asks for a stream and hands the still-unread stream to prepareBinaryData, bytes intact', async () => {
		const pdf = lazyPdf();
		const { context, seen, lazy } = fakeContext(pdf.stream);
		lazy.state = pdf.state;

		const [item] = await execute.call(context, 0);

		expect(seen.options?.encoding).toBe('stream');
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
		const { context, seen } = fakeContext(Readable.from([Buffer.from('%PD'), Buffer.from('F-')]));

		const [item] = await execute.call(context, 0);

		expect(seen.storedBytes).toBe(5);
		expect(item.json.fileSize).toBe(5);
	});

	test('on n8n 1.x (no byte count, only "52.4 MB") the size is the stored file’s, still streamed', async () => {
		const pdf = lazyPdf();
		const { context, seen, lazy } = fakeContext(pdf.stream, '1.x filesystem');
		lazy.state = pdf.state;

		const [item] = await execute.call(context, 0);

		expect(seen.handedStream).toBe(true);
		expect(seen.producedWhenHandedOver).toBeLessThanOrEqual(4 * CHUNK);
		expect(seen.metadataAskedFor).toEqual(['filesystem-v2:workflows/w/executions/1/binary_data/f']);
		expect(item.json.fileSize).toBe(SIZE);
		expect(item.binary?.data.fileSize).toBe('52.4 MB');
	});

	test('a stored file smaller than what arrived fails the item, naming n8n 1.x and what to do', async () => {
		const pdf = lazyPdf();
		const { context, lazy } = fakeContext(pdf.stream, '1.x lost the file');
		lazy.state = pdf.state;

		const error = await execute.call(context, 0).then(
			() => undefined,
			(e: unknown) => e as Error & { description?: string },
		);

		expect(error?.message).toBe('n8n stored an incomplete PDF file (0 bytes)');
		expect(error?.description).toMatch(/n8n 1\.x/);
		expect(error?.description).toMatch(/update n8n/i);
	});

	test('no size from n8n at all fails the item instead of reporting 0 bytes', async () => {
		const pdf = lazyPdf();
		const { context, lazy } = fakeContext(pdf.stream, '1.x no size');
		lazy.state = pdf.state;

		const error = await execute.call(context, 0).then(
			() => undefined,
			(e: unknown) => e as Error & { description?: string },
		);

		expect(error?.message).toBe('n8n stored the PDF file but reported no size for it');
		expect(error?.description).toMatch(/n8n 1\.x/);
	});
});
