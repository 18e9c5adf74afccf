/**
 * The bounds on every answer, where the user sees them: Request Options → Timeout under each
 * operation, the run's time budget it sets (retries end there), the size bound of a JSON answer,
 * and a file's Max File Size announced by the answer's Content-Length. Through n8n's engine
 * against a scripted loopback service.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runNode } from '../../../harness/index.cjs';
import { Readable } from 'node:stream';
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { execute as downloadPdf } from '../../../../nodes/IdentityVerification/actions/amlCheck/downloadProfilePdf.operation';
import { execute as createCheck } from '../../../../nodes/IdentityVerification/actions/proofOfAddress/createCheck.operation';
import { ACTION_NODE } from '../../../harness/fixtures/action-node.cjs';

/** What the service does with a request (the test sets it). */
let answer: (res: http.ServerResponse) => void;
let base: string;
let server: http.Server;
const trickles = new Set<ReturnType<typeof setInterval>>();

beforeAll(async () => {
	server = http.createServer((req, res) => {
		req.resume();
		answer(res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
	for (const trickle of trickles) clearInterval(trickle);
	trickles.clear();
	server.closeAllConnections();
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

const getStatus = ({
	input,
	continueOnFail,
	...more
}: Record<string, unknown> &
	Pick<Parameters<typeof runNode>[0], 'input' | 'continueOnFail'> = {}) =>
	runNode({
		node: 'identityVerification',
		parameters: { resource: 'identification', operation: 'getStatus', scanRef: 'scan-1', ...more },
		credentials: {
			identityVerificationApi: { apiKey: 'k', apiSecret: 'secret-value', baseUrl: base },
		},
		input,
		continueOnFail,
	});

describe('Request Options → Timeout', () => {
	test('an answer that trickles in ends after the Timeout the user set, saying what to change', async () => {
		answer = (res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.write('{"status":');
			trickles.add(setInterval(() => res.write(' '), 200));
		};
		const started = Date.now();
		const { error } = await getStatus({ requestOptions: { timeout: 1 } });
		expect(error?.message).toBe(
			"The service's answer timed out after 4 attempts: it was still arriving after 1 second",
		);
		expect(error?.description).toMatch(/raise Timeout \(Seconds\) under Request Options/);
		expect(Date.now() - started).toBeLessThan(30_000);
	});
});

describe('the run’s time budget: 10 times the Timeout, for all items of the run', () => {
	test('a 429 is not waited out past the budget: the error says the retries were stopped', async () => {
		let requests = 0;
		answer = (res) => {
			requests++;
			res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' }).end('{}');
		};
		// Budget 5 s: the first wait of 3 s fits, the second would end past it. (A Timeout well
		// above a loopback answer's time, also on a loaded machine.)
		const { error } = await getStatus({ requestOptions: { timeout: 0.5 } });
		expect(requests).toBe(2);
		expect(error?.message).toBe(
			"The service's request limit was reached (HTTP 429): it still refused after 2 attempts; it was not tried again: the node has run for more than 5 seconds",
		);
	});

	test('the budget is the run’s, from its first request: a later item gets no retry once it is spent', async () => {
		let requests = 0;
		answer = (res) => {
			requests++;
			// Item 1: a slow refusal (not retried). Item 2: a server error, retried while time is left.
			const reply = () =>
				res.writeHead(requests === 1 ? 400 : 503, { 'content-type': 'application/json' }).end('{}');
			if (requests === 1) setTimeout(reply, 5100);
			else reply();
		};
		const { items, error } = await getStatus({
			scanRef: '={{ $json.scanRef }}',
			requestOptions: { timeout: '={{ $json.timeout }}' },
			input: [
				{ json: { scanRef: 'slow', timeout: 10 } },
				{ json: { scanRef: 'later', timeout: 0.5 } },
			],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(requests).toBe(2);
		expect(items[1].json.error).toBe(
			'The service had an internal problem (HTTP 503); it was not tried again: the node has run for more than 5 seconds',
		);
	});
});

describe('the size of an answer', () => {
	test('a JSON answer larger than 32 MB is refused, and not asked for again', async () => {
		let requests = 0;
		answer = (res) => {
			requests++;
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(`{"status":"APPROVED","padding":"${'x'.repeat(33 * 1024 * 1024)}"}`);
		};
		const { error } = await getStatus();
		expect(error?.message).toBe(
			"The service's answer is larger than 32 MB, the most this node reads",
		);
		expect(requests).toBe(1);
	});

	test('an answer that announces more than the bound is refused before it is read', async () => {
		answer = (res) => {
			res.writeHead(200, {
				'content-type': 'application/json',
				'content-length': String(40 * 1024 * 1024),
			});
			res.write('{');
		};
		const { error } = await getStatus();
		expect(error?.message).toBe(
			"The service's answer is larger than 32 MB, the most this node reads",
		);
	});
});

// Operations whose answer is read as it arrives end with a clear error when it stops coming
// (30 seconds without a byte): a stub of n8n's request helper and fake timers.
describe('an answer read as it arrives that stops coming', () => {
	const PNG = Buffer.concat([
		Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
		Buffer.alloc(64, 1),
	]);

	/** A stream that gives `first` and then nothing more. */
	function stalling(first: string): Readable {
		const stream = new Readable({ read() {} });
		stream.push(Buffer.from(first));
		return stream;
	}

	/** An execution context whose requests are answered 2xx with `body` (made anew for each). */
	function context(parameters: Record<string, unknown>, body: unknown | (() => unknown)) {
		const sent: IHttpRequestOptions[] = [];
		const stored: Buffer[] = [];
		const ctx = {
			getNode: () => ACTION_NODE,
			getNodeParameter: (name: string, _i: number, fallback?: unknown) =>
				name in parameters ? parameters[name] : fallback,
			getCredentials: async () => ({
				apiKey: 'key-1234',
				apiSecret: 'secret-1234',
				baseUrl: 'https://ivs.example.com',
			}),
			getExecutionCancelSignal: () => new AbortController().signal,
			getInputData: () => [
				{ json: {}, binary: { data: { data: PNG.toString('base64'), mimeType: 'image/png' } } },
			],
			helpers: {
				assertBinaryData: () => ({ data: PNG.toString('base64'), mimeType: 'image/png' }),
				httpRequestWithAuthentication: async (_name: string, options: IHttpRequestOptions) => {
					sent.push(options);
					return { statusCode: 200, headers: {}, body: typeof body === 'function' ? body() : body };
				},
				prepareBinaryData: async (data: Buffer | AsyncIterable<Buffer>) => {
					const chunks: Buffer[] = [];
					if (Buffer.isBuffer(data)) chunks.push(data);
					else for await (const chunk of data) chunks.push(chunk);
					stored.push(Buffer.concat(chunks));
					return { data: '', mimeType: 'application/pdf', bytes: stored[0].length };
				},
			},
		};
		return { context: ctx as unknown as IExecuteFunctions, sent, stored };
	}

	/** Runs `operation` and advances the fake clock by `ms`: how it ended by then. */
	async function endedWithin(run: Promise<unknown>, ms: number) {
		let ended: { error?: Error & { description?: string } } | undefined;
		void run.then(
			() => (ended = {}),
			(error: Error) => (ended = { error }),
		);
		await jest.advanceTimersByTimeAsync(ms);
		return ended;
	}

	beforeEach(() => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	});
	afterEach(() => {
		jest.useRealTimers();
	});

	describe('AML: Download Profile PDF', () => {
		const parameters = {
			checkId: '0b0c2f4e-7f0e-4a8e-9f4e-3c2b1a0f9e8d',
			profileId: 'ofac-123',
			password: 'pdf-password',
			binaryPropertyName: 'data',
		};

		test.each([
			['after the signature', '%PDF-1.4\n'],
			['before the signature is whole', '%PD'],
		])(
			'a PDF that stops coming %s: each attempt ends after 30 seconds without a byte, asked 4 times (making it changes nothing), then an error naming the download',
			async (_when, first) => {
				const { context: ctx, sent } = context(parameters, () => stalling(first));
				const run = downloadPdf.call(ctx, 0);
				expect(await endedWithin(run, 29_000)).toBeUndefined();
				expect(sent).toHaveLength(1);
				const ended = await endedWithin(run, 4 * 31_000);
				expect(sent).toHaveLength(4);
				expect(ended?.error?.message).toBe(
					"The service's answer timed out after 4 attempts: nothing arrived for 30 seconds",
				);
				expect(ended?.error?.description).toContain(
					'This was the answer to POST https://ivs.example.com/aml/checks/',
				);
				expect(ended?.error?.description).not.toMatch(/not repeated/);
			},
		);

		test('a PDF whose signature comes in pieces is still recognised', async () => {
			const pieces = ['%', 'P', 'DF', '-1.4\n', 'rest'].map((piece) => Buffer.from(piece));
			const answer = Readable.from(pieces, { objectMode: false });
			const { context: ctx, stored } = context(parameters, answer);
			const ended = await endedWithin(downloadPdf.call(ctx, 0), 0);
			expect(ended).toEqual({});
			expect(String(stored[0])).toBe('%PDF-1.4\nrest');
		});
	});

	describe('Proof of Address: Create Check', () => {
		const parameters = {
			binaryPropertyName: 'data',
			providedName: 'Jonas Jonaitis',
			providedAddress: 'Gedimino pr. 1, 01103 Vilnius, Lithuania',
		};

		test('an answer that stops coming fails after 30 seconds, saying the check may have been made', async () => {
			const { context: ctx, sent } = context(parameters, stalling('{"id":"poa-1","file":"iVBOR'));
			const run = createCheck.call(ctx, 0);
			expect(await endedWithin(run, 29_000)).toBeUndefined();
			const ended = await endedWithin(run, 2_000);
			expect(ended?.error?.message).toBe(
				"The service's answer timed out: nothing arrived for 30 seconds",
			);
			expect(ended?.error?.description).toMatch(
				/not repeated, because the service may already have processed it: check in the dashboard/,
			);
			expect(sent).toHaveLength(1);
		});
	});
});
