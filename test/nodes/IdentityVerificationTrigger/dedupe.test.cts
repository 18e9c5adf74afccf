/**
 * The duplicate store (dedupe.ts) at its exact edges, with an explicit clock: the 24 h window on
 * both sides in both stores, 1000 entries per node, 200 nodes (least recently used dropped), the
 * static data's parsing and newest-first trimming, settle() and the 5 s wait for a pending copy.
 */
import { ObservableObject, type IDataObject } from 'n8n-workflow';

import { claimDelivery, dedupeKey, formerDedupeKeys } from '../../../nodes/shared/webhook/dedupe';

// Pinned here, not read from the product: a changed bound must turn these tests red.
const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 1000;
const MAX_SCOPES = 200;
const T0 = Date.UTC(2026, 10, 1);

let scopeCounter = 0;
/** A scope no other test uses: the in-memory store is module-level and shared by the whole file. */
const scope = () => `dedupe-test:${++scopeCounter}`;

/** Claims a delivery; a new one is answered 2xx at once (it counts as seen). Gives the kind. */
async function claim(s: string, key: string, now: number, staticData: IDataObject = {}) {
	const result = await claimDelivery({ scope: s, key, staticData, now });
	if (result.kind === 'new') result.settle(true);
	return result.kind;
}

describe('dedupeKey', () => {
	test('is the first 128 bits of SHA-256 over the body hash alone, in hex (the format kept in static data)', () => {
		// Keys persist in the workflow static data: a changed format would forget every delivery.
		expect(dedupeKey('a'.repeat(64))).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209');
	});

	test('the keys earlier versions wrote (kind + body hash) are one per kind, and none is the current key', () => {
		const former = formerDedupeKeys('a'.repeat(64));
		// The earlier format's pinned value: SHA-256 of "BANK_VERIFICATION\n" + the body hash.
		expect(former).toContain('851359571d4c253d95f232904fc8a18c');
		expect(new Set(former).size).toBe(10);
		expect(former).not.toContain(dedupeKey('a'.repeat(64)));
	});
});

describe('the in-memory store (another request of this process, static data not saved yet)', () => {
	test('a delivery exactly 24 h old is still a duplicate; 1 ms later it runs again', async () => {
		const s = scope();
		expect(await claim(s, 'k', T0)).toBe('new');
		expect(await claim(s, 'k', T0 + DAY_MS)).toBe('duplicate');
		expect(await claim(s, 'k', T0 + DAY_MS + 1)).toBe('new');
	});

	test('after the clock moved back, an entry up to 24 h in the future is kept, one further ahead is dropped', async () => {
		const kept = scope();
		expect(await claim(kept, 'k', T0)).toBe('new');
		expect(await claim(kept, 'k', T0 - DAY_MS)).toBe('duplicate');
		const dropped = scope();
		expect(await claim(dropped, 'k', T0)).toBe('new');
		expect(await claim(dropped, 'k', T0 - DAY_MS - 1)).toBe('new');
	});

	test('keeps the newest 1000 deliveries of a node: the 1001st pushes out the oldest', async () => {
		const s = scope();
		for (let i = 0; i < MAX_ENTRIES; i += 1) expect(await claim(s, `k${i}`, T0 + i)).toBe('new');
		expect(await claim(s, 'k0', T0 + MAX_ENTRIES)).toBe('duplicate');
		expect(await claim(s, `k${MAX_ENTRIES}`, T0 + MAX_ENTRIES)).toBe('new');
		expect(await claim(s, 'k1', T0 + MAX_ENTRIES)).toBe('duplicate');
		expect(await claim(s, 'k0', T0 + MAX_ENTRIES)).toBe('new');
	});

	test('keeps 200 trigger nodes; the 201st drops the least recently used one, not the oldest created', async () => {
		const scopes = Array.from({ length: MAX_SCOPES + 1 }, scope);
		for (const s of scopes.slice(0, MAX_SCOPES)) expect(await claim(s, 'k', T0)).toBe('new');
		// All 200 are remembered; asking the first one makes it the most recently used.
		expect(await claim(scopes[0], 'k', T0)).toBe('duplicate');
		expect(await claim(scopes[MAX_SCOPES], 'k', T0)).toBe('new');
		expect(await claim(scopes[0], 'k', T0)).toBe('duplicate');
		expect(await claim(scopes[1], 'k', T0)).toBe('new');
	});

	test("settle(false) of a claim whose entry was already replaced does not forget the newer claim's delivery", async () => {
		const s = scope();
		const stale = await claimDelivery({ scope: s, key: 'k', staticData: {}, now: T0 });
		// A day later the pending entry is out of the window: the same delivery is claimed anew.
		expect(await claim(s, 'k', T0 + DAY_MS + 1)).toBe('new');
		if (stale.kind !== 'new') throw new Error(`expected a new claim, got ${stale.kind}`);
		stale.settle(false);
		expect(await claim(s, 'k', T0 + DAY_MS + 2)).toBe('duplicate');
	});
});

describe('the workflow static data (what another process or a restart remembers)', () => {
	/** The static data holding one delivery `k` seen at T0. */
	const seenAtT0 = (): IDataObject => ({ seenDeliveries: { k: T0 } });

	test('a delivery exactly 24 h old is still a duplicate; 1 ms later it runs again', async () => {
		expect(await claim(scope(), 'k', T0 + DAY_MS, seenAtT0())).toBe('duplicate');
		expect(await claim(scope(), 'k', T0 + DAY_MS + 1, seenAtT0())).toBe('new');
	});

	test('after the clock moved back, an entry up to 24 h in the future is kept, one further ahead is dropped', async () => {
		expect(await claim(scope(), 'k', T0 - DAY_MS, seenAtT0())).toBe('duplicate');
		const staticData = seenAtT0();
		expect(await claim(scope(), 'k', T0 - DAY_MS - 1, staticData)).toBe('new');
		expect(staticData.seenDeliveries).toEqual({ k: T0 - DAY_MS - 1 });
	});

	test('a delivery stored under one of its former keys is a duplicate; a new claim writes only the current key', async () => {
		const seen = { seenDeliveries: { old: T0 } };
		const former = async (staticData: IDataObject) =>
			await claimDelivery({ scope: scope(), key: 'k', formerKeys: ['old'], staticData, now: T0 });
		expect((await former(seen)).kind).toBe('duplicate');
		const fresh: IDataObject = {};
		expect((await former(fresh)).kind).toBe('new');
		expect(fresh.seenDeliveries).toEqual({ k: T0 });
	});

	test.each([[null], ['garbage']])(
		'%j in place of the remembered deliveries is ignored and replaced',
		async (seenDeliveries) => {
			const staticData: IDataObject = { seenDeliveries };
			expect(await claim(scope(), 'k', T0, staticData)).toBe('new');
			expect(staticData.seenDeliveries).toEqual({ k: T0 });
		},
	);

	test('entries older than the window are dropped when a delivery is written', async () => {
		const staticData: IDataObject = {};
		await claim(scope(), 'old', T0, staticData);
		await claim(scope(), 'new', T0 + DAY_MS + 10, staticData);
		expect(Object.keys(staticData.seenDeliveries as object)).toEqual(['new']);
	});

	test('alone (each claim in a new process) it catches a duplicate, and holds at most 1000', async () => {
		const staticData: IDataObject = {};
		for (let i = 0; i <= MAX_ENTRIES; i += 1) await claim(scope(), `k${i}`, T0 + i, staticData);
		expect(Object.keys(staticData.seenDeliveries as object)).toHaveLength(MAX_ENTRIES);
		expect(await claim(scope(), `k${MAX_ENTRIES}`, T0 + 5000, staticData)).toBe('duplicate');
		expect(await claim(scope(), 'k0', T0 + 5000, staticData)).toBe('new');
	});

	test.each([
		['a number written as text', String(T0)],
		['a list holding the time', [T0]],
	])('an entry whose time is %s is not a seen delivery, and is dropped', async (_what, at) => {
		const staticData: IDataObject = { seenDeliveries: { k: at, other: T0 } };
		expect(await claim(scope(), 'k', T0, staticData)).toBe('new');
		expect(staticData.seenDeliveries).toEqual({ other: T0, k: T0 });
	});

	test('entries stored newest first are kept oldest first, and the oldest is the one dropped at 1000', async () => {
		const seen: IDataObject = {};
		for (let i = MAX_ENTRIES - 1; i >= 0; i -= 1) seen[`n${i}`] = T0 + i;
		const staticData: IDataObject = { seenDeliveries: seen };
		expect(await claim(scope(), 'fresh', T0 + MAX_ENTRIES, staticData)).toBe('new');
		const expected = Array.from({ length: MAX_ENTRIES - 1 }, (_, i) => `n${i + 1}`);
		expect(Object.keys(staticData.seenDeliveries as object)).toEqual([...expected, 'fresh']);
	});

	test('of more than 1000 stored entries only the newest 1000 count as seen', async () => {
		const seen: IDataObject = {};
		for (let i = 0; i <= MAX_ENTRIES; i += 1) seen[`n${i}`] = T0 + i;
		expect(await claim(scope(), 'n1', T0 + 2000, { seenDeliveries: { ...seen } })).toBe(
			'duplicate',
		);
		expect(await claim(scope(), 'n0', T0 + 2000, { seenDeliveries: { ...seen } })).toBe('new');
	});
});

describe('a copy arriving while the same delivery is still being started', () => {
	beforeEach(() => jest.useFakeTimers());
	afterEach(() => jest.useRealTimers());

	/** Claims the pending delivery again (its own static data: not saved yet), tracking when it ends. */
	function secondCopy(s: string) {
		const state: { kind?: string } = {};
		const done = claimDelivery({ scope: s, key: 'k', staticData: {}, now: T0 }).then((c) => {
			state.kind = c.kind;
			return c;
		});
		return { state, done };
	}

	test('waits 5 s for the outcome, then is answered inFlight (not a duplicate, not new)', async () => {
		const s = scope();
		const first = await claimDelivery({ scope: s, key: 'k', staticData: {}, now: T0 });
		expect(first.kind).toBe('new');
		const copy = secondCopy(s);
		await jest.advanceTimersByTimeAsync(5000 - 1);
		expect(copy.state.kind).toBeUndefined();
		await jest.advanceTimersByTimeAsync(1);
		expect(copy.state.kind).toBe('inFlight');
		expect(await copy.done).toEqual({ kind: 'inFlight' });
	});

	test.each([
		[true, 'duplicate'],
		[false, 'new'],
	])('follows the first copy settled %s during the wait: %s', async (delivered, expected) => {
		const s = scope();
		const first = await claimDelivery({ scope: s, key: 'k', staticData: {}, now: T0 });
		if (first.kind !== 'new') throw new Error(`expected a new claim, got ${first.kind}`);
		const copy = secondCopy(s);
		await jest.advanceTimersByTimeAsync(1000);
		expect(copy.state.kind).toBeUndefined();
		first.settle(delivered);
		await jest.advanceTimersByTimeAsync(50);
		expect(copy.state.kind).toBe(expected);
	});
});

describe('the static data across deliveries, saved after each and loaded for the next as n8n does', () => {
	/** The static data as n8n saves it after a delivery and loads it for the next one. */
	const saved = (staticData: IDataObject): IDataObject =>
		JSON.parse(JSON.stringify(staticData)) as IDataObject;

	/** `count` deliveries claimed one after the other by this process, saved after each. */
	async function filled(s: string, count: number, start = T0): Promise<IDataObject> {
		let staticData: IDataObject = {};
		for (let i = 0; i < count; i++) {
			await claim(s, `k${i}`, start + i, staticData);
			staticData = saved(staticData);
		}
		return staticData;
	}

	test('with 1000 entries, a duplicate is caught and a new delivery is appended, the oldest dropped', async () => {
		const s = scope();
		const staticData = await filled(s, MAX_ENTRIES);
		expect(await claim(s, 'k0', T0 + MAX_ENTRIES, staticData)).toBe('duplicate');
		expect(await claim(s, 'fresh', T0 + MAX_ENTRIES, staticData)).toBe('new');
		const keys = Object.keys(staticData.seenDeliveries as object);
		expect(keys).toHaveLength(MAX_ENTRIES);
		expect(keys[0]).toBe('k1');
		expect(keys[MAX_ENTRIES - 1]).toBe('fresh');
	});

	test('a record another process wrote (or this one before a restart) is honoured and added to', async () => {
		const s = scope();
		const staticData = saved(await filled(scope(), 500));
		expect(await claim(s, 'k1', T0 + 600, staticData)).toBe('duplicate');
		expect(await claim(s, 'other', T0 + 600, staticData)).toBe('new');
		const next = saved(staticData);
		expect(await claim(scope(), 'other', T0 + 601, next)).toBe('duplicate');
		expect(await claim(s, 'another', T0 + 601, next)).toBe('new');
		expect(Object.keys(next.seenDeliveries as object)).toHaveLength(502);
	});

	test('entries leaving the window are dropped from the front as deliveries are added', async () => {
		const s = scope();
		let staticData = await filled(s, 3);
		expect(await claim(s, 'late', T0 + 1 + DAY_MS, staticData)).toBe('new');
		expect(Object.keys(staticData.seenDeliveries as object)).toEqual(['k1', 'k2', 'late']);
		staticData = saved(staticData);
		expect(await claim(s, 'k0', T0 + 1 + DAY_MS, staticData)).toBe('new');
		expect(await claim(s, 'k2', T0 + 1 + DAY_MS, staticData)).toBe('duplicate');
	});

	test('after the clock moved back a day and more, entries now in the future are dropped', async () => {
		const s = scope();
		const staticData = await filled(s, 2);
		expect(await claim(s, 'k1', T0 - DAY_MS - 1, staticData)).toBe('new');
		expect(staticData.seenDeliveries).toEqual({ k1: T0 - DAY_MS - 1 });
	});

	test('a save that did not happen: the record n8n brings is the one before, and it is read as it is', async () => {
		const s = scope();
		const before = await filled(s, 2);
		await claim(s, 'lost', T0 + 10, saved(before));
		expect(await claim(s, 'lost', T0 + 11, before)).toBe('duplicate');
		const other = saved(before);
		expect(await claim(s, 'k9', T0 + 12, other)).toBe('new');
		expect(Object.keys(other.seenDeliveries as object)).toEqual(['k0', 'k1', 'k9']);
	});

	test('n8n sees the static data changed when a delivery is added, through its observable object', async () => {
		const s = scope();
		const stored = saved(await filled(s, 3));
		const root = ObservableObject.create({ 'node:Trigger': stored }, undefined, {
			ignoreEmptyOnFirstChild: true,
		}) as IDataObject & { __dataChanged: boolean };
		expect(await claim(s, 'fresh', T0 + 10, root['node:Trigger'] as IDataObject)).toBe('new');
		expect(root.__dataChanged).toBe(true);
		expect(Object.keys(saved(root)['node:Trigger'] as object)).toContain('seenDeliveries');
		expect(Object.keys((root['node:Trigger'] as IDataObject).seenDeliveries as object)).toEqual([
			'k0',
			'k1',
			'k2',
			'fresh',
		]);
	});
});
