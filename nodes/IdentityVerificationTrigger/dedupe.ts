/**
 * Duplicate-delivery detection.
 *
 * The service retries a delivery that did not get a 2xx answer in time, and the dashboard has a
 * Resend action, so the same delivery can arrive more than once. A delivery is identified by the
 * SHA-256 of its raw body (plus its event kind); a key seen within the last 24 hours is a duplicate.
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
 * A delivery is a duplicate when either store has seen it. Both are bounded: entries older than
 * the window are dropped, and at most MAX_ENTRIES (newest kept) per trigger node; the module map
 * also keeps at most MAX_SCOPES trigger nodes (least recently used dropped first).
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

export const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;
export const DEDUPE_MAX_ENTRIES = 1000;
const MAX_SCOPES = 200;
const STATIC_KEY = 'seenDeliveries';

const processStore = new Map<string, Map<string, number>>();

/** The key a delivery is remembered by: event kind + raw-body hash, hashed again to 128 bits. */
export function dedupeKey(eventType: string, bodyHash: string): string {
	return createHash('sha256').update(`${eventType}\n${bodyHash}`).digest('hex').slice(0, 32);
}

function scopeMap(scope: string): Map<string, number> {
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

function pruneMap(map: Map<string, number>, now: number): void {
	for (const [key, at] of map) {
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

/**
 * Whether the delivery was already seen; when it was not, it is remembered in both stores.
 * `scope` identifies the trigger node (workflow id + node id).
 */
export function seenBefore(opts: {
	scope: string;
	key: string;
	staticData: IDataObject;
	now: number;
}): boolean {
	const { scope, key, staticData, now } = opts;
	const map = scopeMap(scope);
	pruneMap(map, now);
	const stored = readStatic(staticData, now);

	if (map.has(key) || stored.some(([storedKey]) => storedKey === key)) return true;

	map.set(key, now);
	pruneMap(map, now);
	stored.push([key, now]);
	staticData[STATIC_KEY] = Object.fromEntries(stored.slice(-DEDUPE_MAX_ENTRIES));
	return false;
}
