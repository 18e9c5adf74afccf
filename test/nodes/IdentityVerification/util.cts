/** Shared setup of the action node's tests: a sandbox over real HTTP and runNode through n8n's engine. */
import { NodeHelpers } from 'n8n-workflow';
import type {
	IBinaryData,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';
import { MAX_JSON_DEPTH } from '../../../nodes/shared/jsonDepth';
import { runNode, sandboxCredentials } from '../../harness/index.cjs';
import type { RunNodeOptions, RunNodeResult } from '../../harness/index.cjs';
import { SEED, startSandbox } from '../../sandbox/index.cjs';
import type { Sandbox } from '../../sandbox/index.cjs';

const NODE = 'identityVerification';

export interface RunOpts {
	input?: INodeExecutionData[];
	continueOnFail?: boolean;
	/** The node's On Error setting, e.g. `continueErrorOutput` (see runNode's `onError`). */
	onError?: RunNodeOptions['onError'];
	credentials?: 'both' | 'apiKeyOnly' | 'formTokenOnly';
	/** Point the credentials at another address (e.g. a counting proxy in front of the sandbox). */
	baseUrl?: string;
	/** Use this KYB form token instead of the sandbox's. */
	formToken?: string;
	/** Steps of the node chained after it (see runNode's `after`). */
	after?: RunNodeOptions['after'];
	/** n8n's execution mode (see runNode's `mode`; default `manual`). */
	mode?: RunNodeOptions['mode'];
	/** The node's version (default the latest), as a saved workflow keeps it. */
	typeVersion?: number;
}

export interface Ctx {
	sb: Sandbox;
	run(parameters: INodeParameters, opts?: RunOpts): Promise<RunNodeResult>;
}

/** Starts a sandbox before the file's tests and closes it after; resets it before each test. */
export function useSandbox(): Ctx {
	const ctx = {} as Ctx;
	beforeAll(async () => {
		ctx.sb = await startSandbox();
		ctx.run = async (parameters, opts = {}) => {
			const all = sandboxCredentials(ctx.sb);
			if (opts.formToken !== undefined) {
				all.identityVerificationKybFormTokenApi = {
					...all.identityVerificationKybFormTokenApi,
					formToken: opts.formToken,
				};
			}
			if (opts.baseUrl) {
				for (const name of Object.keys(all)) all[name] = { ...all[name], baseUrl: opts.baseUrl };
			}
			let credentials = all;
			if (opts.credentials === 'apiKeyOnly')
				credentials = { identityVerificationApi: all.identityVerificationApi };
			if (opts.credentials === 'formTokenOnly') {
				credentials = {
					identityVerificationKybFormTokenApi: all.identityVerificationKybFormTokenApi,
				};
			}
			return await runNode({
				node: NODE,
				parameters,
				credentials,
				input: opts.input,
				continueOnFail: opts.continueOnFail,
				onError: opts.onError,
				after: opts.after,
				mode: opts.mode,
				typeVersion: opts.typeVersion,
			});
		};
	});
	beforeEach(() => {
		ctx.sb.reset();
	});
	afterAll(async () => {
		await ctx.sb?.close();
	});
	return ctx;
}

/** Every output item carries pairedItem pointing to an input item. */
export function expectPaired(
	items: INodeExecutionData[],
	inputIndex: number | ((outputIndex: number) => number) = 0,
): void {
	items.forEach((item, index) => {
		const expected = typeof inputIndex === 'function' ? inputIndex(index) : inputIndex;
		expect(item.pairedItem).toEqual({ item: expected });
	});
}

/** Proof of Address → Create Check with the seeded name and address, and `extra`. */
export const poaParams = (extra: Record<string, unknown> = {}) => ({
	resource: 'proofOfAddress',
	operation: 'createCheck',
	providedName: SEED.poa.name,
	providedAddress: SEED.poa.address,
	...extra,
});

/** A binary input item, as a Read File or form upload node would produce it. */
export function binaryItem(
	bytes: Buffer,
	fileName: string,
	mimeType: string,
	property = 'data',
): INodeExecutionData {
	const binary: IBinaryData = {
		data: bytes.toString('base64'),
		mimeType,
		fileName,
		fileSize: String(bytes.length),
	};
	return { json: { fileName }, binary: { [property]: binary } };
}

/**
 * One test a row: the node refuses the row's parameters with an error that names the field (`label`)
 * and the rule, before sending anything.
 */
export function testRefusals(ctx: Ctx, rows: Array<[INodeParameters, string, string]>): void {
	test.each(rows)('refuses %j before sending anything', async (parameters, label, rule) => {
		const result = await ctx.run(parameters);
		expectError(result, `${label}:`, rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
}

/** The output of a step chained after the node under test (RunOpts `after`), by its name. */
export const outputOf = (result: RunNodeResult, name: string): INodeExecutionData[] =>
	result.run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? [];

/** Service requests (admin calls excluded) the sandbox saw, optionally by path prefix. */
export function serviceRequests(sb: Sandbox, path?: string): number {
	return sb.count(path ? { path } : undefined);
}

/** The run must fail with a node error whose message contains every given text. */
export function expectError(
	result: RunNodeResult,
	...texts: Array<string | RegExp>
): NonNullable<RunNodeResult['error']> {
	expect(result.error).toBeDefined();
	const error = result.error!;
	for (const text of texts) {
		if (typeof text === 'string') expect(error.message).toContain(text);
		else expect(error.message).toMatch(text);
	}
	return error;
}

export interface CountingProxy {
	url: string;
	/** Highest number of requests in flight at the same time. */
	maxInFlight: number;
	/** Every request in arrival order: its page number (`?page=`) and the requests in flight with it. */
	starts: Array<{ page: number; inFlight: number }>;
	/** What went through the proxy: each request's path and the exact bytes both ways. */
	exchanges: Array<{ path: string; sent: Buffer; received: Buffer }>;
	close(): Promise<void>;
}

export interface CountingProxyOptions {
	/** Answer the first request for this page number (`?page=`) with 429 and `Retry-After: 1`. */
	rateLimitPage?: number;
}

/**
 * A loopback HTTP proxy in front of the sandbox that counts requests in flight. The Host header is
 * passed on, so the sandbox writes its page links with the proxy's address.
 */
export async function startCountingProxy(
	target: string,
	options: CountingProxyOptions = {},
): Promise<CountingProxy> {
	const targetUrl = new URL(target);
	let inFlight = 0;
	let rateLimited = false;
	const proxy: CountingProxy = {
		url: '',
		maxInFlight: 0,
		starts: [],
		exchanges: [],
		close: async () => undefined,
	};
	const server = http.createServer((req, res) => {
		inFlight++;
		proxy.maxInFlight = Math.max(proxy.maxInFlight, inFlight);
		const page = Number(new URL(req.url ?? '/', 'http://proxy').searchParams.get('page'));
		proxy.starts.push({ page, inFlight });
		const exchange = { path: req.url ?? '/', sent: Buffer.alloc(0), received: Buffer.alloc(0) };
		proxy.exchanges.push(exchange);
		const sentChunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => sentChunks.push(chunk));
		req.on('end', () => (exchange.sent = Buffer.concat(sentChunks)));
		if (!rateLimited && page === options.rateLimitPage) {
			rateLimited = true;
			inFlight--;
			res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ detail: 'Request was throttled.' }));
			return;
		}
		let done = false;
		const finish = () => {
			if (!done) {
				done = true;
				inFlight--;
			}
		};
		const upstream = http.request(
			{
				host: targetUrl.hostname,
				port: targetUrl.port,
				method: req.method,
				path: req.url,
				headers: req.headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				const receivedChunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => receivedChunks.push(chunk));
				answer.pipe(res);
				answer.on('end', () => {
					exchange.received = Buffer.concat(receivedChunks);
					finish();
				});
			},
		);
		upstream.on('error', () => {
			finish();
			res.destroy();
		});
		res.on('close', finish);
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	proxy.close = () =>
		new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	return proxy;
}

/**
 * Simplify's value in a new node of this operation, as n8n fills in the defaults: on the canvas
 * (`identityVerification`) or in the AI tool variant n8n derives (`identityVerificationTool`).
 */
export function simplifyDefault(
	resource: string,
	operation: string,
	name: 'identityVerification' | 'identityVerificationTool',
): unknown {
	const { description } = new IdentityVerification();
	const node: INode = {
		id: 'n',
		name: 'n',
		type: `n8n-nodes-identity-verification.${name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource, operation },
	};
	return NodeHelpers.getNodeParameters(
		description.properties as INodeProperties[],
		node.parameters,
		true,
		false,
		node,
		{ ...description, name },
	)?.simplify;
}

/** JSON text of arrays nested `levels` deep. */
export const nestedArrays = (levels: number): string =>
	`${'['.repeat(levels)}${']'.repeat(levels)}`;

/**
 * What the node says of an answer nested deeper than n8n can store (n8n copies and saves an item
 * by recursion: "Maximum call stack size exceeded" from a few thousand levels on).
 */
export const TOO_DEEP = `The service's answer is nested more than ${MAX_JSON_DEPTH} levels deep, which n8n cannot store; it was not used`;

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The bytes of an output binary property (n8n's default binary mode keeps them as base64 in the item). */
export function binaryBytes(item: INodeExecutionData, property = 'data'): Buffer {
	const binary = item.binary?.[property];
	if (!binary) throw new Error(`no binary property "${property}" on the item`);
	if (!binary.data || binary.id)
		throw new Error(`binary property "${property}" is stored by id (${binary.id ?? '?'})`);
	return Buffer.from(binary.data, 'base64');
}

/** A valid bank transaction numbered `n` (its amount is `n.00`, so order is visible). */
export const transaction = (n: number) => ({
	creditor: { fullName: `Creditor ${n}` },
	debtor: { fullName: 'Owner' },
	bookingDate: '2026-01-01',
	transactionDate: null,
	transactionAmount: { amount: `${n}.00`, currency: 'EUR' },
});

/** Transactions numbered `from` up to (not including) `to`. */
export const transactions = (from: number, to: number) =>
	Array.from({ length: to - from }, (_, i) => transaction(from + i));

/** One page of the transactions list as the service answers it. */
interface Page {
	count?: number;
	next: string | null;
	results: unknown[];
}

/** The transactions path the scripted service answers (any path ending in it, for Base URL prefixes). */
export const SCRIPTED_PATH = '/bank/verifications/v-1/accounts/a-1/transactions/';

export interface ScriptedService {
	base: string;
	/** The page to answer for a page number (`undefined`: 404); each test sets its own. */
	script: (page: number, url: URL) => Page | undefined;
	/** What the test requested: path and query of each request. */
	hits: string[];
	/** List Transactions (Return All unless `extra` says otherwise) against the service, or `baseUrl`. */
	list(extra?: Record<string, unknown>, baseUrl?: string): Promise<RunNodeResult>;
}

/**
 * A loopback service with scripted transaction pages, for page shapes the sandbox does not produce:
 * started for the test file, its hits cleared before each test.
 */
export function useScriptedService(): ScriptedService {
	let server: http.Server;
	const service: ScriptedService = {
		base: '',
		script: () => undefined,
		hits: [],
		list: (extra = {}, baseUrl = service.base) =>
			runNode({
				node: NODE,
				parameters: {
					resource: 'bank',
					operation: 'listTransactions',
					verificationId: 'v-1',
					accountId: 'a-1',
					returnAll: true,
					...extra,
				},
				credentials: {
					identityVerificationApi: { apiKey: 'k', apiSecret: 'secret-value', baseUrl },
				},
			}),
	};
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			const url = new URL(req.url ?? '/', service.base);
			service.hits.push(`${url.pathname}${url.search}`);
			const page = Number(url.searchParams.get('page') ?? '1');
			const body = url.pathname.endsWith(SCRIPTED_PATH) ? service.script(page, url) : undefined;
			if (!body) {
				res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}');
				return;
			}
			res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		service.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});
	beforeEach(() => {
		service.hits.length = 0;
	});
	return service;
}
