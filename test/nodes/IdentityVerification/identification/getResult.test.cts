/**
 * Identification → Get Result: POST /api/v2/full as the trigger's item (version 1.1), so a missed
 * delivery can re-enter the workflow it would have started; what differs from the delivery's item
 * (final always false, the kind IDENTIFICATION, its own deliveryId and time) and the rest equal.
 */
import type { IDataObject } from 'n8n-workflow';

import { verificationEventItemSchema } from '../../../../nodes/shared/contract';
import { buildEvent, eventItem } from '../../../../nodes/shared/webhook/events';
import { expectError, expectPaired, serviceRequests } from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const getResult = (scanRef: string, extra: Record<string, unknown> = {}) => ({
	resource: 'identification',
	operation: 'getResult',
	scanRef,
	...extra,
});

/** The trigger's item of the last delivery of a verification, with personal data or without. */
function deliveredItem(scanRef: string, personalData: boolean): IDataObject {
	const delivery = [...ctx.sb.webhooks.log]
		.reverse()
		.find((entry) => (JSON.parse(entry.payload) as IDataObject).scanRef === scanRef);
	if (!delivery) throw new Error(`no delivery of ${scanRef}`);
	const event = buildEvent({
		headerEventType: delivery.eventType,
		body: JSON.parse(delivery.payload) as IDataObject,
		deliveryId: 'delivered',
		receivedAt: new Date(),
	});
	return eventItem(event, { personalData }) as IDataObject;
}

/** The fields that differ by design between a delivery's item and Get Result's. */
function comparable(item: IDataObject): IDataObject {
	const { eventType: _kind, final: _final, receivedAt: _at, delivery: _delivery, ...rest } = item;
	const body = rest.body as IDataObject | undefined;
	return body ? { ...rest, body: { ...body, final: null } } : rest;
}

describe('Identification → Get Result', () => {
	test('the trigger’s item of the result: the same decision, references and body; final false, kind IDENTIFICATION', async () => {
		const scanRef = await ctx.finished('customer-full', 'DENIED');
		const { items, error } = await ctx.run(getResult(scanRef));
		expect(error).toBeUndefined();
		expectPaired(items);
		const item = items[0].json;
		expect(verificationEventItemSchema.safeParse(item).success).toBe(true);
		expect(item).toMatchObject({
			eventType: 'IDENTIFICATION',
			overallStatus: 'DENIED',
			final: false,
			scanRef,
			clientId: 'customer-full',
			delivery: { eventTypeSource: 'body', headerMatchesBody: true },
		});
		expect((item.delivery as IDataObject).deliveryId).toMatch(/^[0-9a-f]{64}$/);
		expect(comparable(item)).toEqual(comparable(deliveredItem(scanRef, true)));
		expect(serviceRequests(ctx.sb, '/api/v2/full')).toBe(1);
	});

	test('Leave Out: the decision only, as the trigger’s Leave Out (no body, no document data)', async () => {
		const scanRef = await ctx.finished('customer-private');
		const { items, error } = await ctx.run(getResult(scanRef, { personalData: 'leaveOut' }));
		expect(error).toBeUndefined();
		const item = items[0].json;
		expect(item.body).toBeUndefined();
		expect(JSON.stringify(item)).not.toContain('ŽEMAITIS');
		expect(comparable(item)).toEqual(comparable(deliveredItem(scanRef, false)));
	});

	test('a verification with no result yet: ACTIVE, nothing read', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-waiting');
		const { items, error } = await ctx.run(getResult(scanRef));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ overallStatus: 'ACTIVE', final: false, scanRef });
	});

	test('a lost answer is asked for again (it only reads); an unknown scanRef is a 404', async () => {
		const scanRef = await ctx.finished('customer-retry');
		ctx.sb.faults.add({ method: 'POST', path: '/api/v2/full', status: 503 });
		const { items, error } = await ctx.run(getResult(scanRef));
		expect(error).toBeUndefined();
		expect(items[0].json.scanRef).toBe(scanRef);
		expect(serviceRequests(ctx.sb, '/api/v2/full')).toBe(2);
		expectError(await ctx.run(getResult('unknown-scan')), 'HTTP 404');
	});

	test('a Scan Reference of spaces is refused before sending', async () => {
		ctx.sb.resetLog();
		expectError(await ctx.run(getResult('={{ "  " }}')), 'Scan Reference');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});
