// trigger.n8n: deliveries per second through real n8n at 50 concurrent deliveries, same bodies,
// variants rotated each round: this trigger's production webhook against a null community trigger
// (lab/bench/null-trigger, installed as n8n installs community packages: the ceiling for any
// community trigger, since n8n skips the expression isolate only for its own Webhook node), against
// Webhook (Raw Body) + Crypto HMAC + If (what users build without this package), and against the
// bare Webhook node (information). Also forged deliveries refused without a signature header (no
// signing-key read) and with a wrong one (the key kept from the last read), and in full runs the
// trigger with its signature check off and with duplicate suppression off: what the key read and
// the static data write cost.
import { Pool } from 'undici';

import { waitForWebhook } from '../../test/n8n/runtime.cjs';
import { productionWebhookUrl, type Stack } from '../../test/n8n/stack.cjs';
import {
	load,
	log,
	median,
	percentile,
	round,
	type Options,
	type TriggerRates,
} from './common.cjs';
import {
	blast,
	createActive,
	createCredential,
	makeDeliveries,
	quiesce,
	settle,
	whileBusy,
	type Blast,
	type Delivery,
} from './n8n.cjs';
import {
	nullTriggerWorkflow,
	plainWebhookWorkflow,
	triggerWorkflow,
	workflowCheckWorkflow,
	type Workflow,
} from './workflows.cjs';

type DeliveryKind = 'signed' | 'unsigned' | 'wrongKey';

/** Deliveries of one kind: signed with the key, without the signature header, or signed with another key. */
function deliveriesOf(kind: DeliveryKind, count: number, signingKey: string): Delivery[] {
	const out = makeDeliveries(count, kind === 'wrongKey' ? `${signingKey}-not` : signingKey);
	if (kind === 'unsigned') for (const d of out) delete d.headers['service-signature'];
	return out;
}

export interface TriggerVariant {
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

/** Activates workflows and waits until n8n serves each one's webhook. */
function activator(stack: Stack) {
	const triggerPath = (webhookId: string) =>
		new URL(productionWebhookUrl(stack.n8n.url, { webhookId })).pathname;
	const probe = { 'content-type': 'application/json' };
	return {
		triggerPath,
		trigger: async (name: string, webhookId: string, options: Record<string, unknown>) => {
			const workflowId = await createActive(stack.rest, triggerWorkflow(name, webhookId, options));
			// A delivery with a malformed signature: 401 once the trigger is live (no execution); with
			// the check off, an empty JSON body: 200 and one execution (counts start after it).
			const status = await waitForWebhook(`${stack.n8n.url}${triggerPath(webhookId)}`, {
				init: {
					method: 'POST',
					headers: { ...probe, 'service-signature': 'sha256=00' },
					body: '{}',
				},
			});
			if (options.verifySignature !== false && status !== 401)
				throw new Error(`the trigger answered a forged delivery with ${status}, expected 401`);
			return { workflowId, path: triggerPath(webhookId) };
		},
		webhook: async (workflow: Workflow, path: string) => {
			const workflowId = await createActive(stack.rest, workflow);
			await waitForWebhook(`${stack.n8n.url}${path}`, {
				init: { method: 'POST', headers: probe, body: '{"probe":true}' },
			});
			return { workflowId, path };
		},
	};
}

export async function setUpTriggerVariants(stack: Stack): Promise<TriggerVariant[]> {
	const { triggerPath, trigger, webhook } = activator(stack);
	const ours = await trigger('Bench: trigger', '7c1e5b2a-3d4f-4a6b-8c9d-0e1f2a3b4c5d', {});
	const nullId = '9e3a7d4c-5f6b-4c8d-8e1f-2a3b4c5d6e7f';
	const nullTrigger = await webhook(
		nullTriggerWorkflow('Bench: null community trigger', nullId),
		triggerPath(nullId),
	);
	const crypto = await createCredential(stack, 'Signing key via Crypto (bench)', 'crypto', {
		hmacSecret: stack.sandbox.credentials.signingKey,
	});
	const signed = { kind: 'signed', status: 200 } as const;
	const variants: TriggerVariant[] = [
		{ key: 'trigger', label: 'trigger', ...ours, ...signed },
		{ key: 'null', label: 'null community trigger', ...nullTrigger, ...signed },
		{
			key: 'plain',
			label: 'Webhook node',
			...(await webhook(
				plainWebhookWorkflow('Bench: plain Webhook node', 'bench-plain-webhook'),
				'/webhook/bench-plain-webhook',
			)),
			...signed,
		},
		{
			key: 'workflowCheck',
			label: 'Webhook+Crypto+If',
			...(await webhook(
				workflowCheckWorkflow('Bench: Webhook + Crypto + If', 'bench-workflow-check', crypto),
				'/webhook/bench-workflow-check',
			)),
			...signed,
		},
		// Forged deliveries to the same trigger (nothing starts): without a signature header the
		// trigger refuses before reading its signing key; with a wrong key it checks with the kept key.
		{ key: 'refusedUnsigned', label: 'refused unsigned', ...ours, kind: 'unsigned', status: 401 },
		{ key: 'refusedWrongKey', label: 'refused wrong key', ...ours, kind: 'wrongKey', status: 401 },
		{
			key: 'triggerNoCheck',
			label: 'trigger, signature check off',
			...(await trigger('Bench: trigger without check', '8d2f6c3b-4e5a-4b7c-9d0e-1f2a3b4c5d6e', {
				verifySignature: false,
			})),
			...signed,
			fullOnly: true,
		},
		{
			key: 'triggerNoDedupe',
			label: 'trigger, duplicate suppression off',
			...(await trigger('Bench: trigger without dedupe', '6a0b4c2d-8e7f-4a1b-9c3d-5e6f7a8b9c0d', {
				ignoreDuplicates: false,
			})),
			...signed,
			fullOnly: true,
		},
	];
	await checkWorkflowCheck(stack, variants.find((v) => v.key === 'workflowCheck')!);
	return variants;
}

const CONCURRENCY = 50;
const PER_ROUND = 100;

/**
 * One variant's round: every accepted delivery must become exactly one execution, a refused one
 * none. n8n answers 503 while its database is unreachable (it happens on a loaded machine): such a
 * round is logged and sent again with fresh bodies, at most twice.
 */
async function roundOf(
	stack: Stack,
	pool: Pool,
	v: TriggerVariant,
	signed: Delivery[],
): Promise<Blast> {
	const signingKey = stack.sandbox.credentials.signingKey;
	for (let attempt = 1; attempt <= 3; attempt++) {
		const deliveries =
			v.kind === 'signed' && attempt === 1 ? signed : deliveriesOf(v.kind, PER_ROUND, signingKey);
		const base = await quiesce(stack.rest, v.workflowId);
		const got = await blast(pool, v.path, deliveries, CONCURRENCY);
		const accepted = v.status === 200 ? (got.statuses[200] ?? 0) : 0;
		await settle(stack.rest, v.workflowId, base + accepted);
		if ((got.statuses[v.status] ?? 0) === PER_ROUND) return got;
		log(
			`${v.label}: expected ${PER_ROUND} answers ${v.status}, got ${JSON.stringify(got.statuses)}${attempt < 3 ? '; sending the round again' : ''}`,
		);
	}
	throw new Error(`${v.label}: three rounds in a row got unexpected answers`);
}

/**
 * The trigger and the null trigger (the pair the target compares) back to back in every round, each
 * going first in every other round: rotated with the rest, the pair ended up at opposite ends of one
 * round in five, and that round's ratio was the lowest of every run.
 */
function withPairAdjacent(order: TriggerVariant[], round: number): TriggerVariant[] {
	const nullTrigger = order.find((v) => v.key === 'null');
	if (!nullTrigger || !order.some((v) => v.key === 'trigger')) return order;
	const rest = order.filter((v) => v !== nullTrigger);
	const at = rest.findIndex((v) => v.key === 'trigger');
	rest.splice(round % 2 === 0 ? at : at + 1, 0, nullTrigger);
	return rest;
}

interface Measured {
	rates: Record<string, number[]>;
	latencies: Record<string, number[]>;
}

/**
 * Every variant gets the same unique signed bodies each round (so no delivery is a duplicate and
 * each accepted one starts a workflow), in an order rotated every round so that no variant always
 * follows the same one (the trigger and the null trigger kept together); each waits for n8n to
 * finish the previous variant's executions.
 */
export async function measureRounds(
	stack: Stack,
	measured: TriggerVariant[],
	runs: number,
): Promise<Measured> {
	const rates: Record<string, number[]> = Object.fromEntries(measured.map((v) => [v.key, []]));
	const latencies: Record<string, number[]> = Object.fromEntries(measured.map((v) => [v.key, []]));
	const pool = new Pool(stack.n8n.url, { connections: CONCURRENCY, pipelining: 1 });
	try {
		for (let i = -1; i < runs; i++) {
			const signed = makeDeliveries(PER_ROUND, stack.sandbox.credentials.signingKey);
			const shift = (((i + 1) % measured.length) + measured.length) % measured.length;
			const order = withPairAdjacent([...measured.slice(shift), ...measured.slice(0, shift)], i);
			const line: string[] = [];
			for (const v of order) {
				const result = await roundOf(stack, pool, v, signed);
				const rate = (PER_ROUND / result.elapsedMs) * 1000;
				line.push(`${v.label} ${rate.toFixed(1)}/s`);
				if (i < 0) continue;
				rates[v.key].push(rate);
				latencies[v.key].push(...result.latencies);
			}
			log(
				`trigger.n8n ${i < 0 ? 'warm-up' : `run ${i + 1}/${runs}`}: ${line.join(', ')}; load ${load()}`,
			);
		}
	} finally {
		await pool.close();
	}
	return { rates, latencies };
}

export async function benchTriggerN8n(
	stack: Stack,
	variants: TriggerVariant[],
	opts: Options,
	details: string[],
): Promise<TriggerRates> {
	// Seven rounds in full runs: one round's trigger / null ratio moves ±10 % with the machine's load
	// (0.86 to 1.09 in one run), and the median of five still landed either side of the target.
	const runs = opts.quick ? 3 : 7;
	const measured = variants.filter((v) => !(opts.quick && v.fullOnly));
	const { rates, latencies } = await measureRounds(stack, measured, runs);
	const m = (k: string) => median(rates[k] ?? []);
	const list = (k: string) => (rates[k] ?? []).map((r) => r.toFixed(1)).join(', ');
	const p = (k: string, q: number) => percentile(latencies[k] ?? [], q).toFixed(0);
	// Ratios: the median of each round's ratio, so that the load drifting between rounds on a busy
	// machine cancels out within a round instead of skewing one side's median.
	const perRound = (a: string, b: string) => (rates[a] ?? []).map((r, i) => r / rates[b][i]);
	const ratio = (k: string, of = 'trigger') => median(perRound(of, k));
	const shown = (a: string, b: string) =>
		`${a} / ${b} ${perRound(a, b)
			.map((r) => r.toFixed(2))
			.join(', ')}`;
	details.push(
		`trigger.n8n: ${runs} rounds of ${PER_ROUND} unique deliveries at ${CONCURRENCY} in flight per variant, variants rotated each round (the trigger and the null trigger back to back, each first in every other round), each waiting for n8n to finish the previous one's executions; ` +
			measured
				.map(
					(v) =>
						`${v.label} ${list(v.key)}/s (median ${m(v.key).toFixed(1)}, answer p50/p99 ${p(v.key, 50)}/${p(v.key, 99)} ms)`,
				)
				.join('; ') +
			`; ratios per round: ${shown('trigger', 'null')}, ${shown('trigger', 'workflowCheck')}, ${shown('trigger', 'plain')}` +
			(rates.triggerNoCheck
				? `, ${shown('triggerNoCheck', 'null')}, ${shown('triggerNoDedupe', 'null')}`
				: ''),
	);
	return {
		triggerPerSec: round(m('trigger'), 1),
		nullTriggerPerSec: round(m('null'), 1),
		webhookNodePerSec: round(m('plain'), 1),
		workflowCheckPerSec: round(m('workflowCheck'), 1),
		toNull: round(ratio('null')),
		vsWorkflowCheck: round(ratio('workflowCheck')),
		ratio: round(ratio('plain')),
		p99AckMs: round(percentile(latencies.trigger, 99), 1),
		nullP99AckMs: round(percentile(latencies.null, 99), 1),
		p99VsNull: round(percentile(latencies.trigger, 99) / percentile(latencies.null, 99)),
		signingKeyRead: {
			refusedUnsignedPerSec: round(m('refusedUnsigned'), 1),
			refusedWrongKeyPerSec: round(m('refusedWrongKey'), 1),
			noCheckPerSec: rates.triggerNoCheck ? round(m('triggerNoCheck'), 1) : null,
			noDedupePerSec: rates.triggerNoDedupe ? round(m('triggerNoDedupe'), 1) : null,
		},
	};
}
