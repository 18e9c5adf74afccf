// trigger.n8nPatched: the trigger (version 1.1) against the bare Webhook node in a second n8n, the
// pinned release with the change docs/upstream/ proposes: a start node type that declares the
// `webhookEvaluatesNoExpressions` node feature skips the webhook-phase expression isolate under the
// conditions n8n applies to its own Webhook node (static parameters, natively resolvable webhook
// descriptions, a version other than 1). Information, not a target: what the trigger gains once
// n8n takes the change, measured again with every n8n release.
//
// The shared install is never written. The pinned `n8n/dist/webhooks/live-webhooks.js` is checked
// against the SHA-256 this change was written for (a new release fails here, saying what to
// update), patched as a copy in a temporary folder, and n8n is started with a `--require` preload
// whose `module.registerHooks` load hook serves that copy in place of the original file. The preload
// writes one line to n8n's log when it does; the run fails unless that line is there.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { N8N_VERSION, ensureN8n, waitForWebhook } from '../../test/n8n/runtime.cjs';
import { productionWebhookUrl, type Stack } from '../../test/n8n/stack.cjs';
import { log, median, percentile, round, type Options, type Results } from './common.cjs';
import { createActive, startBenchStack } from './n8n.cjs';
import { measureRounds, type TriggerVariant } from './trigger.cjs';
import { plainWebhookWorkflow, triggerWorkflow } from './workflows.cjs';

/** The pinned compiled file, and the SHA-256 of the version the change below was written for. */
const LIVE_WEBHOOKS = path.join('node_modules', 'n8n', 'dist', 'webhooks', 'live-webhooks.js');
const PINNED_SHA256: Record<string, string> = {
	'2.41.1': 'dcb00e355939b515a1a103e26e51f082c784b9c41b25df0c5705de56cc7cf47c',
};

/**
 * The compiled form of docs/upstream/live-webhooks.patch, as [original, replacement] pairs: the
 * node-type condition of `webhookPhaseNeedsIsolate` also lets through a node type declaring the
 * feature for its version, and the module exports the feature's name. Each replacement has the
 * original's line count, so the source map's line numbers stay right.
 */
const EDITS: Array<[string, string]> = [
	[
		'exports.LiveWebhooks = void 0;\n',
		"exports.LiveWebhooks = void 0; exports.WEBHOOK_EVALUATES_NO_EXPRESSIONS_FEATURE = 'webhookEvaluatesNoExpressions';\n",
	],
	[
		'        if (startNode.type !== n8n_workflow_1.WEBHOOK_NODE_TYPE)\n            return true;\n',
		'        if (startNode.type !== n8n_workflow_1.WEBHOOK_NODE_TYPE && n8n_workflow_1.NodeHelpers.getNodeFeatures(this.nodeTypes.getByNameAndVersion(startNode.type, startNode.typeVersion)?.description.features, startNode.typeVersion)[exports.WEBHOOK_EVALUATES_NO_EXPRESSIONS_FEATURE] !== true)\n            return true;\n',
	],
];

/** Marker the preload writes to n8n's log once n8n has loaded the patched copy. */
const LOADED = 'idv-bench: patched live-webhooks.js loaded';

export interface PatchedFigures {
	/** The trigger at version 1.1 in the patched n8n. */
	triggerPerSec: number;
	/** The trigger at version 1: n8n keeps the isolate for version-1 start nodes, patched or not. */
	triggerV1PerSec: number;
	webhookNodePerSec: number;
	/** trigger 1.1 / bare Webhook node, median of the rounds. */
	ratio: number;
	/** trigger 1 / bare Webhook node, median of the rounds (what the patch leaves unchanged). */
	v1Ratio: number;
	p99AckMs: number;
	webhookNodeP99AckMs: number;
}

/** The patched copy of the pinned file; throws when the pinned file is not the one expected. */
function patchedSource(original: string, version: string): string {
	const expected = PINNED_SHA256[version];
	const actual = createHash('sha256').update(original).digest('hex');
	if (actual !== expected)
		throw new Error(
			`n8n ${version}'s ${LIVE_WEBHOOKS} (sha256 ${actual}) is not the file the patched-n8n bench was written for (${expected ?? `no hash known for ${version}`}). Check that docs/upstream/live-webhooks.patch still applies to that release, then update EDITS and PINNED_SHA256 in lab/bench/patched-n8n.cts.`,
		);
	return EDITS.reduce((source, [from, to]) => {
		const at = source.indexOf(from);
		if (at < 0 || source.indexOf(from, at + 1) >= 0)
			throw new Error(`${LIVE_WEBHOOKS}: ${JSON.stringify(from)} is not there exactly once`);
		return source.slice(0, at) + to + source.slice(at + from.length);
	}, original);
}

/** The preload: serves the patched copy whenever n8n loads the original file. */
function preloadSource(original: string, copy: string): string {
	return `'use strict';
const { registerHooks } = require('node:module');
const { readFileSync } = require('node:fs');
const { fileURLToPath } = require('node:url');
const original = ${JSON.stringify(original)};
const source = readFileSync(${JSON.stringify(copy)}, 'utf8');
registerHooks({
	load(url, context, nextLoad) {
		if (!url.startsWith('file:') || fileURLToPath(url) !== original) return nextLoad(url, context);
		process.stderr.write(${JSON.stringify(`${LOADED}\n`)});
		return { format: 'commonjs', source, shortCircuit: true };
	},
});
`;
}

/**
 * Writes the patched copy and its preload into a temporary folder: the environment that makes an
 * n8n process load the copy, and the folder to remove afterwards.
 */
function preparePatchedN8n(n8nHome: string): { env: Record<string, string>; dir: string } {
	const original = path.join(n8nHome, LIVE_WEBHOOKS);
	const patched = patchedSource(readFileSync(original, 'utf8'), N8N_VERSION);
	const dir = mkdtempSync(path.join(tmpdir(), 'idv-bench-patched-'));
	const copy = path.join(dir, 'live-webhooks.js');
	const preload = path.join(dir, 'preload.cjs');
	writeFileSync(copy, patched);
	writeFileSync(preload, preloadSource(original, copy));
	return { env: { NODE_OPTIONS: `--require ${preload}` }, dir };
}

/** The trigger at `typeVersion`, active, answering a forged delivery 401 (it is live). */
async function triggerVariant(
	stack: Stack,
	key: string,
	label: string,
	typeVersion: number,
	webhookId: string,
): Promise<TriggerVariant> {
	const workflow = triggerWorkflow(`Bench (patched n8n): trigger ${typeVersion}`, webhookId);
	workflow.nodes[0].typeVersion = typeVersion;
	const workflowId = await createActive(stack.rest, workflow);
	const urlPath = new URL(productionWebhookUrl(stack.n8n.url, { webhookId })).pathname;
	const status = await waitForWebhook(`${stack.n8n.url}${urlPath}`, {
		init: {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'service-signature': 'sha256=00' },
			body: '{}',
		},
	});
	if (status !== 401)
		throw new Error(
			`the trigger ${typeVersion} answered a forged delivery ${status}, expected 401`,
		);
	return { key, label, workflowId, path: urlPath, kind: 'signed', status: 200 };
}

async function setUpVariants(stack: Stack): Promise<TriggerVariant[]> {
	const plainPath = 'bench-patched-plain-webhook';
	const plainId = await createActive(
		stack.rest,
		plainWebhookWorkflow('Bench (patched n8n): plain Webhook node', plainPath),
	);
	await waitForWebhook(`${stack.n8n.url}/webhook/${plainPath}`, {
		init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
	});
	return [
		await triggerVariant(
			stack,
			'trigger',
			'trigger 1.1',
			1.1,
			'3b8d1f6e-2a4c-4e7b-9f0a-6c5d4e3b2a10',
		),
		await triggerVariant(
			stack,
			'triggerV1',
			'trigger 1',
			1,
			'5c9e2a7f-3b5d-4f8c-8a1b-7d6e5f4c3b21',
		),
		{
			key: 'plain',
			label: 'Webhook node',
			workflowId: plainId,
			path: `/webhook/${plainPath}`,
			kind: 'signed',
			status: 200,
		},
	];
}

async function measure(stack: Stack, opts: Options, details: string[]): Promise<PatchedFigures> {
	const variants = await setUpVariants(stack);
	const runs = opts.quick ? 3 : 7;
	const { rates, latencies } = await measureRounds(stack, variants, runs);
	const perRound = (a: string) => rates[a].map((r, i) => r / rates.plain[i]);
	const list = (values: number[]) => values.map((r) => r.toFixed(2)).join(', ');
	const p99 = (k: string) => percentile(latencies[k], 99);
	details.push(
		`trigger.n8nPatched: n8n ${N8N_VERSION} with docs/upstream/live-webhooks.patch applied to a copy of live-webhooks.js; ${runs} rounds as trigger.n8n; ` +
			variants
				.map(
					(v) =>
						`${v.label} ${list(rates[v.key])}/s (median ${median(rates[v.key]).toFixed(1)}, answer p50/p99 ${percentile(latencies[v.key], 50).toFixed(0)}/${p99(v.key).toFixed(0)} ms)`,
				)
				.join('; ') +
			`; ratios per round: trigger 1.1 / Webhook node ${list(perRound('trigger'))}, trigger 1 / Webhook node ${list(perRound('triggerV1'))}`,
	);
	return {
		triggerPerSec: round(median(rates.trigger), 1),
		triggerV1PerSec: round(median(rates.triggerV1), 1),
		webhookNodePerSec: round(median(rates.plain), 1),
		ratio: round(median(perRound('trigger'))),
		v1Ratio: round(median(perRound('triggerV1'))),
		p99AckMs: round(p99('trigger'), 1),
		webhookNodeP99AckMs: round(p99('plain'), 1),
	};
}

/** The section: its own n8n (the patched copy), stopped and removed afterwards. */
export async function benchPatchedN8n(opts: Options, details: string[]): Promise<PatchedFigures> {
	const patched = preparePatchedN8n(ensureN8n({ log }));
	try {
		const nodeOptions = [patched.env.NODE_OPTIONS, opts.n8nEnv.NODE_OPTIONS].filter(Boolean);
		const stack = await startBenchStack({
			...opts,
			n8nEnv: { ...opts.n8nEnv, NODE_OPTIONS: nodeOptions.join(' ') },
		});
		// Ctrl-C: stop() signals n8n's process group at once, so n8n ends even if the bench exits first.
		const onSignal = () => void stack.stop().finally(() => process.exit(130));
		process.once('SIGINT', onSignal);
		process.once('SIGTERM', onSignal);
		try {
			if (!readFileSync(stack.n8n.logFile, 'utf8').includes(LOADED))
				throw new Error(`n8n started without loading the patched copy (no "${LOADED}" in its log)`);
			log(`patched n8n ${N8N_VERSION} on ${stack.n8n.url}: ${LOADED}`);
			return await measure(stack, opts, details);
		} finally {
			process.off('SIGINT', onSignal);
			process.off('SIGTERM', onSignal);
			await stack.stop();
		}
	} finally {
		rmSync(patched.dir, { recursive: true, force: true });
	}
}

/** The section's rows of the table (information: no target). */
export function patchedRows(r: Results) {
	const p = r.trigger.n8nPatched;
	return [
		{ key: 'trigger.n8nPatched.triggerPerSec', value: p?.triggerPerSec, unit: '/s' },
		{ key: 'trigger.n8nPatched.webhookNodePerSec', value: p?.webhookNodePerSec, unit: '/s' },
		{ key: 'trigger.n8nPatched.ratio', value: p?.ratio, unit: 'x' },
		{ key: 'trigger.n8nPatched.triggerV1PerSec', value: p?.triggerV1PerSec, unit: '/s' },
		{ key: 'trigger.n8nPatched.v1Ratio', value: p?.v1Ratio, unit: 'x' },
		{ key: 'trigger.n8nPatched.p99AckMs', value: p?.p99AckMs, unit: 'ms' },
		{ key: 'trigger.n8nPatched.webhookNodeP99AckMs', value: p?.webhookNodeP99AckMs, unit: 'ms' },
	];
}

export const PATCHED_REFERENCES: Record<string, string> = {
	'trigger.n8nPatched.triggerPerSec': 'trigger 1.1, n8n with docs/upstream/live-webhooks.patch',
	'trigger.n8nPatched.webhookNodePerSec': 'bare Webhook node, same patched n8n',
	'trigger.n8nPatched.ratio':
		'trigger 1.1 / bare Webhook node, median of the rounds (information: what the proposal gives)',
	'trigger.n8nPatched.triggerV1PerSec': 'trigger 1: version-1 start nodes keep the isolate',
	'trigger.n8nPatched.v1Ratio': 'trigger 1 / bare Webhook node, same rounds',
	'trigger.n8nPatched.p99AckMs': '50 deliveries in flight, trigger 1.1 (information)',
	'trigger.n8nPatched.webhookNodeP99AckMs': 'same, bare Webhook node',
};
