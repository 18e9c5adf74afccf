// What every part of the bench shares: its options, the shape of its results, statistics and the
// log. Not a test; nothing here is shipped.
import { loadavg } from 'node:os';

import type { PatchedFigures } from './patched-n8n.cjs';

export const SECTIONS = [
	'verify',
	'dedupe',
	'memory',
	'pagination',
	'overhead',
	'trigger',
	'burst',
	'patched',
	'poll',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface Options {
	/** Extra environment for n8n (diagnostics, e.g. N8N_EXPRESSION_ENGINE=legacy); none by default. */
	n8nEnv: Record<string, string>;
	/** A packed build of the package to install instead of packing this checkout (diagnostics). */
	tarball?: string;
	quick: boolean;
	json?: string;
	markdown?: string;
	only: Set<Section>;
}

export interface MemoryFigure {
	payloadBytes: number;
	peakDeltaBytes: number;
	ratio: number;
}

/** A list read with Return All, beside n8n's HTTP Request node reading the same pages. */
export interface ListFigure extends MemoryFigure {
	/** Peak delta of n8n's HTTP Request node paginating the same list (same measure). */
	httpRequestNode: number;
	/** ours / HTTP Request node, peak deltas. */
	vsHttpRequestNode: number;
}

interface TransactionsFigure extends ListFigure {
	/** What the node's output holds after the run and two full GCs. */
	retainedAfterGcBytes: number;
	retainedAfterGcRatio: number;
}

export interface PaginationFigures {
	sequentialMs: number;
	concurrentMs: number;
	idealMs: number;
	speedup: number;
	toIdeal: number;
}

export interface MemoryFigures {
	transactions100k: TransactionsFigure | null;
	amlPdf50MB: MemoryFigure | null;
	poa20MB: MemoryFigure | null;
	kycReportPdf50MB: MemoryFigure | null;
	kycReportPdf50MBBase64: MemoryFigure | null;
	kycFiles50MB: MemoryFigure | null;
	amlCheckPdf50MB: MemoryFigure | null;
	amlMonitoringPdf50MB: MemoryFigure | null;
	kybCompanyPdf50MB: MemoryFigure | null;
	identifications: ListFigure | null;
	amlMonitorings: ListFigure | null;
	kybCompanies: ListFigure | null;
}

/** µs per delivery of the parts of a delivery this package runs itself (no n8n around it). */
export interface PartFigures {
	/** JSON.parse of the raw body and building the typed event. */
	eventMicros: number;
	/** The delivery id, its duplicate key and the ten former keys (SHA-256 each). */
	keysMicros: number;
}

export interface VerifyFigures {
	'1KB': number;
	'100KB': number;
	'1MB': number;
}

/** µs per claim of the duplicate store, by the number of entries the record already holds. */
export interface DedupeFigures {
	claimMicros: Record<'0' | '500' | '1000', number>;
	/** What n8n itself does with the same static data per delivery: parse it, serialise it. */
	n8nStaticDataMicros: Record<'0' | '500' | '1000', number>;
	/** claimMicros at 1,000 entries / n8n's own parse and save of that static data. */
	vsN8nStaticData: number;
}

export interface TriggerRates {
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
	/** The null community trigger's p99, and ours / it: what the node adds to n8n's own latency. */
	nullP99AckMs: number;
	p99VsNull: number;
	/** Forged deliveries refused without / after reading the key; diagnostics of full runs. */
	signingKeyRead: {
		refusedUnsignedPerSec: number;
		refusedWrongKeyPerSec: number;
		noCheckPerSec: number | null;
		noDedupePerSec: number | null;
	};
}

/** One poll of the Polling Trigger that finds 20 changes, beside the ideal (poll.cts). */
export interface PollFigures {
	requests: number;
	/** One request per page holding a change, plus one read per verification result. */
	idealRequests: number;
	toIdeal: number;
	ms: number;
	/** Of the 20 changes, how many the poll emitted. */
	changesSeen: number;
}

export interface Results {
	pagination: PaginationFigures | null;
	memory: MemoryFigures | null;
	trigger: {
		verifyMicros: VerifyFigures | null;
		parts: PartFigures | null;
		n8n: TriggerRates | null;
		/** Largest burst of simultaneous deliveries whose slowest answer stays under 10 s. */
		maxBurstUnder10s: { trigger: number; nullTrigger: number; webhookNode: number } | null;
		/** The trigger in n8n with the change docs/upstream proposes (patched-n8n.cts). */
		n8nPatched: PatchedFigures | null;
	};
	dedupe: DedupeFigures | null;
	actionOverhead: { nodeMs: number; httpRequestNodeMs: number; ratio: number } | null;
	poll: PollFigures | null;
}

export const median = (values: number[]): number => {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Nearest-rank percentile. */
export const percentile = (values: number[], p: number): number => {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
export const now = () => Number(process.hrtime.bigint()) / 1e6;
export const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const MB = 1024 * 1024;

/** The machine's 1-minute load average, for the log lines of each measured round. */
export const load = () => loadavg()[0].toFixed(1);

/** µs per call of `fn`: the median of `samples` batches of `batch` calls, after a warm-up. */
export function microsPerCall(fn: (i: number) => unknown, batch: number, samples: number): number {
	for (let i = 0; i < batch; i++) fn(i);
	const perCall: number[] = [];
	let i = batch;
	for (let s = 0; s < samples; s++) {
		const t0 = process.hrtime.bigint();
		for (let end = i + batch; i < end; i++) fn(i);
		perCall.push(Number(process.hrtime.bigint() - t0) / 1000 / batch);
	}
	return median(perCall);
}
