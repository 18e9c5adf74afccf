// End-to-end reliability (issue "nothing lost, nothing misrouted"), in the pinned real n8n with the
// sandbox's fault injection: Return All through a 429, a 503 and a dropped connection on different
// pages gives every transaction once, in order; the proof-of-address output carries no copy of the
// document; the credential test fails against a server that is not the service and refuses plain
// http:// to another machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { transactionsRange } from '../sandbox/data.cjs';
import { nodeOutput } from '../n8n/runtime.cjs';
import { startStack, type Stack } from '../n8n/stack.cjs';
import {
	expectSuccess,
	PNG_BASE64,
	poaCheck,
	runAction,
	testApiCredential,
	withPng,
} from './helpers.cjs';
import { ACTION } from './workflows.cjs';

let stack: Stack;
let htmlServer: Server;
let htmlUrl: string;

beforeAll(async () => {
	stack = await startStack({ log: (m) => process.stderr.write(`[e2e] ${m}\n`) });
	// A web server that is not the service (a mistyped Base URL): 404 with an HTML page.
	htmlServer = createServer((_req, res) => {
		res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
	});
	await new Promise<void>((resolve) => htmlServer.listen(0, '127.0.0.1', resolve));
	htmlUrl = `http://127.0.0.1:${(htmlServer.address() as AddressInfo).port}`;
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	await new Promise<void>((resolve) => htmlServer?.close(() => resolve()));
}, 60_000);

describe('List Transactions, Return All, in n8n', () => {
	test('2,345 transactions through a 429 (Retry-After 1), a 503 and a reset connection on different pages: every one once, in order', async () => {
		const sb = stack.sandbox;
		const ids = sb.bank.seedAccount({ transactions: 2345 });
		const path = `/bank/verifications/${ids.verificationId}/`;
		sb.resetLog();
		sb.faults.add({ method: 'GET', path, query: { page: 5 }, status: 429, retryAfter: 1 });
		sb.faults.add({ method: 'GET', path, query: { page: 18 }, status: 503 });
		// n8n 1.x hands a dropped connection to the node without its cause (the code only in
		// `httpCode`): the transport reads it there too, so the page is retried on both lines.
		sb.faults.add({ method: 'GET', path, query: { page: 40 }, drop: true });

		const result = await runAction(stack, 'Return All through faults', {
			resource: 'bank',
			operation: 'listTransactions',
			...ids,
			returnAll: true,
			options: { perPage: 50 },
		});

		expectSuccess(result);
		const items = nodeOutput(result, ACTION);
		expect(items.map((i) => i.json)).toEqual(transactionsRange(ids.accountId, 0, 2345));
		const statuses = (page: string) =>
			sb.requests
				.filter((r) => r.path.startsWith(path) && r.query.page === page)
				.map((r) => r.status);
		expect(statuses('5')).toEqual([429, 200]);
		expect(statuses('18')).toEqual([503, 200]);
		expect(statuses('40')).toEqual([0, 200]);
		expect(sb.requests.filter((r) => r.path.startsWith(path) && r.status === 200)).toHaveLength(47);
	});
});

describe('Proof of Address in n8n', () => {
	test('the output has the document size, never the echoed document', async () => {
		const result = await runAction(
			stack,
			'POA check without the echoed file',
			poaCheck(),
			withPng(),
		);
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		expect(item.json).not.toHaveProperty('file');
		expect(item.json.fileSizeBytes).toBe(Buffer.from(PNG_BASE64, 'base64').length);
		expect(item.json.overallStatus).toBe('MATCH');
	});
});

describe("credential tests through n8n's API", () => {
	test('a server that is not the service (404 HTML) fails the test, pointing at the Base URL', async () => {
		const result = await testApiCredential(stack, { baseUrl: htmlUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/not like the identity verification service/);
	});

	test('plain http:// to another machine is refused, saying why', async () => {
		const result = await testApiCredential(stack, {
			apiKey: 'k',
			apiSecret: 's',
			baseUrl: 'http://ivs.example.com',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/unencrypted/);
	});
});
