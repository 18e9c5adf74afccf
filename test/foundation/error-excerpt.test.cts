/**
 * What an error answer leaves in the execution data is a short, redacted excerpt: never the
 * document a service echoes back (a `file` field, at any depth), never a long string, never a
 * secret, and a few KB at most however large the answer was. Over real HTTP through the engine.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { registerNodeType, runNode } from '../harness/index.cjs';
import type { RunNodeResult } from '../harness/index.cjs';
import { TRANSPORT_PROBE, TransportProbe } from '../harness/fixtures/transport-probe.node.cjs';

const API_KEY = 'excerpt-key-ABCD';
const API_SECRET = 'Excerpt-S3cr3t-Value-1234';
const BASIC = Buffer.from(`${API_KEY}:${API_SECRET}`).toString('base64');
/** What the excerpt may take of the body, as JSON text. */
const EXCERPT_LIMIT = 4096;
/** Everything n8n keeps of the failed run (error, node, stack), far below any answer here. */
const RUN_DATA_LIMIT = 20_000;

/** A base64 "document" of about `bytes` bytes, all of them `fill`. */
const document = (bytes: number, fill = 7) =>
	Buffer.alloc(Math.ceil((bytes * 3) / 4), fill).toString('base64');

let answer: { status: number; contentType: string; body: Buffer } = {
	status: 400,
	contentType: 'application/json',
	body: Buffer.from('{}'),
};
let server: Server;
let baseUrl: string;

beforeAll(async () => {
	registerNodeType(TRANSPORT_PROBE, new TransportProbe());
	server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

const credentials = (): Record<string, ICredentialDataDecryptedObject> => ({
	identityVerificationApi: { apiKey: API_KEY, apiSecret: API_SECRET, baseUrl },
});

function answerJson(status: number, body: unknown): void {
	answer = { status, contentType: 'application/json', body: Buffer.from(JSON.stringify(body)) };
}

/** An upload (a POST with a small document) that gets the configured error answer. */
const upload = (more: INodeParameters = {}) =>
	runNode({
		node: TRANSPORT_PROBE,
		parameters: {
			method: 'POST',
			path: '/documents/',
			body: JSON.stringify({ file: document(64), country: 'LT' }),
			maxRetries: 0,
			...more,
		},
		credentials: credentials(),
	});

/** The error's stored details and what n8n keeps of the run, as text. */
function stored(result: RunNodeResult): { data: string; run: string; error: string } {
	expect(result.error).toBeDefined();
	const error = result.error as Error & { context?: { data?: unknown }; description?: string };
	return {
		data: JSON.stringify(error.context?.data ?? null),
		run: JSON.stringify(result.run.data),
		error: [error.message, error.description, JSON.stringify(error), inspect(error)].join('\n'),
	};
}

function expectNoSecrets(result: RunNodeResult): void {
	const { data, run, error } = stored(result);
	for (const text of [data, run, error]) {
		for (const secret of [API_KEY, API_SECRET, BASIC]) expect(text).not.toContain(secret);
	}
}

describe('an error answer that echoes the uploaded document', () => {
	test('a 400 with a 1 MB `file` (at the top, nested, in a list): only its first 64 KB are read, nothing of it is kept, and the error says why the service is not quoted', async () => {
		// other bytes than the uploaded one, which the node's own parameters hold
		const echoed = document(1024 * 1024, 9);
		answerJson(400, {
			detail: 'The document could not be read.',
			errors: { document: ['Unreadable image.'] },
			file: echoed,
			request: { document: { file: echoed, country: 'LT' } },
			documents: [{ file: echoed }, { file: { content: echoed, name: 'a.png' } }],
		});
		const result = await upload();
		const { data, run, error } = stored(result);
		expect(result.error?.httpCode).toBe('400');
		expect(data).not.toMatch(/"file"/);
		expect(data.length).toBeLessThanOrEqual(EXCERPT_LIMIT);
		expect(run.length).toBeLessThan(RUN_DATA_LIMIT);
		expect(error).not.toContain(echoed.slice(0, 64));
		expect(JSON.parse(data)).toBeNull();
		expect(result.error?.message).toBe('The service rejected the request (HTTP 400)');
		expect(result.error?.description).toMatch(/longer than 64 KB and is not shown/);
	});

	test('a 400 under 64 KB with a `file` echo: the echo is left out, the service’s words kept', async () => {
		const echoed = document(16 * 1024, 9);
		answerJson(400, {
			detail: 'The document could not be read.',
			errors: { document: ['Unreadable image.'] },
			file: echoed,
			request: { document: { file: echoed, country: 'LT' } },
		});
		const result = await upload();
		const { data, error } = stored(result);
		expect(data).not.toMatch(/"file"/);
		expect(error).not.toContain(echoed.slice(0, 64));
		expect(JSON.parse(data)).toMatchObject({
			detail: 'The document could not be read.',
			errors: { document: ['Unreadable image.'] },
			request: { document: { country: 'LT' } },
		});
		expect(result.error?.message).toBe(
			'The service rejected the request (HTTP 400): document: Unreadable image.',
		);
	});

	test("the service's rule about the `file` field itself is still shown", async () => {
		answerJson(400, { file: ['Upload a valid image. The file is not an image.'] });
		const { error } = await upload();
		expect(error?.message).toBe(
			'The service rejected the request (HTTP 400): file: Upload a valid image. The file is not an image.',
		);
	});

	test('a long text in `detail` is cut in the message and left out of the details', async () => {
		answerJson(422, { detail: `Bad document ${'y'.repeat(200_000)}` });
		const result = await upload();
		const { data, run } = stored(result);
		expect(String(result.error?.description).length).toBeLessThan(1000);
		expect(data.length).toBeLessThanOrEqual(EXCERPT_LIMIT);
		expect(run.length).toBeLessThan(RUN_DATA_LIMIT);
	});

	test('many field errors make a message of bounded length', async () => {
		const errors = Object.fromEntries(
			Array.from({ length: 2000 }, (_, i) => [`field${i}`, [`Rule number ${i} was broken.`]]),
		);
		answerJson(400, { errors });
		const result = await upload();
		expect(String(result.error?.message).length).toBeLessThan(1200);
		expect(String(result.error?.description).length).toBeLessThan(1200);
		expect(stored(result).data.length).toBeLessThanOrEqual(EXCERPT_LIMIT);
	});
});

describe('a 30 MB error answer', () => {
	const THIRTY_MB = 30 * 1024 * 1024;

	test.each([
		['JSON with one huge value, read as JSON', 'application/json', 'json'],
		['JSON with one huge value, read as bytes', 'application/json', 'binary'],
		['plain text, read as JSON', 'text/plain', 'json'],
		['plain text, read as bytes', 'text/plain', 'binary'],
	])('%s: the stored error is a few KB', async (_what, contentType, response) => {
		const huge = 'z'.repeat(THIRTY_MB);
		const text =
			contentType === 'application/json'
				? JSON.stringify({ detail: 'Too large.', echo: huge, secret: API_SECRET })
				: `Too large. ${API_SECRET} ${huge}`;
		answer = { status: 400, contentType, body: Buffer.from(text) };
		const result = await upload({ response });
		const { data, run } = stored(result);
		expect(result.error?.httpCode).toBe('400');
		expect(data.length).toBeLessThanOrEqual(EXCERPT_LIMIT);
		expect(run.length).toBeLessThan(RUN_DATA_LIMIT);
		expectNoSecrets(result);
	});
});

describe('secrets in an error answer', () => {
	test('a secret at the place where a text answer is cut is not shown in part either', async () => {
		for (const at of [290, 295, 299]) {
			answer = {
				status: 400,
				contentType: 'text/plain',
				body: Buffer.from(`${'x'.repeat(at)}${API_SECRET} and more text after it`),
			};
			const result = await upload();
			const { data, error } = stored(result);
			expect(data).not.toContain(API_SECRET.slice(0, 8));
			expect(error).not.toContain(API_SECRET.slice(0, 8));
		}
	});

	test('secrets in keys, in lists and deep inside the answer are redacted', async () => {
		answerJson(400, {
			detail: `Rejected Basic ${BASIC}`,
			[API_KEY]: ['unknown key'],
			deep: { deeper: { list: [API_SECRET, { key: API_KEY }] } },
		});
		const result = await upload();
		expectNoSecrets(result);
		expect(stored(result).data).toContain('[redacted]');
	});
});
