/**
 * What the Polling Trigger watches: three of the service's lists (monitorings twice: alerts and
 * expiries), each read newest first for up to Pages per Poll pages and held against what the last
 * poll saw there. A change to a result the user selected becomes the webhook trigger's item
 * (version 1.1); where the list lacks what the item needs, one read fills it (POST /api/v2/full
 * for a verification, Get Company for a review).
 * Why lists and not Get Status, the order of each list and the cost: docs/polling.md.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { isPlainObject } from '../shared/isPlainObject';
import { resultKey } from '../shared/resultRecord';
import { answerEvent, eventItem } from '../shared/webhook/events';
import { apiRequest } from '../IdentityVerification/transport';

/** What a poll asks of a watch: the lists' window, what to emit, and from when a replay runs. */
export interface WatchRun {
	context: IPollFunctions;
	pagesPerPoll: number;
	personalData: boolean;
	/** Emit results already there (at or after this time, ms) as if new: Catch Up From. */
	replayFrom?: number;
	/** At most this many items a watch (Fetch Test Event wants the newest only). */
	limit?: number;
}

/** What a watch saw (id → state, the newest pages only) and what it emits. */
export interface Watched {
	seen: Record<string, string>;
	items: IDataObject[];
	/** Each verification result's key in the record the webhook trigger shares (resultRecord.ts). */
	resultKeys?: Map<IDataObject, string>;
}

/** The service's page size for the lists the trigger reads (its largest common size). */
const PER_PAGE = 100;

/** Reads a list's pages newest first until one has no `next` or Pages per Poll are read. */
async function readList(run: WatchRun, path: string, qs: IDataObject): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	for (let page = 1; page <= run.pagesPerPoll; page++) {
		const response = await apiRequest.call(run.context, 'apiKey', {
			method: 'GET',
			path,
			qs: { ...qs, page, perPage: PER_PAGE },
			answerName: `page ${page} of ${path}`,
		});
		const body = isPlainObject(response.body) ? response.body : {};
		const pageResults = Array.isArray(body.results) ? body.results : [];
		results.push(...pageResults.filter(isPlainObject));
		if (typeof body.next !== 'string' || pageResults.length === 0) break;
	}
	return results;
}

/** The event's item as the trigger makes it, saying it came by polling. */
function pollItem(
	run: WatchRun,
	body: IDataObject,
	headerEventType: string | undefined,
): ReturnType<typeof eventItem> {
	const event = answerEvent(body, headerEventType);
	const item = eventItem(event, { personalData: run.personalData });
	item.delivery.source = 'polling';
	return item;
}

/** Whether a watch has all the items it may emit. */
function isFull(run: WatchRun, items: IDataObject[]): boolean {
	return run.limit !== undefined && items.length >= run.limit;
}

/** Whether a dated thing counts under a replay (a missing or unreadable date counts). */
function inReplay(run: WatchRun, date: unknown): boolean {
	if (run.replayFrom === undefined) return false;
	const ms = typeof date === 'number' ? date * 1000 : Date.parse(String(date));
	return !Number.isFinite(ms) || ms >= run.replayFrom;
}

/** Whether a thing's state differs from the last poll's (nothing is, on the first: the baseline). */
function changed(before: Record<string, string> | undefined, id: string, state: string): boolean {
	return before !== undefined && before[id] !== state;
}

/**
 * Verifications that reached a selected result. The list gives only `{scanRef, status, suspected}`:
 * each new result is read whole once (POST /api/v2/full, "the same structure as the result
 * webhook"), whose `final` is always false, so the item's `final` comes from the list (a result
 * status is final there: a pending review shows REVIEWING).
 */
export async function watchVerifications(
	run: WatchRun,
	before: Record<string, string> | undefined,
	options: { clientIds: string[]; statuses: string[] },
): Promise<Watched> {
	const lists = options.clientIds.length > 0 ? options.clientIds : [undefined];
	const seen: Record<string, string> = {};
	const news: Array<{ scanRef: string; status: string; isNew: boolean }> = [];
	for (const clientId of lists) {
		const qs = clientId === undefined ? {} : { clientId };
		for (const { scanRef, status } of await readList(run, '/kyc/identifications/', qs)) {
			if (typeof scanRef !== 'string' || typeof status !== 'string' || scanRef in seen) continue;
			seen[scanRef] = status;
			const isNew = changed(before, scanRef, status);
			if (options.statuses.includes(status) && (isNew || run.replayFrom !== undefined)) {
				news.push({ scanRef, status, isNew });
			}
		}
	}
	const items: IDataObject[] = [];
	const resultKeys = new Map<IDataObject, string>();
	for (const { scanRef, status, isNew } of news) {
		if (isFull(run, items)) break;
		const response = await apiRequest.call(run.context, 'apiKey', {
			method: 'POST',
			path: '/api/v2/full',
			body: { scanRef },
			repeatable: true,
		});
		const body = isPlainObject(response.body) ? response.body : {};
		// A replayed result (not a change) counts from its finish time, which only this read gives.
		if (!isNew && !inReplay(run, body.finishTime)) continue;
		const item = pollItem(run, body, status === 'EXPIRED' ? 'IDENTIFICATION_EXPIRED' : undefined);
		item.scanRef ??= scanRef;
		item.final = true;
		items.push(item);
		// The body's own overall, as the webhook's body has it (an expiry's may differ from the list's).
		const overall = isPlainObject(body.status) ? body.status.overall : undefined;
		resultKeys.set(
			item,
			resultKey({
				scanRef,
				overall: typeof overall === 'string' ? overall : status,
				finishTime: body.finishTime,
			}),
		);
	}
	return { seen, items, resultKeys };
}

/** A company's state on the list: its status and approval, e.g. `COMPLETED/APPROVED`. */
function companyState(meta: IDataObject): string {
	return `${String(meta.status ?? '')}/${String(meta.approvalStatus ?? '')}`;
}

/**
 * Companies submitted (their status left PENDING) or reviewed (COMPLETED with an approval). The
 * submission's item is the list's own (the webhook's body has no more); a review reads the company
 * (Get Company) for what the reviewer decided.
 */
export async function watchCompanies(
	run: WatchRun,
	before: Record<string, string> | undefined,
	options: { submitted: boolean; reviewed: boolean },
): Promise<Watched> {
	const seen: Record<string, string> = {};
	const items: IDataObject[] = [];
	for (const company of await readList(run, '/kyb/companies/', {})) {
		const id = company.id;
		const meta = isPlainObject(company.meta) ? company.meta : {};
		if (typeof id !== 'string' || id in seen || isFull(run, items)) continue;
		const state = companyState(meta);
		seen[id] = state;
		const isNew = changed(before, id, state);
		if (!isNew && !inReplay(run, meta.submissionTime)) continue;
		const wasPending = !isNew || before?.[id] === undefined || before[id].startsWith('PENDING/');
		if (options.submitted && meta.status !== 'PENDING' && wasPending) {
			const body = { id, submissionTime: meta.submissionTime, soleProprietor: meta.soleProprietor };
			items.push(pollItem(run, body, 'COMPANY_SUBMIT'));
		}
		if (options.reviewed && meta.status === 'COMPLETED' && meta.approvalStatus) {
			const response = await apiRequest.call(run.context, 'apiKey', {
				method: 'GET',
				path: `/kyb/companies/${encodeURIComponent(id)}/`,
			});
			const detail = isPlainObject(response.body) ? response.body : {};
			const info = isPlainObject(detail.company) ? detail.company : {};
			const detailMeta = isPlainObject(detail.meta) ? detail.meta : meta;
			items.push(pollItem(run, { id, ...info, ...detailMeta }, 'COMPANY_REVIEW'));
		}
	}
	return { seen, items };
}

/** What a monitorings list is read for: its filter, the state kept per monitoring, its kind. */
interface MonitoringView {
	qs: IDataObject;
	/** The state kept per monitoring; a change of it is an event. */
	state: (monitoring: IDataObject) => string;
	/** The date a Catch Up From replay counts from. */
	date: (monitoring: IDataObject) => unknown;
	kind: string;
}

/** Monitorings that entered ALERT (newest first). */
const ALERTS: MonitoringView = {
	qs: { status: 'ALERT', orderBy: '-created' },
	state: () => 'ALERT',
	date: (monitoring) => monitoring.created,
	kind: 'AML_MONITORING',
};

/**
 * Monitorings whose year ended (latest expiry first), one item each with the monitoring, where the
 * webhook's AML_MONITORING_EXPIRATION has only counts. Kept by its expiry: renewed and expired
 * again, it is new.
 */
const EXPIRIES: MonitoringView = {
	qs: { isExpired: true, orderBy: '-expiration' },
	state: (monitoring) => String(monitoring.expiration ?? ''),
	date: (monitoring) => monitoring.expiration,
	kind: 'AML_MONITORING_EXPIRATION',
};

async function watchMonitoringList(
	run: WatchRun,
	before: Record<string, string> | undefined,
	view: MonitoringView,
): Promise<Watched> {
	const seen: Record<string, string> = {};
	const items: IDataObject[] = [];
	for (const monitoring of await readList(run, '/aml/monitorings/', view.qs)) {
		const id = monitoring.id;
		if (typeof id !== 'string' || id in seen || isFull(run, items)) continue;
		seen[id] = view.state(monitoring);
		if (!changed(before, id, seen[id]) && !inReplay(run, view.date(monitoring))) continue;
		items.push(pollItem(run, { monitoringId: id, ...monitoring }, view.kind));
	}
	return { seen, items };
}

/** AML monitorings that entered ALERT. */
export const watchMonitorings = (run: WatchRun, before: Record<string, string> | undefined) =>
	watchMonitoringList(run, before, ALERTS);

/** AML monitorings that expired. */
export const watchExpiredMonitorings = (
	run: WatchRun,
	before: Record<string, string> | undefined,
) => watchMonitoringList(run, before, EXPIRIES);
