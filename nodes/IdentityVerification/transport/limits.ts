/**
 * Every bound on an answer of the service, in one place (docs/service-interface.md, "Bounds"):
 * what the network sends sizes nothing unchecked and holds no execution without end. The user sees
 * and sets the time an answer may take (Request Options → Timeout) and, where a node downloads a
 * file, its Max File Size; the rest are fixed here. A run of the node gets a time budget in all,
 * a multiple of the Timeout, which ends its retries, pages and files.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { RequestContext, ResponseKind } from './types';

/** How long an answer's headers may take, per attempt: a service that says nothing is not waited for. */
export const HEADERS_TIMEOUT_MS = 30_000;
/** How long an answer's body may go without a byte. */
const READ_IDLE_MS = 30_000;
/** How long one answer may take in all once it starts arriving, unless the node's Timeout says otherwise. */
const DEFAULT_TIMEOUT_SECONDS = 120;
/**
 * The slowest a file may arrive: beyond the Timeout, a file gets one more second for every this
 * many bytes (64 KB/s: a 10 MB photo may take 2 minutes and 40 seconds more).
 */
const FILE_MIN_BYTES_PER_SECOND = 64 * 1024;
/** The largest JSON answer read (far more than any page or result of the service). */
export const MAX_JSON_BYTES = 32 * 1024 * 1024;
/** What is read of an error answer: enough for any message; the rest is not read. */
export const ERROR_BODY_BYTES = 64 * 1024;
/** The largest file downloaded unless the node's Max File Size says otherwise. */
export const DEFAULT_MAX_FILE_MB = 100;
/** The most pages one list read takes (a service that keeps sending `next`, or a huge `count`). */
export const MAX_PAGES = 2000;
/**
 * How long one run of the node (all its items) may take, in Timeouts: the bounds above are per
 * answer, and attempts, pages and files multiply them. Past it, nothing is tried again and no
 * further page or file is asked for.
 */
export const RUN_BUDGET_TIMEOUTS = 10;
/** When each run of a node sent its first request: n8n gives each run one context, for all items. */
const runStarts = new WeakMap<object, number>();

/** What reading one answer's body may take: time without a byte, time in all, and size. */
export interface ReadLimits {
	idleMs: number;
	totalMs: number;
	maxBytes: number;
	/** Time added to `totalMs` for every byte that arrived (a file's minimum rate); 0 for JSON. */
	msPerByte: number;
}

/** The node's Request Options, shown under every operation that calls the service. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			default: DEFAULT_TIMEOUT_SECONDS,
			typeOptions: { minValue: 1 },
			description: `How long one answer of the service may take, from its first to its last byte (${DEFAULT_TIMEOUT_SECONDS} seconds unless set). A file download gets one more second for every 64 KB it has. An answer that stops for 30 seconds ends sooner. A run of the node, all its items, may take ${RUN_BUDGET_TIMEOUTS} times this: after that no request is tried again and no further page or file is read.`,
		},
	],
};

/** The Timeout an item's node sets, in ms; the default where the node has none (e.g. loading options). */
function timeoutMsOf(context: RequestContext, itemIndex: number | undefined): number {
	if (itemIndex === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
	const seconds = Number(context.getNodeParameter('requestOptions.timeout', itemIndex, 0));
	return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_TIMEOUT_SECONDS * 1000;
}

/** The limits of one answer: the request's own where it sets them, else the node's and these. */
export function readLimitsOf(
	context: RequestContext,
	req: { itemIndex?: number; readIdleMs?: number; readTotalMs?: number; maxBytes?: number },
	kind: ResponseKind,
): ReadLimits {
	const file = kind === 'binary';
	return {
		idleMs: req.readIdleMs ?? READ_IDLE_MS,
		totalMs: req.readTotalMs ?? timeoutMsOf(context, req.itemIndex),
		maxBytes: req.maxBytes ?? (file ? DEFAULT_MAX_FILE_MB * 1024 * 1024 : MAX_JSON_BYTES),
		msPerByte: file ? 1000 / FILE_MIN_BYTES_PER_SECOND : 0,
	};
}

/** How long the headers may take: 30 s, or the whole Timeout when that is shorter. */
export function headersTimeoutOf(limits: ReadLimits, own: number | undefined): number {
	return own ?? Math.min(HEADERS_TIMEOUT_MS, limits.totalMs);
}

/** A run's time budget, as it applies to one item: when it ends (ms since 1970) and how long it is. */
export interface RunBudget {
	endsAt: number;
	ms: number;
}

/**
 * The node run's time budget: RUN_BUDGET_TIMEOUTS times the item's Timeout, from the run's first
 * request (the first call starts it).
 */
export function runBudgetOf(context: RequestContext, itemIndex: number | undefined): RunBudget {
	const startedAt = runStarts.get(context) ?? Date.now();
	runStarts.set(context, startedAt);
	const ms = RUN_BUDGET_TIMEOUTS * timeoutMsOf(context, itemIndex);
	return { endsAt: startedAt + ms, ms };
}

/** Whether the run's budget is spent, or would be after waiting `waitMs` more. */
export function isRunOver(budget: RunBudget, waitMs = 0): boolean {
	return Date.now() + waitMs >= budget.endsAt;
}
