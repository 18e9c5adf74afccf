/**
 * Duplicate-delivery detection, for the trigger's Ignore Duplicate Deliveries option.
 *
 * The service retries a delivery that did not get a 2xx answer in time, and the dashboard has a
 * Resend action, so the same delivery can arrive more than once. A delivery is identified by the
 * SHA-256 of its raw body alone; a key seen within the last 24 hours is a duplicate. Not by its event
 * kind: the unsigned `Service-Event-Type` header still picks among the identification kinds, so a
 * key with the kind in it let the same signed body run once per header value.
 *
 * Where seen keys are kept, and why in two places:
 *
 * - Workflow static data (`getWorkflowStaticData('node')`): survives n8n restarts and a workflow
 *   being deactivated and activated again. But n8n loads it from the database when a request
 *   arrives and saves it only after the node has answered, so two deliveries that arrive at the
 *   same time both read the old copy (and the later save overwrites the earlier one).
 * - A module-level map, keyed by workflow id + node id: shared by every request this n8n process
 *   handles; check-and-record is synchronous, so concurrent duplicates are caught too. It is lost on
 *   restart and is per process, which the static data covers.
 *
 * A delivery counts as seen only once n8n has created an execution for it. n8n saves the static
 * data only after the execution exists (its answer callback), so a key there is final. In the
 * module map a key is first "pending"; it becomes "delivered" when n8n answers the delivery with a
 * 2xx (in `onReceived` mode that answer comes after the execution was created) and is forgotten
 * when n8n answers an error or the connection closes first, so the service's retry runs. A copy
 * that arrives while the first is pending waits for its outcome (up to PENDING_WAIT_MS).
 *
 * Both stores are bounded: entries older than the window are dropped, and at most MAX_ENTRIES
 * (newest kept) per trigger node; the module map also keeps at most MAX_SCOPES trigger nodes
 * (least recently used dropped first).
 *
 * What a delivery costs here does not grow with the record: the static data keeps its entries
 * oldest first (insertion order, as JSON keeps it), so a delivery is looked up by key, appended,
 * and the oldest dropped from the front. Finding the front of a plain object means listing its
 * keys, so this process keeps a copy of each record it wrote, valid while the static data carries
 * the stamp it wrote beside it; a record someone else wrote is read whole once.
 */
import { createHash, randomBytes } from 'crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;
const DEDUPE_MAX_ENTRIES = 1000;
const MAX_SCOPES = 200;
const STATIC_KEY = 'seenDeliveries';
/** Beside the record: who wrote it last (this process's copy of it is valid while it matches). */
const STAMP_KEY = 'seenDeliveriesStamp';
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
	let store = processStore.get(scope);
	if (store) {
		// Refresh the scope's position so the least recently used one is evicted first.
		processStore.delete(scope);
	} else {
		store = { entries: new Map(), newest: -Infinity };
	}
	processStore.set(scope, store);
	while (processStore.size > MAX_SCOPES) {
		const oldest = processStore.keys().next().value as string;
		processStore.delete(oldest);
	}
	return store;
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
			if (inWindow(at, now)) store.newest = Math.max(store.newest, at);
			else entries.delete(key);
		}
	}
	for (const [key, { at }] of entries) {
		if (inWindow(at, now)) break;
		entries.delete(key);
	}
	while (entries.size > DEDUPE_MAX_ENTRIES) {
		entries.delete(entries.keys().next().value as string);
	}
}

/** The entry of `key` while it is inside the window; one out of it is dropped. */
function entryOf(store: ScopeStore, key: string, now: number): SeenEntry | undefined {
	const entry = store.entries.get(key);
	if (entry && !inWindow(entry.at, now)) {
		store.entries.delete(key);
		return undefined;
	}
	return entry;
}

/** Whether a delivery seen at `at` still counts at `now` (the window on both sides). */
function inWindow(at: number, now: number): boolean {
	return now - at <= DEDUPE_WINDOW_MS && at <= now + DEDUPE_WINDOW_MS;
}

/**
 * The static data's seen deliveries as this module reads them: the entries inside the window, oldest
 * first, at most DEDUPE_MAX_ENTRIES (the newest). `inPlace`: the stored record holds these entries
 * in this order, possibly after older ones out of the window, and nothing else (what this module
 * and earlier versions write), so a new entry is appended to it; otherwise it is written anew.
 */
interface StaticView {
	entries: Map<string, number>;
	inPlace: boolean;
}

/**
 * This process's copy of each trigger node's record as it last wrote it, with the stamp it wrote
 * beside it (STAMP_KEY). While the static data a request brings carries the same stamp, the record
 * is exactly that copy: a delivery is looked up, added and the oldest dropped without reading the
 * whole record. Another writer (another process, a restart, an earlier version, a save that did
 * not happen) leaves another stamp, and the record is read whole once.
 */
interface Mirror {
	stamp: string;
	entries: Map<string, number>;
	/** The newest entry's time: a clock that went back makes the record be read whole. */
	lastAt: number;
}

const mirrors = new Map<string, Mirror>();
/** The property n8n's observable static data defines (not enumerable) on every object in it. */
const N8N_CHANGE_MARKER = '__dataChanged';
const STAMP_PREFIX = randomBytes(6).toString('hex');
let stampCounter = 0;

/**
 * Reads the whole record. In place, the view holds every entry of the record (older ones first, to
 * be dropped from the front); written anew, only those inside the window.
 */
function readStatic(stored: IDataObject, now: number): StaticView {
	const entries = new Map<string, number>();
	let inPlace = true;
	let last = -Infinity;
	// Its own keys, not `for…in`: n8n hands the record behind a Proxy, where listing the keys
	// with their enumerability costs more than reading them all. n8n's change marker is skipped.
	for (const key of Reflect.ownKeys(stored)) {
		if (typeof key !== 'string' || key === N8N_CHANGE_MARKER) continue;
		const at = stored[key];
		if (typeof at !== 'number' || at < last || at > now + DEDUPE_WINDOW_MS) inPlace = false;
		if (typeof at !== 'number') continue;
		last = Math.max(last, at);
		entries.set(key, at);
	}
	if (inPlace && entries.size <= DEDUPE_MAX_ENTRIES) return { entries, inPlace };
	// Out of order, too many, or holding something else: what is inside the window, oldest first
	// by time, the newest MAX_ENTRIES.
	const sorted = [...entries]
		.filter(([, at]) => inWindow(at, now))
		.sort((a, b) => a[1] - b[1])
		.slice(-DEDUPE_MAX_ENTRIES);
	return { entries: new Map(sorted), inPlace: false };
}

/** The record stored in the static data, when it is an object. */
function storedRecord(staticData: IDataObject): IDataObject | undefined {
	const stored = staticData[STATIC_KEY];
	return typeof stored === 'object' && stored !== null && !Array.isArray(stored)
		? (stored as IDataObject)
		: undefined;
}

/** The view of the static data's record: this process's copy when the stamp says it is the same. */
function staticView(scope: string, staticData: IDataObject, now: number): StaticView {
	const stored = storedRecord(staticData);
	if (stored === undefined) return { entries: new Map(), inPlace: false };
	const mirror = mirrors.get(scope);
	if (mirror && staticData[STAMP_KEY] === mirror.stamp && now >= mirror.lastAt) {
		return { entries: mirror.entries, inPlace: true };
	}
	return readStatic(stored, now);
}

function isSeen(
	view: StaticView,
	key: string,
	formerKeys: readonly string[],
	now: number,
): boolean {
	const seen = (k: string) => {
		const at = view.entries.get(k);
		return at !== undefined && inWindow(at, now);
	};
	return seen(key) || formerKeys.some(seen);
}

/**
 * Adds `key` to the static data: drops what left the window from the front, appends the key,
 * drops the oldest beyond MAX_ENTRIES; in place when the view allows it, else written anew.
 * Stamps the record and keeps this process's copy of it.
 */
function recordStatic(scope: string, staticData: IDataObject, key: string, now: number): void {
	const view = staticView(scope, staticData, now);
	const stored = view.inPlace ? storedRecord(staticData) : undefined;
	const { entries } = view;
	const drop = (oldest: string) => {
		entries.delete(oldest);
		if (stored) delete stored[oldest];
	};
	for (const [oldest, at] of entries) {
		if (inWindow(at, now)) break;
		drop(oldest);
	}
	// A key already there (out of the window, or a former entry) moves to the end.
	if (entries.has(key)) drop(key);
	entries.set(key, now);
	while (entries.size > DEDUPE_MAX_ENTRIES) drop(entries.keys().next().value as string);
	if (stored) {
		stored[key] = now;
		// Set again so that n8n sees the static data changed, whichever object holds the record.
		staticData[STATIC_KEY] = stored;
	} else {
		staticData[STATIC_KEY] = Object.fromEntries(entries);
	}
	const stamp = `${STAMP_PREFIX}:${++stampCounter}`;
	staticData[STAMP_KEY] = stamp;
	mirrors.delete(scope);
	mirrors.set(scope, { stamp, entries, lastAt: now });
	while (mirrors.size > MAX_SCOPES) mirrors.delete(mirrors.keys().next().value as string);
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
	const view = staticView(scope, staticData, now);
	if (isSeen(view, key, opts.formerKeys ?? [], now)) return { kind: 'duplicate' };

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
	recordStatic(scope, staticData, key, now);

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
