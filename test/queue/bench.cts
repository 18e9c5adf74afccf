// `npm run bench:queue [-- --quick] [-- --json FILE] [-- --n8n-env K=V]`
//
// Throughput of the trigger in n8n's queue mode, side by side in one run on one stack (Postgres,
// Redis, main, two `n8n webhook` processes, two workers; see test/n8n/queue.cts):
//
//   rate    deliveries per second and p99 time to answer, 100 unique signed deliveries at 50 in
//           flight, sent to one webhook process, then alternating between two; this trigger and
//           n8n's own Webhook node (answering when the execution is queued) on the same bodies.
//   burst   the largest burst of simultaneous deliveries (5, 10, 20, 40, ... sent at once) that
//           is answered entirely with 200 within 10 s, the service's time limit, in each setup.
//
// Between measurements the workers finish every queued execution, so each one starts from an
// empty queue. A measuring script, not a test: it asserts nothing and prints a table (plus JSON).
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Pool } from 'undici';
import { signedDelivery, type WebhookRequest } from '../sandbox/index.cjs';
import { N8N_VERSION, waitForWebhook } from '../n8n/runtime.cjs';
import { productionWebhookUrl } from '../n8n/stack.cjs';
import { startQueueStack, type QueueStack } from '../n8n/queue.cjs';
import { plainWebhook, triggerOnly } from './workflows.cjs';

const TRIGGER = { id: 'idvBenchQTrigger', webhookId: '6b2e1d4f-8c3a-4d9e-8f1b-2c3d4e5f6a71' };
// Diagnostic (rate only): the trigger with its duplicate memory off, so no static data is written.
const NO_MEMORY = { id: 'idvBenchQTrigNoM', webhookId: '6b2e1d4f-8c3a-4d9e-8f1b-2c3d4e5f6a72' };
const PLAIN = { id: 'idvBenchQPlainWh', path: 'bench-queue-plain' };
const DEADLINE_MS = 10_000;

const now = () => Number(process.hrtime.bigint()) / 1e6;
const log = (msg: string) => process.stderr.write(`[bench:queue] ${msg}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
	const s = [...values].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const percentile = (values: number[], p: number) => {
	const s = [...values].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

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

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const quick = argv.includes('--quick');
	const jsonAt = argv.indexOf('--json');
	const jsonFile = jsonAt >= 0 ? argv[jsonAt + 1] : undefined;
	const rounds = quick ? 1 : 2;
	const perRound = 100;
	const inFlight = 50;
	const maxBurst = quick ? 160 : 1280;
	// --n8n-env K=V (repeatable): diagnostics with other n8n settings on every process.
	const n8nEnv: Record<string, string> = {};
	argv.forEach((a, i) => {
		if (a !== '--n8n-env') return;
		const [k, ...v] = (argv[i + 1] ?? '').split('=');
		n8nEnv[k] = v.join('=');
	});

	const stack = await startQueueStack({
		workflows: [
			triggerOnly(TRIGGER.id, TRIGGER.webhookId),
			triggerOnly(NO_MEMORY.id, NO_MEMORY.webhookId, undefined, { ignoreDuplicates: false }),
			plainWebhook(PLAIN.id, PLAIN.path),
		],
		publish: [TRIGGER.id, NO_MEMORY.id, PLAIN.id],
		env: n8nEnv,
		log,
	});
	const pools: Pool[] = [];
	// Ctrl-C / a CI timeout: stop the n8n processes, Redis and Postgres before leaving.
	for (const signal of ['SIGINT', 'SIGTERM'] as const)
		process.once(signal, () => void stack.stop().finally(() => process.exit(130)));
	const loadBefore = loadavg()[0];
	try {
		const triggerPath = new URL(productionWebhookUrl('http://x', TRIGGER)).pathname;
		const plainPath = `/webhook/${PLAIN.path}`;
		for (const w of stack.webhooks)
			await waitForWebhook(`${w.url}${triggerPath}`, { timeoutMs: 120_000 });
		const pool = (url: string) => {
			const p = new Pool(url, { connections: maxBurst, pipelining: 1 });
			pools.push(p);
			return p;
		};
		const [p1, p2] = stack.webhooks.map((w) => pool(w.url));
		const [q1, q2] = stack.webhooks.map((w) => pool(w.url));
		/** Deliveries to `path` through the given pools (one per webhook process). */
		const setup = (key: string, label: string, path: string, through: Pool[]): Setup => ({
			key,
			label,
			targets: through.map((p) => ({ pool: p, path })),
		});
		const setups: Setup[] = [
			setup('trigger.1', 'trigger, 1 webhook process', triggerPath, [p1]),
			setup('trigger.2', 'trigger, 2 webhook processes', triggerPath, [p1, p2]),
			setup('webhook.1', 'Webhook node, 1 webhook process', plainPath, [q1]),
			setup('webhook.2', 'Webhook node, 2 webhook processes', plainPath, [q1, q2]),
		];
		const noMemoryPath = new URL(productionWebhookUrl('http://x', NO_MEMORY)).pathname;
		for (const w of stack.webhooks)
			await waitForWebhook(`${w.url}${noMemoryPath}`, { timeoutMs: 120_000 });
		const diagnostic = setup(
			'diagnostic.triggerNoMemory.2',
			'diagnostic: trigger with its duplicate memory off, 2 webhook processes',
			noMemoryPath,
			[p1, p2],
		);
		const key = stack.sandbox.credentials.signingKey;

		// Warm-up: every process has loaded the workflows and opened its connections.
		for (const s of setups) await blast(s.targets, deliveries(40, key), 10);
		await drain(stack);

		const rates: Record<string, number[]> = {};
		const latencies: Record<string, number[]> = {};
		for (let round = 0; round < rounds; round++) {
			const all = [...setups, diagnostic];
			const order = [...all.slice(round % all.length), ...all.slice(0, round % all.length)];
			for (const s of order) {
				const result = await blast(s.targets, deliveries(perRound, key), inFlight);
				if (result.ok !== perRound)
					log(`${s.label}: only ${result.ok} of ${perRound} answered 200`);
				(rates[s.key] ??= []).push((perRound / result.elapsedMs) * 1000);
				(latencies[s.key] ??= []).push(...result.latencies);
				log(
					`round ${round + 1}/${rounds} ${s.label}: ${((perRound / result.elapsedMs) * 1000).toFixed(1)}/s, p99 ${percentile(result.latencies, 99).toFixed(0)} ms`,
				);
				await drain(stack);
			}
		}

		const bursts: Record<string, { largestUnder10s: number; tried: string[] }> = {};
		for (const s of setups) {
			let largest = 0;
			const tried: string[] = [];
			for (let size = 5; size <= maxBurst; size *= 2) {
				const result = await blast(s.targets, deliveries(size, key), size);
				const slowest = Math.max(...result.latencies);
				tried.push(`${size}: ${result.ok} ok, slowest ${(slowest / 1000).toFixed(1)} s`);
				log(`burst ${s.label}: ${tried[tried.length - 1]}`);
				await drain(stack);
				if (result.ok !== size || slowest >= DEADLINE_MS) break;
				largest = size;
			}
			bursts[s.key] = { largestUnder10s: largest, tried };
		}

		const summary = setups.map((s) => ({
			setup: s.label,
			perSec: Math.round(median(rates[s.key]) * 10) / 10,
			p99Ms: Math.round(percentile(latencies[s.key], 99)),
			largestBurstUnder10s: bursts[s.key].largestUnder10s,
		}));
		const out = {
			n8n: N8N_VERSION,
			stack: `${stack.webhooks.length} webhook processes, ${stack.workers.length} workers, Postgres, Redis, binary data in the database`,
			n8nEnv,
			machine: `${cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end`,
			method: `${rounds} rounds of ${perRound} unique signed deliveries at ${inFlight} in flight (median rate, p99 over all rounds); bursts doubling from 5 up to ${maxBurst}`,
			summary,
			diagnostic: {
				setup: diagnostic.label,
				perSec: Math.round(median(rates[diagnostic.key]) * 10) / 10,
				p99Ms: Math.round(percentile(latencies[diagnostic.key], 99)),
			},
			rates,
			bursts,
		};
		process.stdout.write(
			'\n| Setup | Deliveries/s | p99 answer | Largest burst answered < 10 s |\n|---|---|---|---|\n' +
				summary
					.map(
						(r) =>
							`| ${r.setup} | ${r.perSec} | ${r.p99Ms} ms | ${r.largestBurstUnder10s >= maxBurst ? `≥ ${maxBurst}` : r.largestBurstUnder10s} |`,
					)
					.join('\n') +
				'\n',
		);
		if (jsonFile) writeFileSync(jsonFile, JSON.stringify(out, null, 2));
	} finally {
		await Promise.allSettled(pools.map((p) => p.close()));
		await stack.stop();
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? error}\n`);
	process.exit(1);
});
