// The whole local stack the demo, the e2e tests and the bench share: the sandbox service and the
// real n8n on loopback (the pin, or the version IDV_N8N_VERSION names: see runtime.cts), with this package installed the way n8n installs it, the three
// credentials pointing at the sandbox imported, workflows imported (and published where asked), the
// owner account set up, and the sandbox's webhook sender pointed at n8n.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startSandbox, type Sandbox, type StartSandboxOptions } from '../sandbox/index.cjs';
import {
	DEFAULT_OWNER,
	RestClient,
	describeN8n,
	ensureN8n,
	importCredentials,
	importWorkflow,
	installPackage,
	makeUserFolder,
	packPackage,
	portIsFree,
	publishWorkflow,
	startN8n,
	unpublishWorkflow,
	waitForPostWebhook,
	waitForWebhook,
	type CredentialImport,
	type N8nInstance,
} from './runtime.cjs';

/** Fixed ids of the sandbox credentials, so workflow JSON can reference them. */
export const CREDENTIALS = {
	api: {
		id: 'idvSandboxApiKey',
		name: 'Identity Verification sandbox',
		type: 'identityVerificationApi',
	},
	kybFormToken: {
		id: 'idvSandboxKybTok',
		name: 'Identity Verification sandbox (KYB form token)',
		type: 'identityVerificationKybFormTokenApi',
	},
	webhookSigning: {
		id: 'idvSandboxSignKy',
		name: 'Identity Verification sandbox (webhook signing key)',
		type: 'identityVerificationWebhookSigningApi',
	},
} as const;

/** Node types of this package as n8n names them. */
export const NODE_TYPES = {
	action: 'n8n-nodes-identity-verification.identityVerification',
	tool: 'n8n-nodes-identity-verification.identityVerificationTool',
	trigger: 'n8n-nodes-identity-verification.identityVerificationTrigger',
	pollingTrigger: 'n8n-nodes-identity-verification.identityVerificationPollingTrigger',
} as const;

/** A workflow node as the editor saves it. */
export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
}

let nodeCounter = 0;
/** A fresh node id (a UUID, as the editor writes them). */
export const nodeId = () => `00000000-0000-4000-8000-${String(++nodeCounter).padStart(12, '0')}`;

/** Connections that run the nodes one after the other, in the order given. */
export function chain(nodes: WorkflowNode[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return connections;
}

/** `credentials` entry of a workflow node for one of the sandbox credentials. */
export function credentialRef(
	which: keyof typeof CREDENTIALS,
): Record<string, { id: string; name: string }> {
	const c = CREDENTIALS[which];
	return { [c.type]: { id: c.id, name: c.name } };
}

export function sandboxCredentialImports(
	sandbox: Sandbox,
	overrides: Partial<Sandbox['credentials']> = {},
): CredentialImport[] {
	const creds = { ...sandbox.credentials, ...overrides };
	return [
		{
			...CREDENTIALS.api,
			data: { apiKey: creds.apiKey, apiSecret: creds.apiSecret, baseUrl: sandbox.url },
		},
		{ ...CREDENTIALS.kybFormToken, data: { formToken: creds.kybFormToken, baseUrl: sandbox.url } },
		{ ...CREDENTIALS.webhookSigning, data: { signingSecret: creds.signingKey } },
		...mailboxCredentialImports(sandbox),
	];
}

/** The demo's SMTP credential, which sends to the sandbox's mailbox (its inbox page). */
export const MAILBOX_CREDENTIAL = {
	id: 'idvSandboxMailbox',
	name: 'Sandbox mailbox (SMTP)',
	type: 'smtp',
} as const;

/** The SMTP credential of the sandbox's mailbox, when its SMTP server listens. */
function mailboxCredentialImports(sandbox: Sandbox): CredentialImport[] {
	const port = sandbox.mailbox.port();
	if (port === undefined) return [];
	const data = { user: '', password: '', host: '127.0.0.1', port, secure: false };
	return [{ ...MAILBOX_CREDENTIAL, data: { ...data, disableStartTls: true } }];
}

/** n8n's production URL of a webhook-based trigger node (`/webhook/<webhookId>/<path>`). */
export function productionWebhookUrl(
	n8nUrl: string,
	node: { webhookId: string },
	webhookPath = 'webhook',
): string {
	return `${n8nUrl}/webhook/${node.webhookId}/${webhookPath}`;
}

interface SavedWorkflow {
	workflow: {
		id: string;
		nodes: Array<{ name: string; type: string; webhookId?: string; parameters?: any }>;
	};
}

/** A workflow started by this package's trigger. */
export const triggerNodeOf = (w: SavedWorkflow) =>
	w.workflow.nodes.find((n) => n.type === NODE_TYPES.trigger);
export const isTriggerWorkflow = (w: SavedWorkflow) => triggerNodeOf(w) !== undefined;
/** The kinds the trigger listens to (none: every kind). */
export const triggerEvents = (w: SavedWorkflow) =>
	(triggerNodeOf(w)?.parameters?.events as string[] | undefined) ?? [];
export const triggerUrl = (stack: Pick<Stack, 'n8n'>, w: SavedWorkflow) =>
	productionWebhookUrl(stack.n8n.url, triggerNodeOf(w) as { webhookId: string });

/** Points the sandbox's webhook sender at a published trigger workflow and waits until n8n serves it. */
export async function connectTrigger(stack: Stack, w: SavedWorkflow): Promise<void> {
	const url = triggerUrl(stack, w);
	stack.sandbox.webhooks.configure({ url, signingKey: stack.sandbox.credentials.signingKey });
	await waitForWebhook(url);
}

/** A workflow started by n8n's Webhook node (a sign-up page posts a new customer to it). */
const signupNodeOf = (w: SavedWorkflow) =>
	w.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
export const isSignupWorkflow = (w: SavedWorkflow) => signupNodeOf(w) !== undefined;
export const signupUrl = (stack: Pick<Stack, 'n8n'>, w: SavedWorkflow) =>
	`${stack.n8n.url}/webhook/${signupNodeOf(w)!.parameters.path as string}`;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits (a minute at most) until n8n serves the sign-up webhook (n8n registers a published
 * workflow's webhooks a moment after it starts), without starting the workflow: waitForPostWebhook.
 */
export async function waitForSignup(url: string): Promise<void> {
	await waitForPostWebhook(url, { timeoutMs: 60_000 });
}

/**
 * A customer signs up: `{ customerId, email }` posted to the workflow's sign-up webhook (again
 * while n8n answers 404, as it does until it has registered a published webhook). Resolves with
 * n8n's answer: the onboarding answers with the verification link, `{ verificationUrl, scanRef }`.
 */
export async function signUp(
	stack: Pick<Stack, 'n8n'>,
	w: SavedWorkflow,
	customerId: string,
): Promise<{ status: number; answer: any }> {
	const body = JSON.stringify({ customerId, email: `${customerId}@example.com` });
	const deadline = Date.now() + 60_000;
	for (;;) {
		const res = await fetch(signupUrl(stack, w), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body,
		});
		const text = await res.text();
		if (res.status !== 404 || Date.now() > deadline) {
			let answer: unknown = text;
			try {
				answer = JSON.parse(text);
			} catch {
				// Not JSON: kept as text for the error message.
			}
			return { status: res.status, answer };
		}
		await pause(200);
	}
}

/**
 * One run of the one-workflow onboarding: a customer signs up, the execution waits for the result,
 * the sandbox approves the verification and delivers the result to the token's callback URL (the
 * resume URL). Resolves with the finished execution (throws when it never waits or never ends).
 */
export async function runSignupApproved(
	stack: Pick<Stack, 'n8n' | 'rest' | 'sandbox'>,
	w: SavedWorkflow,
	customerId: string,
): Promise<{ id: string; status: string; data: any }> {
	const before = new Set((await stack.rest.listExecutions(w.workflow.id)).map((e) => e.id));
	const { status, answer } = await signUp(stack, w, customerId);
	if (status >= 400)
		throw new Error(`the sign-up webhook answered ${status}: ${JSON.stringify(answer)}`);
	let waiting: string | undefined;
	for (let i = 0; i < 240 && !waiting; i++) {
		await pause(250);
		const list = await stack.rest.listExecutions(w.workflow.id);
		waiting = list.find((e) => !before.has(e.id) && e.status === 'waiting')?.id;
	}
	if (!waiting) throw new Error('no execution started waiting');
	const exec = await stack.rest.getExecution(waiting);
	const token = exec.data.resultData.runData['Create Verification Token'][0].data.main[0][0];
	await stack.sandbox.kyc.autoFinish(token.json.scanRef, { final: true, overall: 'APPROVED' });
	for (let i = 0; i < 240; i++) {
		const done = await stack.rest.getExecution(waiting);
		if (!['new', 'running', 'waiting'].includes(done.status)) return done;
		await pause(250);
	}
	throw new Error(`execution ${waiting} still waiting after the result`);
}

interface SwitchNode {
	name: string;
	parameters?: {
		rules?: { values?: Array<{ outputKey?: string }> };
		options?: { fallbackOutput?: unknown; renameFallbackOutput?: string };
	};
}

/**
 * The outputs of a Switch node by the names the workflow gives them (its rules' output keys, then
 * the fallback output when it has one): the routes of a result, e.g. "Approved".
 */
export function switchOutputNames(node: SwitchNode): string[] {
	const names = (node.parameters?.rules?.values ?? []).map((rule, i) => rule.outputKey ?? `${i}`);
	const fallback = node.parameters?.options?.fallbackOutput === 'extra';
	return fallback
		? [...names, node.parameters?.options?.renameFallbackOutput ?? 'Fallback']
		: names;
}

/** The names of the Switch node's outputs that items left by in an execution's run data. */
export function routesTaken(
	node: SwitchNode,
	runData: Record<string, Array<{ data?: { main?: Array<unknown[] | null> } }>>,
): string[] {
	const main = runData[node.name]?.at(-1)?.data?.main ?? [];
	const names = switchOutputNames(node);
	return main.flatMap((items, i) => ((items?.length ?? 0) > 0 ? [names[i] ?? `${i}`] : []));
}

export interface Stack {
	sandbox: Sandbox;
	n8n: N8nInstance;
	rest: RestClient;
	userFolder: string;
	owner: typeof DEFAULT_OWNER;
	/** Seconds each set-up phase took (install check, pack+install, imports, start). */
	timings: Record<string, number>;
	stop(): Promise<void>;
}

export interface StackOptions {
	/** Preferred n8n port (used when free; a random free port otherwise). Default: random. */
	n8nPort?: number;
	/** Preferred sandbox port (same rule). Default: random. */
	sandboxPort?: number;
	/** Workflows to import (each with an `id`); or made once the sandbox runs, from its address. */
	workflows?: object[] | ((sandbox: Pick<Sandbox, 'url'>) => object[]);
	/** Ids of imported workflows to publish (activate) before n8n starts. */
	publish?: string[];
	userFolder?: string;
	log?: (msg: string) => void;
	/** Extra environment for n8n (e.g. the bench's diagnostic `N8N_EXPRESSION_ENGINE=legacy`). */
	n8nEnv?: Record<string, string>;
	/** Install this packed build instead of packing the working tree (the bench's `--package-tarball`). */
	tarball?: string;
	/** Options of the sandbox (its port is `sandboxPort`'s). */
	sandbox?: Omit<StartSandboxOptions, 'port'>;
}

async function preferredPort(port: number | undefined): Promise<number | undefined> {
	if (port === undefined) return undefined;
	return (await portIsFree(port)) ? port : undefined;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
	const log = opts.log ?? ((m: string) => process.stderr.write(`[stack] ${m}\n`));
	const timings: Record<string, number> = {};
	let t = Date.now();
	const lap = (name: string) => {
		timings[name] = (Date.now() - t) / 1000;
		t = Date.now();
	};
	ensureN8n({ log });
	lap('n8n install (cache check)');
	const ownFolder = opts.userFolder === undefined;
	const userFolder = opts.userFolder ?? makeUserFolder();
	log(`Installing the packed package into ${userFolder} (as n8n installs community packages)...`);
	const tarball = opts.tarball ?? packPackage({ log });
	try {
		installPackage(userFolder, { tarball, log });
	} finally {
		if (!opts.tarball) rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
	lap('pack + install package');
	// A folder the stack made is removed on stop unless IDV_KEEP_N8N=1 (to inspect n8n's log and DB).
	const removeFolder = () => {
		if (ownFolder && process.env.IDV_KEEP_N8N !== '1')
			rmSync(userFolder, { recursive: true, force: true });
	};
	const sandbox = await startSandbox({
		...opts.sandbox,
		port: await preferredPort(opts.sandboxPort),
	});
	let n8n: N8nInstance | undefined;
	try {
		const workflows =
			typeof opts.workflows === 'function' ? opts.workflows(sandbox) : (opts.workflows ?? []);
		log(`Sandbox on ${sandbox.url}; importing credentials and ${workflows.length} workflows...`);
		// A reused folder: n8n refuses to re-import over a published workflow, so unpublish it first.
		if (existsSync(path.join(userFolder, '.n8n', 'database.sqlite'))) {
			for (const id of opts.publish ?? []) await unpublishWorkflow(userFolder, id);
		}
		await importCredentials(userFolder, sandboxCredentialImports(sandbox));
		if (workflows.length > 0) await importWorkflow(userFolder, workflows);
		for (const id of opts.publish ?? []) await publishWorkflow(userFolder, id);
		lap('import credentials + workflows');
		log(`Starting ${describeN8n()}...`);
		n8n = await startN8n({
			userFolder,
			port: await preferredPort(opts.n8nPort),
			env: opts.n8nEnv,
			log,
		});
		lap('n8n start');
		const rest = new RestClient(n8n.url);
		await rest.setupOwnerOrLogin(DEFAULT_OWNER);
		const started = n8n;
		let stopped = false;
		return {
			sandbox,
			n8n,
			rest,
			userFolder,
			owner: DEFAULT_OWNER,
			timings,
			stop: async () => {
				if (stopped) return;
				stopped = true;
				await Promise.allSettled([started.stop(), sandbox.close()]);
				removeFolder();
			},
		};
	} catch (error) {
		await Promise.allSettled([n8n?.stop(), sandbox.close()]);
		if (n8n) process.stderr.write(`[stack] n8n log ${n8n.logFile}:\n${n8n.logTail(40)}\n`);
		removeFolder();
		throw error;
	}
}
