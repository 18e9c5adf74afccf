/**
 * The verification results that started a workflow, one record for its Identity Verification
 * Trigger and its Polling Trigger: each result starts the workflow once, whichever trigger saw it
 * first. A result is its scanRef, overall status and finish time (the webhook's body and the poll's
 * full read carry the same three). The record is kept in the workflow's global static data (it
 * survives restarts) and in a map of this process: n8n gives a poll the static data it loaded at
 * activation, so what a webhook recorded since reaches the poll only through that map. What
 * holds on which n8n line, and when both could still start a result: docs/polling.md.
 */
import { createHash } from 'crypto';
import type { IDataObject, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

import { IDENTIFICATION_EVENT_TYPES } from './contract';
import { inWindow, recentlyUsed, storedTimes, storeTimes } from './timedRecord';
import type { IdentityVerificationEvent } from './webhook/events';

/** Verification statuses that are results (the list shows REVIEWING while a review is pending). */
export const RESULT_STATUSES = ['APPROVED', 'DENIED', 'SUSPECTED', 'EXPIRED'];

const STATIC_KEY = 'resultsStarted';
/** Longer than a day: a nightly poll must still find what the webhook started the night before. */
const WINDOW_MS = 8 * 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 5000;
const MAX_WORKFLOWS = 200;

/** This process's records, by workflow id: key → when it was recorded (ms). */
const processRecords = new Map<string, Map<string, number>>();

/** What identifies a verification result in both triggers. */
export interface VerificationResult {
	scanRef: string;
	overall: string;
	/** The body's `finishTime` (unix seconds): a later result with the same status is another one. */
	finishTime: unknown;
}

/** The record's key of a result: 96 bits of SHA-256, so no scanRef is stored as it is. */
export function resultKey(result: VerificationResult): string {
	const finish = typeof result.finishTime === 'number' ? String(result.finishTime) : '';
	return createHash('sha256')
		.update(`${result.scanRef}\n${result.overall}\n${finish}`)
		.digest('hex')
		.slice(0, 24);
}

/** The result a webhook delivery carries, if it is a final verification result. */
export function resultOfEvent(event: IdentityVerificationEvent): VerificationResult | undefined {
	const { scanRef, overallStatus: overall } = event;
	if (!IDENTIFICATION_EVENT_TYPES.includes(event.eventType) || event.final === false) return;
	if (scanRef === undefined || overall === undefined || !RESULT_STATUSES.includes(overall)) return;
	return { scanRef, overall, finishTime: event.body.finishTime };
}

/** This process's record of a workflow. */
function processRecord(workflowId: string): Map<string, number> {
	return recentlyUsed(processRecords, workflowId, MAX_WORKFLOWS, () => new Map<string, number>());
}

/** Both records in one, oldest first, the newest MAX_ENTRIES; the process's copy pruned alike. */
function merged(staticData: IDataObject, record: Map<string, number>, now: number) {
	while (record.size > MAX_ENTRIES) record.delete(record.keys().next().value as string);
	const all = new Map(storedTimes(staticData[STATIC_KEY], now, WINDOW_MS));
	for (const [key, at] of record) {
		if (inWindow(at, now, WINDOW_MS)) all.set(key, Math.max(at, all.get(key) ?? at));
		else record.delete(key);
	}
	return new Map([...all].sort((a, b) => a[1] - b[1]).slice(-MAX_ENTRIES));
}

/** A result claimed for this workflow; `release` forgets it (its execution was not created). */
export interface ResultClaim {
	key: string;
	release(): void;
}

/**
 * Claims, in one synchronous step, each key not yet in the workflow's record: recorded in both
 * stores and returned as a claim; a key already there gives `undefined` at its place.
 */
export function claimResults(opts: {
	workflowId: string;
	staticData: IDataObject;
	keys: string[];
	now: number;
}): Array<ResultClaim | undefined> {
	const { staticData, now } = opts;
	const record = processRecord(opts.workflowId);
	const entries = merged(staticData, record, now);
	const claims = opts.keys.map((key) => {
		if (entries.has(key)) return undefined;
		entries.set(key, now);
		record.set(key, now);
		return {
			key,
			release() {
				if (record.get(key) === now) record.delete(key);
				const kept = new Map(storedTimes(staticData[STATIC_KEY], Date.now(), WINDOW_MS));
				kept.delete(key);
				storeTimes(staticData, STATIC_KEY, kept, MAX_ENTRIES);
			},
		};
	});
	if (claims.some((claim) => claim !== undefined))
		storeTimes(staticData, STATIC_KEY, entries, MAX_ENTRIES);
	return claims;
}

/**
 * Whether a Polling Trigger keeps this workflow's record: it polled in this process (each poll
 * touches the record, the first at activation) or stored the record. A workflow with the webhook
 * trigger alone writes nothing here and runs as before.
 */
function pollShares(workflowId: string, staticData: IDataObject): boolean {
	return processRecords.has(workflowId) || staticData[STATIC_KEY] !== undefined;
}

function workflowIdOf(context: IPollFunctions | IWebhookFunctions): string {
	return context.getWorkflow().id ?? '';
}

/**
 * The webhook trigger's claim of the result a delivery carries: `seen` when the workflow already
 * started for it, `new` otherwise (forgotten again if n8n does not answer 2xx: the service's retry
 * or the next poll then starts it), `none` for a delivery that is no verification result or a
 * workflow without a Polling Trigger.
 */
export function claimDeliveredResult(
	context: IWebhookFunctions,
	event: IdentityVerificationEvent,
	now: number,
): 'new' | 'seen' | 'none' {
	const result = resultOfEvent(event);
	const workflowId = workflowIdOf(context);
	const staticData = context.getWorkflowStaticData('global');
	if (result === undefined || !pollShares(workflowId, staticData)) return 'none';
	const [claim] = claimResults({ workflowId, staticData, keys: [resultKey(result)], now });
	if (claim === undefined) return 'seen';
	const res = context.getResponseObject();
	let settled = false;
	const settle = (delivered: boolean) => {
		if (settled) return;
		settled = true;
		if (!delivered) claim.release();
	};
	res.once('finish', () => settle(res.statusCode >= 200 && res.statusCode < 300));
	res.once('close', () => settle(false));
	return 'new';
}

/**
 * The Polling Trigger's items without the results the workflow already started (by the webhook
 * trigger or an earlier poll), the others claimed. `keys` gives each verification item's key.
 */
export function unstartedItems(
	context: IPollFunctions,
	items: IDataObject[],
	keys: Map<IDataObject, string>,
	now: number,
): IDataObject[] {
	const results = items.filter((item) => keys.has(item));
	const claims = claimResults({
		workflowId: workflowIdOf(context),
		staticData: context.getWorkflowStaticData('global'),
		keys: results.map((item) => keys.get(item) as string),
		now,
	});
	const started = new Set(results.filter((_, index) => claims[index] === undefined));
	return items.filter((item) => !started.has(item));
}
