/**
 * AML Download Profile PDF streams the file: the answer is asked for as a stream and handed to
 * n8n's prepareBinaryData while most of it has not even been produced yet, so a 50 MB report never
 * sits whole in the node's memory. A lazily produced stream shows it without measuring memory.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { execute } from '../../../nodes/IdentityVerification/actions/aml/downloadProfilePdf.operation';

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

function fakeContext(body: Readable) {
	const seen: {
		options?: IHttpRequestOptions;
		producedWhenHandedOver?: number;
		handedStream?: boolean;
		storedBytes?: number;
		storedHash?: string;
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
				seen.storedBytes = bytes;
				seen.storedHash = hash.digest('hex');
				return { data: '', mimeType, fileName, bytes };
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
	});
});
