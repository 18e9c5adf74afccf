/**
 * The operations whose answer is read as it arrives (AML Download Profile PDF, Proof of Address
 * Create Check) end with a clear error when the answer stops coming, after the transport's default
 * of 30 seconds without a byte, instead of holding the execution for ever. A stub of n8n's
 * request helper and fake timers; the transport's own tests show the same over real HTTP.
 */
import { Readable } from 'node:stream';

import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { execute as downloadPdf } from '../../../../nodes/IdentityVerification/actions/amlCheck/downloadProfilePdf.operation';
import { execute as createCheck } from '../../../../nodes/IdentityVerification/actions/proofOfAddress/createCheck.operation';
import { ACTION_NODE } from '../../../harness/fixtures/action-node.cjs';

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
