// `npm run bench:queue [-- --quick] [-- --rounds N] [-- --json FILE] [-- --n8n-env K=V ...] [-- --package-tarball FILE]`
//
// The trigger in n8n's queue mode, side by side in one run on one stack (Postgres, Redis, main,
// two `n8n webhook` processes, two workers; see test/n8n/queue.cts), deliveries alternating
// between the two webhook processes:
//
//   this trigger (defaults: signature check and duplicate suppression on), the null community
//   trigger (lab/bench/null-trigger: reads nothing, the ceiling for any community trigger) and
//   n8n's own Webhook node (answering when the execution is queued), on the same bodies; as a
//   diagnostic, the trigger with its duplicate memory off (no static data written).
//
//   rate    deliveries per second and p99 time to answer, 100 unique signed deliveries at 50 in
//           flight, several rounds in rotating order (median rate; ratios are the median of each
//           round's ratio, so load drifting between rounds cancels out within a round).
//   burst   the largest burst of simultaneous deliveries (25, 50, 100, 200, 400, ...) answered
//           entirely with 200 within 10 s, the service's time limit.
//
// Between measurements the workers finish every queued execution, so each one starts from an
// empty queue. The machine's load average is printed with every round and burst. A measuring
// script, not a test: it asserts nothing and prints a table (plus JSON).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';

import { load, median, now, percentile, sleep } from '../bench/common.cjs';
import { packNullTrigger } from '../bench/n8n.cjs';
import { NULL_TRIGGER } from '../bench/workflows.cjs';
import { signedDelivery, type WebhookRequest } from '../../test/sandbox/index.cjs';
import { N8N_VERSION, waitForWebhook } from '../../test/n8n/runtime.cjs';
import { productionWebhookUrl } from '../../test/n8n/stack.cjs';
import { startQueueStack, type QueueStack } from '../../test/n8n/queue.cjs';
import { lineUp, node } from '../../test/n8n/workflow.cjs';
import { plainWebhook, triggerOnly } from './workflows.cjs';

const TRIGGER = { id: 'idvBenchQTrigger', webhookId: '6b2e1d4f-8c3a-4d9e-8f1b-2c3d4e5f6a71' };
// Diagnostic (rate only): the trigger with its duplicate memory off, so no static data is written.
const NO_MEMORY = { id: 'idvBenchQTrigNoM', webhookId: '6b2e1d4f-8c3a-4d9e-8f1b-2c3d4e5f6a72' };
const NULL = { id: 'idvBenchQNullTrg', webhookId: '6b2e1d4f-8c3a-4d9e-8f1b-2c3d4e5f6a73' };
const PLAIN = { id: 'idvBenchQPlainWh', path: 'bench-queue-plain' };
const DEADLINE_MS = 10_000;
const PER_ROUND = 100;
const IN_FLIGHT = 50;

const log = (msg: string) => process.stderr.write(`[bench:queue] ${msg}\n`);
const round1 = (value: number) => Math.round(value * 10) / 10;

interface Options {
	quick: boolean;
	rounds: number;
	maxBurst: number;
	json?: string;
	/** --n8n-env K=V (repeatable): n8n settings on every process (diagnostics or recommendations). */
	n8nEnv: Record<string, string>;
	/** --package-tarball FILE: a packed build to install instead of packing this checkout. */
	tarball?: string;
}

function parseArgs(argv: string[]): Options {
	const quick = argv.includes('--quick');
	const opts: Options = { quick, rounds: quick ? 2 : 3, maxBurst: quick ? 400 : 1600, n8nEnv: {} };
	argv.forEach((a, i) => {
		if (a === '--json') opts.json = argv[i + 1];
		if (a === '--rounds') opts.rounds = Math.max(1, Number(argv[i + 1]) || opts.rounds);
		if (a === '--package-tarball') opts.tarball = path.resolve(argv[i + 1] ?? '');
		if (a !== '--n8n-env') return;
		const [k, ...v] = (argv[i + 1] ?? '').split('=');
		opts.n8nEnv[k] = v.join('=');
	});
	return opts;
}

type Delivery = WebhookRequest;

function deliveries(count: number, signingKey: string): Delivery[] {
	return Array.from({ length: count }, () => signedDelivery(signingKey));
}

interface Target {
	pool: Pool;
	path: string;
}

interface Blast {
	elapsedMs: number;
	latencies: number[];
	ok: number;
}

/** Sends the deliveries, `inFlight` at a time, delivery i to target i mod targets. */
async function blast(targets: Target[], list: Delivery[], inFlight: number): Promise<Blast> {
	let next = 0;
	let ok = 0;
	const latencies: number[] = [];
	const started = now();
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (next < list.length) {
				const i = next++;
				const t = targets[i % targets.length];
				const t0 = now();
				try {
					const res = await t.pool.request({
						method: 'POST',
						path: t.path,
						headers: list[i].headers,
						body: list[i].body,
						headersTimeout: 120_000,
						bodyTimeout: 120_000,
					});
					await res.body.dump();
					if (res.statusCode === 200) ok++;
				} catch {
					// a refused or reset connection counts as not answered
				}
				latencies.push(now() - t0);
			}
		}),
	);
	return { elapsedMs: now() - started, latencies, ok };
}

/** Waits until every execution is finished (none queued or running) and the count stops moving. */
async function drain(stack: QueueStack): Promise<void> {
	let last = -1;
	for (;;) {
		const [row] = await stack.query<{ total: string; busy: string }>(
			`SELECT count(*)::text AS total, count(*) FILTER (WHERE status IN ('new','running','waiting'))::text AS busy FROM execution_entity`,
		);
		if (row.busy === '0' && row.total === String(last)) return;
		last = row.busy === '0' ? Number(row.total) : -1;
		await sleep(1000);
	}
}

interface Setup {
	key: string;
	label: string;
	targets: Target[];
}

/** The null community trigger alone, as the editor saves it (fixed id, so it can be published). */
function nullTriggerOnly(id: string, webhookId: string) {
	const nodes = [node('Bench Null Trigger', NULL_TRIGGER.type, 1, {}, { webhookId })];
	return {
		id,
		name: 'Queue: null community trigger',
		nodes,
		connections: lineUp(nodes),
		settings: { executionOrder: 'v1' },
	};
}

/** The stack with the four workflows published and the null trigger installed beside this package. */
async function startBenchStack(opts: Options): Promise<QueueStack> {
	const packDir = mkdtempSync(path.join(tmpdir(), 'idv-bench-queue-null-'));
	try {
		return await startQueueStack({
			workflows: [
				triggerOnly(TRIGGER.id, TRIGGER.webhookId),
				triggerOnly(NO_MEMORY.id, NO_MEMORY.webhookId, undefined, { ignoreDuplicates: false }),
				nullTriggerOnly(NULL.id, NULL.webhookId),
				plainWebhook(PLAIN.id, PLAIN.path),
			],
			publish: [TRIGGER.id, NO_MEMORY.id, NULL.id, PLAIN.id],
			packages: [{ tarball: packNullTrigger(packDir), name: NULL_TRIGGER.packageName }],
			tarball: opts.tarball,
			env: opts.n8nEnv,
			log,
		});
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}

/** The setups, once every webhook process serves every path; pools are closed by the caller. */
async function setUp(stack: QueueStack, opts: Options, pools: Pool[]) {
	const pathOf = (w: { webhookId: string }) =>
		new URL(productionWebhookUrl('http://x', w)).pathname;
	const paths = {
		trigger: pathOf(TRIGGER),
		noMemory: pathOf(NO_MEMORY),
		null: pathOf(NULL),
		plain: `/webhook/${PLAIN.path}`,
	};
	for (const w of stack.webhooks)
		for (const p of Object.values(paths))
			await waitForWebhook(`${w.url}${p}`, { timeoutMs: 120_000 });
	const through = (p: string) =>
		stack.webhooks.map((w) => {
			const pool = new Pool(w.url, { connections: opts.maxBurst, pipelining: 1 });
			pools.push(pool);
			return { pool, path: p };
		});
	const n = stack.webhooks.length;
	const setups: Setup[] = [
		{ key: 'trigger', label: `trigger, ${n} webhook processes`, targets: through(paths.trigger) },
		{
			key: 'null',
			label: `null community trigger, ${n} webhook processes`,
			targets: through(paths.null),
		},
		{
			key: 'webhook',
			label: `Webhook node, ${n} webhook processes`,
			targets: through(paths.plain),
		},
	];
	const diagnostic: Setup = {
		key: 'diagnostic.triggerNoMemory',
		label: `diagnostic: trigger with its duplicate memory off, ${n} webhook processes`,
		targets: through(paths.noMemory),
	};
	return { setups, diagnostic };
}

interface Rates {
	rates: Record<string, number[]>;
	latencies: Record<string, number[]>;
}

/** Rounds of PER_ROUND deliveries per setup, in an order rotated every round. */
async function measureRates(
	stack: QueueStack,
	all: Setup[],
	opts: Options,
	key: string,
): Promise<Rates> {
	const rates: Record<string, number[]> = {};
	const latencies: Record<string, number[]> = {};
	for (let r = 0; r < opts.rounds; r++) {
		const order = [...all.slice(r % all.length), ...all.slice(0, r % all.length)];
		for (const s of order) {
			const result = await blast(s.targets, deliveries(PER_ROUND, key), IN_FLIGHT);
			if (result.ok !== PER_ROUND)
				log(`${s.label}: only ${result.ok} of ${PER_ROUND} answered 200`);
			const rate = (PER_ROUND / result.elapsedMs) * 1000;
			(rates[s.key] ??= []).push(rate);
			(latencies[s.key] ??= []).push(...result.latencies);
			log(
				`round ${r + 1}/${opts.rounds} ${s.label}: ${rate.toFixed(1)}/s, p99 ${percentile(result.latencies, 99).toFixed(0)} ms; load ${load()}`,
			);
			await drain(stack);
		}
	}
	return { rates, latencies };
}

/** Bursts of 25, 50, 100, … at once until one is not answered entirely with 200 within 10 s. */
async function largestBurst(stack: QueueStack, s: Setup, opts: Options, key: string) {
	let largest = 0;
	const tried: string[] = [];
	for (let size = 25; size <= opts.maxBurst; size *= 2) {
		const result = await blast(s.targets, deliveries(size, key), size);
		const slowest = Math.max(...result.latencies);
		tried.push(`${size}: ${result.ok} ok, slowest ${(slowest / 1000).toFixed(1)} s`);
		log(`burst ${s.label}: ${tried[tried.length - 1]}; load ${load()}`);
		await drain(stack);
		if (result.ok !== size || slowest >= DEADLINE_MS) break;
		largest = size;
	}
	return { largestUnder10s: largest, tried };
}

function summarise(
	setups: Setup[],
	measured: Rates,
	bursts: Record<string, { largestUnder10s: number }>,
) {
	const { rates, latencies } = measured;
	const ratio = (a: string, b: string) => median(rates[a].map((r, i) => r / rates[b][i]));
	const rows = setups.map((s) => ({
		setup: s.label,
		perSec: round1(median(rates[s.key])),
		p99Ms: Math.round(percentile(latencies[s.key], 99)),
		largestBurstUnder10s: bursts[s.key]?.largestUnder10s,
	}));
	return {
		rows,
		triggerToNull: Math.round(ratio('trigger', 'null') * 100) / 100,
		triggerToWebhook: Math.round(ratio('trigger', 'webhook') * 100) / 100,
		burstTriggerToNull:
			Math.round(
				(bursts.trigger.largestUnder10s / Math.max(1, bursts.null.largestUnder10s)) * 100,
			) / 100,
	};
}

function table(summary: ReturnType<typeof summarise>, opts: Options): string {
	const burst = (n: number | undefined) =>
		n === undefined ? '-' : n >= opts.maxBurst ? `≥ ${opts.maxBurst}` : `${n}`;
	return (
		'\n| Setup | Deliveries/s | p99 answer | Largest burst answered < 10 s |\n|---|---|---|---|\n' +
		summary.rows
			.map((r) => `| ${r.setup} | ${r.perSec} | ${r.p99Ms} ms | ${burst(r.largestBurstUnder10s)} |`)
			.join('\n') +
		`\n\ntrigger / null community trigger: ${summary.triggerToNull} (rate, median of the rounds' ratios; target >= 0.9); ` +
		`largest burst under 10 s: trigger ${burst(summary.rows[0].largestBurstUnder10s)}, null community trigger ${burst(summary.rows[1].largestBurstUnder10s)} (target: trigger >= 200)\n` +
		`trigger / Webhook node: ${summary.triggerToWebhook}\n`
	);
}

async function run(stack: QueueStack, opts: Options, pools: Pool[]) {
	const loadBefore = loadavg()[0];
	const { setups, diagnostic } = await setUp(stack, opts, pools);
	const key = stack.sandbox.credentials.signingKey;
	// Warm-up: every process has loaded the workflows and opened its connections.
	for (const s of [...setups, diagnostic]) await blast(s.targets, deliveries(40, key), 10);
	await drain(stack);
	const measured = await measureRates(stack, [...setups, diagnostic], opts, key);
	const bursts: Record<string, { largestUnder10s: number; tried: string[] }> = {};
	for (const s of setups) bursts[s.key] = await largestBurst(stack, s, opts, key);
	const summary = summarise(setups, measured, bursts);
	const out = {
		n8n: N8N_VERSION,
		stack: `${stack.webhooks.length} webhook processes, ${stack.workers.length} workers, Postgres, Redis, binary data in the database`,
		n8nEnv: opts.n8nEnv,
		machine: `${cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start and ${load()} at the end`,
		method: `${opts.rounds} rounds of ${PER_ROUND} unique signed deliveries at ${IN_FLIGHT} in flight (median rate, p99 over all rounds); bursts doubling from 25 up to ${opts.maxBurst}`,
		summary,
		diagnostic: {
			setup: diagnostic.label,
			perSec: round1(median(measured.rates[diagnostic.key])),
			p99Ms: Math.round(percentile(measured.latencies[diagnostic.key], 99)),
			toNull:
				Math.round(
					median(measured.rates[diagnostic.key].map((r, i) => r / measured.rates.null[i])) * 100,
				) / 100,
		},
		...measured,
		bursts,
	};
	process.stdout.write(
		`\nn8n ${N8N_VERSION}, ${out.stack}, ${out.machine}${Object.keys(opts.n8nEnv).length ? `, n8n settings ${JSON.stringify(opts.n8nEnv)}` : ''}\n${out.method}\n` +
			table(summary, opts) +
			`${out.diagnostic.setup}: ${out.diagnostic.perSec}/s (${out.diagnostic.toNull} of the null trigger), p99 ${out.diagnostic.p99Ms} ms\n`,
	);
	if (opts.json) writeFileSync(opts.json, JSON.stringify(out, null, 2));
}

async function main(): Promise<void> {
	const opts = parseArgs(process.argv.slice(2));
	log(`${opts.quick ? 'quick' : 'full'} run; load average ${load()} at the start`);
	const stack = await startBenchStack(opts);
	const pools: Pool[] = [];
	// Ctrl-C / a CI timeout: stop the n8n processes, Redis and Postgres before leaving.
	for (const signal of ['SIGINT', 'SIGTERM'] as const)
		process.once(signal, () => void stack.stop().finally(() => process.exit(130)));
	try {
		await run(stack, opts, pools);
	} finally {
		await Promise.allSettled(pools.map((p) => p.close()));
		await stack.stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? error}\n`);
	process.exit(1);
});
