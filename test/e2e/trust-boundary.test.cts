// End-to-end: where the package meets what it must not trust, in the pinned real n8n (one n8n for
// the suite). A service that answers with a redirect to another address; n8n's HTTP Request node with
// a credential and a Host (or re-routing) header or a TRACE method; one signed body replayed
// under other (unsigned) event headers; signed results that reach a waiting execution's resume
// address but belong to another verification; and a list that announces millions of pages.
// Actions run inside the n8n server (a Webhook-started workflow), where a blocked event loop shows.
import {
	createServer,
	type IncomingHttpHeaders,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { decisionSchema } from '../../nodes/shared/contract';
import { identificationBody } from '../sandbox/bodies.cjs';
import { SEED, sign } from '../sandbox/index.cjs';
import { exampleWorkflow, withSandboxCredentials } from '../n8n/examples.cjs';
import { on2x, postWhenRegistered, waitForWebhook } from '../n8n/runtime.cjs';
import {
	CREDENTIALS,
	productionWebhookUrl,
	routesTaken,
	startStack,
	type Stack,
} from '../n8n/stack.cjs';
import { actionNode, lineUp, node, webhookNode } from '../n8n/workflow.cjs';
import { TRIGGER, triggerWorkflow } from './workflows.cjs';

let stack: Stack;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Local servers that are not the service
// ---------------------------------------------------------------------------------------------

interface Received {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

interface Recorder {
	url: string;
	received: Received[];
	close(): Promise<void>;
}

/** A loopback server that records every request (headers and body) and answers as `respond` says. */
async function startRecorder(
	respond: (req: Received, res: ServerResponse) => void,
): Promise<Recorder> {
	const received: Received[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const entry = {
				method: req.method ?? '',
				url: req.url ?? '',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			received.push(entry);
			respond(entry, res);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Where a redirect points: counts whatever reaches it. */
let elsewhere: Recorder;
/** A "service" that answers every request with a redirect to `elsewhere` (status set per test). */
let redirector: Recorder;
let redirectStatus = 307;
/** A "service" whose transaction list announces 20,000,000 transactions, one per page. */
let endlessList: Recorder;
/**
 * The front end at a Base URL: answers TRACE as servers that allow it do (the request echoed back,
 * headers included), anything else with `{}`.
 */
let frontEnd: Recorder;

function answerFrontEnd(req: Received, res: ServerResponse): void {
	if (req.method !== 'TRACE') {
		res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		return;
	}
	const lines = Object.entries(req.headers).map(([name, value]) => `${name}: ${String(value)}`);
	res
		.writeHead(200, { 'content-type': 'message/http' })
		.end([`TRACE ${req.url} HTTP/1.1`, ...lines, ''].join('\r\n'));
}

const TRANSACTION = {
	creditor: { fullName: 'A' },
	debtor: { fullName: 'B' },
	transactionAmount: { amount: '1.00', currency: 'EUR' },
};

/** Page N of the endless list: count 20,000,000 and a link to page N+1. */
function endlessPage(req: Received, res: ServerResponse): void {
	const url = new URL(req.url, endlessList.url);
	const page = Number(url.searchParams.get('page') ?? '1');
	const next = new URL(url.pathname, endlessList.url);
	next.searchParams.set('page', String(page + 1));
	next.searchParams.set('perPage', '1');
	res.writeHead(200, { 'content-type': 'application/json' }).end(
		JSON.stringify({
			count: 20_000_000,
			next: next.toString(),
			previous: null,
			results: [TRANSACTION],
		}),
	);
}

// ---------------------------------------------------------------------------------------------
// Running an operation inside the n8n server
// ---------------------------------------------------------------------------------------------

/**
 * Creates a credential (as the editor does) with the sandbox's key pair, or its KYB form token, and
 * `baseUrl`.
 */
async function createApiCredential(
	name: string,
	baseUrl: string,
	kind: 'api' | 'kybFormToken' = 'api',
): Promise<{ id: string; name: string }> {
	const { apiKey, apiSecret, kybFormToken } = stack.sandbox.credentials;
	const { status, body } = await stack.rest.request<{ id: string }>('POST', '/credentials', {
		name,
		type: CREDENTIALS[kind].type,
		data: kind === 'api' ? { apiKey, apiSecret, baseUrl } : { formToken: kybFormToken, baseUrl },
	});
	if (status >= 400)
		throw new Error(`creating credential ${name} failed: ${status} ${JSON.stringify(body)}`);
	return { id: body.id, name };
}

/** `body` as a JSON request for postWhenRegistered (which sends it again while n8n answers 404). */
const json = (body: unknown) => ({
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify(body),
});

let webhookCounter = 0;

/**
 * Webhook (answers on receipt) → Identity Verification with `parameters` and `credential`, created
 * and published. Returns how to start one execution of it and wait for its end.
 */
async function serverWorkflow(
	name: string,
	parameters: Record<string, unknown>,
	credential: { id: string; name: string },
): Promise<{ run(): Promise<{ status: string; data: any }> }> {
	const action = actionNode(parameters);
	action.credentials = { [CREDENTIALS.api.type]: credential };
	return await webhookStarted(name, action);
}

/** Webhook (answers on receipt) → `step`, created and published; `run` as serverWorkflow's. */
async function webhookStarted(
	name: string,
	step: ReturnType<typeof node>,
): Promise<{ run(): Promise<{ status: string; data: any }> }> {
	const webhookPath = `trust-boundary-${++webhookCounter}`;
	const nodes = [webhookNode(webhookPath, { responseMode: 'onReceived' }), step];
	const id = await stack.rest.createWorkflow({ name, nodes, connections: lineUp(nodes) });
	await stack.rest.activate(id);
	const url = `${stack.n8n.url}/webhook/${webhookPath}`;
	return {
		async run() {
			expect(await postWhenRegistered(url, json({}))).toBe(200);
			const [done] = await stack.rest.waitForExecutions(id, 1, 120_000);
			return await stack.rest.getExecution(done.id);
		},
	};
}

/** The error an execution ended with, as message and description. */
function errorOf(exec: { status: string; data: any }): { message: string; description: string } {
	const error = exec.data.resultData.error;
	return { message: String(error?.message ?? ''), description: String(error?.description ?? '') };
}

// ---------------------------------------------------------------------------------------------
// Signed deliveries
// ---------------------------------------------------------------------------------------------

/** POSTs `body` signed with the sandbox's signing key, with `eventType` as Service-Event-Type (when given). */
async function postSigned(url: string, body: unknown, eventType?: string): Promise<number> {
	const payload = JSON.stringify(body);
	const res = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'service-signature': sign(payload, stack.sandbox.credentials.signingKey),
			...(eventType === undefined ? {} : { 'service-event-type': eventType }),
		},
		body: payload,
	});
	await res.arrayBuffer();
	return res.status;
}

const REPLAY_TRIGGER_ID = '0f6d7a52-1c3b-4e8f-9a2d-5b6c7d8e9f21';
const HEADER_TRIGGER_ID = '0f6d7a52-1c3b-4e8f-9a2d-5b6c7d8e9f22';
let replayWorkflowId: string;
let headerWorkflowId: string;

/** The trigger's output item of every execution of a workflow, once all have finished. */
async function triggerEvents(workflowId: string): Promise<any[]> {
	// Each delivery answered 200 already has its execution (n8n answers after creating it).
	const started = await stack.rest.countExecutions(workflowId);
	const done = await stack.rest.waitForExecutions(workflowId, started);
	const events: any[] = [];
	for (const { id } of done) {
		const exec = await stack.rest.getExecution(id);
		events.push(exec.data.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0]?.[0]?.json);
	}
	return events;
}

// ---------------------------------------------------------------------------------------------
// The one-workflow onboarding (create token, send link, wait for the result, route)
// ---------------------------------------------------------------------------------------------

const ONBOARDING = (() => {
	const copy: any = withSandboxCredentials(exampleWorkflow('onboarding-in-one-workflow.json'));
	copy.id = 'idvE2eTrustBound';
	copy.name = 'Onboarding (trust-boundary tests)';
	const signup = copy.nodes.find((n: any) => n.type === 'n8n-nodes-base.webhook');
	signup.parameters.path = 'new-customer-trust-boundary';
	signup.webhookId = '7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4b21';
	return copy;
})();
const WAIT_NODE = 'Wait for the result';
const ROUTE_NODE = ONBOARDING.nodes.find((n: any) => n.name === 'Route the result');
const signupUrl = () => `${stack.n8n.url}/webhook/new-customer-trust-boundary`;

/** Signs a customer up and returns the execution that then waits, with the token's scanRef. */
async function signUp(customerId: string): Promise<{ id: string; scanRef: string }> {
	const before = new Set((await stack.rest.listExecutions(ONBOARDING.id)).map((e) => e.id));
	const signup = { customerId, email: `${customerId}@example.com` };
	expect(await postWhenRegistered(signupUrl(), json(signup))).toBe(200);
	const deadline = Date.now() + 30_000;
	for (;;) {
		const fresh = (await stack.rest.listExecutions(ONBOARDING.id)).filter((e) => !before.has(e.id));
		const waiting = fresh.find((e) => e.status === 'waiting');
		if (waiting) {
			const exec = await stack.rest.getExecution(waiting.id);
			const token = exec.data.resultData.runData['Create Verification Token'][0].data.main[0][0];
			return { id: waiting.id, scanRef: token.json.scanRef };
		}
		const ended = fresh.find((e) => ['error', 'crashed', 'success'].includes(e.status));
		if (ended) throw new Error(`execution ${ended.id} ended ${ended.status} instead of waiting`);
		if (Date.now() > deadline) throw new Error('no waiting execution within 30 s');
		await pause(200);
	}
}

async function statusOf(id: string): Promise<string> {
	return (await stack.rest.getExecution(id)).status;
}

/** Waits until the execution has finished; returns it with its run data. */
async function finished(id: string, timeoutMs = 30_000): Promise<any> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const exec = await stack.rest.getExecution(id);
		if (!['new', 'running', 'waiting'].includes(exec.status)) return exec;
		if (Date.now() > deadline)
			throw new Error(`execution ${id} still ${exec.status} after ${timeoutMs} ms`);
		await pause(250);
	}
}

// ---------------------------------------------------------------------------------------------

let redirectCredential: { id: string; name: string };
let endlessCredential: { id: string; name: string };
const frontEndCredentials: Record<'api' | 'kybFormToken', { id: string; name: string }> = {
	api: { id: '', name: '' },
	kybFormToken: { id: '', name: '' },
};

beforeAll(async () => {
	elsewhere = await startRecorder((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
	});
	redirector = await startRecorder((_req, res) => {
		res.writeHead(redirectStatus, { location: `${elsewhere.url}/steal` }).end();
	});
	endlessList = await startRecorder(endlessPage);
	frontEnd = await startRecorder(answerFrontEnd);
	stack = await startStack({
		workflows: [ONBOARDING],
		publish: [ONBOARDING.id],
		log: (m) => process.stderr.write(`[e2e trust-boundary] ${m}\n`),
	});
	redirectCredential = await createApiCredential('A service that redirects', redirector.url);
	endlessCredential = await createApiCredential('A service with an endless list', endlessList.url);
	for (const kind of ['api', 'kybFormToken'] as const) {
		frontEndCredentials[kind] = await createApiCredential(
			`Front end (${kind})`,
			frontEnd.url,
			kind,
		);
	}
	replayWorkflowId = await stack.rest.createWorkflow(
		triggerWorkflow('Replayed body', REPLAY_TRIGGER_ID),
	);
	headerWorkflowId = await stack.rest.createWorkflow(
		triggerWorkflow('Mismatched header', HEADER_TRIGGER_ID),
	);
	await stack.rest.activate(replayWorkflowId);
	await stack.rest.activate(headerWorkflowId);
	await waitForWebhook(productionWebhookUrl(stack.n8n.url, { webhookId: REPLAY_TRIGGER_ID }));
	await waitForWebhook(productionWebhookUrl(stack.n8n.url, { webhookId: HEADER_TRIGGER_ID }));
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	await Promise.all([
		elsewhere?.close(),
		redirector?.close(),
		endlessList?.close(),
		frontEnd?.close(),
	]);
}, 60_000);

beforeEach(() => {
	stack.sandbox.reset();
});

describe('a redirect from the service is never followed', () => {
	const pdf = {
		resource: 'aml',
		operation: 'downloadProfilePdf',
		checkId: SEED.aml.checkId,
		profileId: SEED.aml.profileId,
		password: 'pdf-password-not-for-anyone-else',
		binaryPropertyName: 'data',
	};
	const transactions = {
		resource: 'bank',
		operation: 'listTransactions',
		verificationId: SEED.bank.verificationId,
		accountId: SEED.bank.accountId,
		returnAll: false,
		limit: 5,
		options: {},
	};
	test.each([
		['Download Profile PDF (POST with the password)', 307, pdf],
		['List Transactions (GET)', 307, transactions],
		['List Transactions (GET)', 302, transactions],
	])(
		'%s answered %i: nothing reaches the other address, and the execution fails naming the redirect and its target',
		async (name: string, status: number, parameters: Record<string, unknown>) => {
			redirectStatus = status;
			const redirectsBefore = redirector.received.length;
			const elsewhereBefore = elsewhere.received.length;
			const workflow = await serverWorkflow(`${name} ${status}`, parameters, redirectCredential);
			const exec = await workflow.run();
			// The request did go to the service (the Base URL) and was answered with the redirect.
			expect(redirector.received.length).toBeGreaterThan(redirectsBefore);
			expect(redirector.received.at(-1)?.headers.authorization).toMatch(/^Basic /);
			// Nothing at all reached the redirect's target: no Authorization header, no password.
			const leaked = elsewhere.received
				.slice(elsewhereBefore)
				.map(
					(r) =>
						`${r.method} ${r.url} authorization=${r.headers.authorization ?? '-'} body=${r.body}`,
				);
			expect(leaked).toEqual([]);
			expect(exec.status).toBe('error');
			const { message } = errorOf(exec);
			expect(message).toMatch(/redirect/i);
			expect(message).toContain(`${elsewhere.url}/steal`);
		},
	);
});

describe("n8n's HTTP Request node sends the credential under no other Host and by no other method", () => {
	interface Request {
		/** The Method field: a plain choice, or set by an expression. */
		method: string;
		/** Headers as Name/Value pairs, or `json` as the JSON Headers field. */
		headers?: Record<string, string>;
		json?: string;
		/** The node's Lowercase Headers option (on unless set). */
		lowercaseHeaders?: boolean;
	}

	/** n8n's HTTP Request node (4.2) with one of the package's credentials, as the editor saves it. */
	function httpRequestNode(kind: 'api' | 'kybFormToken', request: Request) {
		const headers = request.json
			? { sendHeaders: true, specifyHeaders: 'json', jsonHeaders: request.json }
			: request.headers
				? {
						sendHeaders: true,
						headerParameters: {
							parameters: Object.entries(request.headers).map(([name, value]) => ({ name, value })),
						},
					}
				: {};
		const step = node('HTTP Request', 'n8n-nodes-base.httpRequest', 4.2, {
			method: request.method,
			url: `${frontEnd.url}/api/v2/status`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CREDENTIALS[kind].type,
			...headers,
			options:
				request.lowercaseHeaders === undefined
					? {}
					: { lowercaseHeaders: request.lowercaseHeaders },
		});
		step.credentials = { [CREDENTIALS[kind].type]: frontEndCredentials[kind] };
		return step;
	}

	/** Runs the node once; returns the execution and what reached the front end meanwhile. */
	async function send(kind: 'api' | 'kybFormToken', request: Request) {
		const before = frontEnd.received.length;
		const workflow = await webhookStarted(
			`HTTP Request ${JSON.stringify(request)}`,
			httpRequestNode(kind, request),
		);
		const exec = await workflow.run();
		const reached = frontEnd.received
			.slice(before)
			.map(
				(r) => `${r.method} host=${r.headers.host} authorization=${r.headers.authorization ?? '-'}`,
			);
		return {
			exec,
			reached,
			item: exec.data.resultData.runData['HTTP Request']?.[0]?.data?.main?.[0]?.[0]?.json,
		};
	}

	const byExpression = (method: string) => `={{ ${JSON.stringify(method)} }}`;

	test.each([
		[
			'api',
			'Host (lower-cased by the node, its default)',
			{ method: 'GET', headers: { Host: 'collector.example' } },
			'host',
		],
		[
			'api',
			'X-Forwarded-HOST',
			{
				method: 'GET',
				headers: { 'X-Forwarded-HOST': 'collector.example' },
				lowercaseHeaders: false,
			},
			'X-Forwarded-HOST',
		],
		[
			'api',
			'FORWARDED',
			{ method: 'GET', headers: { FORWARDED: 'host=collector.example' }, lowercaseHeaders: false },
			'FORWARDED',
		],
		[
			'api',
			'x-Original-URL',
			{ method: 'POST', headers: { 'x-Original-URL': '/collector/' }, lowercaseHeaders: false },
			'x-Original-URL',
		],
		[
			'api',
			'X-REWRITE-url',
			{ method: 'GET', headers: { 'X-REWRITE-url': '/collector/' }, lowercaseHeaders: false },
			'X-REWRITE-url',
		],
		[
			'api',
			'Host in JSON Headers',
			{ method: 'GET', json: '{"Host": "collector.example"}', lowercaseHeaders: false },
			'Host',
		],
		[
			'kybFormToken',
			'Host',
			{ method: 'GET', headers: { Host: 'collector.example' }, lowercaseHeaders: false },
			'Host',
		],
	] as const)(
		'%s credential, a %s header: nothing reaches the front end, the execution fails naming the header',
		async (kind, _header, request: Request, name) => {
			const { exec, reached } = await send(kind, request);
			expect(reached).toEqual([]);
			expect(exec.status).toBe('error');
			expect(errorOf(exec).message).toContain(`Remove the ${name} header`);
		},
	);

	test.each([
		['api', 'TRACE'],
		['api', 'CONNECT'],
		['api', 'STEAL'],
		['kybFormToken', 'TRACE'],
	] as const)(
		'%s credential, the method %s set by an expression: nothing reaches the front end, no credential in the item, the execution fails naming the method',
		async (kind, method) => {
			const { exec, reached, item } = await send(kind, { method: byExpression(method) });
			expect(reached).toEqual([]);
			expect(JSON.stringify(item ?? {})).not.toMatch(/authorization/i);
			expect(exec.status).toBe('error');
			expect(errorOf(exec).message).toContain(`"${method}"`);
		},
	);

	test.each([
		['api', 'get', /^Basic /],
		['kybFormToken', 'post', /^Bearer /],
	] as const)(
		'%s credential, the method %s in lower case by an expression, with an ordinary header: sent with the credential',
		async (kind, method, authorization) => {
			const { exec, reached } = await send(kind, {
				method: byExpression(method),
				headers: { 'X-Request-Id': 'e2e' },
			});
			expect(exec.status).toBe('success');
			expect(reached).toEqual([
				expect.stringMatching(new RegExp(`^${method.toUpperCase()} host=127\\.0\\.0\\.1:`)),
			]);
			expect(frontEnd.received.at(-1)?.headers.authorization).toMatch(authorization);
		},
	);
});

describe('one signed body under other event headers', () => {
	test('replayed five times with five different Service-Event-Type headers (one of them none): one execution', async () => {
		const url = productionWebhookUrl(stack.n8n.url, { webhookId: REPLAY_TRIGGER_ID });
		const body = identificationBody('IDENTIFICATION_AUTO_FINISHED', {
			final: true,
			clientId: 'replayed',
		});
		const headers = [
			'IDENTIFICATION_AUTO_FINISHED',
			'IDENTIFICATION_MANUAL_FINISHED',
			'IDENTIFICATION',
			undefined,
			'IDENTIFICATION_RESUBMITTED',
		];
		const statuses: number[] = [];
		for (const header of headers) statuses.push(await postSigned(url, body, header));
		expect(statuses.filter((s) => s < 200 || s >= 300)).toEqual([]);
		// Another body: its execution shows the workflow runs (and is counted with the replays').
		const barrier = identificationBody('IDENTIFICATION_AUTO_FINISHED', {
			final: true,
			clientId: 'barrier',
		});
		expect(await postSigned(url, barrier, 'IDENTIFICATION_AUTO_FINISHED')).toBe(200);
		const events = await triggerEvents(replayWorkflowId);
		expect(events.map((e) => e.clientId).sort()).toEqual(['barrier', 'replayed']);
	});

	test('a preliminary result (final: false) under a manual-review header: the event keeps the body’s kind and flags the header', async () => {
		const url = productionWebhookUrl(stack.n8n.url, { webhookId: HEADER_TRIGGER_ID });
		const body = identificationBody('IDENTIFICATION_AUTO_FINISHED', {
			final: false,
			clientId: 'preliminary',
		});
		expect(await postSigned(url, body, 'IDENTIFICATION_MANUAL_FINISHED')).toBe(200);
		const [event] = await triggerEvents(headerWorkflowId);
		expect(event).toMatchObject({
			headerMatchesBody: false,
			headerEventType: 'IDENTIFICATION_MANUAL_FINISHED',
			final: false,
			clientId: 'preliminary',
		});
		expect(event.eventType).not.toBe('IDENTIFICATION_MANUAL_FINISHED');
	});
});

describe('Wait for Result is resumed only by its own verification’s result', () => {
	test('another verification’s signed final result and a bank body under an identification header are acknowledged but do not resume it; its own result does', async () => {
		const { id, scanRef } = await signUp('customer-bound');
		const resumeUrl = stack.sandbox.kyc.get(scanRef)?.callbackUrl;
		expect(resumeUrl).toContain(`/webhook-waiting/${id}`);
		if (on2x('signed resume URLs', "the check that the resume URL carries n8n's signature")) {
			expect(resumeUrl).toMatch(new RegExp(`/webhook-waiting/${id}\\?signature=`));
		}
		const other = stack.sandbox.kyc.createSession('someone-else').scanRef;

		const otherResult = identificationBody('IDENTIFICATION_AUTO_FINISHED', {
			scanRef: other,
			clientId: 'someone-else',
			final: true,
			overall: 'APPROVED',
		});
		// Acknowledged (2xx, so the service does not retry) and still waiting: n8n answers a resume
		// after it has set the execution running, so the status right after the answer tells.
		const otherStatus = await postSigned(resumeUrl!, otherResult, 'IDENTIFICATION_AUTO_FINISHED');
		expect(String(otherStatus)).toMatch(/^2\d\d$/);
		expect(await statusOf(id)).toBe('waiting');

		const bankBody = { id: SEED.bank.verificationId, accounts: [], riskLevel: 'LOW', scanRef };
		const bankStatus = await postSigned(resumeUrl!, bankBody, 'IDENTIFICATION_AUTO_FINISHED');
		expect(String(bankStatus)).toMatch(/^2\d\d$/);
		expect(await statusOf(id)).toBe('waiting');

		const delivery = await stack.sandbox.kyc.autoFinish(scanRef, {
			final: true,
			overall: 'APPROVED',
		});
		expect(delivery.attempts.map((a) => a.statusCode)).toEqual([200]);
		const exec = await finished(id);
		expect(exec.status).toBe('success');
		const runData = exec.data.resultData.runData;
		expect(routesTaken(ROUTE_NODE, runData)).toEqual(['Approved']);
		const result = runData[WAIT_NODE].at(-1).data.main[0][0].json;
		expect(result).toMatchObject({
			scanRef,
			clientId: 'customer-bound',
			final: true,
			overallStatus: 'APPROVED',
			delivery: { deliveryId: expect.any(String) },
		});
		// Personal Data: Leave Out in the example: the decision fields of the signed body's status,
		// not the body.
		expect(result.body).toBeUndefined();
		const { status } = JSON.parse(delivery.payload);
		expect(result.decision).toEqual(
			Object.fromEntries(Object.entries(status).filter(([field]) => field in decisionSchema.shape)),
		);
		expect(result.decision.overall).toBe('APPROVED');
	});
});

// Last: before the page bound, a huge count could hold n8n's event loop (or its memory).
describe('a list that announces 20,000,000 transactions, one per page', () => {
	test('Return All with Per Page 1: n8n stays responsive, and the execution fails naming the pages and what to change, after few requests', async () => {
		const workflow = await serverWorkflow(
			'Endless list',
			{
				resource: 'bank',
				operation: 'listTransactions',
				verificationId: 'v',
				accountId: 'a',
				returnAll: true,
				options: { perPage: 1 },
			},
			endlessCredential,
		);
		const latencies: number[] = [];
		let running = true;
		const poll = (async () => {
			while (running) {
				const started = Date.now();
				await fetch(`${stack.n8n.url}/healthz`, { signal: AbortSignal.timeout(15_000) }).then(
					(r) => r.arrayBuffer(),
					() => undefined,
				);
				latencies.push(Date.now() - started);
				await pause(100);
			}
		})();
		let exec: { status: string; data: any };
		try {
			exec = await workflow.run();
		} finally {
			running = false;
			await poll;
		}
		const { message, description } = errorOf(exec);
		// Shown whole when it does not match: how the run ended, how long n8n went unanswered.
		const outcome = {
			status: exec.status,
			error: `${message} ${description}`,
			slowestHealthzMs: Math.max(...latencies),
			requests: endlessList.received.length,
		};
		expect(outcome).toMatchObject({
			status: 'error',
			error: expect.stringMatching(/pages[^]*Raise Per Page[^]*use Limit/),
		});
		expect(message).toMatch(/pages/);
		expect(latencies.length).toBeGreaterThan(0);
		expect(outcome.slowestHealthzMs).toBeLessThan(1000);
		expect(outcome.requests).toBeGreaterThan(0);
		expect(outcome.requests).toBeLessThanOrEqual(10);
	}, 180_000);
});
