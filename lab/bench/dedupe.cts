// dedupe: what the duplicate store (nodes/shared/webhook/dedupe.ts) costs per delivery as its
// record in the workflow's static data fills up: µs per claim at 0, 500 and 1,000 entries, through
// n8n's observable static data loaded from its saved JSON before each delivery (as n8n does). n8n's
// own load and save of the same static data are timed beside it, not in the claim.
import { randomBytes } from 'node:crypto';
import { ObservableObject, type IDataObject } from 'n8n-workflow';

import { dedupe } from './built.cjs';
import { load, log, median, round, type DedupeFigures, type Options } from './common.cjs';

const { claimDelivery, dedupeKey, formerDedupeKeys } = dedupe;

const NODE_KEY = 'node:Identity Verification Trigger';
const SIZES = ['0', '500', '1000'] as const;
const T0 = Date.UTC(2026, 10, 1);

let scopeCounter = 0;

/** The node's static data as n8n hands it to a delivery: parsed from what it saved, observable. */
function loaded(saved: string): IDataObject {
	const root = ObservableObject.create({ [NODE_KEY]: JSON.parse(saved) }, undefined, {
		ignoreEmptyOnFirstChild: true,
	}) as IDataObject;
	return root[NODE_KEY] as IDataObject;
}

const freshKey = () => dedupeKey(randomBytes(32).toString('hex'));

/** Claims one new delivery and says it was answered 2xx: µs for the claim alone. */
async function timedClaim(scope: string, staticData: IDataObject, now: number): Promise<number> {
	const key = freshKey();
	const formerKeys = formerDedupeKeys(key);
	const t0 = process.hrtime.bigint();
	const claim = await claimDelivery({ scope, key, formerKeys, staticData, now });
	if (claim.kind !== 'new') throw new Error(`a new delivery was claimed as ${claim.kind}`);
	claim.settle(true);
	return Number(process.hrtime.bigint() - t0) / 1000;
}

/** A record of `count` entries that `scope` wrote, saved as n8n saves static data. */
async function filled(scope: string, count: number): Promise<{ saved: string; now: number }> {
	const staticData: IDataObject = {};
	let now = T0;
	for (let i = 0; i < count; i++) await timedClaim(scope, staticData, ++now);
	return { saved: JSON.stringify(staticData), now };
}

/**
 * Median µs per claim around `size` entries: `iterations` deliveries one after the other, each on
 * the static data the previous one saved. Also what n8n itself does with the same static data
 * around each delivery (parse it into its observable object when the request arrives, serialise it
 * to save it): µs, median.
 */
async function claimCost(
	size: number,
	iterations: number,
): Promise<{ claim: number; n8n: number }> {
	const scope = `bench:${++scopeCounter}`;
	const start = size === 0 ? 0 : Math.max(0, size - iterations / 2);
	let { saved, now } = await filled(scope, start);
	const claims: number[] = [];
	const n8n: number[] = [];
	for (let i = 0; i < iterations; i++) {
		const json = size === 0 ? '{}' : saved;
		const t0 = process.hrtime.bigint();
		const staticData = loaded(json);
		const t1 = process.hrtime.bigint();
		claims.push(await timedClaim(scope, staticData, ++now));
		const t2 = process.hrtime.bigint();
		saved = JSON.stringify(staticData);
		n8n.push(Number(t1 - t0 + (process.hrtime.bigint() - t2)) / 1000);
	}
	const warm = Math.floor(iterations / 10);
	return { claim: median(claims.slice(warm)), n8n: median(n8n.slice(warm)) };
}

export async function benchDedupe(opts: Options, details: string[]): Promise<DedupeFigures> {
	const iterations = opts.quick ? 100 : 300;
	const claimMicros = { '0': 0, '500': 0, '1000': 0 };
	const n8nMicros = { '0': 0, '500': 0, '1000': 0 };
	// Warm-up: the code paths compiled before anything is timed.
	await claimCost(500, 50);
	for (const size of SIZES) {
		const cost = await claimCost(Number(size), iterations);
		claimMicros[size] = round(cost.claim, 1);
		n8nMicros[size] = round(cost.n8n, 1);
		log(
			`dedupe at ${size} entries: ${claimMicros[size]} µs per claim; n8n's parse and save of the same static data ${n8nMicros[size]} µs; load ${load()}`,
		);
	}
	const list = (m: Record<string, number>) => SIZES.map((s) => `${s}: ${m[s]}`).join(', ');
	details.push(
		`dedupe: µs per claim of a new delivery, median of ${iterations} deliveries around each size, static data loaded from its saved JSON into n8n's observable object before each (not timed); ` +
			`claims ${list(claimMicros)}; n8n's own parse + save of that static data per delivery ${list(n8nMicros)}`,
	);
	return {
		claimMicros,
		n8nStaticDataMicros: n8nMicros,
		vsN8nStaticData: round(claimMicros['1000'] / n8nMicros['1000']),
	};
}
