/**
 * apiRequest with a stub of n8n's request helper: the request options it builds for each kind of
 * answer, how it reads each kind of body, error answers of a streamed download, the Base URL read
 * from the credential, links under a gateway path, and a cancelled execution not being retried.
 * The engine tests (transport.test.cts) show the same over real HTTP; these pin every branch.
 */
import { Readable } from 'node:stream';

import type { IDataObject } from 'n8n-workflow';

import { apiRequest } from '../../nodes/IdentityVerification/transport';
import type { ApiRequest } from '../../nodes/IdentityVerification/transport';
import { stubRequestContext } from '../harness/fixtures/request-context.cjs';
import type { RequestStub, StubAnswer } from '../harness/fixtures/request-context.cjs';

/**
 * A context whose requests get `answers` in turn (an Error answer is thrown by n8n's helper);
 * `sent` records the options of each request, `read` the arguments of each credential read.
 */
function stub(opts: {
	answers: Array<StubAnswer | Error>;
	/** The credential's Base URL, or a function of the item and of how many reads came before. */
	baseUrl?: unknown;
	/** The key and secret of the credential, when not the defaults. */
	keys?: IDataObject;
	cancelled?: boolean;
	/** Replaces getExecutionCancelSignal; null leaves it out, as in a context loading options. */
	signal?: null | (() => unknown);
}): RequestStub {
	return stubRequestContext({
		answer: (_options, index) => opts.answers[index],
		credential: (itemIndex, before) => ({
			...(opts.keys ?? { apiKey: 'key', apiSecret: 'secret' }),
			baseUrl:
				typeof opts.baseUrl === 'function'
					? opts.baseUrl(itemIndex, before)
					: 'baseUrl' in opts
						? opts.baseUrl
						: 'https://ivs.example.com',
		}),
		signal: opts.signal === undefined ? () => ({ aborted: opts.cancelled === true }) : opts.signal,
	});
}

/** The error a request ends with (the test fails when it succeeds). */
async function failure(s: RequestStub, req: ApiRequest): Promise<Record<string, any>> {
	return await apiRequest.call(s.context, 'apiKey', req).then(
		() => {
			throw new Error('the request succeeded');
		},
		(error: Record<string, any>) => error,
	);
}

/** A 2xx answer with an empty JSON object. */
const OK: StubAnswer = { statusCode: 200, body: {} };

const GET = (more: Partial<ApiRequest> = {}): ApiRequest => ({
	method: 'GET',
	path: '/bank/tokens/',
	maxRetries: 0,
	...more,
});

describe('the request options per kind of answer', () => {
	test('JSON: Accept JSON, asked for as a stream (the transport reads it), no query when none is given', async () => {
		const body = Readable.from([Buffer.from('\ufeff{"a":'), Buffer.from('1}')]);
		const s = stub({ answers: [{ statusCode: 200, body }] });
		const res = await apiRequest.call(s.context, 'apiKey', GET({ qs: {} }));
		expect(res.body).toEqual({ a: 1 });
		expect(s.sent[0]).toMatchObject({
			method: 'GET',
			url: 'https://ivs.example.com/bank/tokens/',
			headers: { Accept: 'application/json' },
			json: false,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		});
		expect(Object.keys(s.sent[0])).not.toContain('qs');
	});

	test('JSON: an answer n8n already parsed (a helper that ignores the stream encoding) is kept', async () => {
		const s = stub({ answers: [{ statusCode: 200, body: { a: 1 } }] });
		expect((await apiRequest.call(s.context, 'apiKey', GET())).body).toEqual({ a: 1 });
	});

	test('a JSON body is sent as a copy, typed as JSON', async () => {
		const s = stub({ answers: [{ statusCode: 201, body: {} }] });
		const body = { clientId: 'c-1' };
		await apiRequest.call(s.context, 'apiKey', { method: 'POST', path: '/api/v2/token', body });
		expect(s.sent[0].headers).toEqual({
			Accept: 'application/json',
			'Content-Type': 'application/json',
		});
		expect(s.sent[0].body).toEqual(body);
		expect(s.sent[0].body).not.toBe(body);
	});

	test("the answer's headers: lower-case names, lists joined, empty values and functions left out", async () => {
		const headers = {
			'X-List': ['a', 'b'],
			'Retry-After': 5,
			'X-Null': null,
			'X-Undefined': undefined,
			'X-Function': () => 'no',
		};
		const s = stub({ answers: [{ statusCode: 200, body: {}, headers }] });
		const res = await apiRequest.call(s.context, 'apiKey', GET());
		expect(res.headers).toEqual({ 'x-list': 'a, b', 'retry-after': '5' });
	});

	test.each([
		['none', undefined],
		['null', null],
		['text', 'x-a: 1'],
	])('headers that are not an object (%s) read as none', async (_what, headers) => {
		const s = stub({
			answers: [{ statusCode: 200, body: {}, headers: headers as unknown as IDataObject }],
		});
		expect((await apiRequest.call(s.context, 'apiKey', GET())).headers).toEqual({});
	});

	test.each([[199], [300]])('HTTP %i is not a success', async (statusCode) => {
		const s = stub({ answers: [{ statusCode, body: {} }] });
		await expect(apiRequest.call(s.context, 'apiKey', GET())).rejects.toMatchObject({
			httpCode: String(statusCode),
		});
	});

	test('a query is sent as given', async () => {
		const s = stub({ answers: [OK] });
		await apiRequest.call(s.context, 'apiKey', GET({ qs: { page: 2 } }));
		expect(s.sent[0].qs).toEqual({ page: 2 });
	});

	test.each([
		['binary', {}],
		['binary, read by a reader', { read: async () => undefined }],
	] as const)('%s: Accept a file, not parsed, asked for as a stream', async (_what, reader) => {
		const s = stub({ answers: [{ statusCode: 200, body: Buffer.from('%PDF') }] });
		await apiRequest.call(s.context, 'apiKey', GET({ response: 'binary', ...reader }));
		expect(s.sent[0]).toMatchObject({
			headers: { Accept: 'application/pdf, application/octet-stream, */*' },
			json: false,
			encoding: 'stream',
		});
	});

	test('binary: a streamed answer is read whole, in order', async () => {
		const body = Readable.from([Buffer.from('%PDF-'), Buffer.from('1.7')]);
		const s = stub({ answers: [{ statusCode: 200, body }] });
		const res = await apiRequest.call(s.context, 'apiKey', GET({ response: 'binary' }));
		expect((res.body as Buffer).toString('latin1')).toBe('%PDF-1.7');
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

	test('none: the body is left out, its stream closed; a reader gets its bytes as they came', async () => {
		const ignored = Readable.from([Buffer.from('ignored')]);
		const none = stub({ answers: [{ statusCode: 204, body: ignored }] });
		expect((await apiRequest.call(none.context, 'apiKey', GET({ response: 'none' }))).body).toBe(
			undefined,
		);
		expect(ignored.destroyed).toBe(true);
		const stream = Readable.from([Buffer.from('%PDF'), Buffer.from('-1.7')]);
		const streamed = stub({ answers: [{ statusCode: 200, body: stream }] });
		const res = await apiRequest.call(
			streamed.context,
			'apiKey',
			GET({ read: async (body) => await (body as unknown as Readable).toArray() }),
		);
		expect(Buffer.concat(res.body as Buffer[]).toString('latin1')).toBe('%PDF-1.7');
	});
});

describe('an answer read by the request’s own reader', () => {
	test('a reader that fails by itself (not the answer) is not asked again: its failure is worded', async () => {
		const s = stub({
			answers: [
				{ statusCode: 200, body: Readable.from([Buffer.from('%PDF-1.7')]) },
				{ statusCode: 200, body: Readable.from([Buffer.from('%PDF-1.7')]) },
			],
		});
		const error = await failure(
			s,
			GET({
				read: async () => {
					throw new TypeError('disk full');
				},
			}),
		);
		expect(error.message).toBe("The service's answer could not be read: disk full");
		expect(s.sent).toHaveLength(1);
	});

	test('an answer that breaks off under the reader is asked for again (a GET)', async () => {
		const broken = Readable.from(
			(function* () {
				yield Buffer.from('%PDF');
				throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
			})(),
		);
		const whole = Readable.from([Buffer.from('%PDF-1.7')]);
		const s = stub({
			answers: [
				{ statusCode: 200, body: broken },
				{ statusCode: 200, body: whole },
			],
		});
		const res = await apiRequest.call(
			s.context,
			'apiKey',
			GET({
				maxRetries: 1,
				read: async (body) => Buffer.concat(await (body as unknown as Readable).toArray()),
			}),
		);
		expect(String(res.body)).toBe('%PDF-1.7');
		expect(s.sent).toHaveLength(2);
	});
});

describe('an error answer of a streamed download', () => {
	test.each(['binary', 'json'] as const)(
		'%s: at most 64 KB of it is read for the message, and the stream is closed',
		async (response) => {
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
			await expect(apiRequest.call(s.context, 'apiKey', GET({ response }))).rejects.toThrow(
				/Not found/,
			);
			expect(read).toBe(64 * 1024);
			expect(stream.destroyed).toBe(true);
		},
	);

	test("the service's message in a small error answer is read whole", async () => {
		const stream = Readable.from([Buffer.from('{"detail":'), Buffer.from('"No such report"}')]);
		const s = stub({ answers: [{ statusCode: 404, body: stream }] });
		const error = (await apiRequest.call(s.context, 'apiKey', GET({ response: 'binary' })).then(
			() => undefined,
			(e: unknown) => e,
		)) as { message: string; description?: string };
		expect(`${error.message} ${error.description}`).toMatch(/No such report/);
	});

	test('one that breaks off while it is read still gives the status and what was read', async () => {
		const stream = Readable.from(
			(function* () {
				yield Buffer.from('{"detail":"Report not ready"}');
				throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
			})(),
		);
		const s = stub({ answers: [{ statusCode: 409, body: stream }] });
		const error = await failure(s, GET({ response: 'binary' }));
		expect(error.httpCode).toBe('409');
		expect(error.description).toMatch(/Report not ready/);
	});

	test.each([
		['without a body', undefined],
		['with bytes instead of a stream', Buffer.from('{"detail":"x"}')],
	])('an error answer %s still gives the status', async (_what, body) => {
		const s = stub({ answers: [{ statusCode: 404, body }] });
		await expect(
			apiRequest.call(s.context, 'apiKey', GET({ response: 'binary' })),
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
		['empty: the default address', '', 'https://ivs.idenfy.com/bank/tokens/'],
		['only spaces: the default address', '   ', 'https://ivs.idenfy.com/bank/tokens/'],
		['not text: the default address', 42, 'https://ivs.idenfy.com/bank/tokens/'],
	])('%s', async (_what, baseUrl, url) => {
		const s = stub({ answers: [OK], baseUrl });
		await apiRequest.call(s.context, 'apiKey', GET());
		expect(s.sent[0].url).toBe(url);
	});
});

describe('the credential read', () => {
	test('is kept for the execution: a second request for the same item does not read it again', async () => {
		const s = stub({
			answers: [OK, OK],
		});
		await apiRequest.call(s.context, 'apiKey', GET({ itemIndex: 1 }));
		await apiRequest.call(s.context, 'apiKey', GET({ itemIndex: 1 }));
		expect(s.read).toHaveLength(1);
	});

	test('is kept per item: a Base URL given as an expression may differ per item', async () => {
		const s = stub({
			answers: [OK, OK],
			baseUrl: (itemIndex: number) => `https://ivs${itemIndex}.example.com`,
		});
		await apiRequest.call(s.context, 'apiKey', GET({ itemIndex: 1 }));
		await apiRequest.call(s.context, 'apiKey', GET({ itemIndex: 2 }));
		expect(s.sent.map((o) => o.url)).toEqual([
			'https://ivs1.example.com/bank/tokens/',
			'https://ivs2.example.com/bank/tokens/',
		]);
	});

	test('a read that failed is not kept: the next request for the item reads it again', async () => {
		const s = stub({
			answers: [OK],
			baseUrl: (_itemIndex: number, before: number) =>
				before === 0 ? 'not an address' : 'https://ivs.example.com',
		});
		await expect(apiRequest.call(s.context, 'apiKey', GET())).rejects.toThrow(/not a web address/);
		await apiRequest.call(s.context, 'apiKey', GET());
		expect(s.read).toHaveLength(2);
		expect(s.sent).toHaveLength(1);
	});

	test('is read for the item being processed (a credential given as an expression differs per item)', async () => {
		const s = stub({
			answers: [OK, OK],
		});
		await apiRequest.call(s.context, 'apiKey', GET({ itemIndex: 2 }));
		await apiRequest.call(s.context, 'apiKey', GET());
		expect(s.read).toEqual([
			['identityVerificationApi', 2],
			['identityVerificationApi', 0],
		]);
	});

	test('a Base URL that is not a web address: nothing is sent, the error says what to enter, for the item', async () => {
		const s = stub({ answers: [], baseUrl: ' ftp://ivs.example.com ' });
		const error = await failure(s, GET({ itemIndex: 1 }));
		expect(error.message).toBe(
			'The Base URL in the credential "Identity Verification API" is not a web address: "ftp://ivs.example.com"',
		);
		expect(error.description).toMatch(/starting with https:\/\//);
		expect(error.context.itemIndex).toBe(1);
		expect(s.sent).toHaveLength(0);
	});
});

describe('an error answer that echoes the Authorization header', () => {
	const basic = (pair: string) => Buffer.from(pair).toString('base64');
	test.each([
		['an empty API Key', { apiSecret: 'secret-value' }, basic(':secret-value')],
		['an empty API Secret', { apiKey: 'key-value' }, basic('key-value:')],
	])('with %s, the value sent is redacted all the same', async (_what, keys, sent) => {
		const s = stub({
			answers: [{ statusCode: 400, body: { detail: `Bad credentials: Basic ${sent}` } }],
			keys,
		});
		const error = await failure(s, GET());
		expect(error.message).toContain('Bad credentials: Basic [redacted]');
		expect(JSON.stringify(error)).not.toContain(sent);
	});
});

describe('links under the Base URL', () => {
	test('a link that is not an address is refused before any request, saying so', async () => {
		const s = stub({ answers: [] });
		const error = await failure(s, { method: 'GET', url: 'https://ivs example.com/x' });
		expect(error.message).toBe(
			"Refused to follow a link to an invalid address: it is not under the service's address (https://ivs.example.com/)",
		);
		expect(s.sent).toHaveLength(0);
	});

	test('a link to the gateway path itself, and a path-only link, are followed on the same origin', async () => {
		const s = stub({
			answers: [OK, OK],
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
		const s = stub({ answers: [OK] });
		await apiRequest.call(s.context, 'apiKey', {
			method: 'GET',
			url: 'https://ivs.example.com/anything/?page=2',
		});
		expect(s.sent).toHaveLength(1);
	});
});

describe('a failure that is not the network', () => {
	test('is not retried, and says the request could not be sent', async () => {
		const s = stub({ answers: [new Error('Invalid character in header content')] });
		const error = await failure(s, GET({ maxRetries: 3, itemIndex: 4 }));
		expect(error.message).toBe(
			'The request to the service could not be sent: Invalid character in header content',
		);
		expect(error.context.itemIndex).toBe(4);
		expect(s.sent).toHaveLength(1);
	});

	test('a network failure is retried, and the error names the service by its origin only', async () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
		const s = stub({ answers: [refused, refused], baseUrl: 'https://gw.example.com:8443/ivs' });
		const error = await failure(s, GET({ maxRetries: 1 }));
		expect(s.sent).toHaveLength(2);
		expect(error.message).toContain('https://gw.example.com:8443');
		expect(error.message).not.toContain('/ivs');
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

	test.each([
		['a context without a cancel signal (loading options)', null],
		['an execution that gives no signal', () => undefined],
	])('%s: a 503 is retried', async (_what, signal) => {
		const s = stub({
			answers: [
				{ statusCode: 503, body: {} },
				{ statusCode: 200, body: { ok: true } },
			],
			signal,
		});
		const res = await apiRequest.call(s.context, 'apiKey', GET({ maxRetries: 1 }));
		expect(res.body).toEqual({ ok: true });
		expect(s.sent).toHaveLength(2);
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
				OK,
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

describe("the wait for the service's request limit", () => {
	beforeEach(() => {
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
	});
	afterEach(() => {
		jest.useRealTimers();
	});

	test('an execution waits at most 1 minute for it in all; a 429 after that fails at once', async () => {
		const limited: StubAnswer = { statusCode: 429, body: {}, headers: { 'retry-after': '40' } };
		const s = stub({ answers: Array.from({ length: 8 }, () => limited) });
		let first: Record<string, any> | undefined;
		void failure(s, GET({ maxRetries: 3 })).then((error) => (first = error));
		await jest.advanceTimersByTimeAsync(41_000);
		// 40 s waited; 40 s more would be 80 s: it gives up after the second attempt
		expect(first?.message).toBe(
			"The service's request limit was reached (HTTP 429): it still refused after 2 attempts",
		);
		expect(s.sent).toHaveLength(2);
		let second: Record<string, any> | undefined;
		void failure(s, GET({ maxRetries: 3 })).then((error) => (second = error));
		await jest.advanceTimersByTimeAsync(0);
		expect(second?.httpCode).toBe('429');
		expect(s.sent).toHaveLength(3);
	});
});
