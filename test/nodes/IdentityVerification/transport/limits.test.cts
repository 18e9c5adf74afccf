/**
 * The bounds on every answer, where the user sees them: Request Options → Timeout under each
 * operation, the run's time budget it sets (retries end there), the size bound of a JSON answer,
 * and a file's Max File Size announced by the answer's Content-Length. Through n8n's engine
 * against a scripted loopback service.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runNode } from '../../../harness/index.cjs';

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
