/**
 * The trigger's small modules on their own: event kind rules and the duplicate store's bounds
 * (the 24-hour window needs a clock the HTTP tests cannot move).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	DEDUPE_MAX_ENTRIES,
	DEDUPE_WINDOW_MS,
	dedupeKey,
	claimDelivery,
} from '../../../nodes/IdentityVerificationTrigger/dedupe';
import {
	buildEvent,
	inferEventType,
	isNonFinal,
	parseEventTypeName,
} from '../../../nodes/IdentityVerificationTrigger/events';
import { BODIES } from './fixtures.cjs';

describe('event kinds', () => {
	test.each([
		['BANK_VERIFICATION', 'BANK_VERIFICATION'],
		['bank-verification', 'BANK_VERIFICATION'],
		['Identification Expired', 'IDENTIFICATION_EXPIRED'],
		['identification_cancelled', 'IDENTIFICATION_CANCELLED'],
		['IDENTIFICATION-CANCELED', 'IDENTIFICATION_CANCELLED'],
		['identification (legacy)', 'IDENTIFICATION'],
		['KYB_REVIEW', 'KYB_REVIEW_RESULT'],
		['bank card verification completed', 'BANK_CARD_VERIFICATION_COMPLETED'],
	])('%j names %s', (value, kind) => {
		expect(parseEventTypeName(value)).toBe(kind);
	});

	test.each([['IDENTIFICATION_STARTED'], [''], ['BANK'], [42], [null]])(
		'%j names no known kind',
		(value) => {
			expect(parseEventTypeName(value)).toBeUndefined();
		},
	);

	test('an account check is not mistaken for an identification although it has a scanRef', () => {
		expect(inferEventType({ ...BODIES.ACCOUNT_CHECK, scanRef: 'abc' } as IDataObject)).toBe(
			'ACCOUNT_CHECK',
		);
	});

	test('a KYB body with a scanRef key is not a KYB review', () => {
		expect(
			inferEventType({ companyId: 'c-1', scanRef: 's-1', status: { overall: 'APPROVED' } }),
		).toBe('IDENTIFICATION');
	});

	test('an explicit body type that names no known kind is ignored', () => {
		expect(inferEventType({ type: 'SOMETHING', ...BODIES.BANK_VERIFICATION } as IDataObject)).toBe(
			'BANK_VERIFICATION',
		);
	});

	test('anything unrecognisable falls back to the legacy identification event', () => {
		const event = buildEvent({
			headerEventType: undefined,
			body: { hello: 'world' },
			deliveryId: 'd',
			receivedAt: new Date(0),
		});
		expect(event).toMatchObject({
			eventType: 'IDENTIFICATION',
			eventTypeSource: 'body',
			receivedAt: '1970-01-01T00:00:00.000Z',
		});
		expect(event.validationIssues).toBeUndefined();
	});

	test('non-final means a body with final === false, whatever the kind; outcomes without the flag are final', () => {
		expect(isNonFinal({ final: false })).toBe(true);
		expect(isNonFinal({ final: true })).toBe(false);
		expect(isNonFinal({ final: undefined })).toBe(false);
	});
});

describe('duplicate store', () => {
	// Pinned here, not read from the product: a changed window must turn these tests red.
	const DAY_MS = 24 * 60 * 60 * 1000;
	let scopeCounter = 0;
	const scope = () => `modules-test:${++scopeCounter}`;
	/** The old question "seen before?": a new delivery is claimed and n8n answers 2xx at once. */
	const seenBefore = async (opts: Parameters<typeof claimDelivery>[0]) => {
		const claim = await claimDelivery(opts);
		if (claim.kind !== 'new') return true;
		claim.settle(true);
		return false;
	};

	test('a delivery is a duplicate within 24 hours and new again after', async () => {
		const s = scope();
		const staticData: IDataObject = {};
		const key = dedupeKey('BANK_VERIFICATION', 'a'.repeat(64));
		const t0 = Date.UTC(2026, 10, 1);
		expect(await seenBefore({ scope: s, key, staticData, now: t0 })).toBe(false);
		expect(await seenBefore({ scope: s, key, staticData, now: t0 + DAY_MS - 1 })).toBe(true);
		expect(await seenBefore({ scope: s, key, staticData, now: t0 + DAY_MS + 1 })).toBe(false);
		expect(DEDUPE_WINDOW_MS).toBe(DAY_MS);
	});

	test('entries older than the window are dropped from the static data', async () => {
		const s = scope();
		const staticData: IDataObject = {};
		const t0 = Date.UTC(2026, 10, 1);
		await seenBefore({ scope: s, key: 'old', staticData, now: t0 });
		await seenBefore({ scope: s, key: 'new', staticData, now: t0 + DAY_MS + 10 });
		expect(Object.keys(staticData.seenDeliveries as object)).toEqual(['new']);
	});

	test('the same body under another event kind is a different delivery', async () => {
		expect(dedupeKey('IDENTIFICATION', 'b'.repeat(64))).not.toBe(
			dedupeKey('IDENTIFICATION_AUTO_FINISHED', 'b'.repeat(64)),
		);
	});

	test('the static data alone (another process) still catches a duplicate, and keeps at most the maximum', async () => {
		const staticData: IDataObject = {};
		const t0 = Date.UTC(2026, 10, 1);
		for (let i = 0; i <= DEDUPE_MAX_ENTRIES; i += 1)
			await seenBefore({ scope: scope(), key: `k${i}`, staticData, now: t0 + i });
		expect(Object.keys(staticData.seenDeliveries as object)).toHaveLength(DEDUPE_MAX_ENTRIES);
		// Each call used a new scope (an empty in-memory store): only the static data remembers.
		expect(
			await seenBefore({
				scope: scope(),
				key: `k${DEDUPE_MAX_ENTRIES}`,
				staticData,
				now: t0 + 5000,
			}),
		).toBe(true);
		expect(await seenBefore({ scope: scope(), key: 'k0', staticData, now: t0 + 5000 })).toBe(false);
	});

	test('a corrupted static data entry is ignored, not fatal', async () => {
		const staticData: IDataObject = { seenDeliveries: 'garbage' };
		expect(await seenBefore({ scope: scope(), key: 'x', staticData, now: 1 })).toBe(false);
		expect(staticData.seenDeliveries).toEqual({ x: 1 });
	});
});
