/**
 * A loopback HTTP host for the Identity Verification Trigger: every POST is handed to the node's
 * `webhook()` through n8n-core's REAL `WebhookContext`, and answered the way n8n 2.40.7 answers a
 * live webhook (packages/cli webhook-helpers.ts `executeWebhook`, read from the pinned install):
 *
 * - the body is read whole into `req.rawBody` (n8n's `rawBodyReader` middleware), then parsed by
 *   content type like n8n's `parseBody`: `application/json` is JSON-parsed and a body that fails
 *   to parse is answered 422 without calling the node (as n8n does); `text/plain` becomes a string;
 *   other types leave `req.body` unset. The node sees `req.rawBody`, `req.readRawBody()`,
 *   `req.body`, `req.headers`, `req.query`, `req.params`, `req.contentType`;
 * - a node that writes the response itself returns `noWebhookResponse` and n8n adds nothing;
 * - `workflowData` returned: the workflow is started and, in `onReceived` mode, the answer is the
 *   description's `responseData` when set (n8n's default is the literal 'firstEntryJson'), else the
 *   node's `webhookResponse`, else `{"message":"Workflow was started"}`;
 * - no `workflowData`: the node's `webhookResponse`, else `{"message":"Webhook call received"}`;
 * - `webhook()` throws: 500 `{"code":0,"message":"Workflow Webhook Error: Workflow could not be started!"}`;
 * - with `failStarts`, creating the execution fails after `webhook()` returned items: 500, and the
 *   static data is not saved (n8n saves it only in the success callback);
 * - workflow static data is loaded for each request from the host's "database" and saved after the
 *   answer when it changed (n8n's LiveWebhooks + WorkflowStaticDataService): concurrent requests
 *   see the same copy, exactly as in n8n.
 *
 * Credentials are handed out by the shared harness's CredentialsHelper (test/harness/index.cts),
 * and the credential test runs through its CredentialsTester equivalent.
 *
 * Emitted items are recorded; with `execute: true` each emission is also run through n8n-core's
 * `WorkflowExecute` (the trigger as first node) after the sender was answered, as n8n does in
 * `onReceived` mode; `idle()` waits for those runs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import {
	createRunExecutionData,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IWebhookData,
	type IWebhookDescription,
	type IWebhookResponseData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import * as core from 'n8n-core';

// n8n-core must resolve its own copies of the DI container and logger (they are nested in its
// node_modules), and InstanceSettings needs a user folder: a throwaway one, set before first use.
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'idv-n8n-user-'));
// Tests run quietly unless N8N_LOG_LEVEL is set (spy on n8nLogger() to assert what a node logs).
process.env.N8N_LOG_LEVEL ??= 'silent';

const coreRequire = createRequire(require.resolve('n8n-core'));
const { Container } = coreRequire('@n8n/di') as typeof import('@n8n/di');

import { IdentityVerificationTrigger } from '../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import {
	HarnessCredentialsHelper,
	makeAdditionalData,
	PACKAGE_NAME,
	testCredential,
} from './index.cjs';

const TRIGGER_TYPE = `${PACKAGE_NAME}.identityVerificationTrigger`;
export const SIGNING_CREDENTIAL = 'identityVerificationWebhookSigningApi';

/** The logger n8n-core's contexts write to (`this.logger` in a node). Spy on it to see node logs. */
export function n8nLogger(): { error: (...a: unknown[]) => void; warn: (...a: unknown[]) => void } {
	const { Logger } = coreRequire('@n8n/backend-common') as {
		Logger: new (...a: unknown[]) => unknown;
	};
	return Container.get(Logger as never) as never;
}

// ---------------------------------------------------------------------------------------------
// Node types and credentials
// ---------------------------------------------------------------------------------------------

class TriggerNodeTypes implements INodeTypes {
	constructor(private readonly trigger: INodeType) {}

	getByName(nodeType: string): INodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string): INodeType {
		if (nodeType !== TRIGGER_TYPE)
			throw new Error(`Unknown node type in the webhook harness: ${nodeType}`);
		return this.trigger;
	}

	getKnownTypes() {
		return {};
	}
}

/** The signing key credential's test as n8n's CredentialsTester runs it (the trigger's `testedBy`). */
export async function testSigningKeyCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	return await testCredential(SIGNING_CREDENTIAL, data);
}

// ---------------------------------------------------------------------------------------------
// The host
// ---------------------------------------------------------------------------------------------

interface RecordedResponse {
	statusCode: number;
	/** Body text as sent. */
	text: string;
	/** Parsed JSON body when it was JSON. */
	json?: unknown;
	/** Whether the node wrote the answer itself (`noWebhookResponse`). */
	writtenByNode: boolean;
	/** Whether a workflow was started for this request. */
	workflowStarted: boolean;
}

export interface TriggerHostOptions {
	/** The node's parameters (defaults of the node apply to what is left out). */
	parameters?: INodeParameters;
	/** Decrypted credentials by type, e.g. `{ identityVerificationWebhookSigningApi: { signingSecret } }`. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Default 'webhook' (a live, active workflow); 'manual' = listening for a test event. */
	mode?: WorkflowExecuteMode;
	/** Run each emission through WorkflowExecute and record the trigger's output there too. */
	execute?: boolean;
	/** Workflow id (scopes duplicate detection); default a fresh random one. */
	workflowId?: string;
	/** Initial workflow static data (as stored in the database). */
	staticData?: IDataObject;
	/** Use this node type instead of the compiled trigger (e.g. a freshly loaded module). */
	nodeType?: INodeType;
	/**
	 * Resume a waiting execution: the waiting step's kept input (its execution stack entry), which
	 * n8n hands to the node's webhook when a request reaches the execution's resume address.
	 */
	waitingItems?: INodeExecutionData[];
	/** Simulate an n8n whose request carries no raw body (to check the node fails closed). */
	withoutRawBody?: boolean;
	/**
	 * Make the first N requests overlap deterministically: each loads the static data and reads its
	 * body, then waits until all N have done so before the node runs (in n8n the database reads and
	 * writes around a webhook give concurrent deliveries the same window).
	 */
	overlapFirst?: number;
	/**
	 * The first N workflow starts fail after the node returned its items, as when n8n cannot create
	 * the execution (WorkflowRunner.run throws): n8n answers 500 and does not save the static data.
	 */
	failStarts?: number;
}

export interface TriggerHost {
	/** The webhook URL (POST here). */
	url: string;
	/** One entry per started workflow: the items the node emitted. */
	emitted: INodeExecutionData[][];
	/** With `execute`: each finished workflow run (await `idle()` first). */
	executions: IRun[];
	/** Resolves when every started workflow run has finished. */
	idle(): Promise<void>;
	/** Every answered request, in order. */
	responses: RecordedResponse[];
	/** The workflow static data as last saved. */
	staticData(): IDataObject;
	close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function contentTypeOf(req: IncomingMessage): string | undefined {
	const header = req.headers['content-type'];
	return header ? header.split(';')[0].trim().toLowerCase() : undefined;
}

/** Like express: `status()`, `json()`, `send()` on the raw ServerResponse. */
type ExpressLikeResponse = ServerResponse & {
	status(code: number): ExpressLikeResponse;
	json(body: unknown): ExpressLikeResponse;
	send(body?: unknown): ExpressLikeResponse;
};

function expressLike(res: ServerResponse): ExpressLikeResponse {
	const r = res as ExpressLikeResponse;
	r.status = (code: number) => {
		r.statusCode = code;
		return r;
	};
	r.json = (body: unknown) => {
		if (!r.headersSent) r.setHeader('content-type', 'application/json; charset=utf-8');
		r.end(JSON.stringify(body));
		return r;
	};
	r.send = (body?: unknown) => {
		if (body === undefined || body === null) r.end();
		else if (Buffer.isBuffer(body)) r.end(body);
		else if (typeof body === 'object') return r.json(body);
		else {
			if (!r.headersSent && !r.getHeader('content-type'))
				r.setHeader('content-type', 'text/html; charset=utf-8');
			r.end(String(body));
		}
		return r;
	};
	return r;
}

/** Records what was written to the response, to report it to the test. */
function captureWrites(res: ServerResponse): () => string {
	const chunks: Buffer[] = [];
	const write = res.write.bind(res);
	const end = res.end.bind(res);
	const keep = (chunk: unknown) => {
		if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
	};
	res.write = ((chunk: unknown, ...rest: unknown[]) => {
		keep(chunk);
		return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
	}) as typeof res.write;
	res.end = ((chunk?: unknown, ...rest: unknown[]) => {
		keep(chunk);
		return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
	}) as typeof res.end;
	return () => Buffer.concat(chunks).toString('utf8');
}

let hostCounter = 0;

export async function startTriggerHost(opts: TriggerHostOptions = {}): Promise<TriggerHost> {
	const nodeType = opts.nodeType ?? new IdentityVerificationTrigger();
	const nodeTypes = new TriggerNodeTypes(nodeType);
	const credentials = opts.credentials ?? {};
	const mode: WorkflowExecuteMode = opts.mode ?? 'webhook';
	const workflowId =
		opts.workflowId ??
		`wf-${process.pid}-${++hostCounter}-${Math.random().toString(36).slice(2, 8)}`;
	const description = nodeType.description.webhooks?.[0] as IWebhookDescription;

	const node: INode = {
		id: 'a1b2c3d4-0000-4000-8000-000000000001',
		name: 'Identity Verification Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: opts.parameters ?? {},
		credentials: opts.credentials?.[SIGNING_CREDENTIAL]
			? { [SIGNING_CREDENTIAL]: { id: 'cred-1', name: 'Signing key' } }
			: undefined,
		webhookId: 'b1b2c3d4-0000-4000-8000-000000000002',
	};

	// The "database" copy of the workflow's static data.
	let storedStaticData: IDataObject = JSON.parse(JSON.stringify(opts.staticData ?? {}));

	const emitted: INodeExecutionData[][] = [];
	const executions: IRun[] = [];
	const pending: Array<Promise<void>> = [];
	let arrivals = 0;
	let failedStarts = 0;
	let releaseOverlap: () => void = () => {};
	const overlapReached = new Promise<void>((resolve) => {
		releaseOverlap = resolve;
	});
	const responses: RecordedResponse[] = [];

	function loadWorkflow(): Workflow {
		return new Workflow({
			id: workflowId,
			name: 'Trigger test workflow',
			nodes: [node],
			connections: {},
			active: mode !== 'manual',
			nodeTypes,
			staticData: JSON.parse(JSON.stringify(storedStaticData)),
			settings: {},
		});
	}

	function saveStaticData(workflow: Workflow): void {
		const data = workflow.staticData as IDataObject;
		if (data.__dataChanged === true) {
			const copy = JSON.parse(JSON.stringify(data)) as IDataObject;
			delete copy.__dataChanged;
			storedStaticData = copy;
		}
	}

	/** n8n's additional data for a webhook call: the shared harness's, plus the request and response. */
	function additionalDataFor(
		req?: IncomingMessage,
		res?: ServerResponse,
		hooks?: core.ExecutionLifecycleHooks,
	) {
		const base = makeAdditionalData(credentials, hooks) as IWorkflowExecuteAdditionalData &
			Record<string, unknown>;
		base.credentialsHelper = new HarnessCredentialsHelper(credentials);
		base.httpRequest = req;
		base.httpResponse = res;
		return base as IWorkflowExecuteAdditionalData;
	}

	async function runWorkflow(
		workflow: Workflow,
		workflowData: INodeExecutionData[][],
	): Promise<void> {
		const hooks = new core.ExecutionLifecycleHooks('webhook', `exec-${executions.length + 1}`, {
			id: workflowId,
			name: workflow.name ?? '',
			nodes: [node],
			connections: {},
			active: true,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		} as never);
		const additionalData = additionalDataFor(undefined, undefined, hooks);
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node, data: { main: workflowData }, source: null }],
			},
		});
		const execute = new core.WorkflowExecute(additionalData, 'webhook', runExecutionData);
		executions.push(await execute.processRunExecutionData(workflow));
	}

	async function handle(req: IncomingMessage, rawRes: ServerResponse): Promise<void> {
		const written = captureWrites(rawRes);
		const res = expressLike(rawRes);
		const record = (writtenByNode: boolean, workflowStarted: boolean) => {
			const text = written();
			let json: unknown;
			try {
				json = text ? JSON.parse(text) : undefined;
			} catch {
				json = undefined;
			}
			responses.push({ statusCode: res.statusCode, text, json, writtenByNode, workflowStarted });
		};

		if (req.method !== 'POST') {
			res.status(404).json({
				code: 404,
				message: `The requested webhook "${req.method} ${req.url}" is not registered.`,
			});
			record(false, false);
			return;
		}

		// n8n loads the workflow (with its static data) from the database when the request arrives,
		// before the body is read, and saves the static data after answering: requests that overlap
		// work on the same stored copy, as they do in n8n.
		const workflow = loadWorkflow();

		// n8n's rawBodyReader + parseBody.
		const rawBody = await readBody(req);
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const request = req as IncomingMessage & Record<string, unknown>;
		const contentType = contentTypeOf(req);
		Object.assign(request, {
			contentType,
			encoding: 'utf-8',
			params: {},
			query: Object.fromEntries(url.searchParams),
			readRawBody: async () => {},
		});
		if (!opts.withoutRawBody) request.rawBody = rawBody;
		if (rawBody.length > 0) {
			const text = rawBody.toString('utf8');
			const stripped = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
			if (contentType === 'application/json') {
				try {
					request.body = JSON.parse(stripped);
				} catch (error) {
					res.status(422).json({
						code: 422,
						message: 'Failed to parse request body',
						hint: (error as Error).message,
					});
					record(false, false);
					return;
				}
			} else if (contentType === 'application/x-www-form-urlencoded') {
				request.body = parseQueryString(stripped);
			} else if (contentType === 'text/plain') {
				request.body = text;
			}
		}

		if (opts.overlapFirst && arrivals < opts.overlapFirst) {
			arrivals += 1;
			if (arrivals === opts.overlapFirst) releaseOverlap();
			await overlapReached;
		}

		const additionalData = additionalDataFor(req, res);
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: `${node.webhookId}/${description.path}`,
			webhookDescription: description,
			workflowId,
			workflowExecuteAdditionalData: additionalData,
			webhookId: node.webhookId,
			isTest: mode === 'manual',
		};
		const closeFunctions: Array<() => Promise<void>> = [];
		const context = new core.WebhookContext(
			workflow,
			node,
			additionalData,
			mode,
			webhookData,
			closeFunctions,
			opts.waitingItems
				? createRunExecutionData({
						executionData: {
							nodeExecutionStack: [{ node, data: { main: [opts.waitingItems] }, source: null }],
						},
					})
				: null,
		);

		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook!.call(context);
		} catch (error) {
			if (!res.headersSent) {
				res
					.status(500)
					.json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
			}
			record(false, false);
			return;
		} finally {
			await Promise.allSettled(closeFunctions.map(async (fn) => await fn()));
		}

		let writtenByNode = false;
		if (result.noWebhookResponse === true) {
			writtenByNode = true;
			if (!rawRes.writableEnded) {
				// n8n would leave the request open until the sender times out; fail loudly instead.
				res.status(500).json({ harness: 'the node returned noWebhookResponse without answering' });
			}
		}

		if (result.workflowData === undefined) {
			if (!rawRes.writableEnded) {
				res.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
			}
			saveStaticData(workflow);
			record(writtenByNode, false);
			return;
		}

		if (failedStarts < (opts.failStarts ?? 0)) {
			failedStarts += 1;
			res.status(500).json({ code: 0, message: 'There was a problem executing the workflow' });
			record(writtenByNode, false);
			return;
		}

		emitted.push(result.workflowData[0] ?? []);
		if (opts.execute) {
			// Like n8n in onReceived mode: the run is started, the sender is answered without waiting.
			const workflowData = result.workflowData;
			pending.push(runWorkflow(loadWorkflow(), workflowData));
		}

		if (!rawRes.writableEnded) {
			const responseMode = description.responseMode ?? 'onReceived';
			if (responseMode !== 'onReceived')
				throw new Error(`responseMode ${responseMode} is not emulated`);
			const responseData =
				description.responseData === undefined ? 'firstEntryJson' : description.responseData;
			const code = Number(description.responseCode ?? 200);
			const body = responseData
				? responseData
				: (result.webhookResponse ?? { message: 'Workflow was started' });
			res.status(code);
			if (typeof body === 'string') res.send(body);
			else res.json(body);
		}
		saveStaticData(workflow);
		record(writtenByNode, true);
	}

	const server: Server = createServer((req, res) => {
		handle(req, res).catch((error: Error) => {
			if (!res.headersSent) {
				res.statusCode = 500;
				res.end(JSON.stringify({ harness: error.message }));
			}
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/webhook/${node.webhookId}/${description.path}`,
		emitted,
		executions,
		idle: async () => {
			await Promise.all(pending);
		},
		responses,
		staticData: () => JSON.parse(JSON.stringify(storedStaticData)),
		close: async () => {
			await Promise.allSettled(pending);
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};
}

/** The trigger's output items of an executed run (its first output). */
export function triggerOutput(run: IRun): INodeExecutionData[] {
	const runData = run.data.resultData.runData['Identity Verification Trigger'];
	return runData?.[0]?.data?.main?.[0] ?? [];
}
