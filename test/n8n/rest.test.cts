// The REST client and the webhook helpers of rest.cts against a small fake n8n on loopback that
// answers as n8n 2.40.7 and 1.123.81 do where it matters: the execution list joins two queries, and
// a published workflow's webhook answers 404 for a moment after start.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	RestClient,
	postWhenRegistered,
	waitForPostWebhook,
	type ExecutionSummary,
} from './rest.cjs';

interface Received {
	method: string;
	url: string;
	body: string;
}

let server: Server;
let baseUrl: string;
let received: Received[] = [];
let answer: (req: Received, res: ServerResponse) => void;

beforeAll(async () => {
	server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const got = {
				method: req.method ?? '',
				url: req.url ?? '',
				body: Buffer.concat(chunks).toString(),
			};
			received.push(got);
			answer(got, res);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	received = [];
});

const send = (res: ServerResponse, status: number, body: unknown) => {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
};

const execution = (id: string, status: string): ExecutionSummary => ({
	id,
	workflowId: 'wf1',
	status,
	mode: 'webhook',
});

describe('RestClient: executions', () => {
	// n8n's list without a status filter: the running ones, then the ended ones, read by two queries;
	// execution 2 ended between them, so it is in both.
	const listed = [
		execution('3', 'running'),
		execution('2', 'running'),
		execution('2', 'success'),
		execution('1', 'error'),
	];

	beforeEach(() => {
		answer = (req, res) =>
			req.url.startsWith('/rest/executions?')
				? send(res, 200, { data: { results: listed, count: 2, estimated: false } })
				: send(res, 404, {});
	});

	test('listExecutions lists an execution n8n returned twice once, with its ended status', async () => {
		const list = await new RestClient(baseUrl).listExecutions('wf1');
		expect(list.map((e) => [e.id, e.status])).toEqual([
			['3', 'running'],
			['2', 'success'],
			['1', 'error'],
		]);
		const query = new URL(received[0].url, baseUrl).searchParams;
		expect(JSON.parse(query.get('filter')!)).toEqual({ workflowId: 'wf1' });
		expect(query.get('limit')).toBe('100');
	});

	test('countExecutions counts each execution once, all or those a filter keeps', async () => {
		const rest = new RestClient(baseUrl);
		expect(await rest.countExecutions('wf1')).toBe(3);
		expect(await rest.countExecutions('wf1', (e) => e.status !== 'running')).toBe(2);
	});

	test('waitForExecutions counts an execution listed twice once', async () => {
		const rest = new RestClient(baseUrl);
		expect((await rest.waitForExecutions('wf1', 2)).map((e) => e.id)).toEqual(['2', '1']);
		await expect(rest.waitForExecutions('wf1', 3, 300)).rejects.toThrow(
			'expected 3 finished executions of workflow wf1, found 2 (of 3)',
		);
	});
});

describe('postWhenRegistered', () => {
	const init = { headers: { 'content-type': 'application/json' }, body: '{"customerId":"c1"}' };

	test('sends the same POST again while n8n answers 404, and returns the first other status', async () => {
		let notYet = 2;
		answer = (_req, res) => (notYet-- > 0 ? send(res, 404, {}) : send(res, 200, { ok: true }));
		expect(await postWhenRegistered(`${baseUrl}/webhook/sign-up`, init)).toBe(200);
		expect(received).toHaveLength(3);
		for (const req of received)
			expect(req).toEqual({ method: 'POST', url: '/webhook/sign-up', body: init.body });
	});

	test('any other answer ends it at once: a refusal is not retried', async () => {
		answer = (_req, res) => send(res, 401, {});
		expect(await postWhenRegistered(`${baseUrl}/webhook/sign-up`, init)).toBe(401);
		expect(received).toHaveLength(1);
	});

	test('gives up after its time with the URL in the error', async () => {
		answer = (_req, res) => send(res, 404, {});
		await expect(
			postWhenRegistered(`${baseUrl}/webhook/sign-up`, init, { timeoutMs: 300 }),
		).rejects.toThrow(`n8n did not register the webhook ${baseUrl}/webhook/sign-up`);
	});
});

describe('waitForPostWebhook (waitForSignup)', () => {
	/** n8n's answers on a POST-only Webhook path, registered after `after` requests. */
	function n8nWebhookPath(after: number) {
		let requests = 0;
		return (req: Received, res: ServerResponse) => {
			const registered = ++requests > after;
			// n8n answers a CORS preflight 204 on any path, registered or not.
			if (req.method === 'OPTIONS') return res.writeHead(204).end();
			if (registered && req.method === 'POST') return send(res, 200, { message: 'started' });
			send(res, 404, {
				code: 404,
				message: registered
					? 'This webhook is not registered for GET requests. Did you mean to make a POST request?'
					: `The requested webhook "${req.method} sign-up" is not registered.`,
			});
		};
	}

	test('returns once n8n names POST for the path, without sending a POST', async () => {
		answer = n8nWebhookPath(3);
		await waitForPostWebhook(`${baseUrl}/webhook/sign-up`);
		expect(received.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
	});

	test('does not take a path that names only other methods, nor one that serves GET', async () => {
		answer = (_req, res) =>
			send(res, 404, { message: 'Did you mean to make a GET or PUT request?' });
		await expect(
			waitForPostWebhook(`${baseUrl}/webhook/sign-up`, { timeoutMs: 300 }),
		).rejects.toThrow('n8n did not register the webhook POST');
		answer = (_req, res) => send(res, 200, {});
		await expect(waitForPostWebhook(`${baseUrl}/webhook/sign-up`)).rejects.toThrow(
			'answered 200: the path serves GET',
		);
	});
});
