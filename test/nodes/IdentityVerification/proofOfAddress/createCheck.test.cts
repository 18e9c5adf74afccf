/**
 * Proof of Address: Create Check from an n8n binary property (file type judged from the bytes),
 * the document the service echoes in its answer, and a file n8n keeps on disk (its default binary
 * mode outside queue mode): streamed into the request body, checked before anything is sent, and
 * arriving as the very bytes that were stored.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BinaryDataService } from 'n8n-core';
import type { INodeExecutionData } from 'n8n-workflow';

import { useFilesystemBinaryMode, useInlineBinaryMode } from '../../../harness/index.cjs';
import { SEED } from '../../../sandbox/index.cjs';
import {
	TOO_DEEP,
	binaryItem,
	expectError,
	expectPaired,
	nestedArrays,
	serviceRequests,
	sha256,
	startCountingProxy,
	useSandbox,
	poaParams as params,
} from '../util.cjs';

const ctx = useSandbox();

const PNG = Buffer.concat([
	Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
	Buffer.alloc(64, 1),
]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(64, 2)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const WEBP = Buffer.concat([
	Buffer.from('RIFF', 'latin1'),
	Buffer.from([40, 0, 0, 0]),
	Buffer.from('WEBPVP8 ', 'latin1'),
	Buffer.alloc(32, 3),
]);
function ftyp(major: string, compatible: string[]): Buffer {
	const size = 16 + compatible.length * 4;
	const head = Buffer.alloc(8);
	head.writeUInt32BE(size, 0);
	head.write('ftyp', 4, 'latin1');
	return Buffer.concat([
		head,
		Buffer.from(major, 'latin1'),
		Buffer.alloc(4),
		...compatible.map((b) => Buffer.from(b, 'latin1')),
		Buffer.alloc(32, 4),
	]);
}
const HEIC = ftyp('heic', ['mif1', 'heic']);
const HEIF = ftyp('mif1', ['mif1']);

describe('Proof of Address: Create Check', () => {
	test.each([
		['PNG', PNG, 'scan.png', 'image/png'],
		['JPEG', JPEG, 'bill.jpg', 'image/jpeg'],
		['PDF', PDF, 'statement.pdf', 'application/pdf'],
		['WEBP', WEBP, 'bill.webp', 'image/webp'],
		['HEIC', HEIC, 'IMG_0001.HEIC', 'image/heic'],
		['HEIF', HEIF, 'photo.heif', 'image/heif'],
	])('checks a %s document and outputs the check as JSON', async (_type, bytes, fileName, mime) => {
		const { items, error } = await ctx.run(params(), {
			input: [binaryItem(bytes, fileName, mime)],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		expect(items[0].json).toMatchObject({
			providedName: SEED.poa.name,
			providedAddress: SEED.poa.address,
			nameMatch: true,
			addressMatch: true,
			overallStatus: 'MATCH',
		});
		expect(typeof items[0].json.id).toBe('string');
		expect(items[0].json.fileSizeBytes).toBe(bytes.length);
	});

	test('a name whose expression finds no value is not sent, as an empty one (it was sent as invalid JSON)', async () => {
		const { items, error } = await ctx.run(params({ providedName: '={{ $json.noSuchField }}' }), {
			input: [binaryItem(PNG, 'scan.png', 'image/png')],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ nameMatch: null, addressMatch: true });
	});

	test('judges the type by content: a PNG named .pdf is accepted, sent as the same bytes', async () => {
		const { items, error } = await ctx.run(params({ binaryPropertyName: 'upload' }), {
			input: [binaryItem(PNG, 'renamed.pdf', 'application/pdf', 'upload')],
		});
		expect(error).toBeUndefined();
		expect(items[0].json.fileSizeBytes).toBe(PNG.length);
	});

	test.each([
		[
			'a .txt file',
			Buffer.from('Electricity bill\nJonas Jonaitis\n', 'utf8'),
			'bill.txt',
			'text/plain',
			'text file',
		],
		[
			'a .gif file',
			Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(32, 5)]),
			'bill.gif',
			'image/gif',
			'GIF image',
		],
		[
			'a .zip file',
			Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(32, 6)]),
			'bill.zip',
			'application/zip',
			'ZIP archive',
		],
		[
			'a .txt file named .pdf',
			Buffer.from('not really a pdf', 'utf8'),
			'bill.pdf',
			'application/pdf',
			'text file',
		],
	])(
		'refuses %s before sending anything, naming the detected and accepted types',
		async (_name, bytes, fileName, mime, detected) => {
			const result = await ctx.run(params(), { input: [binaryItem(bytes, fileName, mime)] });
			const error = expectError(
				result,
				'Input Binary Field',
				detected,
				'JPEG',
				'PNG',
				'WEBP',
				'HEIC',
				'HEIF',
				'PDF',
			);
			expect(error.message).toContain(fileName);
			expect(error.description).toBeTruthy();
			expect(serviceRequests(ctx.sb)).toBe(0);
		},
	);

	test('says which field is missing when the item has no such binary property', async () => {
		const result = await ctx.run(params({ binaryPropertyName: 'document' }), {
			input: [binaryItem(PNG, 'scan.png', 'image/png', 'data')],
		});
		expectError(result, 'document');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test.each([
		['Provided Name', { providedName: 'x'.repeat(256) }, 'at most 255 characters'],
		['Provided Address', { providedAddress: 'y'.repeat(256) }, 'at most 255 characters'],
	])('refuses a wrong %s before sending anything', async (label, extra, rule) => {
		const result = await ctx.run(params(extra), {
			input: [binaryItem(PNG, 'scan.png', 'image/png')],
		});
		expectError(result, label, rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test.each<[string, Record<string, string>, string | null]>([
		['both left empty', { providedName: '', providedAddress: '={{ "  " }}' }, null],
		['only the name', { providedAddress: '' }, SEED.poa.name],
	])(
		'Provided Name and Address are optional, as for the service (%s): what is empty is not sent',
		async (_what, extra, name) => {
			const { items, error } = await ctx.run(params(extra), {
				input: [binaryItem(PNG, 'scan.png', 'image/png')],
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				providedName: name,
				providedAddress: null,
			});
		},
	);

	test('also reads a file whose base64 is wrapped in lines (decoded, then encoded in chunks)', async () => {
		const item = binaryItem(
			Buffer.concat([PDF, Buffer.alloc(200_000, 0x42)]),
			'wrapped.pdf',
			'application/pdf',
		);
		item.binary!.data.data = item.binary!.data.data.replace(/.{76}/g, '$&\r\n');
		const { items, error } = await ctx.run(params(), { input: [item] });
		expect(error).toBeUndefined();
		expect(items[0].json.fileSizeBytes).toBe(PDF.length + 200_000);
	});

	test('sends a 3 MB file intact: the service receives the very bytes of the input (base64 built in chunks)', async () => {
		// Varied bytes, so a chunk sent twice, dropped or out of order changes the hash.
		const big = Buffer.concat([PDF, randomBytes(3 * 1024 * 1024 + 1)]);
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			const { items, error } = await ctx.run(params(), {
				input: [binaryItem(big, 'big.pdf', 'application/pdf')],
				baseUrl: proxy.url,
			});
			expect(error).toBeUndefined();
			expect(items[0].json.fileSizeBytes).toBe(big.length);
			expect(proxy.exchanges).toHaveLength(1);
			const body = JSON.parse(proxy.exchanges[0].sent.toString('utf8')) as { file: string };
			expect(sha256(Buffer.from(body.file, 'base64'))).toBe(sha256(big));
		} finally {
			await proxy.close();
		}
	});
});

describe('Proof of Address: the echoed document in the answer', () => {
	/** A service that answers the check with `answer`'s bytes, cut off after `cutAfter` of them. */
	async function service(answer: Buffer, cutAfter = Infinity) {
		const server = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => {
				res.writeHead(201, {
					'Content-Type': 'application/json',
					'Content-Length': String(answer.length),
				});
				if (cutAfter >= answer.length) res.end(answer);
				else res.write(answer.subarray(0, cutAfter), () => res.destroy());
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		return {
			url: `http://127.0.0.1:${port}`,
			close: () => new Promise<void>((resolve) => server.close(() => resolve())),
		};
	}

	const echoOf = (file: Buffer) =>
		Buffer.from(
			JSON.stringify({
				id: 'poa-1',
				file: file.toString('base64').replace(/.{76}/g, '$&\n'),
				overallStatus: 'MATCH',
				nameMatch: true,
			}),
		);

	test('an echo of 2 MB in small pieces: the check without it, and the size uploaded', async () => {
		const file = Buffer.concat([PDF, randomBytes(2 * 1024 * 1024)]);
		const s = await service(echoOf(file));
		try {
			const { items, error } = await ctx.run(params(), {
				input: [binaryItem(PNG, 'scan.png', 'image/png')],
				baseUrl: s.url,
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toEqual({
				id: 'poa-1',
				overallStatus: 'MATCH',
				nameMatch: true,
				// The document uploaded, not the one echoed (this service echoes another).
				fileSizeBytes: PNG.length,
			});
		} finally {
			await s.close();
		}
	});

	test('an answer nested deeper than the limit around its echoed file is refused, naming it', async () => {
		ctx.sb.faults.add({
			path: '/api/v2/poa-checks/',
			status: 200,
			jsonText: `{"id":"p-1","file":"QUJD","deep":${nestedArrays(5_000)}}`,
		});
		const result = await ctx.run(params(), {
			input: [binaryItem(PDF, 'bill.pdf', 'application/pdf')],
		});
		expectError(result, TOO_DEEP);
	});

	test('an answer that breaks off: an error that says the check may have been made', async () => {
		const s = await service(echoOf(randomBytes(512 * 1024)), 100_000);
		try {
			const { error } = await ctx.run(params(), {
				input: [binaryItem(PNG, 'scan.png', 'image/png')],
				baseUrl: s.url,
			});
			expect(error).toMatchObject({
				message: 'The connection to the service broke while its answer was read',
				description: expect.stringContaining(
					'not repeated, because the service may already have processed it: check in the dashboard',
				),
			});
		} finally {
			await s.close();
		}
	});
});

describe('Proof of Address: Create Check from a stored file', () => {
	// n8n's file-system binary mode (its default outside queue mode) for this block only.
	const storage = mkdtempSync(path.join(os.tmpdir(), 'idv-poa-stored-'));
	let binary: BinaryDataService;
	beforeAll(async () => {
		binary = await useFilesystemBinaryMode(storage);
	});
	afterAll(() => useInlineBinaryMode());

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
