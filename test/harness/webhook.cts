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
 * - `webhook()` throws: 500 `{"code":0,"message":"Workflow Webhook Error: Workflow could not be started!"}`,
 *   and the error is recorded with the answer (`webhookError`): n8n runs the workflow with it, and
 *   its trigger node throws it, so a manual run ends with it in the editor;
 * - with `failStarts`, creating the execution fails after `webhook()` returned items: 500, and the
 *   static data is not saved (n8n saves it only in the success callback);
 * - workflow static data is loaded for each request from the host's "database" and saved after the
 *   answer when it changed (n8n's LiveWebhooks + WorkflowStaticDataService): concurrent requests
 *   see the same copy, exactly as in n8n.
 *
 * Credentials are handed out by the shared harness's CredentialsHelper (credentials-helper.cts),
 * and the credential test runs through its CredentialsTester equivalent.
 *
 * Emitted items are recorded; with `execute: true` each emission is also run through n8n-core's
 * `WorkflowExecute` (the trigger as first node) after the sender was answered, as n8n does in
 * `onReceived` mode; `idle()` waits for those runs.
 *
 * This file is the entry tests import; the parts live in trigger-host/ (see README.md).
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// n8n-core must resolve its own copies of the DI container and logger (they are nested in its
// node_modules), and InstanceSettings needs a user folder: a throwaway one, set before first use.
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'idv-n8n-user-'));
// Tests run quietly unless N8N_LOG_LEVEL is set (spy on n8nLogger() to assert what a node logs).
process.env.N8N_LOG_LEVEL ??= 'silent';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IWebhookDescription,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { IdentityVerificationTrigger } from '../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import { testCredential } from './index.cjs';
import { handleWebhookRequest, Overlap, type HostState } from './trigger-host/handler.cjs';
import { SIGNING_CREDENTIAL, triggerNode } from './trigger-host/node.cjs';
import type { RecordedResponse } from './trigger-host/response.cjs';
import { WorkflowStore } from './trigger-host/workflow.cjs';

export { SIGNING_CREDENTIAL, triggerOutput } from './trigger-host/node.cjs';

const coreRequire = createRequire(require.resolve('n8n-core'));
const { Container } = coreRequire('@n8n/di') as typeof import('@n8n/di');

/** The logger n8n-core's contexts write to (`this.logger` in a node). Spy on it to see node logs. */
export function n8nLogger(): { error: (...a: unknown[]) => void; warn: (...a: unknown[]) => void } {
	const { Logger } = coreRequire('@n8n/backend-common') as {
		Logger: new (...a: unknown[]) => unknown;
	};
	return Container.get(Logger as never) as never;
}

/** The signing key credential's test as n8n's CredentialsTester runs it (the trigger's `testedBy`). */
export async function testSigningKeyCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	return await testCredential(SIGNING_CREDENTIAL, data);
}

export interface TriggerHostOptions {
	/** The node's parameters (defaults of the node apply to what is left out). */
	parameters?: INodeParameters;
	/** Decrypted credentials by type, e.g. `{ identityVerificationWebhookSigningApi: { signingSecret } }`. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** The node's version as saved in the workflow (default 1). */
	typeVersion?: number;
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

let hostCounter = 0;

/** The host's state before its first request, from the options. */
function hostState(opts: TriggerHostOptions): HostState {
	const nodeType = opts.nodeType ?? new IdentityVerificationTrigger();
	const mode: WorkflowExecuteMode = opts.mode ?? 'webhook';
	const workflowId =
		opts.workflowId ??
		`wf-${process.pid}-${++hostCounter}-${Math.random().toString(36).slice(2, 8)}`;
	const node = triggerNode(
		opts.parameters,
		Boolean(opts.credentials?.[SIGNING_CREDENTIAL]),
		opts.typeVersion,
	);
	const description = nodeType.description.webhooks?.[0] as IWebhookDescription;
	return {
		call: { nodeType, node, description, mode, waitingItems: opts.waitingItems },
		credentials: opts.credentials ?? {},
		store: new WorkflowStore(workflowId, node, nodeType, mode !== 'manual', opts.staticData),
		overlap: new Overlap(opts.overlapFirst),
		withoutRawBody: opts.withoutRawBody,
		execute: opts.execute,
		failStarts: opts.failStarts ?? 0,
		failedStarts: 0,
		emitted: [],
		executions: [],
		pending: [],
		responses: [],
	};
}

/** A loopback server that hands every request to the host; a harness failure answers 500. */
async function listen(host: HostState): Promise<Server> {
	const server: Server = createServer((req, res) => {
		handleWebhookRequest(host, req, res).catch((error: Error) => {
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
	return server;
}

export async function startTriggerHost(opts: TriggerHostOptions = {}): Promise<TriggerHost> {
	const host = hostState(opts);
	const server = await listen(host);
	const { port } = server.address() as AddressInfo;
	const { node, description } = host.call;
	return {
		url: `http://127.0.0.1:${port}/webhook/${node.webhookId}/${description.path}`,
		emitted: host.emitted,
		executions: host.executions,
		idle: async () => {
			await Promise.all(host.pending);
		},
		responses: host.responses,
		staticData: () => host.store.staticData(),
		close: async () => {
			await Promise.allSettled(host.pending);
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};
}
