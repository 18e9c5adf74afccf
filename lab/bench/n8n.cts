// The bench's use of the real n8n: the shared stack with the null community trigger installed
// beside this package, workflows and credentials made through n8n's API, one measured run of a
// workflow timed by n8n itself, and deliveries sent at a given number in flight.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';

import { signedDelivery, type WebhookRequest } from '../../test/sandbox/index.cjs';
import {
	ROOT,
	RestClient,
	installPackage,
	makeUserFolder,
	postWhenRegistered,
} from '../../test/n8n/runtime.cjs';
import { startStack, type Stack } from '../../test/n8n/stack.cjs';
import { log, now, sleep, type Options } from './common.cjs';
import { NULL_TRIGGER, type Workflow } from './workflows.cjs';

/** `npm pack` of the null community trigger fixture (lab/bench/null-trigger) into `destination`. */
export function packNullTrigger(destination: string): string {
	const res = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: path.join(ROOT, 'lab', 'bench', 'null-trigger'),
		encoding: 'utf8',
	});
	if (res.status !== 0) throw new Error(`npm pack of the null trigger failed:\n${res.stderr}`);
	const [info] = JSON.parse(res.stdout) as Array<{ filename: string }>;
	return path.join(destination, info.filename);
}

/**
 * The shared stack (test/n8n/stack.cts), with the diagnostic --n8n-env / --package-tarball if
 * given, and the null community trigger installed beside this package as n8n installs packages.
 */
export async function startBenchStack(opts: Options): Promise<Stack> {
	const userFolder = makeUserFolder('idv-bench-');
	const removeFolder = () => {
		if (process.env.IDV_KEEP_N8N !== '1') rmSync(userFolder, { recursive: true, force: true });
	};
	const packDir = mkdtempSync(path.join(tmpdir(), 'idv-bench-null-'));
	try {
		installPackage(userFolder, {
			tarball: packNullTrigger(packDir),
			name: NULL_TRIGGER.packageName,
			log: (m) => log(m),
		});
		const stack = await startStack({
			log: (m) => log(m),
			// n8n answers every request 503 while a database ping takes over 5 s, which happens on a
			// loaded machine with 50 deliveries in flight (SQLite's pool queues behind execution
			// writes). A longer ping timeout keeps such rounds measurable; it is the same for every
			// variant and changes nothing else.
			n8nEnv: { DB_PING_TIMEOUT_MS: '60000', ...opts.n8nEnv },
			tarball: opts.tarball,
			userFolder,
		});
		return { ...stack, stop: async () => void (await stack.stop(), removeFolder()) };
	} catch (error) {
		removeFolder();
		throw error;
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}

export async function createActive(rest: RestClient, workflow: Workflow): Promise<string> {
	const id = await rest.createWorkflow(workflow as never);
	await rest.activate(id);
	return id;
}

/**
 * n8n answers 503 ("Database is not ready!") while its database ping times out, which happens on a
 * loaded machine: ask again, once a second, for at most 30 s.
 */
export async function whileBusy<T>(fn: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await fn();
		} catch (error) {
			if (attempt >= 30 || !/\b503\b/.test(String((error as Error)?.message))) throw error;
			await sleep(1000);
		}
	}
}

/** Number of executions n8n has stored for a workflow (any status). */
async function executionCount(rest: RestClient, workflowId: string): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const res = await rest.request<{ count: number }>('GET', `/executions?filter=${filter}&limit=1`);
	if (res.status >= 400) throw new Error(`listing executions failed: ${res.status}`);
	return Number(res.body.count);
}

async function newestExecutionId(rest: RestClient, workflowId: string): Promise<number> {
	const list = await rest.listExecutions(workflowId, 5);
	return list.reduce((max, e) => Math.max(max, Number(e.id)), 0);
}

export interface MeasuredRun {
	executionTime: number;
	items: number;
	requests: number;
}

/** The first finished execution after `before`, waited for at most 120 s. */
async function finishedAfter(stack: Stack, workflowId: string, before: number) {
	const deadline = Date.now() + 120_000;
	for (;;) {
		const list = await whileBusy(() => stack.rest.listExecutions(workflowId, 5));
		const done = list.find(
			(e) => Number(e.id) > before && !['new', 'running', 'waiting'].includes(e.status),
		);
		if (done) return await whileBusy(() => stack.rest.getExecution(done.id));
		if (Date.now() > deadline)
			throw new Error(`no finished execution of workflow ${workflowId} after 120 s`);
		await sleep(100);
	}
}

/**
 * Runs a measured workflow once through its webhook (which answers when the workflow has ended) and
 * reads the measured node's `executionTime` from the execution n8n stored.
 */
export async function runMeasured(
	stack: Stack,
	workflowId: string,
	webhookPath: string,
	nodeName: string,
	body: unknown,
	countPath: string,
): Promise<MeasuredRun> {
	const before = await whileBusy(() => newestExecutionId(stack.rest, workflowId));
	const requestsBefore = stack.sandbox.count({ path: countPath });
	const status = await postWhenRegistered(
		`${stack.n8n.url}/webhook/${webhookPath}`,
		{ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) },
		{ timeoutMs: 30_000 },
	);
	if (status >= 400) throw new Error(`webhook ${webhookPath} answered ${status}`);
	const execution = await finishedAfter(stack, workflowId, before);
	const task = execution.data?.resultData?.runData?.[nodeName]?.[0];
	if (execution.status !== 'success' || !task) {
		const error = execution.data?.resultData?.error;
		throw new Error(
			`execution ${execution.id} of ${nodeName} did not succeed: ${execution.status} ${error?.message ?? ''} ${error?.description ?? ''}`,
		);
	}
	return {
		executionTime: Number(task.executionTime),
		items: (task.data?.main?.[0] ?? []).length,
		requests: stack.sandbox.count({ path: countPath }) - requestsBefore,
	};
}

/** Creates a credential of one of n8n's own types; what a workflow node refers to it by. */
export async function createCredential(
	stack: Stack,
	name: string,
	type: string,
	data: Record<string, unknown>,
): Promise<{ id: string; name: string }> {
	const res = await stack.rest.request<{ id: string }>('POST', '/credentials', {
		name,
		type,
		data,
	});
	if (res.status >= 400 || !res.body?.id)
		throw new Error(
			`creating the ${type} credential failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
		);
	return { id: String(res.body.id), name };
}

/** A generic Basic-auth credential holding the same key and secret as the package's credential. */
export const createBasicAuthCredential = (stack: Stack) =>
	createCredential(stack, 'Sandbox via Basic Auth (bench)', 'httpBasicAuth', {
		user: stack.sandbox.credentials.apiKey,
		password: stack.sandbox.credentials.apiSecret,
	});

// ---------------------------------------------------------------------------------------------
// Deliveries
// ---------------------------------------------------------------------------------------------

export type Delivery = WebhookRequest;

/** Signed deliveries with unique bodies (each a real event with its own scanRef). */
export function makeDeliveries(count: number, signingKey: string): Delivery[] {
	return Array.from({ length: count }, () => signedDelivery(signingKey));
}

export interface Blast {
	elapsedMs: number;
	latencies: number[];
	statuses: Record<number, number>;
}

/** Sends the deliveries to `urlPath`, `concurrency` in flight. */
export async function blast(
	pool: Pool,
	urlPath: string,
	deliveries: Delivery[],
	concurrency: number,
): Promise<Blast> {
	let next = 0;
	const latencies: number[] = [];
	const statuses: Record<number, number> = {};
	const started = now();
	const worker = async () => {
		while (next < deliveries.length) {
			const d = deliveries[next++];
			const t0 = now();
			const res = await pool.request({
				method: 'POST',
				path: urlPath,
				headers: d.headers,
				body: d.body,
			});
			await res.body.dump();
			latencies.push(now() - t0);
			statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return { elapsedMs: now() - started, latencies, statuses };
}

/** Waits until n8n has stored `expected` executions of the workflow and none is still running. */
export async function settle(
	rest: RestClient,
	workflowId: string,
	expected: number,
	timeoutMs = 180_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const count = await whileBusy(() => executionCount(rest, workflowId));
		if (count >= expected) {
			const recent = await whileBusy(() => rest.listExecutions(workflowId, 100));
			if (!recent.some((e) => ['new', 'running', 'waiting'].includes(e.status))) {
				if (count > expected)
					throw new Error(`workflow ${workflowId} has ${count} executions, expected ${expected}`);
				return;
			}
		}
		if (Date.now() > deadline)
			throw new Error(
				`workflow ${workflowId}: ${count} of ${expected} executions after ${timeoutMs} ms`,
			);
		await sleep(200);
	}
}

/**
 * Waits until the workflow's executions stop changing (same count twice, 500 ms apart, none
 * running) and returns that count: a probe's execution may be stored only after its answer.
 */
export async function quiesce(
	rest: RestClient,
	workflowId: string,
	timeoutMs = 180_000,
): Promise<number> {
	const deadline = Date.now() + timeoutMs;
	let last = -1;
	for (;;) {
		const count = await whileBusy(() => executionCount(rest, workflowId));
		const recent = await whileBusy(() => rest.listExecutions(workflowId, 100));
		const running = recent.some((e) => ['new', 'running', 'waiting'].includes(e.status));
		if (!running && count === last) return count;
		if (Date.now() > deadline)
			throw new Error(`workflow ${workflowId} did not come to rest within ${timeoutMs} ms`);
		last = running ? -1 : count;
		await sleep(500);
	}
}
