/**
 * Duplicate-delivery detection, for the trigger's Ignore Duplicate Deliveries option. A delivery is
 * identified by the SHA-256 of its raw body alone; one seen within the last 24 hours is a duplicate.
 * Seen keys are kept in the workflow's static data (survives restarts, read, checked, appended and
 * pruned on each delivery) and in a map of this process (catches copies arriving at the same time).
 * Why two stores, what counts as seen, the bounds and the cost: docs/duplicates.md.
 */
import { createHash } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { inWindow, recentlyUsed, storedTimes, storeTimes } from '../timedRecord';

const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;
const DEDUPE_MAX_ENTRIES = 1000;
const MAX_SCOPES = 200;
const STATIC_KEY = 'seenDeliveries';
/** How long a copy waits for the outcome of the same delivery still being started. */
const PENDING_WAIT_MS = 5000;
const PENDING_POLL_MS = 50;

interface SeenEntry {
	at: number;
	/** True once n8n answered the delivery with a 2xx (the execution exists). */
	delivered: boolean;
}

const processStore = new Map<string, ScopeStore>();

/** The first 128 bits of SHA-256, in hex: the length of every stored key. */
function shortHash(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The key a delivery is remembered by: the raw-body hash, hashed again to 128 bits. */
export function dedupeKey(bodyHash: string): string {
	return shortHash(bodyHash);
}

/** The kinds those earlier versions knew: their keys are all a former record can hold. */
const FORMER_EVENT_TYPES = [
	'BANK_VERIFICATION',
	'ACCOUNT_CHECK',
	'IDENTIFICATION_AUTO_FINISHED',
	'IDENTIFICATION_MANUAL_FINISHED',
	'IDENTIFICATION_RESUBMITTED',
	'IDENTIFICATION_EXPIRED',
	'IDENTIFICATION_CANCELLED',
	'IDENTIFICATION',
	'BANK_CARD_VERIFICATION_COMPLETED',
	'KYB_REVIEW_RESULT',
];

/**
 * The keys earlier versions remembered the same delivery by (event kind + raw-body hash), one per
 * kind since the kind came from the header: static data saved before an upgrade still holds them
 * for up to one window, and a retry across the upgrade must not run again. To be removed with
 * FORMER_EVENT_TYPES in the first release after 2027-01-31: by then no installation upgrading
 * from a release that wrote them can still hold one inside the 24-hour window.
 */
export function formerDedupeKeys(bodyHash: string): string[] {
	return FORMER_EVENT_TYPES.map((eventType) => shortHash(`${eventType}\n${bodyHash}`));
}

/** One trigger node's deliveries in this process, oldest first, and the newest one's time. */
interface ScopeStore {
	entries: Map<string, SeenEntry>;
	newest: number;
}

function scopeStore(scope: string): ScopeStore {
	return recentlyUsed(processStore, scope, MAX_SCOPES, () => ({
		entries: new Map(),
		newest: -Infinity,
	}));
}

/**
 * Drops what left the window from the front (entries are kept in the order they came), and the
 * oldest beyond MAX_ENTRIES. After the clock went back more than a day, the whole store is gone
 * through once to drop what is now in the future.
 */
function pruneStore(store: ScopeStore, now: number): void {
	const { entries } = store;
	if (store.newest > now + DEDUPE_WINDOW_MS) {
		store.newest = -Infinity;
		for (const [key, { at }] of entries) {
			if (inWindow(at, now, DEDUPE_WINDOW_MS)) store.newest = Math.max(store.newest, at);
			else entries.delete(key);
		}
	}
	for (const [key, { at }] of entries) {
		if (inWindow(at, now, DEDUPE_WINDOW_MS)) break;
		entries.delete(key);
	}
	while (entries.size > DEDUPE_MAX_ENTRIES) {
		entries.delete(entries.keys().next().value as string);
	}
}

/** The entry of `key` while it is inside the window; one out of it is dropped. */
function entryOf(store: ScopeStore, key: string, now: number): SeenEntry | undefined {
	const entry = store.entries.get(key);
	if (entry && !inWindow(entry.at, now, DEDUPE_WINDOW_MS)) {
		store.entries.delete(key);
		return undefined;
	}
	return entry;
}

/**
 * The static data's seen deliveries: those inside the window, oldest first, at most MAX_ENTRIES
 * (the newest). Anything else the record holds (a time that is not a number) is left out.
 */
function readStatic(staticData: IDataObject, now: number): Map<string, number> {
	const entries = storedTimes(staticData[STATIC_KEY], now, DEDUPE_WINDOW_MS);
	return new Map(entries.slice(-DEDUPE_MAX_ENTRIES));
}

/** Writes the record anew with `key` appended, the oldest dropped beyond MAX_ENTRIES. */
function recordStatic(
	staticData: IDataObject,
	entries: Map<string, number>,
	key: string,
	now: number,
): void {
	entries.set(key, now);
	storeTimes(staticData, STATIC_KEY, entries, DEDUPE_MAX_ENTRIES);
}

/** What `claimDelivery` decided: run it (and say when n8n answered), or not. */
export type DeliveryClaim =
	| { kind: 'duplicate' }
	| { kind: 'inFlight' }
	| {
			kind: 'new';
			/** Call when n8n answered: `true` for a 2xx (the execution exists). First call wins. */
			settle(delivered: boolean): void;
	  };

/**
 * Whether a delivery should start the workflow. `duplicate`: an execution already exists for it.
 * `inFlight`: the same delivery is still being started after PENDING_WAIT_MS. `new`: it is
 * remembered as pending in both stores, and `settle` must be called once n8n has answered.
 * `scope` identifies the trigger node (workflow id + node id). `formerKeys` are looked up in the
 * static data only: the in-memory store starts empty with the upgraded code.
 */
export async function claimDelivery(opts: {
	scope: string;
	key: string;
	formerKeys?: readonly string[];
	staticData: IDataObject;
	now: number;
}): Promise<DeliveryClaim> {
	const { scope, key, staticData, now } = opts;
	const stored = readStatic(staticData, now);
	if ([key, ...(opts.formerKeys ?? [])].some((k) => stored.has(k))) return { kind: 'duplicate' };

	const store = scopeStore(scope);
	pruneStore(store, now);
	for (let waited = 0; entryOf(store, key, now)?.delivered === false; waited += PENDING_POLL_MS) {
		if (waited >= PENDING_WAIT_MS) return { kind: 'inFlight' };
		await sleep(PENDING_POLL_MS);
	}
	if (entryOf(store, key, now)?.delivered) return { kind: 'duplicate' };

	const entry: SeenEntry = { at: now, delivered: false };
	const map = store.entries;
	map.delete(key);
	map.set(key, entry);
	store.newest = Math.max(store.newest, now);
	pruneStore(store, now);
	recordStatic(staticData, stored, key, now);

	let settled = false;
	return {
		kind: 'new',
		settle(delivered: boolean) {
			if (settled) return;
			settled = true;
			if (delivered) entry.delivered = true;
			else if (map.get(key) === entry) map.delete(key);
		},
	};
}

/**
 * The trigger's claim of a delivery in its workflow: `claimed` (it runs; remembered once n8n has
 * answered 2xx, that is once the execution exists, and forgotten if n8n answers an error or the
 * connection drops first, so the service's retry runs), `duplicate` or `inFlight`.
 */
export async function claimInWorkflow(
	context: IWebhookFunctions,
	deliveryId: string,
	now: number,
): Promise<'claimed' | 'duplicate' | 'inFlight'> {
	const node = context.getNode();
	const claim = await claimDelivery({
		scope: `${context.getWorkflow().id ?? ''}:${node.id ?? node.name}`,
		key: dedupeKey(deliveryId),
		formerKeys: formerDedupeKeys(deliveryId),
		staticData: context.getWorkflowStaticData('node'),
		now,
	});
	if (claim.kind !== 'new') return claim.kind;
	const res = context.getResponseObject();
	res.once('finish', () => claim.settle(res.statusCode >= 200 && res.statusCode < 300));
	res.once('close', () => claim.settle(false));
	return 'claimed';
}
