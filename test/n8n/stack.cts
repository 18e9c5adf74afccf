// The whole local stack the demo, the e2e tests and the bench share: the sandbox service and the
// real n8n on loopback (the pin, or the version IDV_N8N_VERSION names: see runtime.cts), with this package installed the way n8n installs it, the three
// credentials pointing at the sandbox imported, workflows imported (and published where asked), the
// owner account set up, and the sandbox's webhook sender pointed at n8n.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../sandbox/index.cjs';
import {
	DEFAULT_OWNER,
	ROOT,
	RestClient,
	describeN8n,
	ensureN8n,
	importCredentials,
	importWorkflow,
	installPackage,
	makeUserFolder,
	packPackage,
	portIsFree,
	postWhenRegistered,
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
	];
}

/** The demo's example workflows (test/demo/workflows/*.json), in file-name order. */
export function demoWorkflows(): Array<{ file: string; workflow: any }> {
	const dir = path.join(ROOT, 'test', 'demo', 'workflows');
	return readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) }));
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
export const triggerUrl = (stack: Pick<Stack, 'n8n'>, w: SavedWorkflow) =>
	productionWebhookUrl(stack.n8n.url, triggerNodeOf(w) as { webhookId: string });

/** Points the sandbox's webhook sender at a published trigger workflow and waits until n8n serves it. */
export async function connectTrigger(stack: Stack, w: SavedWorkflow): Promise<void> {
	const url = triggerUrl(stack, w);
	stack.sandbox.webhooks.configure({ url, signingKey: stack.sandbox.credentials.signingKey });
	await waitForWebhook(url);
}

/** A workflow started by n8n's Webhook node (the one-workflow onboarding's sign-up form). */
const signupNodeOf = (w: SavedWorkflow) =>
	w.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
export const isSignupWorkflow = (w: SavedWorkflow) => signupNodeOf(w) !== undefined;
export const signupUrl = (stack: Pick<Stack, 'n8n'>, w: SavedWorkflow) =>
	`${stack.n8n.url}/webhook/${signupNodeOf(w)!.parameters.path as string}`;

/** Stack options for the demo (and its pictures): its workflows, those started by a webhook published. */
export function demoStackOptions(): Pick<StackOptions, 'workflows' | 'publish'> {
	const workflows = demoWorkflows();
	return {
		workflows: workflows.map((w) => w.workflow),
		publish: workflows
			.filter((w) => isTriggerWorkflow(w) || isSignupWorkflow(w))
			.map((w) => w.workflow.id),
	};
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits (a minute at most) until n8n serves the sign-up webhook (n8n registers a published
 * workflow's webhooks a moment after it starts), without starting the workflow: waitForPostWebhook.
 */
export async function waitForSignup(url: string): Promise<void> {
	await waitForPostWebhook(url, { timeoutMs: 60_000 });
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
	const status = await postWhenRegistered(signupUrl(stack, w), {
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ customerId, email: `${customerId}@example.com` }),
	});
	if (status >= 400) throw new Error(`the sign-up webhook answered ${status}`);
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
	/** Workflows to import (each with an `id`). */
	workflows?: object[];
	/** Ids of imported workflows to publish (activate) before n8n starts. */
	publish?: string[];
	userFolder?: string;
	log?: (msg: string) => void;
	/** Extra environment for n8n (e.g. the bench's diagnostic `N8N_EXPRESSION_ENGINE=legacy`). */
	n8nEnv?: Record<string, string>;
	/** Install this packed build instead of packing the working tree (the bench's `--package-tarball`). */
	tarball?: string;
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
	const sandbox = await startSandbox({ port: await preferredPort(opts.sandboxPort) });
	let n8n: N8nInstance | undefined;
	try {
		log(
			`Sandbox on ${sandbox.url}; importing credentials and ${opts.workflows?.length ?? 0} workflows...`,
		);
		// A reused folder: n8n refuses to re-import over a published workflow, so unpublish it first.
		if (existsSync(path.join(userFolder, '.n8n', 'database.sqlite'))) {
			for (const id of opts.publish ?? []) await unpublishWorkflow(userFolder, id);
		}
		await importCredentials(userFolder, sandboxCredentialImports(sandbox));
		if (opts.workflows && opts.workflows.length > 0)
			await importWorkflow(userFolder, opts.workflows);
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
