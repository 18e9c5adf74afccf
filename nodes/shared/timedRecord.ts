/**
 * A record of keys and when each was recorded, as both triggers keep theirs (the webhook trigger's
 * deliveries, the results the two triggers share): in the workflow's static data, which survives
 * restarts, and in maps of this process, one per trigger node or workflow.
 */
import type { IDataObject } from 'n8n-workflow';

/** Whether a time recorded at `at` still counts at `now` (the window on both sides: a clock put back). */
export function inWindow(at: number, now: number, windowMs: number): boolean {
	return now - at <= windowMs && at <= now + windowMs;
}

/** A stored record's entries that are times inside the window, oldest first; anything else is left out. */
export function storedTimes(
	stored: unknown,
	now: number,
	windowMs: number,
): Array<[string, number]> {
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return [];
	return Object.entries(stored as IDataObject)
		.filter(
			(entry): entry is [string, number] =>
				typeof entry[1] === 'number' && inWindow(entry[1], now, windowMs),
		)
		.sort((a, b) => a[1] - b[1]);
}

/** Writes the record anew, its newest `max` entries (a new object: n8n sees the static data changed and saves it). */
export function storeTimes(
	staticData: IDataObject,
	name: string,
	entries: Map<string, number>,
	max: number,
): void {
	while (entries.size > max) entries.delete(entries.keys().next().value as string);
	// Built key by key: V8's Object.fromEntries takes several times longer for 1,000 keys.
	const record: IDataObject = {};
	for (const [key, at] of entries) record[key] = at;
	staticData[name] = record;
}

/** The process's entry for `id` (made when missing), now the most recently used; the least recently used beyond `max` dropped. */
export function recentlyUsed<T>(map: Map<string, T>, id: string, max: number, make: () => T): T {
	const value = map.get(id) ?? make();
	map.delete(id);
	map.set(id, value);
	while (map.size > max) map.delete(map.keys().next().value as string);
	return value;
}
