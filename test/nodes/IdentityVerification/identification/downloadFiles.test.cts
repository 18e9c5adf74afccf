/**
 * Identification → Download Files: each photo the service lists, downloaded from its link at once
 * into a binary field named by its kind, with its type from its bytes. The links are untrusted: no
 * credential goes with them, only https to a public host (or the test service's own host), no
 * redirect, a size bound per file and per item, and an expired link says so. The files of a
 * verification end with the run's time budget.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode } from '../../../harness/index.cjs';
import { binaryBytes, expectError, expectPaired } from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const downloadFiles = (scanRef: string, extra: Record<string, unknown> = {}) => ({
	resource: 'identification',
	operation: 'downloadFiles',
	scanRef,
	...extra,
});

describe('Identification: Download Files (sandbox)', () => {
	test('downloads each photo into a field named by its kind, its file named by the scanRef and kind, typed by its bytes, without the credential', async () => {
		const scanRef = await ctx.finished('customer-files');
		const { items, error } = await ctx.run(downloadFiles(scanRef));
		expect(error).toBeUndefined();
		expectPaired(items);
		expect(items[0].json).toEqual({
			scanRef,
			files: [
				{ kind: 'FRONT', fileName: `${scanRef}-FRONT.png`, mimeType: 'image/png', fileSize: 74 },
				{ kind: 'BACK', fileName: `${scanRef}-BACK.png`, mimeType: 'image/png', fileSize: 74 },
				// The link says .png; the bytes are a JPEG.
				{ kind: 'FACE', fileName: `${scanRef}-FACE.jpg`, mimeType: 'image/jpeg', fileSize: 171 },
			],
			notAvailable: [],
		});
		expect(Object.keys(items[0].binary ?? {})).toEqual(['FRONT', 'BACK', 'FACE']);
		// Files saved together (a drive folder) still say whose they are.
		expect(items[0].binary?.FRONT.fileName).toBe(`${scanRef}-FRONT.png`);
		expect(binaryBytes(items[0], 'FACE').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
		const links = ctx.sb.requests.filter((r) => r.path.startsWith('/files/'));
		expect(links.map((r) => r.authScheme)).toEqual(['none', 'none', 'none']);
	});

	test('Include Videos: the kinds without a file are listed as not available', async () => {
		const scanRef = await ctx.finished('customer-videos');
		const { items } = await ctx.run(downloadFiles(scanRef, { options: { includeVideos: true } }));
		expect(items[0].json.notAvailable).toEqual(['FRONT_VIDEO', 'BACK_VIDEO', 'FACE_VIDEO']);
	});

	test('an expired link says so in words, and that running again gets fresh links', async () => {
		const scanRef = await ctx.finished('customer-expired');
		ctx.sb.faults.add({ method: 'GET', path: '/files/', status: 403 });
		const error = expectError(await ctx.run(downloadFiles(scanRef)), 'HTTP 403', 'expired');
		expect(error.description).toContain('Run the node again');
	});

	test('a photo deleted since the links were given: the 404 names the deletion', async () => {
		const scanRef = await ctx.finished('customer-deleted-photo');
		ctx.sb.faults.add({ method: 'GET', path: '/files/', status: 404 });
		const error = expectError(await ctx.run(downloadFiles(scanRef)), 'no longer at the link');
		expect(error.description).toContain('Delete Personal Data');
	});

	test('after Delete Personal Data there is nothing to download: no binary, every kind not available', async () => {
		const scanRef = await ctx.finished('customer-erased');
		await ctx.run({ resource: 'identification', operation: 'deletePersonalData', scanRef });
		const { items, error } = await ctx.run(downloadFiles(scanRef));
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ scanRef, files: [], notAvailable: ['FRONT', 'BACK', 'FACE'] });
		expect(items[0].binary).toBeUndefined();
	});

	test('Continue On Fail: an unknown verification becomes an error item, the others get their photos', async () => {
		const scanRef = await ctx.finished('customer-cof');
		const { items, error } = await ctx.run(downloadFiles('={{ $json.scanRef }}'), {
			continueOnFail: true,
			input: [{ json: { scanRef: 'unknown' } }, { json: { scanRef } }],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].json).toMatchObject({ httpCode: '404' });
		expect(Object.keys(items[1].binary ?? {})).toEqual(['FRONT', 'BACK', 'FACE']);
	});
});

/** A service whose files answer and file links each test sets. */
const service = {
	url: '',
	/** The answer of POST /api/v2/files, given the service's own address. */
	files: (_url: string): unknown => ({}),
	/** What GET /f/<name> answers. */
	serve: (_name: string, res: http.ServerResponse): void => void res.writeHead(404).end(),
	/** The Authorization header of each request for a file. */
	fileAuth: [] as Array<string | undefined>,
	/** How many times the files were asked for (POST /api/v2/files). */
	listed: 0,
};
let server: http.Server;
beforeAll(async () => {
	server = http.createServer((req, res) => {
		req.resume();
		if (req.url?.startsWith('/f/')) {
			service.fileAuth.push(req.headers.authorization);
			service.serve(req.url.slice(3), res);
			return;
		}
		service.listed++;
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(service.files(service.url)));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
	service.fileAuth.length = 0;
	service.listed = 0;
});

const PNG = Buffer.concat([
	Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
	Buffer.alloc(64),
]);

const runAgainstService = (extra: Record<string, unknown> = {}) =>
	runNode({
		node: 'identityVerification',
		parameters: downloadFiles('scan-1', extra),
		credentials: {
			identityVerificationApi: { apiKey: 'k', apiSecret: 'secret-value', baseUrl: service.url },
		},
	});

describe('Identification: Download Files treats the links as untrusted', () => {
	test('reads the webhook’s shape too (fileUrls, additionalStepPdfUrls), and a kind named __proto__ stays a field', async () => {
		// Parsed from text: a key __proto__ is then an own field, as the network may send it.
		service.files = (url) =>
			JSON.parse(
				`{"fileUrls": {"FRONT": "${url}/f/front", "__proto__": "${url}/f/front"}, "additionalStepPdfUrls": {"UTILITY BILL": "${url}/f/bill"}}`,
			);
		service.serve = (name, res) =>
			res.writeHead(200).end(name === 'bill' ? Buffer.from('%PDF-1.4\n%%EOF\n') : PNG);
		const { items, error } = await runAgainstService();
		expect(error).toBeUndefined();
		const kinds = (items[0].json.files as Array<{ kind: string; fileName: string }>).map((f) => [
			f.kind,
			f.fileName,
		]);
		expect(kinds).toEqual([
			['FRONT', 'scan-1-FRONT.png'],
			['__proto__', 'scan-1-__proto__.png'],
			['UTILITY BILL', 'scan-1-UTILITY_BILL.pdf'],
		]);
		expect(Object.keys(items[0].binary ?? {})).toEqual(['FRONT', '__proto__', 'UTILITY_BILL']);
		expect(Object.getPrototypeOf(items[0].binary)).toBe(Object.prototype);
		expect(service.fileAuth).toEqual([undefined, undefined, undefined]);
	});

	test('fields of the answer that are no links (a scanRef, a count) are no files', async () => {
		service.files = (url) => ({
			scanRef: 'scan-1',
			clientId: 'c-1',
			count: 2,
			FRONT: `${url}/f/front`,
		});
		service.serve = (_name, res) => res.writeHead(200).end(PNG);
		const { items, error } = await runAgainstService();
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ notAvailable: [] });
		expect(Object.keys(items[0].binary ?? {})).toEqual(['FRONT']);
	});

	test.each([
		['a private address', 'https://10.1.2.3/f/front', 'private network'],
		['plain http to another host', 'http://files.example.com/front.png', 'https://'],
		['this machine over https', 'https://127.0.0.1/front.png', 'private network'],
	])('a link to %s is not followed, and says why', async (_name, link, words) => {
		service.files = () => ({ FRONT: link });
		const error = expectError(await runAgainstService(), 'not followed', words);
		expect(error.description).toContain('https');
	});

	test('a link that redirects is not followed', async () => {
		service.files = (url) => ({ FRONT: `${url}/f/front` });
		service.serve = (_name, res) =>
			res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
		expectError(await runAgainstService(), 'redirect', 'not followed');
		expect(service.fileAuth).toEqual([undefined]);
	});

	test('a file over Max File Size is stopped, naming the bound', async () => {
		service.files = (url) => ({ FACE: `${url}/f/big` });
		service.serve = (_name, res) => {
			res.writeHead(200);
			res.write(PNG);
			res.end(Buffer.alloc(200 * 1024));
		};
		const error = expectError(
			await runAgainstService({ options: { maxFileSizeMb: 0.1 } }),
			'larger than the Max File Size',
		);
		expect(error.description).toContain('Raise Max File Size');
	});

	test('files that together pass Max Total Size: reading stops at it, the error names it, no further file is asked for', async () => {
		service.files = (url) => ({ FRONT: `${url}/f/1`, BACK: `${url}/f/2`, FACE: `${url}/f/3` });
		// 60 KB each: the first fits in 0.1 MB (102.4 KB), the second passes it.
		service.serve = (_name, res) =>
			res.writeHead(200).end(Buffer.concat([PNG, Buffer.alloc(60 * 1024 - PNG.length)]));
		const error = expectError(await runAgainstService({ options: { maxTotalSizeMb: 0.1 } }));
		expect(error.message).toBe(
			'The files of this verification are larger than the Max Total Size of 0.1 MB in all (1 of 3 files were downloaded)',
		);
		expect(error.description).toContain('Raise Max Total Size (MB)');
		expect(service.fileAuth).toHaveLength(2);
	});

	test('files within Max Total Size are all downloaded (500 MB unless set)', async () => {
		service.files = (url) => ({ FRONT: `${url}/f/1`, BACK: `${url}/f/2` });
		service.serve = (_name, res) =>
			res.writeHead(200).end(Buffer.concat([PNG, Buffer.alloc(40 * 1024)]));
		const { items, error } = await runAgainstService({ options: { maxTotalSizeMb: 0.1 } });
		expect(error).toBeUndefined();
		expect(Object.keys(items[0].binary ?? {})).toEqual(['FRONT', 'BACK']);
	});

	test.each([
		[0, 'must be above 0'],
		[-5, 'must be above 0'],
		['lots', 'must be a number of megabytes'],
	])('Max Total Size %p is refused naming the field, before any request', async (value, rule) => {
		const error = expectError(await runAgainstService({ options: { maxTotalSizeMb: value } }));
		expect(error.message).toBe(`Max Total Size (MB): ${rule}`);
		expect(service.listed).toBe(0);
	});

	test('once the run’s time budget (10 times the Timeout) is spent, no file of a later item is asked for', async () => {
		service.files = (url) => ({ FRONT: `${url}/f/slow`, BACK: `${url}/f/2` });
		// The first item's first file takes 5.2 s, within its Timeout of 10 s; the second item's
		// Timeout of 0.5 s gives the run 5 s (and its list 0.5 s to answer, also on a loaded machine).
		service.serve = (name, res) => {
			const send = () => res.writeHead(200).end(PNG);
			if (name === 'slow' && service.fileAuth.length === 1) setTimeout(send, 5200);
			else send();
		};
		const { items, error } = await runNode({
			node: 'identityVerification',
			parameters: downloadFiles('={{ $json.scanRef }}', {
				requestOptions: { timeout: '={{ $json.timeout }}' },
			}),
			credentials: {
				identityVerificationApi: { apiKey: 'k', apiSecret: 'secret-value', baseUrl: service.url },
			},
			input: [
				{ json: { scanRef: 'scan-1', timeout: 10 } },
				{ json: { scanRef: 'scan-2', timeout: 0.5 } },
			],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(Object.keys(items[0].binary ?? {})).toEqual(['FRONT', 'BACK']);
		expect(items[1].json.error).toBe(
			'The files of this verification were not all downloaded: the node has run for more than 5 seconds (0 of 2 files were downloaded)',
		);
		expect(items[1].json.description).toContain('Raise Timeout (Seconds) under Request Options');
		expect(service.listed).toBe(2);
		expect(service.fileAuth).toHaveLength(2);
	});

	test('a file of another type (an HTML page) is refused, naming what it was', async () => {
		service.files = (url) => ({ FRONT: `${url}/f/front` });
		service.serve = (_name, res) => res.writeHead(200).end('<html>Sign in</html>');
		expectError(await runAgainstService(), 'did not return a FRONT file', 'text file');
	});

	test('more links than anyone has photos are refused before any is followed', async () => {
		service.files = (url) =>
			Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`K${i}`, `${url}/f/${i}`]));
		expectError(await runAgainstService(), 'listed 51 files', 'at most 50');
		expect(service.fileAuth).toEqual([]);
	});
});
