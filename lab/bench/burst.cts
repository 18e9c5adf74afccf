// trigger.n8n.maxBurstUnder10s: the largest burst of simultaneous deliveries whose slowest answer
// stays under 10 s (the service's limit), for the trigger, the null community trigger and the bare
// Webhook node: doubling from 25, then bisecting; bounded in bursts and time.
import { Pool } from 'undici';

import type { Stack } from '../../test/n8n/stack.cjs';
import { load, log, type Options } from './common.cjs';
import { blast, makeDeliveries, quiesce, settle } from './n8n.cjs';
import type { TriggerVariant } from './trigger.cjs';

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
export async function maxBurst(
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
			`trigger.n8n burst ${v.label}: ${size} at once, slowest answer ${(slowest / 1000).toFixed(1)} s; load ${load()}`,
		);
		if (slowest < BURST_LIMIT_MS) good = size;
		else bad = size;
	}
	details.push(
		`trigger.n8n.maxBurstUnder10s ${v.label}: bursts (size: slowest answer) ${probes.join(', ')}${bad === Infinity ? ` (never reached 10 s up to ${good})` : ''}`,
	);
	return good;
}
