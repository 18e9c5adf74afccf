/**
 * Proof of Address: Create Check from a file n8n keeps on disk (its default binary mode outside
 * queue mode): the file is streamed into the request body, checked before anything is sent, and
 * arrives as the very bytes that were stored.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BinaryDataService } from 'n8n-core';
import type { INodeExecutionData } from 'n8n-workflow';

import { useFilesystemBinaryMode } from '../../harness/index.cjs';
import {
	expectError,
	poaParams as params,
	serviceRequests,
	sha256,
	startCountingProxy,
	useSandbox,
} from './util.cjs';

const ctx = useSandbox();
const storage = mkdtempSync(path.join(os.tmpdir(), 'idv-poa-stored-'));
let binary: BinaryDataService;
beforeAll(async () => {
	binary = await useFilesystemBinaryMode(storage);
});

const JPEG_HEAD = Buffer.from('ffd8ffe000104a464946', 'hex');

async function storedItem(bytes: Buffer, fileName: string, mimeType: string) {
	const data = await binary.store(
		{ type: 'execution', workflowId: 'poa', executionId: String(Math.random()) } as never,
		bytes,
		{ mimeType, fileName, data: '' } as never,
	);
	expect(data.id).toBeDefined();
	return { json: {}, binary: { data } } as INodeExecutionData;
}

/** Every stored file's metadata, newest last: n8n keeps `fileSize` there. */
function metadataFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((name) => name.endsWith('.metadata'))
		.map((name) => path.join(dir, name));
}

describe('Proof of Address: Create Check from a stored file', () => {
	// Sizes around the read chunk (3 × 64 KiB) and not multiples of 3: the base64 of every chunk
	// boundary is exercised.
	test.each([5, 3 * 64 * 1024 - 1, 2 * 3 * 64 * 1024 + 7])(
		'sends a stored %s-byte file intact',
		async (size) => {
			const file = Buffer.concat([JPEG_HEAD, randomBytes(size)]);
			const proxy = await startCountingProxy(ctx.sb.url);
			try {
				const { items, error } = await ctx.run(params(), {
					input: [await storedItem(file, 'bill.jpg', 'image/jpeg')],
					baseUrl: proxy.url,
				});
				expect(error).toBeUndefined();
				expect(items[0].json.fileSizeBytes).toBe(file.length);
				const body = JSON.parse(proxy.exchanges[0].sent.toString('utf8')) as { file: string };
				expect(sha256(Buffer.from(body.file, 'base64'))).toBe(sha256(file));
			} finally {
				await proxy.close();
			}
		},
	);

	test('gives back each chunk read from the store once it is sent, and still sends the file intact', async () => {
		const releases = typeof (new ArrayBuffer(1) as { transfer?: unknown }).transfer === 'function';
		const file = Buffer.concat([JPEG_HEAD, randomBytes(5 * 3 * 64 * 1024 + 11)]);
		const item = await storedItem(file, 'bill.jpg', 'image/jpeg');
		// The chunks n8n's store hands the node, recorded on their way, per stream opened.
		const streams: Array<Array<{ chunk: Uint8Array; length: number }>> = [];
		const getAsStream = binary.getAsStream.bind(binary);
		const spy = jest.spyOn(binary, 'getAsStream').mockImplementation(async (id, chunkSize) => {
			const stream = await getAsStream(id, chunkSize);
			const read: Array<{ chunk: Uint8Array; length: number }> = [];
			streams.push(read);
			return Readable.from(
				(async function* () {
					for await (const chunk of stream as AsyncIterable<Uint8Array>) {
						read.push({ chunk, length: chunk.byteLength });
						yield chunk;
					}
				})(),
				{ objectMode: false },
			);
		});
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			const { items, error } = await ctx.run(params(), { input: [item], baseUrl: proxy.url });
			expect(error).toBeUndefined();
			expect(items[0].json.fileSizeBytes).toBe(file.length);
			const body = JSON.parse(proxy.exchanges[0].sent.toString('utf8')) as { file: string };
			expect(sha256(Buffer.from(body.file, 'base64'))).toBe(sha256(file));
		} finally {
			spy.mockRestore();
			await proxy.close();
		}
		// The first stream is the type check's (its first bytes); the second is the upload's.
		expect(streams).toHaveLength(2);
		const uploaded = streams[1];
		expect(uploaded.reduce((sum, read) => sum + read.length, 0)).toBe(file.length);
		expect(uploaded.length).toBeGreaterThan(1);
		for (const { chunk, length } of uploaded) expect(chunk.byteLength).toBe(releases ? 0 : length);
	});

	test('refuses a stored GIF by its content before any request', async () => {
		const before = serviceRequests(ctx.sb);
		const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), randomBytes(300_000)]);
		const result = await ctx.run(params(), {
			input: [await storedItem(gif, 'bill.jpg', 'image/jpeg')],
		});
		expectError(result, 'Input Binary Field', 'GIF');
		expect(serviceRequests(ctx.sb)).toBe(before);
	});

	test('refuses a stored file over Max File Size by its stored size before any request', async () => {
		const before = serviceRequests(ctx.sb);
		const file = Buffer.concat([JPEG_HEAD, Buffer.alloc(200 * 1024, 1)]);
		const result = await ctx.run(params({ options: { maxFileSizeMb: 0.1 } }), {
			input: [await storedItem(file, 'bill.jpg', 'image/jpeg')],
		});
		expectError(result, 'Max File Size', '0.2 MB');
		expect(serviceRequests(ctx.sb)).toBe(before);
	});

	test.each([
		['smaller', -1000],
		['larger', +1000],
	])(
		'stops the upload with a clear error when the stored size is %s than the file',
		async (_, delta) => {
			const file = Buffer.concat([JPEG_HEAD, randomBytes(400_000)]);
			const item = await storedItem(file, 'bill.jpg', 'image/jpeg');
			const [metadataPath] = metadataFiles(storage).filter((p) =>
				p.includes(path.basename(String(item.binary!.data.id).split(':').pop()!)),
			);
			const metadata = JSON.parse(readFileSync(metadataPath, 'utf8')) as { fileSize: number };
			writeFileSync(metadataPath, JSON.stringify({ ...metadata, fileSize: file.length + delta }));
			const result = await ctx.run(params(), { input: [item] });
			expectError(result, 'changed while it was sent');
			// The service never got a whole request, so it made no check.
			const last = ctx.sb.requests.at(-1)!;
			expect(last.path).toBe('/api/v2/poa-checks/');
			expect(last.status).toBe(0);
		},
	);
});
