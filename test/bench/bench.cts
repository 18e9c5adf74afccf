// `npm run bench [-- --quick] [-- --json FILE] [-- --only pagination,memory,verify,trigger,burst,overhead]`
//
// Measures this package against what a user would build instead, side by side in one run:
//
//   pagination      10,000 transactions, perPage 100, 50 ms added latency per request in the
//                   sandbox. n8n's HTTP Request node following `next` one page at a time (its
//                   pagination option) against this node's Return All at default settings, both
//                   running inside the same pinned real n8n, timed by n8n itself (the node's
//                   `executionTime` in the run data), alternating A and B.
//   memory          peak (heap + external) above a GC'd baseline while the node runs, each case in
//                   a fresh child process (see memory-case.cts), against the payload size.
//   trigger.verify  the signature check alone for 1 KB, 100 KB and 1 MB bodies.
//   trigger.n8n     deliveries per second through real n8n at 50 concurrent deliveries, same
//                   bodies, variants rotated each round: this trigger's production webhook against
//                   a null community trigger (test/bench/null-trigger, installed as n8n installs
//                   community packages: the ceiling for any community trigger, since n8n skips the
//                   expression isolate only for its own Webhook node), against Webhook (Raw Body) +
//                   Crypto HMAC + If (what users build without this package), and against the bare
//                   Webhook node (information). Also forged deliveries refused without a signature
//                   header (no signing-key read) and with a wrong one (after the read).
//   burst           trigger.n8n.maxBurstUnder10s: the largest burst of simultaneous deliveries whose
//                   slowest answer stays under 10 s (the service's limit), for the trigger and the
//                   bare Webhook node: doubling from 25, then bisecting; bounded in bursts and time.
//   actionOverhead  ms per item of Create Bank Token (100 items per execution) against n8n's HTTP
//                   Request node making the same call with the same credential values.
//
// Every figure is the median of several runs (5; 3 with --quick). Not a test: it asserts nothing,
// it prints a table with each target and PASS/MISS and exits 0 (1 only when a run fails).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'undici';

import { DEFAULT_MAX_PARALLEL } from '../../nodes/IdentityVerification/actions/bank/listTransactions.operation';
import { verifySignature } from '../../nodes/shared/webhook/signature';
import {
	sampleBody,
	sign,
	signedDelivery,
	startSandbox,
	type Sandbox,
	type WebhookRequest,
} from '../sandbox/index.cjs';
import {
	N8N_VERSION,
	ROOT,
	RestClient,
	installPackage,
	makeUserFolder,
	waitForWebhook,
} from '../n8n/runtime.cjs';
import { productionWebhookUrl, startStack, type Stack } from '../n8n/stack.cjs';
import {
	NAMES,
	actionNode,
	httpPaginationParameters,
	httpRequestNode,
	NULL_TRIGGER,
	measuredWorkflow,
	nullTriggerWorkflow,
	plainWebhookWorkflow,
	triggerWorkflow,
	workflowCheckWorkflow,
	type Workflow,
} from './workflows.cjs';

// ---------------------------------------------------------------------------------------------
// Options, output shape, statistics
// ---------------------------------------------------------------------------------------------

const SECTIONS = ['verify', 'memory', 'pagination', 'overhead', 'trigger', 'burst'] as const;
type Section = (typeof SECTIONS)[number];

interface Options {
	/** Extra environment for n8n (diagnostics, e.g. N8N_EXPRESSION_ENGINE=legacy); none by default. */
	n8nEnv: Record<string, string>;
	/** A packed build of the package to install instead of packing this checkout (diagnostics). */
	tarball?: string;
	quick: boolean;
	json?: string;
	markdown?: string;
	only: Set<Section>;
}

function parseArgs(argv: string[]): Options {
	const opts: Options = { quick: false, only: new Set(SECTIONS), n8nEnv: {} };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--quick') opts.quick = true;
		else if (arg === '--json') opts.json = argv[++i];
		else if (arg.startsWith('--json=')) opts.json = arg.slice('--json='.length);
		else if (arg === '--n8n-env') {
			const pair = argv[++i] ?? '';
			const eq = pair.indexOf('=');
			if (eq < 1) throw new Error('--n8n-env needs NAME=VALUE');
			opts.n8nEnv[pair.slice(0, eq)] = pair.slice(eq + 1);
		} else if (arg === '--package-tarball') opts.tarball = path.resolve(argv[++i] ?? '');
		else if (arg === '--markdown') opts.markdown = argv[++i];
		else if (arg.startsWith('--markdown=')) opts.markdown = arg.slice('--markdown='.length);
		else if (arg === '--only' || arg.startsWith('--only=')) {
			const list = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
			const wanted = list.split(',').map((s) => s.trim()) as Section[];
			for (const w of wanted)
				if (!SECTIONS.includes(w))
					throw new Error(`--only: unknown section "${w}" (${SECTIONS.join(', ')})`);
			opts.only = new Set(wanted);
		} else if (arg === '--help' || arg === '-h') {
			process.stdout.write(
				'npm run bench [-- --quick] [-- --json FILE] [-- --markdown FILE] [-- --only verify,memory,pagination,overhead,trigger,burst] [-- --n8n-env NAME=VALUE ...] [-- --package-tarball FILE]\n',
			);
			process.exit(0);
		} else throw new Error(`unknown argument "${arg}"`);
	}
	if (opts.json === '' || opts.markdown === '')
		throw new Error('--json/--markdown need a file name');
	return opts;
}

interface MemoryFigure {
	payloadBytes: number;
	peakDeltaBytes: number;
	ratio: number;
}

interface TransactionsFigure extends MemoryFigure {
	/** Peak delta of n8n's HTTP Request node paginating the same transactions (same measure). */
	httpRequestNode: number;
	/** ours / HTTP Request node, peak deltas. */
	vsHttpRequestNode: number;
	/** What the node's output holds after the run and two full GCs. */
	retainedAfterGcBytes: number;
	retainedAfterGcRatio: number;
}

interface Results {
	pagination: {
		sequentialMs: number;
		concurrentMs: number;
		idealMs: number;
		speedup: number;
		toIdeal: number;
	} | null;
	memory: {
		transactions100k: TransactionsFigure | null;
		amlPdf50MB: MemoryFigure | null;
		poa20MB: MemoryFigure | null;
	} | null;
	trigger: {
		verifyMicros: { '1KB': number; '100KB': number; '1MB': number } | null;
		n8n: {
			triggerPerSec: number;
			nullTriggerPerSec: number;
			webhookNodePerSec: number;
			workflowCheckPerSec: number;
			/** ours / the null community trigger (the ceiling for any community trigger). */
			toNull: number;
			/** ours / Webhook + Crypto + If (what users build without this package). */
			vsWorkflowCheck: number;
			/** ours / the bare Webhook node (information: n8n skips the isolate for it alone). */
			ratio: number;
			p99AckMs: number;
			/** Forged deliveries refused without / after reading the key; diagnostics of full runs. */
			signingKeyRead: {
				refusedUnsignedPerSec: number;
				refusedWrongKeyPerSec: number;
				noCheckPerSec: number | null;
				noDedupePerSec: number | null;
			};
		} | null;
		/** Largest burst of simultaneous deliveries whose slowest answer stays under 10 s. */
		maxBurstUnder10s: { trigger: number; webhookNode: number } | null;
	};
	actionOverhead: { nodeMs: number; httpRequestNodeMs: number; ratio: number } | null;
}

const median = (values: number[]): number => {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Nearest-rank percentile. */
const percentile = (values: number[], p: number): number => {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const now = () => Number(process.hrtime.bigint()) / 1e6;
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// trigger.verifyMicros: the signature check alone
// ---------------------------------------------------------------------------------------------

/** A JSON body of exactly `size` bytes (an event with a padding field). */
function jsonBodyOfSize(size: number): Buffer {
	const head =
		JSON.stringify(sampleBody('IDENTIFICATION_AUTO_FINISHED')).slice(0, -1) + ',"padding":"';
	const tail = '"}';
	const fill = Math.max(0, size - Buffer.byteLength(head) - tail.length);
	const body = Buffer.from(
		head +
			randomBytes(Math.ceil(fill / 2))
				.toString('hex')
				.slice(0, fill) +
			tail,
	);
	return body;
}

function benchVerify(opts: Options): { '1KB': number; '100KB': number; '1MB': number } {
	const key = 'bench-signing-key-0123456789';
	const sizes: Array<['1KB' | '100KB' | '1MB', number, number]> = [
		['1KB', 1024, opts.quick ? 5000 : 20000],
		['100KB', 100 * 1024, opts.quick ? 500 : 2000],
		['1MB', MB, opts.quick ? 100 : 300],
	];
	const result = { '1KB': 0, '100KB': 0, '1MB': 0 };
	for (const [label, size, iterations] of sizes) {
		const body = jsonBodyOfSize(size);
		const header = sign(body, key);
		for (let i = 0; i < Math.min(200, iterations); i++) {
			if (!verifySignature(body, header, key).valid)
				throw new Error('the signature check refused a valid signature');
		}
		const samples: number[] = [];
		for (let i = 0; i < iterations; i++) {
			const t0 = process.hrtime.bigint();
			verifySignature(body, header, key);
			samples.push(Number(process.hrtime.bigint() - t0) / 1000);
		}
		result[label] = round(median(samples), 1);
		log(`verify ${label}: median ${result[label]} µs over ${iterations} checks`);
	}
	return result;
}

// ---------------------------------------------------------------------------------------------
// memory: one fresh child process per run
// ---------------------------------------------------------------------------------------------

interface MemoryRun extends MemoryFigure {
	retainedAfterGcBytes: number;
	peakHeapDelta: number;
	peakExternalDelta: number;
	peakArrayBuffersDelta: number;
	elapsedMs: number;
	check: string;
}

async function runMemoryChild(name: string, args: object): Promise<MemoryRun> {
	const script = path.join(__dirname, 'memory-case.cjs');
	return await new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--expose-gc', script, name, JSON.stringify(args)], {
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env },
		});
		let out = '';
		let err = '';
		child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
		child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
		child.on('error', reject);
		child.on('close', (code) => {
			const line = out.trim().split('\n').pop() ?? '';
			if (code !== 0)
				return reject(new Error(`memory case ${name} failed (exit ${code}):\n${err.slice(-3000)}`));
			try {
				resolve(JSON.parse(line) as MemoryRun);
			} catch {
				reject(
					new Error(
						`memory case ${name} printed no result:\n${out.slice(-2000)}\n${err.slice(-2000)}`,
					),
				);
			}
		});
	});
}

async function benchMemory(
	opts: Options,
	details: string[],
): Promise<NonNullable<Results['memory']>> {
	const sandbox = await startSandbox();
	try {
		const account = sandbox.bank.seedAccount({ transactions: 100_000 });
		const pdf = sandbox.aml.seedProfile({ sizeBytes: 50 * MB });
		const warmPdf = sandbox.aml.seedProfile({ sizeBytes: 64 * 1024 });
		const base = {
			sandboxUrl: sandbox.url,
			credentials: { apiKey: sandbox.credentials.apiKey, apiSecret: sandbox.credentials.apiSecret },
		};
		const cases: Array<[string, object]> = [
			['transactions100k', { ...base, ...account, perPage: 500 }],
			['transactions100kHttpRequest', { ...base, ...account, perPage: 500 }],
			[
				'amlPdf50MB',
				{ ...base, ...pdf, warmCheckId: warmPdf.checkId, warmProfileId: warmPdf.profileId },
			],
			['poa20MB', { ...base, fileBytes: 20 * MB }],
		];
		// Diagnostic (full runs): the node reading one page at a time, like HTTP Request does.
		if (!opts.quick)
			cases.splice(2, 0, [
				'transactions100kOneAtATime',
				{ ...base, ...account, perPage: 500, maxParallelRequests: 1 },
			]);
		const runs = opts.quick ? 1 : 3;
		const results: Record<string, MemoryRun[]> = Object.fromEntries(cases.map(([n]) => [n, []]));
		// Rounds: every case once per round (the node and the HTTP Request node side by side).
		for (let i = 0; i < runs; i++) {
			for (const [name, args] of cases) {
				const r = await runMemoryChild(
					name === 'transactions100kOneAtATime' ? 'transactions100k' : name,
					args,
				);
				results[name].push(r);
				log(
					`memory ${name} run ${i + 1}/${runs}: payload ${(r.payloadBytes / MB).toFixed(1)} MiB, peak +${(r.peakDeltaBytes / MB).toFixed(1)} MiB ` +
						`(heap +${(r.peakHeapDelta / MB).toFixed(1)}, external +${(r.peakExternalDelta / MB).toFixed(1)} of which array buffers +${(r.peakArrayBuffersDelta / MB).toFixed(1)}), ` +
						`ratio ${r.ratio.toFixed(2)}, retained after GC +${(r.retainedAfterGcBytes / MB).toFixed(1)} MiB, ${Math.round(r.elapsedMs)} ms; ${r.check}`,
				);
			}
		}
		const figure = (name: string): MemoryFigure => {
			const peak = median(results[name].map((r) => r.peakDeltaBytes));
			const payloadBytes = results[name][0].payloadBytes;
			const mid = [...results[name]].sort((a, b) => a.peakDeltaBytes - b.peakDeltaBytes)[
				Math.floor(results[name].length / 2)
			];
			details.push(
				`memory.${name}: peaks ${results[name].map((r) => (r.peakDeltaBytes / MB).toFixed(1)).join(', ')} MiB; median run heap +${(mid.peakHeapDelta / MB).toFixed(1)} MiB, external +${(mid.peakExternalDelta / MB).toFixed(1)} MiB ` +
					`(array buffers +${(mid.peakArrayBuffersDelta / MB).toFixed(1)} MiB, inside external), retained after GC +${(mid.retainedAfterGcBytes / MB).toFixed(1)} MiB, node ran ${Math.round(mid.elapsedMs)} ms; ${mid.check}`,
			);
			return { payloadBytes, peakDeltaBytes: Math.round(peak), ratio: round(peak / payloadBytes) };
		};
		const ours = figure('transactions100k');
		const http = figure('transactions100kHttpRequest');
		if (results.transactions100kOneAtATime) figure('transactions100kOneAtATime');
		const retained = median(results.transactions100k.map((r) => r.retainedAfterGcBytes));
		const out: NonNullable<Results['memory']> = {
			transactions100k: {
				...ours,
				httpRequestNode: http.peakDeltaBytes,
				vsHttpRequestNode: round(ours.peakDeltaBytes / http.peakDeltaBytes),
				retainedAfterGcBytes: Math.round(retained),
				retainedAfterGcRatio: round(retained / ours.payloadBytes),
			},
			amlPdf50MB: figure('amlPdf50MB'),
			poa20MB: figure('poa20MB'),
		};
		return out;
	} finally {
		await sandbox.close();
	}
}

// ---------------------------------------------------------------------------------------------
// Real n8n helpers
// ---------------------------------------------------------------------------------------------

/** `npm pack` of the null community trigger fixture (test/bench/null-trigger) into `destination`. */
function packNullTrigger(destination: string): string {
	const res = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: path.join(ROOT, 'test', 'bench', 'null-trigger'),
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
async function startBenchStack(opts: Options): Promise<Stack> {
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

async function createActive(rest: RestClient, workflow: Workflow): Promise<string> {
	const id = await rest.createWorkflow(workflow as never);
	await rest.activate(id);
	return id;
}

/**
 * n8n answers 503 ("Database is not ready!") while its database ping times out, which happens on a
 * loaded machine: ask again, once a second, for at most 30 s.
 */
async function whileBusy<T>(fn: () => Promise<T>): Promise<T> {
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

interface MeasuredRun {
	executionTime: number;
	items: number;
	requests: number;
}

/**
 * Runs a measured workflow once through its webhook (which answers when the workflow has ended) and
 * reads the measured node's `executionTime` from the execution n8n stored.
 */
async function runMeasured(
	stack: Stack,
	workflowId: string,
	webhookPath: string,
	nodeName: string,
	body: unknown,
	countPath: string,
): Promise<MeasuredRun> {
	const before = await whileBusy(() => newestExecutionId(stack.rest, workflowId));
	const requestsBefore = stack.sandbox.count({ path: countPath });
	const registeredBy = Date.now() + 30_000;
	let res: Response;
	for (;;) {
		res = await fetch(`${stack.n8n.url}/webhook/${webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body ?? {}),
		});
		await res.arrayBuffer();
		// Right after activation n8n may not serve the webhook yet (404 "not registered").
		if (res.status !== 404 || Date.now() > registeredBy) break;
		await sleep(200);
	}
	if (res.status >= 400) throw new Error(`webhook ${webhookPath} answered ${res.status}`);
	const deadline = Date.now() + 120_000;
	for (;;) {
		const list = await whileBusy(() => stack.rest.listExecutions(workflowId, 5));
		const done = list.find(
			(e) => Number(e.id) > before && !['new', 'running', 'waiting'].includes(e.status),
		);
		if (done) {
			const execution = await whileBusy(() => stack.rest.getExecution(done.id));
			const task = execution.data?.resultData?.runData?.[nodeName]?.[0];
			if (execution.status !== 'success' || !task) {
				const error = execution.data?.resultData?.error;
				throw new Error(
					`execution ${done.id} of ${nodeName} did not succeed: ${execution.status} ${error?.message ?? ''} ${error?.description ?? ''}`,
				);
			}
			const items = (task.data?.main?.[0] ?? []).length;
			return {
				executionTime: Number(task.executionTime),
				items,
				requests: stack.sandbox.count({ path: countPath }) - requestsBefore,
			};
		}
		if (Date.now() > deadline)
			throw new Error(`no finished execution of workflow ${workflowId} after 120 s`);
		await sleep(100);
	}
}

/** Creates a credential of one of n8n's own types; what a workflow node refers to it by. */
async function createCredential(
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
const createBasicAuthCredential = (stack: Stack) =>
	createCredential(stack, 'Sandbox via Basic Auth (bench)', 'httpBasicAuth', {
		user: stack.sandbox.credentials.apiKey,
		password: stack.sandbox.credentials.apiSecret,
	});

// ---------------------------------------------------------------------------------------------
// pagination
// ---------------------------------------------------------------------------------------------

const PAGINATION = { transactions: 10_000, perPage: 100, latencyMs: 50 };

async function benchPagination(
	stack: Stack,
	basicAuth: { id: string; name: string },
	opts: Options,
	details: string[],
): Promise<NonNullable<Results['pagination']>> {
	const { sandbox } = stack;
	const account = sandbox.bank.seedAccount({ transactions: PAGINATION.transactions });
	const listPath = `/bank/verifications/${account.verificationId}/accounts/${account.accountId}/transactions/`;
	const pages = Math.ceil(PAGINATION.transactions / PAGINATION.perPage);

	const httpWf = await createActive(
		stack.rest,
		measuredWorkflow(
			'Bench: HTTP Request pagination',
			'bench-pagination-http',
			httpRequestNode(
				httpPaginationParameters(`${sandbox.url}${listPath}?perPage=${PAGINATION.perPage}`),
				basicAuth,
			),
		),
	);
	const nodeWf = await createActive(
		stack.rest,
		measuredWorkflow(
			'Bench: Identity Verification Return All',
			'bench-pagination-node',
			actionNode({
				resource: 'bank',
				operation: 'listTransactions',
				verificationId: account.verificationId,
				accountId: account.accountId,
				returnAll: true,
				options: { perPage: PAGINATION.perPage },
			}),
		),
	);

	sandbox.faults.setLatency(PAGINATION.latencyMs);
	const runs = opts.quick ? 3 : 5;
	const sequential: number[] = [];
	const concurrent: number[] = [];
	try {
		for (let i = -1; i < runs; i++) {
			// Alternate which one goes first, so neither always runs right after the other.
			const runHttp = () =>
				runMeasured(stack, httpWf, 'bench-pagination-http', NAMES.httpRequest, {}, listPath);
			const runNode = () =>
				runMeasured(stack, nodeWf, 'bench-pagination-node', NAMES.action, {}, listPath);
			let a: MeasuredRun;
			let b: MeasuredRun;
			if (i % 2 === 0) {
				b = await runNode();
				a = await runHttp();
			} else {
				a = await runHttp();
				b = await runNode();
			}
			if (a.requests !== pages || b.requests !== pages) {
				throw new Error(
					`expected ${pages} page requests each, got HTTP Request ${a.requests}, node ${b.requests}`,
				);
			}
			if (b.items !== PAGINATION.transactions)
				throw new Error(`the node returned ${b.items} items, expected ${PAGINATION.transactions}`);
			const label = i < 0 ? 'warm-up' : `run ${i + 1}/${runs}`;
			log(
				`pagination ${label}: HTTP Request ${a.executionTime} ms (${a.items} page items), node ${b.executionTime} ms (${b.items} items), ${a.requests}/${b.requests} requests`,
			);
			if (i < 0) continue;
			sequential.push(a.executionTime);
			concurrent.push(b.executionTime);
		}
	} finally {
		sandbox.faults.setLatency(0);
	}
	const sequentialMs = median(sequential);
	const concurrentMs = median(concurrent);
	const idealMs = Math.ceil(pages / DEFAULT_MAX_PARALLEL) * PAGINATION.latencyMs;
	details.push(
		`pagination: ${pages} pages of ${PAGINATION.perPage}, +${PAGINATION.latencyMs} ms per request, Max Parallel Requests ${DEFAULT_MAX_PARALLEL}; ` +
			`HTTP Request runs ${sequential.join(', ')} ms; node runs ${concurrent.join(', ')} ms`,
	);
	return {
		sequentialMs,
		concurrentMs,
		idealMs,
		speedup: round(sequentialMs / concurrentMs),
		toIdeal: round(concurrentMs / idealMs),
	};
}

// ---------------------------------------------------------------------------------------------
// actionOverhead: Create Bank Token, 100 items, node vs HTTP Request
// ---------------------------------------------------------------------------------------------

const TOKEN_REQUEST = {
	lifetime: 3600,
	country: 'LT',
	bank: null,
	access: { accounts: true, balances: true, transactions: true },
};

async function benchOverhead(
	stack: Stack,
	basicAuth: { id: string; name: string },
	opts: Options,
	details: string[],
): Promise<NonNullable<Results['actionOverhead']>> {
	const { sandbox } = stack;
	const itemsPerRun = 100;
	const httpWf = await createActive(
		stack.rest,
		measuredWorkflow(
			'Bench: HTTP Request create bank token',
			'bench-overhead-http',
			httpRequestNode(
				{
					method: 'POST',
					url: `${sandbox.url}/bank/tokens/`,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify(TOKEN_REQUEST),
					options: {},
				},
				basicAuth,
			),
			{ splitItems: true },
		),
	);
	const nodeWf = await createActive(
		stack.rest,
		measuredWorkflow(
			'Bench: Identity Verification create bank token',
			'bench-overhead-node',
			actionNode({
				resource: 'bank',
				operation: 'createToken',
				lifetime: TOKEN_REQUEST.lifetime,
				country: TOKEN_REQUEST.country,
				bank: '',
				accounts: true,
				balances: true,
				transactions: true,
			}),
			{ splitItems: true },
		),
	);
	const body = { items: Array.from({ length: itemsPerRun }, (_, i) => ({ customer: i })) };
	const runs = opts.quick ? 3 : 5;
	const nodeMs: number[] = [];
	const httpMs: number[] = [];
	for (let i = -1; i < runs; i++) {
		// Alternate which one goes first, so neither always runs right after the other.
		const order = i % 2 === 0 ? ['node', 'http'] : ['http', 'node'];
		const got: Record<string, MeasuredRun> = {};
		for (const which of order) {
			got[which] =
				which === 'node'
					? await runMeasured(
							stack,
							nodeWf,
							'bench-overhead-node',
							NAMES.action,
							body,
							'/bank/tokens/',
						)
					: await runMeasured(
							stack,
							httpWf,
							'bench-overhead-http',
							NAMES.httpRequest,
							body,
							'/bank/tokens/',
						);
			if (got[which].items !== itemsPerRun || got[which].requests !== itemsPerRun) {
				throw new Error(
					`${which}: ${got[which].items} items / ${got[which].requests} requests, expected ${itemsPerRun}`,
				);
			}
		}
		const label = i < 0 ? 'warm-up' : `run ${i + 1}/${runs}`;
		log(
			`overhead ${label}: node ${got.node.executionTime} ms, HTTP Request ${got.http.executionTime} ms for ${itemsPerRun} items`,
		);
		if (i < 0) continue;
		nodeMs.push(got.node.executionTime / itemsPerRun);
		httpMs.push(got.http.executionTime / itemsPerRun);
	}
	const node = median(nodeMs);
	const http = median(httpMs);
	details.push(
		`actionOverhead: ${itemsPerRun} items per execution; node ${nodeMs.map((v) => v.toFixed(2)).join(', ')} ms/item; ` +
			`HTTP Request ${httpMs.map((v) => v.toFixed(2)).join(', ')} ms/item`,
	);
	return { nodeMs: round(node, 3), httpRequestNodeMs: round(http, 3), ratio: round(node / http) };
}

// ---------------------------------------------------------------------------------------------
// trigger.n8n: deliveries per second at 50 concurrent deliveries
// ---------------------------------------------------------------------------------------------

type Delivery = WebhookRequest;

/** Signed deliveries with unique bodies (each a real event with its own scanRef). */
function makeDeliveries(count: number, signingKey: string): Delivery[] {
	return Array.from({ length: count }, () => signedDelivery(signingKey));
}

interface Blast {
	elapsedMs: number;
	latencies: number[];
	statuses: Record<number, number>;
}

async function blast(
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
async function settle(
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
async function quiesce(rest: RestClient, workflowId: string, timeoutMs = 180_000): Promise<number> {
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

/** A Crypto credential holding the signing key (the workflow check's HMAC secret). */
const createCryptoCredential = (stack: Stack) =>
	createCredential(stack, 'Signing key via Crypto (bench)', 'crypto', {
		hmacSecret: stack.sandbox.credentials.signingKey,
	});

type DeliveryKind = 'signed' | 'unsigned' | 'wrongKey';

/** Deliveries of one kind: signed with the key, without the signature header, or signed with another key. */
function deliveriesOf(kind: DeliveryKind, count: number, signingKey: string): Delivery[] {
	const out = makeDeliveries(count, kind === 'wrongKey' ? `${signingKey}-not` : signingKey);
	if (kind === 'unsigned') for (const d of out) delete d.headers['service-signature'];
	return out;
}

interface TriggerVariant {
	key: string;
	label: string;
	workflowId: string;
	path: string;
	kind: DeliveryKind;
	/** The answer every delivery must get; 200 starts one execution, 401 none. */
	status: 200 | 401;
	/** Measured in full runs only (diagnostics). */
	fullOnly?: boolean;
}

/** Sends one signed delivery and checks the workflow check's If found the signature equal. */
async function checkWorkflowCheck(stack: Stack, v: TriggerVariant): Promise<void> {
	const before = await quiesce(stack.rest, v.workflowId);
	const [d] = deliveriesOf('signed', 1, stack.sandbox.credentials.signingKey);
	const res = await fetch(`${stack.n8n.url}${v.path}`, {
		method: 'POST',
		headers: d.headers,
		body: d.body,
	});
	await res.arrayBuffer();
	await settle(stack.rest, v.workflowId, before + 1);
	const [latest] = await whileBusy(() => stack.rest.listExecutions(v.workflowId, 1));
	const execution = await whileBusy(() => stack.rest.getExecution(latest.id));
	const matched = execution.data?.resultData?.runData?.['Signature Matches']?.[0]?.data?.main?.[0];
	if (execution.status !== 'success' || matched?.length !== 1)
		throw new Error(
			`the workflow check did not accept a correctly signed delivery (execution ${latest.id}: ${execution.status}, ${JSON.stringify(execution.data?.resultData?.error?.message ?? '')})`,
		);
}

async function setUpTriggerVariants(stack: Stack): Promise<TriggerVariant[]> {
	const triggerPath = (webhookId: string) =>
		new URL(productionWebhookUrl(stack.n8n.url, { webhookId })).pathname;
	const trigger = async (name: string, webhookId: string, options: Record<string, unknown>) => {
		const workflowId = await createActive(stack.rest, triggerWorkflow(name, webhookId, options));
		// A delivery with a malformed signature: 401 once the trigger is live (no execution); with
		// the check off, an empty JSON body: 200 and one execution (counts start after it).
		const status = await waitForWebhook(`${stack.n8n.url}${triggerPath(webhookId)}`, {
			init: {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'service-signature': 'sha256=00' },
				body: '{}',
			},
		});
		if (options.verifySignature !== false && status !== 401)
			throw new Error(`the trigger answered a forged delivery with ${status}, expected 401`);
		return { workflowId, path: triggerPath(webhookId) };
	};
	const webhook = async (workflow: Workflow, webhookPath: string) => {
		const workflowId = await createActive(stack.rest, workflow);
		await waitForWebhook(`${stack.n8n.url}/webhook/${webhookPath}`, {
			init: {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{"probe":true}',
			},
		});
		return { workflowId, path: `/webhook/${webhookPath}` };
	};

	const ours = await trigger('Bench: trigger', '7c1e5b2a-3d4f-4a6b-8c9d-0e1f2a3b4c5d', {});
	const nullId = '9e3a7d4c-5f6b-4c8d-8e1f-2a3b4c5d6e7f';
	const nullWf = await createActive(
		stack.rest,
		nullTriggerWorkflow('Bench: null community trigger', nullId),
	);
	await waitForWebhook(`${stack.n8n.url}${triggerPath(nullId)}`, {
		init: {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{"probe":true}',
		},
	});
	const crypto = await createCryptoCredential(stack);
	const variants: TriggerVariant[] = [
		{ key: 'trigger', label: 'trigger', ...ours, kind: 'signed', status: 200 },
		{
			key: 'null',
			label: 'null community trigger',
			workflowId: nullWf,
			path: triggerPath(nullId),
			kind: 'signed',
			status: 200,
		},
		{
			key: 'plain',
			label: 'Webhook node',
			...(await webhook(
				plainWebhookWorkflow('Bench: plain Webhook node', 'bench-plain-webhook'),
				'bench-plain-webhook',
			)),
			kind: 'signed',
			status: 200,
		},
		{
			key: 'workflowCheck',
			label: 'Webhook+Crypto+If',
			...(await webhook(
				workflowCheckWorkflow('Bench: Webhook + Crypto + If', 'bench-workflow-check', crypto),
				'bench-workflow-check',
			)),
			kind: 'signed',
			status: 200,
		},
		// Forged deliveries to the same trigger (nothing starts): without a signature header the
		// trigger refuses before reading its signing key; with a wrong key it reads the key first.
		{ key: 'refusedUnsigned', label: 'refused unsigned', ...ours, kind: 'unsigned', status: 401 },
		{ key: 'refusedWrongKey', label: 'refused wrong key', ...ours, kind: 'wrongKey', status: 401 },
		{
			key: 'triggerNoCheck',
			label: 'trigger, signature check off',
			...(await trigger('Bench: trigger without check', '8d2f6c3b-4e5a-4b7c-9d0e-1f2a3b4c5d6e', {
				verifySignature: false,
			})),
			kind: 'signed',
			status: 200,
			fullOnly: true,
		},
		{
			key: 'triggerNoDedupe',
			label: 'trigger, duplicate suppression off',
			...(await trigger('Bench: trigger without dedupe', '6a0b4c2d-8e7f-4a1b-9c3d-5e6f7a8b9c0d', {
				ignoreDuplicates: false,
			})),
			kind: 'signed',
			status: 200,
			fullOnly: true,
		},
	];
	await checkWorkflowCheck(stack, variants.find((v) => v.key === 'workflowCheck')!);
	return variants;
}

async function benchTriggerN8n(
	stack: Stack,
	variants: TriggerVariant[],
	opts: Options,
	details: string[],
): Promise<NonNullable<Results['trigger']['n8n']>> {
	const concurrency = 50;
	const perRound = 100;
	const runs = opts.quick ? 3 : 5;
	const signingKey = stack.sandbox.credentials.signingKey;
	// Every variant gets the same unique signed bodies each round (so no delivery is a duplicate and
	// each accepted one starts a workflow), in an order rotated every round so that no variant always
	// follows the same one; each waits for n8n to finish the previous variant's executions.
	const measured = variants.filter((v) => !(opts.quick && v.fullOnly));
	const rates: Record<string, number[]> = Object.fromEntries(measured.map((v) => [v.key, []]));
	const latencies: Record<string, number[]> = Object.fromEntries(measured.map((v) => [v.key, []]));
	const pool = new Pool(stack.n8n.url, { connections: concurrency, pipelining: 1 });
	try {
		for (let i = -1; i < runs; i++) {
			const signed = makeDeliveries(perRound, signingKey);
			const shift = (((i + 1) % measured.length) + measured.length) % measured.length;
			const order = [...measured.slice(shift), ...measured.slice(0, shift)];
			const line: string[] = [];
			for (const v of order) {
				let result: Blast | undefined;
				// n8n answers 503 while its database is unreachable (it happens on a loaded machine):
				// such a round is logged and sent again with fresh bodies, at most twice.
				for (let attempt = 1; attempt <= 3 && !result; attempt++) {
					const deliveries =
						v.kind === 'signed' && attempt === 1
							? signed
							: deliveriesOf(v.kind, perRound, signingKey);
					const base = await quiesce(stack.rest, v.workflowId);
					const got = await blast(pool, v.path, deliveries, concurrency);
					// Every accepted delivery must have become exactly one execution, a refused one none.
					const accepted = v.status === 200 ? (got.statuses[200] ?? 0) : 0;
					await settle(stack.rest, v.workflowId, base + accepted);
					if ((got.statuses[v.status] ?? 0) === perRound) result = got;
					else
						log(
							`${v.label}: expected ${perRound} answers ${v.status}, got ${JSON.stringify(got.statuses)}${attempt < 3 ? '; sending the round again' : ''}`,
						);
				}
				if (!result) throw new Error(`${v.label}: three rounds in a row got unexpected answers`);
				const rate = (perRound / result.elapsedMs) * 1000;
				line.push(`${v.label} ${rate.toFixed(1)}/s`);
				if (i < 0) continue;
				rates[v.key].push(rate);
				latencies[v.key].push(...result.latencies);
			}
			log(`trigger.n8n ${i < 0 ? 'warm-up' : `run ${i + 1}/${runs}`}: ${line.join(', ')}`);
		}
	} finally {
		await pool.close();
	}
	const m = (k: string) => median(rates[k] ?? []);
	const list = (k: string) => (rates[k] ?? []).map((r) => r.toFixed(1)).join(', ');
	const p = (k: string, q: number) => percentile(latencies[k] ?? [], q).toFixed(0);
	const perRound2 = (k: string) =>
		rates.trigger.map((r, i) => (r / rates[k][i]).toFixed(2)).join(', ');
	details.push(
		`trigger.n8n: ${runs} rounds of ${perRound} unique deliveries at ${concurrency} in flight per variant, variants rotated each round, each waiting for n8n to finish the previous one's executions; ` +
			measured
				.map(
					(v) =>
						`${v.label} ${list(v.key)}/s (median ${m(v.key).toFixed(1)}, answer p50/p99 ${p(v.key, 50)}/${p(v.key, 99)} ms)`,
				)
				.join('; ') +
			`; ratios per round: trigger / null ${perRound2('null')}, trigger / Webhook+Crypto+If ${perRound2('workflowCheck')}, trigger / Webhook node ${perRound2('plain')}`,
	);
	// Ratios: the median of each round's ratio, so that the load drifting between rounds on a busy
	// machine cancels out within a round instead of skewing one side's median.
	const ratio = (k: string) => median(rates.trigger.map((r, i) => r / rates[k][i]));
	return {
		triggerPerSec: round(m('trigger'), 1),
		nullTriggerPerSec: round(m('null'), 1),
		webhookNodePerSec: round(m('plain'), 1),
		workflowCheckPerSec: round(m('workflowCheck'), 1),
		toNull: round(ratio('null')),
		vsWorkflowCheck: round(ratio('workflowCheck')),
		ratio: round(ratio('plain')),
		p99AckMs: round(percentile(latencies.trigger, 99), 1),
		signingKeyRead: {
			refusedUnsignedPerSec: round(m('refusedUnsigned'), 1),
			refusedWrongKeyPerSec: round(m('refusedWrongKey'), 1),
			noCheckPerSec: rates.triggerNoCheck ? round(m('triggerNoCheck'), 1) : null,
			noDedupePerSec: rates.triggerNoDedupe ? round(m('triggerNoDedupe'), 1) : null,
		},
	};
}

// ---------------------------------------------------------------------------------------------
// trigger.n8n.maxBurstUnder10s: the largest burst whose slowest answer stays under 10 s
// ---------------------------------------------------------------------------------------------

const BURST_LIMIT_MS = 10_000;

/**
 * One burst: `size` signed deliveries sent at once, each on its own connection. Returns the slowest
 * answer, or Infinity when any delivery was not accepted (200): the service would send it again.
 */
async function burstOnce(stack: Stack, v: TriggerVariant, size: number): Promise<number> {
	const deliveries = makeDeliveries(size, stack.sandbox.credentials.signingKey);
	const base = await quiesce(stack.rest, v.workflowId);
	const pool = new Pool(stack.n8n.url, { connections: size, pipelining: 1 });
	try {
		const result = await blast(pool, v.path, deliveries, size);
		const accepted = result.statuses[200] ?? 0;
		await settle(stack.rest, v.workflowId, base + accepted, 600_000);
		if (accepted !== size) {
			log(`${v.label} burst of ${size}: answers ${JSON.stringify(result.statuses)}`);
			return Infinity;
		}
		return Math.max(...result.latencies);
	} finally {
		await pool.close();
	}
}

/**
 * Doubles the burst from 25 until its slowest answer reaches 10 s, then bisects between the last
 * burst under and the first over, to within 10 % (bounded: at most `maxProbes` bursts, `budgetMs`).
 */
async function maxBurst(
	stack: Stack,
	v: TriggerVariant,
	opts: Options,
	details: string[],
): Promise<number> {
	const maxProbes = opts.quick ? 6 : 8;
	const budgetMs = opts.quick ? 240_000 : 360_000;
	const largest = 3200;
	const started = Date.now();
	let good = 0;
	let bad = Infinity;
	const probes: string[] = [];
	while (probes.length < maxProbes && Date.now() - started < budgetMs) {
		let size: number;
		if (bad === Infinity) size = good === 0 ? 25 : good * 2;
		else if (bad - good <= Math.max(2, Math.ceil(good * 0.1))) break;
		else size = Math.floor((good + bad) / 2);
		if (size > largest) break;
		const slowest = await burstOnce(stack, v, size);
		probes.push(`${size}: ${(slowest / 1000).toFixed(1)} s`);
		log(
			`trigger.n8n burst ${v.label}: ${size} at once, slowest answer ${(slowest / 1000).toFixed(1)} s`,
		);
		if (slowest < BURST_LIMIT_MS) good = size;
		else bad = size;
	}
	details.push(
		`trigger.n8n.maxBurstUnder10s ${v.label}: bursts (size: slowest answer) ${probes.join(', ')}${bad === Infinity ? ` (never reached 10 s up to ${good})` : ''}`,
	);
	return good;
}

// ---------------------------------------------------------------------------------------------
// Table
// ---------------------------------------------------------------------------------------------

interface Row {
	key: string;
	value: number | null | undefined;
	unit: string;
	target?: { op: '>=' | '<=' | '<'; value: number };
	ref?: string;
}

/** What each figure is measured against (the table's reference column). */
const REFERENCES: Record<string, string> = {
	'pagination.sequentialMs': 'HTTP Request node, next-link pagination',
	'pagination.concurrentMs': 'this node, Return All',
	'pagination.idealMs': 'pages / Max Parallel Requests x latency',
	'pagination.speedup': 'sequentialMs / concurrentMs',
	'pagination.toIdeal': 'concurrentMs / idealMs',
	'memory.transactions100k.ratio': 'peak / payload',
	'memory.transactions100k.httpRequestNode': 'HTTP Request node, its pagination, same pages',
	'memory.transactions100k.vsHttpRequestNode': 'peak / HTTP Request node peak',
	'memory.transactions100k.retainedAfterGcBytes': 'output held after two full GCs',
	'memory.transactions100k.retainedAfterGcRatio': 'retained / payload',
	'memory.amlPdf50MB.ratio': 'peak / payload',
	'memory.poa20MB.ratio': 'peak / payload',
	'trigger.verifyMicros.1KB': 'signature check alone',
	'trigger.n8n.triggerPerSec': 'this trigger, defaults',
	'trigger.n8n.nullTriggerPerSec': 'null community trigger',
	'trigger.n8n.workflowCheckPerSec': 'Webhook (Raw Body) + Crypto HMAC + If',
	'trigger.n8n.toNull': 'trigger / null trigger, median of the rounds',
	'trigger.n8n.vsWorkflowCheck': 'trigger / Webhook+Crypto+If, median of the rounds',
	'trigger.n8n.webhookNodePerSec': 'bare Webhook node (no check)',
	'trigger.n8n.ratio': 'trigger / bare Webhook node, median of the rounds (information)',
	'trigger.n8n.p99AckMs': '50 deliveries in flight',
	'trigger.n8n.refusedUnsignedPerSec': 'forged, no signature: refused before the key read',
	'trigger.n8n.refusedWrongKeyPerSec': 'forged, wrong key: refused after the key read',
	'trigger.n8n.maxBurstUnder10s.trigger': "slowest answer < 10 s (the service's limit)",
	'trigger.n8n.maxBurstUnder10s.webhookNode': 'same, bare Webhook node',
	'actionOverhead.httpRequestNodeMs': 'HTTP Request node, same call',
	'actionOverhead.ratio': 'nodeMs / httpRequestNodeMs',
};

function rows(r: Results): Row[] {
	return figureRows(r).map((row) => ({ ...row, ref: REFERENCES[row.key] ?? '' }));
}

/** A figure of the table, with the target it must meet if it has one. */
function row(
	key: string,
	value: number | null | undefined,
	unit: string,
	target?: [NonNullable<Row['target']>['op'], number],
): Row {
	return target
		? { key, value, unit, target: { op: target[0], value: target[1] } }
		: { key, value, unit };
}

function figureRows(r: Results): Row[] {
	const mem = (name: keyof NonNullable<Results['memory']>, limit: number): Row[] => {
		const m = r.memory?.[name];
		return [
			row(`memory.${name}.payloadBytes`, m?.payloadBytes, 'B'),
			row(`memory.${name}.peakDeltaBytes`, m?.peakDeltaBytes, 'B'),
			row(`memory.${name}.ratio`, m?.ratio, 'x', ['<=', limit]),
		];
	};
	const t100k = r.memory?.transactions100k;
	return [
		row('pagination.sequentialMs', r.pagination?.sequentialMs, 'ms'),
		row('pagination.concurrentMs', r.pagination?.concurrentMs, 'ms'),
		row('pagination.idealMs', r.pagination?.idealMs, 'ms'),
		row('pagination.speedup', r.pagination?.speedup, 'x', ['>=', 3.5]),
		row('pagination.toIdeal', r.pagination?.toIdeal, 'x', ['<=', 1.3]),
		...mem('transactions100k', 3),
		row('memory.transactions100k.httpRequestNode', t100k?.httpRequestNode, 'B'),
		row('memory.transactions100k.vsHttpRequestNode', t100k?.vsHttpRequestNode, 'x', ['<=', 1.0]),
		row('memory.transactions100k.retainedAfterGcBytes', t100k?.retainedAfterGcBytes, 'B'),
		row('memory.transactions100k.retainedAfterGcRatio', t100k?.retainedAfterGcRatio, 'x', [
			'<=',
			2.5,
		]),
		...mem('amlPdf50MB', 2.5),
		...mem('poa20MB', 3.5),
		row('trigger.verifyMicros.1KB', r.trigger.verifyMicros?.['1KB'], 'µs'),
		row('trigger.verifyMicros.100KB', r.trigger.verifyMicros?.['100KB'], 'µs'),
		row('trigger.verifyMicros.1MB', r.trigger.verifyMicros?.['1MB'], 'µs'),
		row('trigger.n8n.triggerPerSec', r.trigger.n8n?.triggerPerSec, '/s'),
		row('trigger.n8n.nullTriggerPerSec', r.trigger.n8n?.nullTriggerPerSec, '/s'),
		row('trigger.n8n.workflowCheckPerSec', r.trigger.n8n?.workflowCheckPerSec, '/s'),
		row('trigger.n8n.toNull', r.trigger.n8n?.toNull, 'x', ['>=', 0.9]),
		row('trigger.n8n.vsWorkflowCheck', r.trigger.n8n?.vsWorkflowCheck, 'x', ['>=', 1.0]),
		row('trigger.n8n.webhookNodePerSec', r.trigger.n8n?.webhookNodePerSec, '/s'),
		row('trigger.n8n.ratio', r.trigger.n8n?.ratio, 'x'),
		row('trigger.n8n.p99AckMs', r.trigger.n8n?.p99AckMs, 'ms', ['<', 1000]),
		row(
			'trigger.n8n.refusedUnsignedPerSec',
			r.trigger.n8n?.signingKeyRead.refusedUnsignedPerSec,
			'/s',
		),
		row(
			'trigger.n8n.refusedWrongKeyPerSec',
			r.trigger.n8n?.signingKeyRead.refusedWrongKeyPerSec,
			'/s',
		),
		row('trigger.n8n.maxBurstUnder10s.trigger', r.trigger.maxBurstUnder10s?.trigger, 'deliveries'),
		row(
			'trigger.n8n.maxBurstUnder10s.webhookNode',
			r.trigger.maxBurstUnder10s?.webhookNode,
			'deliveries',
		),
		row('actionOverhead.nodeMs', r.actionOverhead?.nodeMs, 'ms'),
		row('actionOverhead.httpRequestNodeMs', r.actionOverhead?.httpRequestNodeMs, 'ms'),
		row('actionOverhead.ratio', r.actionOverhead?.ratio, 'x', ['<=', 1.1]),
	];
}

function verdict(row: Row): string {
	if (!row.target) return '';
	if (row.value === null || row.value === undefined || Number.isNaN(row.value)) return 'n/a';
	const { op, value } = row.target;
	const pass =
		op === '>=' ? row.value >= value : op === '<=' ? row.value <= value : row.value < value;
	return pass ? 'PASS' : 'MISS';
}

function formatValue(row: Row): string {
	if (row.value === null || row.value === undefined) return '-';
	if (row.unit === 'B') return `${row.value} (${(row.value / MB).toFixed(1)} MiB)`;
	return `${row.value} ${row.unit}`;
}

function table(r: Results): string {
	const lines = rows(r).map((row) => [
		row.key,
		formatValue(row),
		row.ref ?? '',
		row.target ? `${row.target.op} ${row.target.value}` : '',
		verdict(row),
	]);
	const head = ['figure', 'value', 'reference', 'target', ''];
	const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
	const fmt = (cells: string[]) =>
		cells
			.map((c, i) => c.padEnd(widths[i]))
			.join('  ')
			.trimEnd();
	return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

function markdownTable(r: Results): string {
	const lines = rows(r).map(
		(row) =>
			`| \`${row.key}\` | ${formatValue(row)} | ${row.ref ?? ''} | ${row.target ? `${row.target.op.replace('<', '&lt;').replace('>', '&gt;')} ${row.target.value}` : ''} | ${verdict(row)} |`,
	);
	return ['| Figure | Measured | Reference | Target | |', '|---|---|---|---|---|', ...lines].join(
		'\n',
	);
}

function machine(): string {
	const cpu = cpus();
	return `${cpu.length} CPU (${cpu[0]?.model?.trim() ?? 'unknown'}), ${(totalmem() / 1024 ** 3).toFixed(1)} GiB RAM (${(freemem() / 1024 ** 3).toFixed(1)} GiB free at start), load average ${loadavg()[0].toFixed(1)} at start, Node ${process.version}, n8n ${N8N_VERSION}`;
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
	const opts = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const machineLine = machine();
	log(`${opts.quick ? 'quick run' : 'full run'} on ${machineLine}`);
	if (Object.keys(opts.n8nEnv).length)
		log(`DIAGNOSTIC: n8n runs with ${JSON.stringify(opts.n8nEnv)}, not with its defaults`);
	if (opts.tarball)
		log(`DIAGNOSTIC: n8n gets the package from ${opts.tarball}, not from this checkout`);
	const results: Results = {
		pagination: null,
		memory: null,
		trigger: { verifyMicros: null, n8n: null, maxBurstUnder10s: null },
		actionOverhead: null,
	};
	const details: string[] = [];
	let failed = false;
	const attempt = async (what: string, fn: () => Promise<void>) => {
		try {
			await fn();
		} catch (error) {
			failed = true;
			log(`${what} FAILED: ${(error as Error)?.stack ?? String(error)}`);
		}
	};

	if (opts.only.has('verify'))
		await attempt(
			'trigger.verifyMicros',
			async () => void (results.trigger.verifyMicros = benchVerify(opts)),
		);
	if (opts.only.has('memory'))
		await attempt('memory', async () => void (results.memory = await benchMemory(opts, details)));

	const needsN8n = ['pagination', 'overhead', 'trigger', 'burst'].some((s) =>
		opts.only.has(s as Section),
	);
	if (needsN8n) {
		let stack: Stack | undefined;
		await attempt('starting sandbox + n8n', async () => {
			stack = await startBenchStack(opts);
			log(
				`n8n ${N8N_VERSION} on ${stack.n8n.url}, sandbox on ${stack.sandbox.url} (n8n set-up ${JSON.stringify(stack.timings)})`,
			);
		});
		if (stack) {
			const s = stack;
			const onSignal = () => {
				void s.stop().finally(() => process.exit(130));
			};
			process.once('SIGINT', onSignal);
			process.once('SIGTERM', onSignal);
			try {
				let basicAuth: { id: string; name: string } | undefined;
				if (opts.only.has('pagination') || opts.only.has('overhead')) {
					await attempt(
						'Basic-auth credential',
						async () => void (basicAuth = await createBasicAuthCredential(s)),
					);
				}
				if (opts.only.has('pagination') && basicAuth) {
					const b = basicAuth;
					await attempt(
						'pagination',
						async () => void (results.pagination = await benchPagination(s, b, opts, details)),
					);
				}
				if (opts.only.has('overhead') && basicAuth) {
					const b = basicAuth;
					await attempt(
						'actionOverhead',
						async () => void (results.actionOverhead = await benchOverhead(s, b, opts, details)),
					);
				}
				let variants: TriggerVariant[] | undefined;
				if (opts.only.has('trigger') || opts.only.has('burst'))
					await attempt(
						'trigger workflows',
						async () => void (variants = await setUpTriggerVariants(s)),
					);
				if (variants && opts.only.has('trigger')) {
					const v = variants;
					await attempt(
						'trigger.n8n',
						async () => void (results.trigger.n8n = await benchTriggerN8n(s, v, opts, details)),
					);
				}
				if (variants && opts.only.has('burst')) {
					const v = variants;
					await attempt('trigger.n8n.maxBurstUnder10s', async () => {
						const pick = (key: string) => v.find((x) => x.key === key)!;
						results.trigger.maxBurstUnder10s = {
							trigger: await maxBurst(s, pick('trigger'), opts, details),
							webhookNode: await maxBurst(s, pick('plain'), opts, details),
						};
					});
				}
			} finally {
				await s.stop();
			}
		}
	}

	const elapsed = Math.round((Date.now() - started) / 1000);
	// Other work on the machine moves absolute figures (not much the side-by-side ratios): say how much.
	const machineLineEnd = `${machineLine}; load average ${loadavg()[0].toFixed(1)} (1 min), ${loadavg()[2].toFixed(1)} (15 min) at the end`;
	const out = [
		'',
		`Benchmark (${opts.quick ? '--quick' : 'full'}, ${elapsed} s) on ${machineLineEnd}` +
			(Object.keys(opts.n8nEnv).length
				? ` — DIAGNOSTIC: n8n with ${JSON.stringify(opts.n8nEnv)}`
				: '') +
			(opts.tarball ? ` — DIAGNOSTIC: package from ${opts.tarball}` : ''),
		'',
		table(results),
		'',
		...details.map((d) => `  ${d}`),
		'',
	].join('\n');
	process.stdout.write(out);
	if (opts.json) {
		mkdirSync(path.dirname(path.resolve(opts.json)), { recursive: true });
		writeFileSync(opts.json, `${JSON.stringify(results, null, 2)}\n`);
		log(`figures written to ${opts.json}`);
	}
	if (opts.markdown) {
		mkdirSync(path.dirname(path.resolve(opts.markdown)), { recursive: true });
		writeFileSync(
			opts.markdown,
			`${markdownTable(results)}\n\nMeasured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${opts.quick ? '--quick' : 'full run'}, ${elapsed} s) on ${machineLineEnd}${Object.keys(opts.n8nEnv).length ? `; DIAGNOSTIC run, n8n with ${JSON.stringify(opts.n8nEnv)}` : ''}${opts.tarball ? `; DIAGNOSTIC run, package from ${opts.tarball}` : ''}.\n\n${details.map((d) => `- ${d}`).join('\n')}\n`,
		);
		log(`markdown table written to ${opts.markdown}`);
	}
	return failed ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		log(`${(error as Error)?.stack ?? String(error)}`);
		process.exit(1);
	},
);

export type { Sandbox };
