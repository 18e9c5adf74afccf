/**
 * The trigger when n8n or the sender misbehave (issue "reliability", items 2 and 10): a delivery
 * whose first start fails is run by the service's retry exactly once, and the unsigned
 * `Service-Event-Type` header never outranks the signed body.
 */
import { triggerOutput, type TriggerHost } from '../../harness/webhook.cjs';
import { startSandbox } from '../../sandbox/index.cjs';
import { BODIES } from './fixtures.cjs';
import { lastEvent, postSigned, useTriggerHosts } from './util.cjs';

const KEY = 'whsec-reliability-key';
const host = useTriggerHosts(KEY);
const last = lastEvent;

describe('a delivery n8n failed to start is run by the retry, exactly once (item 2)', () => {
	const body = BODIES.IDENTIFICATION_MANUAL_FINISHED;
	const send = (h: TriggerHost) =>
		postSigned(h.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' });

	test('first start fails (n8n answers 500), the retry runs the workflow once, a third copy is a duplicate', async () => {
		const h = await host({ failStarts: 1, execute: true });
		const first = await send(h);
		expect(first.status).toBe(500);
		expect(h.emitted).toHaveLength(0);
		// n8n saved no static data for the failed start
		expect(JSON.stringify(h.staticData())).not.toContain('seenDeliveries');

		const retry = await send(h);
		expect(retry.status).toBe(200);
		expect(retry.json).toEqual({ received: true });
		await h.idle();
		expect(h.executions).toHaveLength(1);
		expect(triggerOutput(h.executions[0])[0].json.scanRef).toBe(body.scanRef);

		const again = await send(h);
		expect(again.json).toEqual({ received: true, ignored: 'duplicate delivery' });
		await h.idle();
		expect(h.executions).toHaveLength(1);
		expect(JSON.stringify(h.staticData())).toContain('seenDeliveries');
	});

	test('two copies at the same time while the first start fails: the other one runs, once', async () => {
		const h = await host({ failStarts: 1, overlapFirst: 2 });
		const answers = await Promise.all([send(h), send(h)]);
		expect(answers.map((a) => a.status).sort()).toEqual([200, 500]);
		expect(h.emitted).toHaveLength(1);
	});

	test("through the sandbox's sender: n8n fails the first attempt, the service's retry delivers it, one workflow run", async () => {
		const h = await host({ failStarts: 1 });
		const sb = await startSandbox({ signingKey: KEY });
		try {
			sb.webhooks.configure({ url: h.url, retryDelaysMs: [50, 50, 50] });
			const delivery = await sb.webhooks.send('IDENTIFICATION_MANUAL_FINISHED');
			expect(delivery.status).toBe('delivered');
			expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
			expect(h.emitted).toHaveLength(1);
		} finally {
			await sb.close();
		}
	});
});

describe('the signed body outranks the unsigned event header (item 10)', () => {
	const preliminary = { ...BODIES.IDENTIFICATION_AUTO_FINISHED, final: false };

	test('a final: false identification body re-sent with header BANK_VERIFICATION does not pass Only Final Results', async () => {
		const h = await host({ parameters: { options: { onlyFinal: true } } });
		const answer = await postSigned(h.url, preliminary, {
			key: KEY,
			eventType: 'BANK_VERIFICATION',
		});
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual({ received: true, ignored: 'not a final result' });
		expect(h.emitted).toHaveLength(0);
	});

	test.each(['KYB_REVIEW_RESULT', 'BANK_CARD_VERIFICATION_COMPLETED', 'ACCOUNT_CHECK'])(
		'final: false is never final, whatever the header says (%s)',
		async (eventType) => {
			const h = await host({ parameters: { options: { onlyFinal: true } } });
			await postSigned(h.url, preliminary, { key: KEY, eventType });
			expect(h.emitted).toHaveLength(0);
		},
	);

	test('a header naming a kind the body does not fit, while it fits another: the body kind, flagged headerMatchesBody: false', async () => {
		const h = await host();
		await postSigned(h.url, preliminary, { key: KEY, eventType: 'BANK_VERIFICATION' });
		expect(last(h)).toMatchObject({
			eventType: 'IDENTIFICATION',
			eventTypeSource: 'body',
			headerMatchesBody: false,
			headerEventType: 'BANK_VERIFICATION',
			final: false,
		});
	});

	test('the Events filter applies to the body kind: a header cannot sneak an identification into a bank workflow', async () => {
		const h = await host({ parameters: { events: ['BANK_VERIFICATION'] } });
		const answer = await postSigned(h.url, preliminary, {
			key: KEY,
			eventType: 'BANK_VERIFICATION',
		});
		expect(answer.json).toEqual({
			received: true,
			ignored: 'event kind IDENTIFICATION is not selected',
		});
		expect(h.emitted).toHaveLength(0);
	});

	test('a header that fits the body is kept: headerMatchesBody: true', async () => {
		const h = await host();
		await postSigned(h.url, BODIES.BANK_VERIFICATION, { key: KEY, eventType: 'BANK_VERIFICATION' });
		expect(last(h)).toMatchObject({
			eventType: 'BANK_VERIFICATION',
			eventTypeSource: 'header',
			headerMatchesBody: true,
		});
		expect(last(h)).not.toHaveProperty('headerEventType');
	});
});
