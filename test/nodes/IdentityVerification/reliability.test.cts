/**
 * Reliability of List Transactions when the service behaves differently from the sandbox's defaults
 * (issue "nothing lost, nothing misrouted"): faults on single pages, `count` and `next` that
 * disagree, identical transactions on consecutive pages, links outside the Base URL's path, and
 * the Per Page option. Through n8n's engine, against the sandbox or a small scripted service.
 */
import type { INodeParameters } from 'n8n-workflow';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { transactionsRange } from '../../sandbox/data.cjs';
import { MAX_PAGES } from '../../../nodes/IdentityVerification/transport';
import {
	SCRIPTED_PATH as PATH,
	binaryItem,
	expectError,
	transaction as tx,
	transactions as range,
	useSandbox,
	useScriptedService,
} from './util.cjs';

const ctx = useSandbox();
const TX_PATH = '/bank/verifications/';

const listParams = (ids: { verificationId: string; accountId: string }, extra = {}) => ({
	resource: 'bank',
	operation: 'listTransactions',
	...ids,
	returnAll: true,
	...extra,
});

describe('Return All through faults on single pages (item 1)', () => {
	test('2,345 transactions through a 429 (Retry-After 1), a 503 and a reset connection on different pages: complete, once each, in order', async () => {
		const ids = ctx.sb.bank.seedAccount({ transactions: 2345 });
		const path = `/bank/verifications/${ids.verificationId}/`;
		ctx.sb.faults.add({ method: 'GET', path, query: { page: 7 }, status: 429, retryAfter: 1 });
		ctx.sb.faults.add({ method: 'GET', path, query: { page: 20 }, status: 503 });
		ctx.sb.faults.add({ method: 'GET', path, query: { page: 33 }, drop: true });

		const { items, error } = await ctx.run(listParams(ids, { options: { perPage: 50 } }));

		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(transactionsRange(ids.accountId, 0, 2345));
		const byPage = (page: string) =>
			ctx.sb.requests.filter((r) => r.path.startsWith(path) && r.query.page === page);
		expect(byPage('7').map((r) => r.status)).toEqual([429, 200]);
		expect(byPage('20').map((r) => r.status)).toEqual([503, 200]);
		expect(byPage('33').map((r) => r.status)).toEqual([0, 200]);
		// 47 pages, each answered 200 exactly once
		const served = ctx.sb.requests.filter((r) => r.path.startsWith(path) && r.status === 200);
		expect(served.map((r) => Number(r.query.page)).sort((a, b) => a - b)).toEqual(
			Array.from({ length: 47 }, (_, i) => i + 1),
		);
	});
});

describe('a 429 on one page still halves the parallel pages (item 1)', () => {
	test('after the 429 answer, no new page starts while more than one other is in flight (4 → 2)', async () => {
		const ids = ctx.sb.bank.seedAccount({ transactions: 1000 });
		const target = new URL(ctx.sb.url);
		// A loopback proxy that notes, for each request, how many others were in flight when it started.
		let inFlight = 0;
		let rateLimitedAt = -1;
		const starts: Array<{ page: string | null; others: number; after429: boolean }> = [];
		const proxy = http.createServer((req, res) => {
			const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page');
			starts.push({ page, others: inFlight, after429: rateLimitedAt >= 0 });
			inFlight++;
			const upstream = http.request(
				{
					host: target.hostname,
					port: target.port,
					method: req.method,
					path: req.url,
					headers: req.headers,
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
					answer.on('end', () => {
						inFlight--;
						if (answer.statusCode === 429 && rateLimitedAt < 0) rateLimitedAt = starts.length;
					});
				},
			);
			req.pipe(upstream);
		});
		await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
		try {
			// Pages 2, 4 and 5 are slow and page 3 answers 429 at once: the node lowers the limit
			// while those three are still in flight, so no other answer can race the 429.
			for (const page of [2, 4, 5])
				ctx.sb.faults.add({ method: 'GET', query: { page }, latencyMs: 300 });
			ctx.sb.faults.add({ method: 'GET', query: { page: 3 }, status: 429, retryAfter: 1 });
			const { items, error } = await ctx.run(
				listParams(ids, { options: { perPage: 50, maxParallelRequests: 4 } }),
				{ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
			);
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual(transactionsRange(ids.accountId, 0, 1000));
			const before = starts.filter((s) => !s.after429);
			const after = starts.filter((s) => s.after429 && s.page !== '3');
			expect(Math.max(...before.map((s) => s.others))).toBeGreaterThan(1);
			expect(after.length).toBeGreaterThan(0);
			expect(Math.max(...after.map((s) => s.others))).toBeLessThanOrEqual(1);
		} finally {
			await new Promise<void>((resolve) => {
				proxy.close(() => resolve());
				proxy.closeAllConnections();
			});
		}
	});
});

describe('Return All within the run’s time budget (10 times the Timeout)', () => {
	test('slow pages: no page is asked for once the run has taken 10 times the Timeout, and the error says how far it got', async () => {
		const ids = ctx.sb.bank.seedAccount({ transactions: 1000 });
		const path = `/bank/verifications/${ids.verificationId}/`;
		ctx.sb.faults.add({ method: 'GET', path, latencyMs: 100, times: Infinity });
		// 100 pages of at least 100 ms one after the other: 10 s; the budget at Timeout 0.5 s is 5 s.
		const { error } = await ctx.run(
			listParams(ids, {
				options: { perPage: 10, maxParallelRequests: 1 },
				requestOptions: { timeout: 0.5 },
			}),
		);
		expect(error?.message).toMatch(
			/^The transactions were not read to the end: the node has run for more than 5 seconds \((\d+) of 100 pages read\)$/,
		);
		expect(error?.description).toContain('Raise Timeout (Seconds) under Request Options');
		const read = Number(/\((\d+) of/.exec(error?.message ?? '')?.[1]);
		const asked = ctx.sb.requests.filter((r) => r.path.startsWith(path));
		expect(asked).toHaveLength(read);
		expect(read).toBeLessThan(100);
	});
});

describe('Per Page is sent only when set (Also)', () => {
	test('sends no perPage when the option is not set, and the one given when it is', async () => {
		const ids = ctx.sb.bank.seedAccount({ transactions: 120 });
		const { items } = await ctx.run(listParams(ids));
		expect(items).toHaveLength(120);
		const first = ctx.sb.requests.filter((r) => r.path.startsWith(TX_PATH));
		expect(first.every((r) => !('perPage' in r.query))).toBe(true);

		ctx.sb.resetLog();
		await ctx.run(listParams(ids, { options: { perPage: 40 } }));
		const second = ctx.sb.requests.filter((r) => r.path.startsWith(TX_PATH));
		expect(second).toHaveLength(3);
		expect(second.every((r) => r.query.perPage === '40')).toBe(true);
	});
});

// ------------------------------------------------------------------------------------------------
// A scripted service for page shapes the sandbox does not produce.

const service = useScriptedService();

const link = (page: number) => `${service.base}${PATH}?page=${page}&perPage=2`;

describe('`count` and `next` that disagree (item 3)', () => {
	test('keeps following `next` past the pages `count` announced, and says the count changed', async () => {
		// page 1 says 4 results (2 pages); the links go on to 6 results, and later pages say 6
		service.script = (page) =>
			page <= 3
				? {
						count: page === 1 ? 4 : 6,
						next: page < 3 ? link(page + 1) : null,
						results: range((page - 1) * 2, page * 2),
					}
				: undefined;
		const { items, error, run } = await service.list({ options: { perPage: 2 } });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual(range(0, 6));
		expect(service.hits).toHaveLength(3);
		const hints = run.data.resultData.runData['Identity Verification']?.[0]?.hints ?? [];
		expect(hints.map((h) => h.message).join(' ')).toMatch(
			/number of transactions changed while they were read \(4 at first\): 6 were returned/,
		);
	});

	test('gives no hint when `count` stays the same', async () => {
		service.script = (page) =>
			page <= 2
				? {
						count: 4,
						next: page < 2 ? link(page + 1) : null,
						results: range((page - 1) * 2, page * 2),
					}
				: undefined;
		const { items, run } = await service.list({ options: { perPage: 2 } });
		expect(items).toHaveLength(4);
		expect(run.data.resultData.runData['Identity Verification']?.[0]?.hints ?? []).toEqual([]);
	});

	test(`stops with a clear error after ${MAX_PAGES} pages when \`next\` never ends`, async () => {
		service.script = (page) => ({ next: link(page + 1), results: [tx(page)] });
		const result = await service.list({ options: { perPage: 1 } });
		expectError(result, `stopped after ${MAX_PAGES} pages`);
		expect(result.error?.description).toMatch(/Per Page|Limit/);
		expect(service.hits).toHaveLength(MAX_PAGES);
	}, 120_000);
});

describe('identical transactions on consecutive pages are not a loop (item 4)', () => {
	const same = tx(1);
	test('following `next` (no count): two equal purchases on pages 1 and 2, perPage 1, both returned', async () => {
		service.script = (page) =>
			page <= 3
				? { next: page < 3 ? link(page + 1) : null, results: [page <= 2 ? same : tx(3)] }
				: undefined;
		const { items, error } = await service.list({ options: { perPage: 1 } });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([same, same, tx(3)]);
	});

	test('by page number (count given): equal pages are all returned', async () => {
		service.script = (page) =>
			page <= 3 ? { count: 3, next: page < 3 ? link(page + 1) : null, results: [same] } : undefined;
		const { items, error } = await service.list({ options: { perPage: 1 } });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([same, same, same]);
	});

	test('a link back to a page already read is still a loop', async () => {
		service.script = (page) => ({ next: link(page === 3 ? 2 : page + 1), results: [tx(page)] });
		const result = await service.list({ options: { perPage: 1 } });
		expectError(result, /loop/i, 'page 2');
		expect(service.hits).toHaveLength(3);
	});
});

describe('`next` links must stay under the Base URL path (item 7)', () => {
	const gateway = () => `${service.base}/ivs`;
	const under = (prefix: string, page: number) => `${service.base}${prefix}${PATH}?page=${page}`;

	test('behind a gateway, a link to another path on the same host is refused before it is requested', async () => {
		service.script = (page) => ({ next: under('/other', page + 1), results: [tx(page)] });
		const result = await service.list({}, gateway());
		const error = expectError(result, 'Refused to follow a link', `${service.base}/other${PATH}`);
		expect(error.description).toMatch(/another path/);
		expect(service.hits).toEqual([`/ivs${PATH}?page=1`]);
	});

	test('a path that only starts with the same letters (/ivsx) is refused too', async () => {
		service.script = (page) => ({ next: under('/ivsx', page + 1), results: [tx(page)] });
		const result = await service.list({}, gateway());
		expectError(result, 'Refused to follow a link');
		expect(service.hits).toHaveLength(1);
	});

	test('links under the gateway path are followed', async () => {
		service.script = (page) =>
			page <= 2
				? { next: page < 2 ? under('/ivs', page + 1) : null, results: [tx(page)] }
				: undefined;
		const { items, error } = await service.list({}, gateway());
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([tx(1), tx(2)]);
		expect(service.hits).toEqual([`/ivs${PATH}?page=1`, `/ivs${PATH}?page=2`]);
	});
});

describe('ids that are only dots are refused before any request (item 6)', () => {
	const AML_CHECK = '3b1f8c2e-6d4a-4f0b-8e21-7a9c5d3e1f42';
	/** The run fails naming the field and the rule, and sends nothing. */
	const expectRefused = async (parameters: INodeParameters, ...texts: string[]) => {
		expectError(await ctx.run(parameters), ...texts);
		expect(ctx.sb.requests).toHaveLength(0);
	};
	test.each([
		[
			'Scan Reference',
			{ resource: 'identification', operation: 'requestInformation', scanRef: '..' },
		],
		[
			'Scan Reference',
			{ resource: 'identification', operation: 'requestInformation', scanRef: ' . ' },
		],
		[
			'Questionnaire ID',
			{
				resource: 'kyb',
				operation: 'deleteAnswers',
				companyId: 'company-001',
				questionnaireId: '..',
			},
		],
		[
			'Company ID',
			{ resource: 'kyb', operation: 'getAnswers', companyId: '...', questionnaireId: 'q' },
		],
		['Form ID', { resource: 'kyb', operation: 'submitForm', formId: '..' }],
		[
			'Verification ID',
			{ resource: 'bank', operation: 'listTransactions', verificationId: '..', accountId: 'a' },
		],
		[
			'Profile ID',
			{
				resource: 'aml',
				operation: 'downloadProfilePdf',
				checkId: AML_CHECK,
				profileId: '.',
				password: 'p',
			},
		],
	])('%s %j', async (field, parameters) => {
		await expectRefused(parameters, field, 'only dots');
	});

	test('the AML check id (a UUID in the contract) must be a UUID: ".." is refused as such', async () => {
		await expectRefused(
			{
				resource: 'aml',
				operation: 'downloadProfilePdf',
				checkId: '..',
				profileId: 'prof-001',
				password: 'report-password',
			},
			'Check ID',
			'must be a UUID',
		);
	});

	test('an id with dots inside is still accepted (only dot-only ids change the address)', async () => {
		const result = await ctx.run({
			resource: 'identification',
			operation: 'requestInformation',
			scanRef: 'a..b',
		});
		// sent, and the service answers 404 for an unknown scan reference
		expect(ctx.sb.requests.map((r) => r.path)).toEqual([
			'/kyc/identifications/a..b/request-information/',
		]);
		expect(result.error?.message).toMatch(/404/);
	});
});

describe('Proof of Address: the echoed document never reaches the output (item 5) and AVIF is refused (item 8)', () => {
	const PNG = Buffer.concat([
		Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
		Buffer.alloc(2048, 7),
	]);
	const poa = (options = {}) => ({
		resource: 'proofOfAddress',
		operation: 'createCheck',
		providedName: 'Jonas Jonaitis',
		providedAddress: 'Gedimino pr. 1, 01103 Vilnius, Lithuania',
		options,
	});

	test('the service echoes the file in base64: the output has its size instead, and the execution data no copy', async () => {
		const { items, error, run } = await ctx.run(poa(), {
			input: [binaryItem(PNG, 'bill.png', 'image/png')],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).not.toHaveProperty('file');
		expect(items[0].json.fileSizeBytes).toBe(PNG.length);
		const stored = JSON.stringify(run.data.resultData.runData['Identity Verification']);
		// the input item keeps its binary; the node's output holds no second copy of it
		expect(stored.split(PNG.toString('base64')).length - 1).toBe(0);
	});

	test('Max File Size refuses a larger file before it is uploaded, naming the file and both sizes', async () => {
		const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024, 1)]);
		const result = await ctx.run(poa({ maxFileSizeMb: 1 }), {
			input: [binaryItem(big, 'scan.png', 'image/png')],
		});
		expectError(result, 'Input Binary Field', '"scan.png"', '1.0 MB', 'Max File Size of 1 MB');
		expect(ctx.sb.requests).toHaveLength(0);
	});

	test('an AVIF image (ftyp avif, brands mif1 miaf) is refused, naming AVIF, before any request', async () => {
		const head = Buffer.alloc(8);
		head.writeUInt32BE(28, 0);
		head.write('ftyp', 4, 'latin1');
		const avif = Buffer.concat([
			head,
			Buffer.from('avif', 'latin1'),
			Buffer.alloc(4),
			Buffer.from('mif1miafavif', 'latin1'),
			Buffer.alloc(64, 5),
		]);
		const result = await ctx.run(poa(), { input: [binaryItem(avif, 'photo.heif', 'image/heif')] });
		expectError(result, 'Input Binary Field', 'AVIF');
		expect(ctx.sb.requests).toHaveLength(0);
	});
});
