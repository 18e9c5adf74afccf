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
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { EVENT_TYPES } from '../contract';

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

const processStore = new Map<string, Map<string, SeenEntry>>();

/** The first 128 bits of SHA-256, in hex: the length of every stored key. */
function shortHash(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The key a delivery is remembered by: the raw-body hash, hashed again to 128 bits. */
export function dedupeKey(bodyHash: string): string {
	return shortHash(bodyHash);
}

/**
 * The keys earlier versions remembered the same delivery by (event kind + raw-body hash), one per
 * kind since the kind came from the header: static data saved before an upgrade still holds them
 * for up to one window, and a retry across the upgrade must not run again.
 */
export function formerDedupeKeys(bodyHash: string): string[] {
	return EVENT_TYPES.map((eventType) => shortHash(`${eventType}\n${bodyHash}`));
}

function scopeMap(scope: string): Map<string, SeenEntry> {
	let map = processStore.get(scope);
	if (map) {
		// Refresh the scope's position so the least recently used one is evicted first.
		processStore.delete(scope);
	} else {
		map = new Map();
	}
	processStore.set(scope, map);
	while (processStore.size > MAX_SCOPES) {
		const oldest = processStore.keys().next().value as string;
		processStore.delete(oldest);
	}
	return map;
}

function pruneMap(map: Map<string, SeenEntry>, now: number): void {
	for (const [key, { at }] of map) {
		if (now - at > DEDUPE_WINDOW_MS || at > now + DEDUPE_WINDOW_MS) map.delete(key);
	}
	while (map.size > DEDUPE_MAX_ENTRIES) {
		map.delete(map.keys().next().value as string);
	}
}

/** The static-data entries still inside the window, oldest first, at most DEDUPE_MAX_ENTRIES. */
function readStatic(staticData: IDataObject, now: number): Array<[string, number]> {
	const stored = staticData[STATIC_KEY];
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return [];
	const entries = Object.entries(stored as IDataObject)
		.filter((entry): entry is [string, number] => typeof entry[1] === 'number')
		.filter(([, at]) => now - at <= DEDUPE_WINDOW_MS && at <= now + DEDUPE_WINDOW_MS)
		.sort((a, b) => a[1] - b[1]);
	return entries.slice(-DEDUPE_MAX_ENTRIES);
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
	const seenKeys = new Set([key, ...(opts.formerKeys ?? [])]);
	const stored = readStatic(staticData, now);
	if (stored.some(([storedKey]) => seenKeys.has(storedKey))) return { kind: 'duplicate' };

	const map = scopeMap(scope);
	pruneMap(map, now);
	for (let waited = 0; map.get(key)?.delivered === false; waited += PENDING_POLL_MS) {
		if (waited >= PENDING_WAIT_MS) return { kind: 'inFlight' };
		await sleep(PENDING_POLL_MS);
	}
	if (map.get(key)?.delivered) return { kind: 'duplicate' };

	const entry: SeenEntry = { at: now, delivered: false };
	map.set(key, entry);
	pruneMap(map, now);
	stored.push([key, now]);
	staticData[STATIC_KEY] = Object.fromEntries(stored.slice(-DEDUPE_MAX_ENTRIES));

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
