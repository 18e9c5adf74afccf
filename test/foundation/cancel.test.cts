/**
 * Stopping an execution stops its requests: the request under way is aborted (n8n's cancel signal
 * is handed to the request helper), the wait before a retry ends, nothing is retried, and the error
 * says what happened. Requests go over real HTTP through n8n's own request client
 * (`OutboundHttp`, what `httpRequestWithAuthentication` sends with) to a server that never answers.
 */
import type { Readable } from 'node:stream';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { apiRequest } from '../../nodes/IdentityVerification/transport';
import type { ApiRequest } from '../../nodes/IdentityVerification/transport';
import { stubRequestContext } from '../harness/fixtures/request-context.cjs';
import type { RequestStub, StubAnswer } from '../harness/fixtures/request-context.cjs';

const CANCELLED = 'The execution was stopped, so the request to the service was cancelled';
/** How long after stopping the request may still run. */
const PROMPT_MS = 1000;
/** Longer than any answer here when cancelling works; a broken cancel is caught at this point. */
const GIVE_UP_MS = 4000;

let server: Server;
let baseUrl: string;
/** Requests the silent server received (it never answers them). */
const received: IncomingMessage[] = [];

beforeAll(async () => {
	server = createServer((req) => {
		received.push(req);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
	received.length = 0;
});

interface RequestClient {
	request(options: IHttpRequestOptions): Promise<unknown>;
}

/** n8n-core's request client, from n8n-core's own copy of @n8n/backend-network and @n8n/di. */
function n8nRequestClient(): RequestClient {
	const coreRequire = createRequire(require.resolve('n8n-core'));
	const { OutboundHttp } = coreRequire('@n8n/backend-network') as { OutboundHttp: object };
	const { Container } = coreRequire('@n8n/di') as typeof import('@n8n/di');
	return (Container.get(OutboundHttp as never) as { requests(): RequestClient }).requests();
}

/** An execution context whose requests go over real HTTP, with a cancel signal to stop it. */
function realRequests(controller: AbortController): RequestStub {
	const stub = stubRequestContext({
		answer: () => undefined,
		credential: () => ({ apiKey: 'key-1234', apiSecret: 'secret-1234', baseUrl }),
		signal: () => controller.signal,
	});
	(stub.context.helpers as unknown as Record<string, unknown>).httpRequestWithAuthentication =
		async (_name: string, options: IHttpRequestOptions) => {
			stub.sent.push(options);
			return await n8nRequestClient().request(options);
		};
	return stub;
}

/** An execution context whose requests get `answers` in turn, with a cancel signal to stop it. */
function stubbed(controller: AbortController, answers: StubAnswer[]): RequestStub {
	return stubRequestContext({
		answer: (_options, index) => answers[index],
		signal: () => controller.signal,
	});
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `ready()` holds (checked every 20 ms), or after GIVE_UP_MS. */
async function until(ready: () => boolean): Promise<void> {
	for (const start = Date.now(); !ready() && Date.now() - start < GIVE_UP_MS; ) await delay(20);
}

/**
 * Sends `req`, stops the execution once `underWay()` holds and 100 ms more have passed, and says
 * how the request ended and how long after the stop.
 */
async function stopDuring(
	stub: RequestStub,
	controller: AbortController,
	req: ApiRequest,
	underWay: () => boolean,
): Promise<{ error: Error & Record<string, unknown>; afterStopMs: number }> {
	const request = apiRequest.call(stub.context, 'apiKey', req).then(
		() => new Error('the request succeeded'),
		(error: Error) => error,
	);
	await until(underWay);
	await delay(100);
	const stoppedAt = Date.now();
	controller.abort();
	let giveUp: ReturnType<typeof setTimeout> | undefined;
	const ended = await Promise.race([
		request,
		new Promise<Error>((resolve) => {
			giveUp = setTimeout(() => resolve(new Error('the request was still running')), GIVE_UP_MS);
		}),
	]);
	clearTimeout(giveUp);
	return {
		error: ended as Error & Record<string, unknown>,
		afterStopMs: Date.now() - stoppedAt,
	};
}

/** The silent server has the request. */
const reachedServer = () => received.length > 0;

describe('a request under way when the execution is stopped', () => {
	test.each([
		['GET', { method: 'GET', path: '/bank/tokens/' }],
		['POST', { method: 'POST', path: '/bank/tokens/', body: { country: 'LT' } }],
	] as const)(
		'a %s to a service that never answers ends promptly, is not retried, and says why',
		async (_method, req) => {
			const controller = new AbortController();
			const stub = realRequests(controller);
			const { error, afterStopMs } = await stopDuring(
				stub,
				controller,
				{ ...req, maxRetries: 3 },
				reachedServer,
			);
			expect(error.message).toBe(CANCELLED);
			expect(afterStopMs).toBeLessThan(PROMPT_MS);
			expect(stub.sent).toHaveLength(1);
			expect(received).toHaveLength(1);
		},
	);

	test('a streamed download ends promptly too', async () => {
		const controller = new AbortController();
		const stub = realRequests(controller);
		const { error, afterStopMs } = await stopDuring(
			stub,
			controller,
			{
				method: 'POST',
				path: '/aml/checks/c/profiles/p/pdf/',
				body: { password: 'pw' },
				response: 'binary',
				read: async (body) => await (body as unknown as Readable).toArray(),
			},
			reachedServer,
		);
		expect(error.message).toBe(CANCELLED);
		expect(afterStopMs).toBeLessThan(PROMPT_MS);
	});

	test('a request of an execution already stopped is not sent at all', async () => {
		const controller = new AbortController();
		controller.abort();
		const stub = realRequests(controller);
		const error = await apiRequest
			.call(stub.context, 'apiKey', { method: 'GET', path: '/x/', timeoutMs: GIVE_UP_MS })
			.then(
				() => undefined,
				(e: Error) => e,
			);
		expect(error?.message).toBe(CANCELLED);
		await delay(100);
		expect(received).toHaveLength(0);
	});
});

describe('the wait before a retry when the execution is stopped', () => {
	test.each([
		['a 503 of a GET', 'GET', 503],
		['a 429 of a POST', 'POST', 429],
	] as const)(
		'%s asking to wait 60 s: the wait ends promptly and nothing more is sent',
		async (_what, method, statusCode) => {
			const controller = new AbortController();
			const stub = stubbed(controller, [
				{ statusCode, body: {}, headers: { 'retry-after': '60' } },
				{ statusCode: 200, body: {} },
			]);
			const { error, afterStopMs } = await stopDuring(
				stub,
				controller,
				{ method, path: '/bank/tokens/', maxRetries: 3 },
				() => stub.sent.length > 0,
			);
			expect(error.message).toBe(CANCELLED);
			expect(afterStopMs).toBeLessThan(PROMPT_MS);
			expect(stub.sent).toHaveLength(1);
		},
	);

	test('a dropped connection of a GET: the backoff ends and nothing more is sent', async () => {
		const controller = new AbortController();
		const dropped = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		const stub = stubRequestContext({
			answer: (_options, index) => (index === 0 ? dropped : { statusCode: 200, body: {} }),
			signal: () => controller.signal,
		});
		controller.abort();
		const error = await apiRequest
			.call(stub.context, 'apiKey', { method: 'GET', path: '/x/', maxRetries: 3 })
			.then(
				() => undefined,
				(e: Error) => e,
			);
		expect(error?.message).toBe(CANCELLED);
		expect(stub.sent).toHaveLength(1);
	});
});

describe('the cancel signal handed to the request helper', () => {
	test("every request carries the execution's cancel signal", async () => {
		const controller = new AbortController();
		const stub = stubbed(controller, [{ statusCode: 200, body: {} }]);
		await apiRequest.call(stub.context, 'apiKey', { method: 'GET', path: '/x/' });
		expect(stub.sent[0].abortSignal).toBe(controller.signal);
	});

	test('a context without one (loading options) sends none', async () => {
		const stub = stubRequestContext({
			answer: () => ({ statusCode: 200, body: {} }),
			signal: null,
		});
		await apiRequest.call(stub.context, 'apiKey', { method: 'GET', path: '/x/' });
		expect(Object.keys(stub.sent[0])).not.toContain('abortSignal');
	});
});
