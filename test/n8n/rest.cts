// A running n8n over HTTP: its REST API as the editor calls it (signed in as the owner), and its
// production webhooks, which n8n registers a moment after a workflow is published (part of
// runtime.cts, which re-exports it).
import { randomBytes } from 'node:crypto';

import { requireFromN8n } from './install.cjs';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Sandbox-Owner-1',
};

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	finished?: boolean;
	startedAt?: string;
	stoppedAt?: string;
}

/** Statuses of an execution that has not ended (it may still change). */
const UNFINISHED = ['new', 'running', 'waiting'];

/**
 * Each execution once. Without a status filter n8n lists the running and the ended executions with
 * two queries read at different moments, so one that ends in between is in both: the ended entry is
 * kept (an end is final), otherwise the first.
 */
function uniqueExecutions(list: ExecutionSummary[]): ExecutionSummary[] {
	const byId = new Map<string, ExecutionSummary>();
	for (const execution of list) {
		const seen = byId.get(execution.id);
		if (!seen || (UNFINISHED.includes(seen.status) && !UNFINISHED.includes(execution.status)))
			byId.set(execution.id, execution);
	}
	return [...byId.values()];
}

export class RestClient {
	private cookie = '';
	private readonly browserId = randomBytes(8).toString('hex');

	constructor(readonly baseUrl: string) {}

	async request<T = any>(
		method: string,
		route: string,
		body?: unknown,
	): Promise<{ status: number; body: T }> {
		const res = await fetch(`${this.baseUrl}/rest${route}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': this.browserId,
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (setCookie) this.cookie = setCookie.split(';')[0];
		const text = await res.text();
		let parsed: any = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON
		}
		return { status: res.status, body: parsed?.data !== undefined ? parsed.data : parsed };
	}

	private async ok<T = any>(method: string, route: string, body?: unknown): Promise<T> {
		const res = await this.request<T>(method, route, body);
		if (res.status >= 400) {
			throw new Error(
				`n8n REST ${method} ${route} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`,
			);
		}
		return res.body;
	}

	/** Sets up the instance owner (first run) or signs in (owner exists). */
	async setupOwnerOrLogin(owner = DEFAULT_OWNER): Promise<void> {
		const setup = await this.request('POST', '/owner/setup', owner);
		if (setup.status < 400) return;
		await this.login(owner.email, owner.password);
	}

	async login(email: string, password: string): Promise<void> {
		await this.ok('POST', '/login', { emailOrLdapLoginId: email, password });
	}

	/**
	 * The editor's "Test" button of a stored credential: POST /rest/credentials/test with
	 * { credentials: { id, name, type, data } }; `data` replaces the stored data for the test.
	 */
	async testCredential(credential: {
		id: string;
		name?: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<{ status: 'OK' | 'Error'; message: string }> {
		return await this.ok('POST', '/credentials/test', { credentials: { name: '', ...credential } });
	}

	/** Creates a credential as the editor's Save does (POST /rest/credentials); returns its id. */
	async createCredential(credential: {
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<string> {
		return (await this.ok<{ id: string }>('POST', '/credentials', credential)).id;
	}

	/** Creates a workflow as the editor's Save does (POST /rest/workflows); returns its id. */
	async createWorkflow(workflow: {
		name: string;
		nodes: object[];
		connections: object;
		settings?: object;
	}): Promise<string> {
		const created = await this.ok<{ id: string }>('POST', '/workflows', {
			active: false,
			settings: { executionOrder: 'v1' },
			...workflow,
		});
		return created.id;
	}

	/** A binary file of an execution as the editor's Download button gets it (GET /rest/binary-data). */
	async downloadBinary(
		binaryDataId: string,
	): Promise<{ status: number; contentType: string; disposition: string; bytes: Buffer }> {
		const res = await fetch(
			`${this.baseUrl}/rest/binary-data?id=${encodeURIComponent(binaryDataId)}&action=download`,
			{ headers: { 'browser-id': this.browserId, cookie: this.cookie } },
		);
		return {
			status: res.status,
			contentType: res.headers.get('content-type') ?? '',
			disposition: res.headers.get('content-disposition') ?? '',
			bytes: Buffer.from(await res.arrayBuffer()),
		};
	}

	/** Activates (publishes) a workflow in a running n8n, as the editor's toggle does. */
	async activate(workflowId: string): Promise<void> {
		const wf = await this.ok<{ versionId: string }>('GET', `/workflows/${workflowId}`);
		const res = await this.request('POST', `/workflows/${workflowId}/activate`, {
			versionId: wf.versionId,
		});
		if (res.status >= 400) {
			throw new Error(
				`activating workflow ${workflowId} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`,
			);
		}
	}

	/**
	 * The workflow's newest executions, each once: up to `limit` running ones, then up to `limit`
	 * ended ones, newest first (n8n caps `limit` at 100).
	 */
	async listExecutions(workflowId: string, limit = 100): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const body = await this.ok<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${filter}&limit=${limit}`,
		);
		return uniqueExecutions(body.results);
	}

	/** How many of the workflow's newest executions (listExecutions) there are, or match `filter`. */
	async countExecutions(
		workflowId: string,
		filter: (execution: ExecutionSummary) => boolean = () => true,
	): Promise<number> {
		return (await this.listExecutions(workflowId)).filter(filter).length;
	}

	/** One execution with its run data decoded (n8n stores it flatted-serialised). */
	async getExecution(id: string): Promise<ExecutionSummary & { data: any; workflowData?: any }> {
		const body = await this.ok<any>('GET', `/executions/${id}`);
		if (typeof body.data === 'string') {
			const flatted = requireFromN8n<{ parse(s: string): any }>('flatted');
			body.data = flatted.parse(body.data);
		}
		return body;
	}

	/** Waits until the workflow has at least `count` finished executions; returns them newest first. */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 30_000,
	): Promise<ExecutionSummary[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const list = await this.listExecutions(workflowId);
			const done = list.filter((e) => !UNFINISHED.includes(e.status));
			if (done.length >= count) return done;
			if (Date.now() > deadline) {
				throw new Error(
					`expected ${count} finished executions of workflow ${workflowId}, found ${done.length} (of ${list.length})`,
				);
			}
			await pause(250);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Production webhooks
// ---------------------------------------------------------------------------------------------

/**
 * Waits until n8n serves a production webhook and returns the probe's status. n8n 2.x activates
 * (publishes) workflows asynchronously, after start and after the activate call, so a webhook
 * answers 404 for a moment. The default probe is an empty unsigned POST: the trigger refuses it
 * (401) without starting a workflow.
 */
export async function waitForWebhook(
	url: string,
	{ init, timeoutMs = 60_000 }: { init?: RequestInit; timeoutMs?: number } = {},
): Promise<number> {
	const probe: RequestInit = init ?? {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
	};
	const deadline = Date.now() + timeoutMs;
	let last = 0;
	for (;;) {
		last = await fetch(url, probe).then(
			async (r) => {
				await r.arrayBuffer();
				return r.status;
			},
			() => 0,
		);
		if (last !== 404 && last !== 0) return last;
		if (Date.now() > deadline)
			throw new Error(
				`n8n did not register the webhook ${url} within ${timeoutMs} ms (last answer ${last})`,
			);
		await pause(200);
	}
}

/**
 * Sends a request (POST unless `init` names another method) to a production webhook, again while
 * n8n answers 404, and returns the status. n8n registers a published workflow's webhooks a moment
 * after it starts or activates it, and its 404 starts nothing, so the retry never runs a workflow
 * twice; any other answer, and a failed connection, ends it. `body` is a string so it can be sent again.
 */
export async function postWhenRegistered(
	url: string,
	init: Omit<RequestInit, 'body'> & { body?: string },
	{ timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<number> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await fetch(url, { method: 'POST', ...init });
		await res.arrayBuffer();
		if (res.status !== 404) return res.status;
		if (Date.now() > deadline)
			throw new Error(`n8n did not register the webhook ${url} within ${timeoutMs} ms (404)`);
		await pause(200);
	}
}

/** n8n's 404 for a method a registered webhook path does not serve names the methods it does. */
const OFFERS_POST = /Did you mean to make an? [^?"]*\bPOST\b/;

/**
 * Waits until n8n serves POST on a webhook path it serves for POST only, starting nothing: it
 * answers a GET there 404 either way, but once it has registered the POST webhook the answer names
 * POST (looked up where a POST is). A CORS preflight (OPTIONS) does not tell: n8n answers it 204 on
 * any path, registered or not.
 */
export async function waitForPostWebhook(
	url: string,
	{ timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let last = 'no answer';
	for (;;) {
		const res = await fetch(url).catch(() => undefined);
		const text = res ? await res.text() : '';
		if (res && res.status !== 404)
			throw new Error(`GET ${url} answered ${res.status}: the path serves GET, not only POST`);
		if (OFFERS_POST.test(text)) return;
		if (res) last = `404 ${text.slice(0, 200)}`;
		if (Date.now() > deadline)
			throw new Error(
				`n8n did not register the webhook POST ${url} within ${timeoutMs} ms (${last})`,
			);
		await pause(250);
	}
}
