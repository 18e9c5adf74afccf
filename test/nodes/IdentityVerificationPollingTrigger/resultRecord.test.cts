/**
 * The record of results the two triggers share (resultRecord.ts) at its edges, with an explicit
 * clock: the key, the 8-day window, 5,000 entries, a poll's stale copy of the static data, a new
 * process that has only the static data, and a claim released.
 */
import type { IDataObject } from 'n8n-workflow';

import { claimResults, resultKey, resultOfEvent } from '../../../nodes/shared/resultRecord';
import type { IdentityVerificationEvent } from '../../../nodes/shared/webhook/events';

// Pinned here, not read from the product: a changed bound must turn these tests red.
const WINDOW_MS = 8 * 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 5000;
const T0 = Date.UTC(2026, 10, 1);

let workflowCounter = 0;
/** A workflow no other test uses: the process's record is module-level. */
const workflow = () => `record-test:${++workflowCounter}`;

/** Whether `key` is new to the workflow's record (and claims it). */
const isNew = (workflowId: string, staticData: IDataObject, key: string, now: number) =>
	claimResults({ workflowId, staticData, keys: [key], now })[0] !== undefined;

/** The module loaded afresh: a new n8n process, whose own record is empty. */
function newProcess(): typeof import('../../../nodes/shared/resultRecord') {
	let fresh: typeof import('../../../nodes/shared/resultRecord') | undefined;
	jest.isolateModules(() => {
		fresh = require('../../../nodes/shared/resultRecord');
	});
	return fresh!;
}

describe('resultKey', () => {
	test('is 96 bits of SHA-256 over scanRef, overall status and finish time (the format kept in static data)', () => {
		// Keys persist in the workflow static data: a changed format would forget every result.
		expect(resultKey({ scanRef: 'scan-1', overall: 'APPROVED', finishTime: 1764750000 })).toBe(
			'3afb5e6bf035cae06642562d',
		);
	});

	test('a later result of the same verification with the same status is another result', () => {
		const first = resultKey({ scanRef: 's', overall: 'DENIED', finishTime: 100 });
		expect(resultKey({ scanRef: 's', overall: 'DENIED', finishTime: 200 })).not.toBe(first);
		expect(resultKey({ scanRef: 's', overall: 'APPROVED', finishTime: 100 })).not.toBe(first);
	});
});

describe('resultOfEvent: which deliveries are results the poll also sees', () => {
	const event = (over: Partial<IdentityVerificationEvent>) =>
		({
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
			final: true,
			overallStatus: 'APPROVED',
			scanRef: 'scan-1',
			body: { finishTime: 100 },
			...over,
		}) as IdentityVerificationEvent;

	test('a final identification result is, with its body’s finish time', () => {
		expect(resultOfEvent(event({}))).toEqual({
			scanRef: 'scan-1',
			overall: 'APPROVED',
			finishTime: 100,
		});
	});

	test.each([
		['a preliminary result', { final: false }],
		['a review still pending', { overallStatus: 'REVIEWING' }],
		['no scanRef', { scanRef: undefined }],
		['another product', { eventType: 'BANK_VERIFICATION' as const }],
	])('%s is not', (_, over) => {
		expect(resultOfEvent(event(over))).toBeUndefined();
	});
});

describe('claimResults', () => {
	test('a result is new once; the static data holds it, not the scanRef', () => {
		const id = workflow();
		const staticData: IDataObject = {};
		expect(isNew(id, staticData, 'k', T0)).toBe(true);
		expect(isNew(id, staticData, 'k', T0 + 1)).toBe(false);
		expect(staticData.resultsStarted).toEqual({ k: T0 });
	});

	test('a poll’s copy of the static data, loaded before the webhook recorded a result, still sees it (the process’s record)', () => {
		const id = workflow();
		const webhookCopy: IDataObject = {};
		const pollCopy: IDataObject = {};
		expect(isNew(id, webhookCopy, 'k', T0)).toBe(true);
		expect(isNew(id, pollCopy, 'k', T0 + 1)).toBe(false);
		// And the poll's save carries the webhook's result too, so n8n's save of its copy keeps it.
		expect(isNew(id, pollCopy, 'other', T0 + 2)).toBe(true);
		expect(Object.keys(pollCopy.resultsStarted as IDataObject).sort()).toEqual(['k', 'other']);
	});

	test('a new process sees only the static data, and that is enough', () => {
		const id = workflow();
		const saved: IDataObject = {};
		expect(isNew(id, saved, 'k', T0)).toBe(true);
		const fresh = newProcess();
		expect(
			fresh.claimResults({ workflowId: id, staticData: { ...saved }, keys: ['k'], now: T0 + 1 })[0],
		).toBeUndefined();
		expect(
			fresh.claimResults({ workflowId: id, staticData: {}, keys: ['k'], now: T0 + 1 })[0],
		).toBeDefined();
	});

	test('keeps a result for 8 days (a nightly poll that missed a night still finds it), not 1 ms longer', () => {
		const kept = workflow();
		expect(isNew(kept, {}, 'k', T0)).toBe(true);
		expect(isNew(kept, {}, 'k', T0 + WINDOW_MS)).toBe(false);
		const fresh = newProcess();
		const saved = { resultsStarted: { k: T0 } };
		const claim = (now: number) =>
			fresh.claimResults({ workflowId: workflow(), staticData: { ...saved }, keys: ['k'], now });
		expect(claim(T0 + WINDOW_MS)[0]).toBeUndefined();
		expect(claim(T0 + WINDOW_MS + 1)[0]).toBeDefined();
	});

	test('keeps the newest 5,000 results: the next one pushes out the oldest, in both stores', () => {
		const id = workflow();
		const staticData: IDataObject = {};
		const keys = Array.from({ length: MAX_ENTRIES }, (_, i) => `k${i}`);
		claimResults({ workflowId: id, staticData, keys, now: T0 });
		expect(isNew(id, staticData, 'newest', T0 + 1)).toBe(true);
		expect(Object.keys(staticData.resultsStarted as IDataObject)).toHaveLength(MAX_ENTRIES);
		expect(isNew(id, staticData, 'k1', T0 + 2)).toBe(false);
		expect(isNew(id, {}, 'k0', T0 + 2)).toBe(true);
	});

	test('ignores what is not a time in the stored record, and a record that is not an object', () => {
		const id = workflow();
		expect(isNew(id, { resultsStarted: { k: 'yesterday' } }, 'k', T0)).toBe(true);
		expect(isNew(workflow(), { resultsStarted: ['k'] }, 'k', T0)).toBe(true);
	});

	test('a key given twice in one claim is claimed once; a released claim is new again', () => {
		const id = workflow();
		const staticData: IDataObject = {};
		const [first, second] = claimResults({ workflowId: id, staticData, keys: ['k', 'k'], now: T0 });
		expect(first).toBeDefined();
		expect(second).toBeUndefined();
		first!.release();
		expect(staticData.resultsStarted).toEqual({});
		expect(isNew(id, staticData, 'k', T0 + 1)).toBe(true);
	});
});
