/**
 * apiRequest with a stub of n8n's request helper: the request options it builds for each kind of
 * answer, how it reads each kind of body, error answers of a streamed download, the Base URL read
 * from the credential, links under a gateway path, and a cancelled execution not being retried.
 * The engine tests (transport.test.cts) show the same over real HTTP; these pin every branch.
 */
import { Readable } from 'node:stream';

import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { apiRequest } from '../../nodes/IdentityVerification/transport';
import type { ApiRequest } from '../../nodes/IdentityVerification/transport';
import { ACTION_NODE } from '../harness/fixtures/action-node.cjs';

interface Answer {
	statusCode: number;
	body?: unknown;
	headers?: IDataObject;
}

/** A context whose requests get `answers` in turn; `sent` records the options of each request. */
function stub(opts: { answers: Answer[]; baseUrl?: unknown; cancelled?: boolean }): {
	context: IExecuteFunctions;
	sent: IHttpRequestOptions[];
} {
	const sent: IHttpRequestOptions[] = [];
	const context = {
		getNode: () => ACTION_NODE,
		getCredentials: async () => ({
			apiKey: 'key',
			apiSecret: 'secret',
			baseUrl: 'baseUrl' in opts ? opts.baseUrl : 'https://ivs.example.com',
		}),
		getExecutionCancelSignal: () => ({ aborted: opts.cancelled === true }),
		helpers: {
			httpRequestWithAuthentication: async (_name: string, options: IHttpRequestOptions) => {
				sent.push(options);
				const answer = opts.answers[sent.length - 1];
				if (!answer) throw new Error('no more answers');
				return { headers: {}, ...answer };
			},
		},
	} as unknown as IExecuteFunctions;
	return { context, sent };
}

const GET = (more: Partial<ApiRequest> = {}): ApiRequest => ({
	method: 'GET',
	path: '/bank/tokens/',
	maxRetries: 0,
	...more,
});

describe('the request options per kind of answer', () => {
	test('JSON: Accept JSON, parsed by n8n, no query when none is given', async () => {
		const s = stub({ answers: [{ statusCode: 200, body: { a: 1 } }] });
		const res = await apiRequest.call(s.context, 'apiKey', GET({ qs: {} }));
		expect(res.body).toEqual({ a: 1 });
		expect(s.sent[0]).toMatchObject({
			method: 'GET',
			url: 'https://ivs.example.com/bank/tokens/',
			headers: { Accept: 'application/json' },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		});
		expect(Object.keys(s.sent[0])).not.toContain('qs');
		expect(Object.keys(s.sent[0])).not.toContain('encoding');
	});

	test('a query is sent as given', async () => {
		const s = stub({ answers: [{ statusCode: 200, body: {} }] });
		await apiRequest.call(s.context, 'apiKey', GET({ qs: { page: 2 } }));
		expect(s.sent[0].qs).toEqual({ page: 2 });
	});

	test.each([
		['binary', 'arraybuffer'],
		['stream', 'stream'],
	] as const)('%s: Accept a file, not parsed, read as %s', async (response, encoding) => {
		const s = stub({ answers: [{ statusCode: 200, body: Buffer.from('%PDF') }] });
		await apiRequest.call(s.context, 'apiKey', GET({ response }));
		expect(s.sent[0]).toMatchObject({
			headers: { Accept: 'application/pdf, application/octet-stream, */*' },
			json: false,
			encoding,
		});
	});

	test.each([
		['a Buffer', Buffer.from('%PDF-1')],
		['an ArrayBuffer', new Uint8Array(Buffer.from('%PDF-1')).buffer],
		['a Uint8Array', new Uint8Array(Buffer.from('%PDF-1'))],
		['text', '%PDF-1'],
	])('binary: %s answer becomes the same bytes', async (_what, body) => {
		const s = stub({ answers: [{ statusCode: 200, body }] });
		const res = await apiRequest.call(s.context, 'apiKey', GET({ response: 'binary' }));
		expect(Buffer.isBuffer(res.body)).toBe(true);
		expect((res.body as Buffer).toString('utf8')).toBe('%PDF-1');
	});

	test('binary: an answer without a body is no bytes', async () => {
		const s = stub({ answers: [{ statusCode: 200, body: undefined }] });
		const res = await apiRequest.call(s.context, 'apiKey', GET({ response: 'binary' }));
		expect(res.body).toEqual(Buffer.alloc(0));
	});

	test('none: the body is left out; stream: handed over untouched', async () => {
		const none = stub({ answers: [{ statusCode: 204, body: 'ignored' }] });
		expect((await apiRequest.call(none.context, 'apiKey', GET({ response: 'none' }))).body).toBe(
			undefined,
		);
		const stream = Readable.from([Buffer.from('%PDF')]);
		const streamed = stub({ answers: [{ statusCode: 200, body: stream }] });
		const res = await apiRequest.call(streamed.context, 'apiKey', GET({ response: 'stream' }));
		expect(res.body).toBe(stream);
	});
});

describe('an error answer of a streamed download', () => {
	test('at most 64 KB of it is read for the message, and the stream is closed', async () => {
		let read = 0;
		const chunks = Array.from({ length: 10 }, () => Buffer.alloc(16 * 1024, 0x61));
		const stream = Readable.from(
			(function* () {
				for (const chunk of chunks) {
					read += chunk.length;
					yield chunk;
				}
			})(),
		);
		const s = stub({ answers: [{ statusCode: 404, body: stream }] });
		await expect(
			apiRequest.call(s.context, 'apiKey', GET({ response: 'stream' })),
		).rejects.toThrow();
		expect(read).toBe(64 * 1024);
		expect(stream.destroyed).toBe(true);
	});

	test("the service's message in a small error answer is read whole", async () => {
		const stream = Readable.from([Buffer.from('{"detail":'), Buffer.from('"No such report"}')]);
		const s = stub({ answers: [{ statusCode: 404, body: stream }] });
		const error = (await apiRequest.call(s.context, 'apiKey', GET({ response: 'stream' })).then(
			() => undefined,
			(e: unknown) => e,
		)) as { message: string; description?: string };
		expect(`${error.message} ${error.description}`).toMatch(/No such report/);
	});

	test('an error answer without a readable body still gives the status', async () => {
		const s = stub({ answers: [{ statusCode: 404, body: undefined }] });
		await expect(
			apiRequest.call(s.context, 'apiKey', GET({ response: 'stream' })),
		).rejects.toMatchObject({ httpCode: '404' });
	});
});

describe('the Base URL read from the credential', () => {
	test.each([
		[
			'with spaces and slashes around',
			'  https://ivs.example.com/ivs//  ',
			'https://ivs.example.com/ivs/bank/tokens/',
		],
		['empty: the default address', '', 'https://ivs.example.com/bank/tokens/'],
		['not text: the default address', 42, 'https://ivs.example.com/bank/tokens/'],
	])('%s', async (_what, baseUrl, url) => {
		const s = stub({ answers: [{ statusCode: 200, body: {} }], baseUrl });
		await apiRequest.call(s.context, 'apiKey', GET());
		expect(s.sent[0].url).toBe(url);
	});
});

describe('links under the Base URL', () => {
	test('a link to the gateway path itself, and a path-only link, are followed on the same origin', async () => {
		const s = stub({
			answers: [
				{ statusCode: 200, body: {} },
				{ statusCode: 200, body: {} },
			],
			baseUrl: 'https://gw.example.com/ivs',
		});
		await apiRequest.call(s.context, 'apiKey', {
			method: 'GET',
			url: 'https://gw.example.com/ivs',
		});
		await apiRequest.call(s.context, 'apiKey', { method: 'GET', url: '/ivs/bank/tokens/?page=2' });
		expect(s.sent.map((o) => o.url)).toEqual([
			'https://gw.example.com/ivs',
			'https://gw.example.com/ivs/bank/tokens/?page=2',
		]);
	});

	test('without a gateway path every link on the origin is under it', async () => {
		const s = stub({ answers: [{ statusCode: 200, body: {} }] });
		await apiRequest.call(s.context, 'apiKey', {
			method: 'GET',
			url: 'https://ivs.example.com/anything/?page=2',
		});
		expect(s.sent).toHaveLength(1);
	});
});

describe('a cancelled execution', () => {
	test('a 503 or a dropped connection is not retried once the execution is cancelled', async () => {
		const status = stub({ answers: [{ statusCode: 503, body: {} }], cancelled: true });
		await expect(
			apiRequest.call(status.context, 'apiKey', GET({ maxRetries: 3 })),
		).rejects.toMatchObject({ httpCode: '503' });
		expect(status.sent).toHaveLength(1);
	});

	test('without cancellation the same 503 is retried', async () => {
		const s = stub({
			answers: [
				{ statusCode: 503, body: {} },
				{ statusCode: 200, body: { ok: true } },
			],
		});
		const res = await apiRequest.call(s.context, 'apiKey', GET({ maxRetries: 1 }));
		expect(res.body).toEqual({ ok: true });
		expect(s.sent).toHaveLength(2);
	});

	test('a 429 is reported to the caller before it is retried; other statuses are not', async () => {
		const calls: string[] = [];
		const s = stub({
			answers: [
				{ statusCode: 503, body: {} },
				{ statusCode: 429, body: {}, headers: { 'retry-after': '0' } },
				{ statusCode: 200, body: {} },
			],
		});
		await apiRequest.call(
			s.context,
			'apiKey',
			GET({ maxRetries: 2, onRateLimited: () => calls.push(`after ${s.sent.length}`) }),
		);
		expect(calls).toEqual(['after 2']);
	});
});
