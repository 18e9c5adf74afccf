/**
 * The read deadline: an answer whose body stops (headers and `{"results":[`, then nothing) or
 * trickles (a byte now and then) ends with an error naming the request, how long, and what to do,
 * for every kind of answer (read whole by the transport, or streamed to the node), and is retried
 * where reads are retried. Over real HTTP through n8n's engine, against a scripted service; the
 * defaults (30 s without a byte, 2 minutes in all for JSON, a minimum rate for a file) with fake
 * timers on a stub of n8n's helper.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

import type { INodeParameters } from 'n8n-workflow';

import { apiRequest } from '../../nodes/IdentityVerification/transport';
import type { ApiRequest } from '../../nodes/IdentityVerification/transport';
import { registerNodeType, runNode } from '../harness/index.cjs';
import { stubRequestContext } from '../harness/fixtures/request-context.cjs';
import { TRANSPORT_PROBE, TransportProbe } from '../harness/fixtures/transport-probe.node.cjs';

const PATH = '/bank/verifications/v/accounts/a/transactions/';

/** How the scripted service answers a request: given the request's number (from 1). */
type Script = (res: ServerResponse, request: number, req: IncomingMessage) => void;

let script: Script;
let requests = 0;
let server: Server;
let baseUrl: string;
/** Intervals of trickling answers, stopped after each test. */
const trickles = new Set<ReturnType<typeof setInterval>>();

beforeAll(async () => {
	registerNodeType(TRANSPORT_PROBE, new TransportProbe());
	server = createServer((req, res) => {
		requests++;
		req.resume();
		script(res, requests, req);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
	requests = 0;
});
afterEach(() => {
	for (const trickle of trickles) clearInterval(trickle);
	trickles.clear();
	server.closeAllConnections();
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Headers and the start of a list, then nothing: what the real service was seen to do. */
const stall =
	(status = 200, start = '{"results":['): Script =>
	(res) => {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.write(start);
	};

/** One byte every `everyMs`, never ending. */
const trickle =
	(everyMs: number): Script =>
	(res) => {
		res.writeHead(200, { 'content-type': 'application/pdf' });
		res.write('%PDF-');
		trickles.add(setInterval(() => res.write(' '), everyMs));
	};

const answer =
	(body: unknown): Script =>
	(res) => {
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	};

const probe = (parameters: INodeParameters) =>
	runNode({
		node: TRANSPORT_PROBE,
		parameters: { path: PATH, ...parameters },
		credentials: {
			identityVerificationApi: { apiKey: 'key-1234', apiSecret: 'secret-1234', baseUrl },
		},
	});

/** Runs the probe and says how long it took. */
async function timed(parameters: INodeParameters) {
	const started = Date.now();
	const result = await probe(parameters);
	return { ...result, ms: Date.now() - started };
}

describe('an answer that stops after its headers and a few bytes', () => {
	test('a GET read whole by the transport: retried, then an error naming the request, how long and what to do', async () => {
		script = stall();
		const { error, ms } = await timed({ readIdleMs: 300, maxRetries: 1 });
		expect(requests).toBe(2);
		expect(error?.message).toBe(
			"The service's answer timed out after 2 attempts: nothing arrived for 300 ms",
		);
		expect(error?.description).toContain(`This was the answer to GET ${baseUrl}${PATH}.`);
		expect(error?.description).toMatch(/try again later/);
		expect(ms).toBeLessThan(3000);
	});

	test('a GET that stalls once is asked again and succeeds', async () => {
		script = (res, request, req) =>
			request === 1 ? stall()(res, request, req) : answer({ results: [1] })(res, request, req);
		const { items, error } = await probe({ readIdleMs: 300 });
		expect(error).toBeUndefined();
		expect(items[0].json.body).toEqual({ results: [1] });
		expect(requests).toBe(2);
	});

	test('a POST is not repeated (it may have been processed), and the error says so', async () => {
		script = stall(201, '{"id":');
		const { error } = await probe({ method: 'POST', body: '{"a":1}', readIdleMs: 300 });
		expect(requests).toBe(1);
		expect(error?.message).toBe("The service's answer timed out: nothing arrived for 300 ms");
		expect(error?.description).toMatch(/not repeated, because the service may already/);
	});

	test('a streamed answer (read by the request’s own reader as it arrives): retried the same way, the same error', async () => {
		script = stall();
		const { error, ms } = await timed({ response: 'stream', readIdleMs: 300, maxRetries: 1 });
		expect(error?.message).toBe(
			"The service's answer timed out after 2 attempts: nothing arrived for 300 ms",
		);
		expect(error?.description).toContain(`GET ${baseUrl}${PATH}`);
		// the transport owns a streamed answer: its reader's stall is retried like any other
		expect(requests).toBe(2);
		expect(ms).toBeLessThan(3000);
	});

	test('an error answer that stops: the status is still reported', async () => {
		script = stall(404, '{"detail":"Not');
		const { error, ms } = await timed({ readIdleMs: 300 });
		expect(error?.httpCode).toBe('404');
		expect(error?.message).toMatch(/Not found \(HTTP 404\)/);
		expect(ms).toBeLessThan(3000);
	});
});

describe('an answer that trickles in, a byte now and then', () => {
	test.each(['binary', 'stream', 'json'])(
		'%s: the whole answer may take only so long',
		async (response) => {
			script = trickle(50);
			const { error, ms } = await timed({
				response,
				readIdleMs: 1000,
				readTotalMs: 600,
				maxRetries: 0,
			});
			expect(error?.message).toBe(
				"The service's answer timed out: it was still arriving after 600 ms",
			);
			expect(ms).toBeLessThan(3000);
		},
	);
});

describe('the run’s time budget (10 times the Timeout) ends the retries', () => {
	/** Headers and the start of a list, then a space every 50 ms: never a whole answer. */
	const tricklingJson: Script = (res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.write('{"results":[');
		trickles.add(setInterval(() => res.write(' '), 50));
	};

	test('a trickling JSON answer is not tried again once the run has taken 10 times the Timeout', async () => {
		script = tricklingJson;
		// Timeout 0.2 s: each attempt ends after 0.2 s, the run's budget after 2 s. The 10 retries
		// asked for would wait about 30 s between them.
		const { error } = await probe({ requestOptions: { timeout: 0.2 }, maxRetries: 10 });
		expect(error?.message).toMatch(
			/^The service's answer timed out after \d+ attempts: it was still arriving after 200 ms; it was not tried again: the node has run for more than 2 seconds$/,
		);
		expect(error?.description).toMatch(
			/^A run of the node, all its items together, may take 10 times its Timeout\. Raise Timeout \(Seconds\) under Request Options in the node, or have each run do less \(fewer items, Limit instead of Return All\)\. This was the answer to GET /,
		);
		expect(requests).toBeGreaterThanOrEqual(2);
		expect(requests).toBeLessThanOrEqual(10);
	});

	test('with a Timeout long enough, the same retries all happen', async () => {
		script = (res, request, req) =>
			request <= 2 ? tricklingJson(res, request, req) : answer({ results: [1] })(res, request, req);
		const { error, items } = await probe({ readTotalMs: 200, maxRetries: 10 });
		expect(error).toBeUndefined();
		expect(items[0].json.body).toEqual({ results: [1] });
		expect(requests).toBe(3);
	});
});

describe('the defaults and what a read leaves behind (stub of n8n’s helper, fake timers)', () => {
	/** A stream that gives `first`, then whatever `more` pushes. */
	function openStream(first: string): Readable {
		const stream = new Readable({ read() {} });
		stream.push(Buffer.from(first));
		return stream;
	}

	const request = (body: Readable, more: Partial<ApiRequest> = {}) => {
		const stub = stubRequestContext({ answer: () => ({ statusCode: 200, body }) });
		return apiRequest
			.call(stub.context, 'apiKey', { method: 'GET', path: PATH, maxRetries: 0, ...more })
			.then(
				() => undefined,
				(error: Error) => error,
			);
	};

	beforeEach(() => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	});
	afterEach(() => {
		jest.useRealTimers();
	});

	test('nothing for 30 seconds ends the read; 29 seconds do not', async () => {
		const ended = request(openStream('{"results":['));
		let error: Error | undefined;
		void ended.then((e) => (error = e));
		await jest.advanceTimersByTimeAsync(29_000);
		expect(error).toBeUndefined();
		await jest.advanceTimersByTimeAsync(2_000);
		expect(error?.message).toBe("The service's answer timed out: nothing arrived for 30 seconds");
	});

	test('a byte every 20 seconds: a JSON answer ends after 2 minutes in all', async () => {
		const stream = openStream('{"results":[');
		const ended = request(stream);
		let error: Error | undefined;
		void ended.then((e) => (error = e));
		for (let second = 20; second < 120; second += 20) {
			await jest.advanceTimersByTimeAsync(20_000);
			stream.push(Buffer.from(' '));
		}
		expect(error).toBeUndefined();
		await jest.advanceTimersByTimeAsync(21_000);
		expect(error?.message).toBe(
			"The service's answer timed out: it was still arriving after 2 minutes",
		);
		expect((error as Error & { description: string }).description).toMatch(
			/raise Timeout \(Seconds\) under Request Options/,
		);
	});

	test('a file is held to a minimum rate instead: each 64 KB that arrives gives it a second more', async () => {
		const stream = openStream('%PDF-');
		const ended = request(stream, { response: 'binary' });
		let error: Error | undefined;
		void ended.then((e) => (error = e));
		// 640 KB in the first 2 minutes: 10 seconds more than the Timeout
		for (let second = 0; second < 120; second += 10) {
			stream.push(Buffer.alloc(54 * 1024));
			await jest.advanceTimersByTimeAsync(10_000);
		}
		await jest.advanceTimersByTimeAsync(9_000);
		expect(error).toBeUndefined();
		await jest.advanceTimersByTimeAsync(2_000);
		expect(error?.message).toMatch(/^The service's answer timed out: it was still arriving after/);
	});
});

describe('no timer is left behind', () => {
	const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

	test('the watchdog runs while a body is read and stops as soon as the read ends', async () => {
		const stream = new Readable({ read() {} });
		stream.push(Buffer.from('{"results":'));
		const stub = stubRequestContext({ answer: () => ({ statusCode: 200, body: stream }) });
		const before = timers();
		const read = apiRequest.call(stub.context, 'apiKey', { method: 'GET', path: PATH });
		await new Promise((resolve) => setImmediate(resolve));
		expect(timers()).toBe(before + 1);
		stream.push(Buffer.from('[1]}'));
		stream.push(null);
		expect((await read).body).toEqual({ results: [1] });
		await new Promise((resolve) => setImmediate(resolve));
		expect(timers()).toBe(before);
	});

	test('a streamed answer: the watchdog stops when the reader has read it, or let it go', async () => {
		for (const finish of ['read', 'destroy', 'leave'] as const) {
			const stream = Readable.from([Buffer.from('%PDF-1.7')]);
			const stub = stubRequestContext({ answer: () => ({ statusCode: 200, body: stream }) });
			const before = timers();
			await apiRequest.call(stub.context, 'apiKey', {
				method: 'GET',
				path: PATH,
				read: async (body) => {
					if (finish === 'read') await (body as unknown as Readable).toArray();
					if (finish === 'destroy') body.destroy();
				},
			});
			await new Promise((resolve) => setImmediate(resolve));
			expect(timers()).toBe(before);
		}
	});
});
