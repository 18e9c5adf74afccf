/**
 * The Identity Verification Trigger as a user sees it: real HTTP deliveries to a webhook host that
 * runs the node through n8n-core's WebhookContext, checking the answer the sender gets and the items
 * a workflow would start with.
 */
import { createHash } from 'node:crypto';
import type { INodeType } from 'n8n-workflow';

import {
	EVENT_TYPES,
	IDENTIFICATION_EVENT_TYPES,
	type EventType,
} from '../../../nodes/shared/contract';
import { MAX_JSON_DEPTH } from '../../../nodes/shared/jsonDepth';
import {
	n8nLogger,
	SIGNING_CREDENTIAL,
	testSigningKeyCredential,
	triggerOutput,
	type TriggerHost,
} from '../../harness/webhook.cjs';
import { BODIES } from './fixtures.cjs';
import { lastEvent, post, postSigned, sign, useTriggerHosts } from './util.cjs';

const KEY = 'whsec-trigger-test-key';
const host = useTriggerHosts(KEY);
const last = lastEvent;

describe('signature', () => {
	let h: TriggerHost;
	const body = JSON.stringify(BODIES.BANK_VERIFICATION);

	beforeAll(async () => {
		h = await host();
	});

	test('a body changed by one byte after signing is answered 401 and starts nothing', async () => {
		const signature = sign(body, KEY);
		const tampered = body.replace('"LOW"', '"LOX"');
		expect(tampered).toHaveLength(body.length);
		const res = await post(h.url, tampered, {
			'service-signature': signature,
			'service-event-type': 'BANK_VERIFICATION',
		});
		expect(res.status).toBe(401);
		expect(res.json).toEqual({
			received: false,
			error: 'Invalid Service-Signature: it does not match the body and the signing key',
		});
		expect(h.emitted).toHaveLength(0);
	});

	test('a delivery without the Service-Signature header is answered 401 and starts nothing', async () => {
		const res = await post(h.url, body, { 'service-event-type': 'BANK_VERIFICATION' });
		expect(res.status).toBe(401);
		expect(res.json).toEqual({ received: false, error: 'Missing Service-Signature header' });
		expect(h.emitted).toHaveLength(0);
	});

	test('a signature made with another key is answered 401 and starts nothing', async () => {
		const res = await postSigned(h.url, body, {
			key: 'someone-elses-key',
			eventType: 'BANK_VERIFICATION',
		});
		expect(res.status).toBe(401);
		expect(h.emitted).toHaveLength(0);
	});

	test('a correctly signed delivery is acknowledged with 200 {received: true} and starts the workflow', async () => {
		const res = await postSigned(h.url, body, { key: KEY, eventType: 'BANK_VERIFICATION' });
		expect(res.status).toBe(200);
		expect(res.json).toEqual({ received: true });
		expect(h.emitted).toHaveLength(1);
		expect(last(h)).toMatchObject({
			eventType: 'BANK_VERIFICATION',
			body: BODIES.BANK_VERIFICATION,
		});
	});

	test('a 401 answer never contains the signing key', async () => {
		const res = await post(h.url, body, { 'service-signature': 'x'.repeat(64) });
		expect(res.status).toBe(401);
		expect(res.text).not.toContain(KEY);
	});

	test('unsigned non-JSON is refused as unsigned (401), before the body is looked at', async () => {
		const res = await post(h.url, 'not json', { 'content-type': 'text/plain' });
		expect(res.status).toBe(401);
	});
});

describe('while the editor listens for a test event', () => {
	test('a delivery signed with another key ends the test with the reason n8n shows in the editor', async () => {
		const h = await host({ mode: 'manual' });
		const res = await postSigned(h.url, BODIES.BANK_VERIFICATION, {
			key: 'a-wrong-key',
			eventType: 'BANK_VERIFICATION',
		});
		// n8n answers 500 itself when the node throws, then ends the test run with the error.
		expect(res.status).toBe(500);
		expect(h.emitted).toHaveLength(0);
		expect(h.responses[0].webhookError?.message).toBe(
			'Delivery refused: Invalid Service-Signature: it does not match the body and the signing key',
		);
	});

	test('a delivery without a signature it can read names the header names it carried', async () => {
		const h = await host({ mode: 'manual' });
		await post(h.url, '{}', { 'x-acme-signature': 'abc' });
		const error = h.responses[0].webhookError as Error & { description?: string };
		expect(error.message).toBe(
			'Delivery refused: Missing Service-Signature or Idenfy-Signature header',
		);
		expect(error.description).toContain(
			'Header names the delivery carried: connection, content-length, content-type, host, x-acme-signature.',
		);
	});

	test('a correctly signed delivery starts the test run as in production', async () => {
		const h = await host({ mode: 'manual' });
		const res = await postSigned(h.url, BODIES.BANK_VERIFICATION, {
			key: KEY,
			eventType: 'BANK_VERIFICATION',
		});
		expect(res.status).toBe(200);
		expect(h.emitted).toHaveLength(1);
		expect(h.responses[0].webhookError).toBeUndefined();
	});
});

describe('typed events', () => {
	let h: TriggerHost;

	beforeAll(async () => {
		h = await host({ parameters: { options: { ignoreDuplicates: false } } });
	});

	// Version 1 keeps the name it gave the company review (the contract's KYB review result).
	const v1 = (kind: EventType) => (kind === 'COMPANY_REVIEW' ? 'KYB_REVIEW_RESULT' : kind);

	for (const kind of EVENT_TYPES.filter((k) => k !== 'OTHER')) {
		test(`${kind} with its header is emitted typed`, async () => {
			const before = h.emitted.length;
			const res = await postSigned(h.url, BODIES[kind], { key: KEY, eventType: kind });
			expect(res.status).toBe(200);
			expect(h.emitted).toHaveLength(before + 1);
			const item = last(h);
			expect(item.eventType).toBe(v1(kind));
			expect(item.eventTypeSource).toBe('header');
			expect(item.body).toEqual(BODIES[kind]);
			expect(item.validationIssues).toBeUndefined();
			expect(new Date(item.receivedAt).toISOString()).toBe(item.receivedAt);
			expect(item.deliveryId).toBe(
				createHash('sha256').update(JSON.stringify(BODIES[kind])).digest('hex'),
			);
			const body = BODIES[kind] as Record<string, any>;
			if (IDENTIFICATION_EVENT_TYPES.includes(kind)) {
				expect(item.overallStatus).toBe(body.status.overall);
				expect(item.final).toBe(body.final);
				expect(item.scanRef).toBe(body.scanRef);
				expect(item.clientId).toBe(body.clientId);
			} else {
				expect(item.overallStatus).toBeUndefined();
				expect(item.final).toBeUndefined();
			}
		});
	}

	test.each<[string, EventType]>([
		['identification-auto-finished', 'IDENTIFICATION_AUTO_FINISHED'],
		['Identification Manual Finished', 'IDENTIFICATION_MANUAL_FINISHED'],
		['  bank_verification ', 'BANK_VERIFICATION'],
		['IDENTIFICATION (legacy)', 'IDENTIFICATION'],
		['identification.canceled', 'IDENTIFICATION_CANCELLED'],
		['ID VERIFICATION CANCELED', 'IDENTIFICATION_CANCELLED'],
		['KYB review result', 'COMPANY_REVIEW'],
		['COMPANY_REVIEW', 'COMPANY_REVIEW'],
		['Company-Submit', 'COMPANY_SUBMIT'],
	])('the header %j is read as %s', async (header, expected) => {
		const body = { ...BODIES[expected], note: header };
		await postSigned(h.url, body, { key: KEY, eventType: header });
		expect(last(h)).toMatchObject({ eventType: v1(expected), eventTypeSource: 'header' });
	});

	// Bodies without a Service-Event-Type header: the documented inference rules (events.ts).
	const headerless: Array<[string, EventType, Record<string, unknown>]> = [
		[
			'an identification body',
			'IDENTIFICATION',
			{ final: true, scanRef: 'h-1', status: { overall: 'APPROVED' } },
		],
		['a body with only a scanRef (no decision: no product shown)', 'OTHER', { scanRef: 'h-2' }],
		[
			'overall status EXPIRED (the overall never decides the kind)',
			'IDENTIFICATION',
			{ scanRef: 'h-3', status: { overall: 'EXPIRED' } },
		],
		[
			'a type field (the body never names its kind)',
			'IDENTIFICATION',
			{
				type: 'IDENTIFICATION_MANUAL_FINISHED',
				final: true,
				scanRef: 'h-5',
				status: { overall: 'DENIED' },
			},
		],
		[
			'a card check without a session',
			'BANK_CARD_VERIFICATION_COMPLETED',
			BODIES.BANK_CARD_VERIFICATION_COMPLETED,
		],
		['a KYB review', 'KYB_REVIEW_RESULT' as EventType, BODIES.COMPANY_REVIEW],
		['a bank verification', 'BANK_VERIFICATION', BODIES.BANK_VERIFICATION],
		['an account check', 'ACCOUNT_CHECK', BODIES.ACCOUNT_CHECK],
		[
			'an identification body that refers to a bank card verification',
			'IDENTIFICATION',
			{
				final: true,
				scanRef: 'h-7',
				status: { overall: 'APPROVED' },
				bankCardVerification: { status: 'APPROVED' },
			},
		],
	];
	test.each(headerless)('without a header, %s is inferred as %s', async (_name, expected, body) => {
		const before = h.emitted.length;
		const res = await postSigned(h.url, body, { key: KEY });
		expect(res.status).toBe(200);
		expect(h.emitted).toHaveLength(before + 1);
		expect(last(h)).toMatchObject({ eventType: expected, eventTypeSource: 'body', body });
	});

	test('an unknown header value falls back to the body, and is shown as sent', async () => {
		await postSigned(h.url, BODIES.IDENTIFICATION_EXPIRED, {
			key: KEY,
			eventType: 'SOMETHING_NEW',
		});
		expect(last(h)).toMatchObject({
			eventType: 'IDENTIFICATION',
			eventTypeSource: 'body',
			headerEventType: 'SOMETHING_NEW',
		});
	});

	test('a company (KYB) delivery under a header this node does not know is never an identification', async () => {
		const body = { id: 'c-9', companyName: 'Acme UAB', clientId: 'x', beneficiaries: [] };
		await postSigned(h.url, body, { key: KEY, eventType: 'COMPANY_SOMETHING_NEW' });
		expect(last(h)).toMatchObject({ eventType: 'KYB_REVIEW_RESULT', eventTypeSource: 'body' });
		await postSigned(h.url, { note: 'shows nothing' }, { key: KEY, eventType: 'NEW_KIND' });
		expect(last(h)).toMatchObject({ eventType: 'OTHER', headerEventType: 'NEW_KIND' });
	});

	test('a body that does not match the contract is still emitted, with its validation issues', async () => {
		const body = {
			id: 'not-checked',
			accounts: [{ id: 'a', currency: 'EURO' }],
			riskLevel: 'EXTREME',
		};
		const res = await postSigned(h.url, body, { key: KEY, eventType: 'BANK_VERIFICATION' });
		expect(res.status).toBe(200);
		const item = last(h);
		expect(item.eventType).toBe('BANK_VERIFICATION');
		expect(item.body).toEqual(body);
		const paths = (item.validationIssues as Array<{ path: string; message: string }>).map(
			(i) => i.path,
		);
		expect(paths).toEqual(
			expect.arrayContaining(['riskLevel', 'accounts.0.currency', 'accounts.0.balancesOverview']),
		);
	});

	test('fields the contract does not list are kept in the body', async () => {
		const body = {
			...BODIES.IDENTIFICATION_AUTO_FINISHED,
			data: { docFirstName: 'Ąžuolas' },
			newField: [1, 2],
		};
		await postSigned(h.url, body, { key: KEY, eventType: 'IDENTIFICATION_AUTO_FINISHED' });
		expect(last(h).body).toEqual(body);
		expect(last(h).validationIssues).toBeUndefined();
	});
});

describe('the unsigned event header cannot change what a signed body is', () => {
	const preliminary = { ...BODIES.IDENTIFICATION_AUTO_FINISHED, final: false };

	test('a final: false body relabelled as a manual decision is the legacy identification event, flagged', async () => {
		const h = await host();
		await postSigned(h.url, preliminary, {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(last(h)).toMatchObject({
			eventType: 'IDENTIFICATION',
			eventTypeSource: 'body',
			headerMatchesBody: false,
			headerEventType: 'IDENTIFICATION_MANUAL_FINISHED',
			final: false,
		});
	});

	test('a workflow listening for manual decisions does not start for a relabelled preliminary result', async () => {
		const h = await host({ parameters: { events: ['IDENTIFICATION_MANUAL_FINISHED'] } });
		const res = await postSigned(h.url, preliminary, {
			key: KEY,
			eventType: 'identification-manual-finished',
		});
		expect(res.json).toEqual({
			received: true,
			ignored: 'event kind IDENTIFICATION is not selected',
		});
		expect(h.emitted).toHaveLength(0);
	});

	test('a bank verification relabelled as an identification is a bank verification, flagged', async () => {
		const h = await host({ parameters: { events: [...IDENTIFICATION_EVENT_TYPES] } });
		const res = await postSigned(h.url, BODIES.BANK_VERIFICATION, {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(res.json).toEqual({
			received: true,
			ignored: 'event kind BANK_VERIFICATION is not selected',
		});
		expect(h.emitted).toHaveLength(0);

		const all = await host();
		await postSigned(all.url, BODIES.BANK_VERIFICATION, {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(last(all)).toMatchObject({
			eventType: 'BANK_VERIFICATION',
			eventTypeSource: 'body',
			headerMatchesBody: false,
			headerEventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(last(all)).not.toHaveProperty('overallStatus');
	});

	test('a header sent twice with different kinds is not read as either: the body kind, flagged', async () => {
		const h = await host();
		await postSigned(h.url, BODIES.IDENTIFICATION_MANUAL_FINISHED, {
			key: KEY,
			headers: {
				'service-event-type': ['IDENTIFICATION_MANUAL_FINISHED', 'IDENTIFICATION_AUTO_FINISHED'],
			},
		});
		expect(last(h)).toMatchObject({
			eventType: 'IDENTIFICATION',
			eventTypeSource: 'body',
			headerMatchesBody: false,
			headerEventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
	});
});

describe('bodies that are not JSON', () => {
	let h: TriggerHost;

	beforeAll(async () => {
		h = await host();
	});

	test.each([
		['text/plain', 'hello'],
		['application/octet-stream', '{"truncated": '],
		[undefined, '<xml/>'],
	])(
		'a signed non-JSON body sent as %s is answered 400 and starts nothing',
		async (contentType, text) => {
			const headers: Record<string, string> = { 'service-signature': sign(text, KEY) };
			if (contentType) headers['content-type'] = contentType;
			const res = await post(
				h.url,
				text,
				contentType ? headers : { ...headers, 'content-type': '' },
			);
			expect(res.status).toBe(400);
			expect(res.json).toEqual({ received: false, error: 'The body is not valid JSON' });
			expect(h.emitted).toHaveLength(0);
		},
	);

	test('a signed JSON array is answered 400 (a delivery is a JSON object)', async () => {
		const res = await postSigned(h.url, '[1,2]', {
			key: KEY,
			headers: { 'content-type': 'text/plain' },
		});
		expect(res.status).toBe(400);
		expect(h.emitted).toHaveLength(0);
	});

	test('malformed JSON sent as application/json is refused by n8n itself (422) before the node runs', async () => {
		const text = '{"final": tru';
		const res = await post(h.url, text, { 'service-signature': sign(text, KEY) });
		expect(res.status).toBe(422);
		expect(h.emitted).toHaveLength(0);
	});
});

describe('bodies nested deeper than n8n can store', () => {
	let h: TriggerHost;

	beforeAll(async () => {
		h = await host();
	});

	/** A delivery whose `deep` member makes the body `levels` deep in all. */
	const nested = (levels: number) =>
		`{"scanRef":"s-1","final":true,"deep":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

	test.each([5_000, 1_000_000])(
		'a signed body %s levels deep is answered 400 naming the limit, logged, and starts nothing',
		async (levels) => {
			const logger = n8nLogger();
			const spy = jest.spyOn(logger, 'warn');
			try {
				const res = await postSigned(h.url, nested(levels), {
					key: KEY,
					eventType: 'IDENTIFICATION',
				});
				expect(res.status).toBe(400);
				expect(res.json).toEqual({
					received: false,
					error: `The body is nested more than ${MAX_JSON_DEPTH} levels deep, which n8n cannot store`,
				});
				expect(h.emitted).toHaveLength(0);
				expect(spy.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(
					/delivery refused \(400\): The body is nested more than 200 levels deep/,
				);
			} finally {
				spy.mockRestore();
			}
		},
	);

	test('a body as deep as the limit starts the workflow', async () => {
		const res = await postSigned(h.url, nested(MAX_JSON_DEPTH), {
			key: KEY,
			eventType: 'IDENTIFICATION',
		});
		expect(res.status).toBe(200);
		expect(last(h)).toMatchObject({ scanRef: 's-1' });
	});
});

describe('duplicate deliveries', () => {
	const body = BODIES.IDENTIFICATION_MANUAL_FINISHED;

	test('with the option on (default), a redelivery of the same body is acknowledged 200 and starts nothing', async () => {
		const h = await host();
		const first = await postSigned(h.url, body, {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		const again = await postSigned(h.url, body, {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
			encoding: 'base64',
		});
		expect(first.status).toBe(200);
		expect(again.status).toBe(200);
		expect(again.json).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(h.emitted).toHaveLength(1);
		// A different body is a different delivery.
		await postSigned(
			h.url,
			{ ...body, scanRef: 'another' },
			{ key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' },
		);
		expect(h.emitted).toHaveLength(2);
	});

	test('the same signed body under five different event headers (or none) starts one workflow', async () => {
		const h = await host();
		const headers = [
			'IDENTIFICATION_MANUAL_FINISHED',
			'IDENTIFICATION_AUTO_FINISHED',
			'IDENTIFICATION_RESUBMITTED',
			'identification (legacy)',
			undefined,
		];
		const answers = [];
		for (const eventType of headers) {
			answers.push((await postSigned(h.url, body, { key: KEY, eventType })).json);
		}
		expect(answers).toEqual([
			{ received: true },
			...Array(4).fill({ received: true, ignored: 'duplicate delivery' }),
		]);
		expect(h.emitted).toHaveLength(1);
		const stored = Object.values(h.staticData())[0] as Record<string, object>;
		expect(Object.keys(stored.seenDeliveries)).toHaveLength(1);
	});

	test('a copy the Events filter ignores is not remembered: a later copy of a selected kind runs once, the next is a duplicate', async () => {
		const h = await host({
			parameters: { events: ['IDENTIFICATION_MANUAL_FINISHED', 'IDENTIFICATION'] },
		});
		const ignored = await postSigned(h.url, body, {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(ignored.json).toEqual({
			received: true,
			ignored: 'event kind IDENTIFICATION_AUTO_FINISHED is not selected',
		});
		expect(JSON.stringify(h.staticData())).not.toContain('seenDeliveries');

		const runs = await postSigned(h.url, body, {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(runs.json).toEqual({ received: true });
		// Without a header: the legacy kind, also selected, and the same delivery.
		const again = await postSigned(h.url, body, { key: KEY });
		expect(again.json).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(h.emitted).toHaveLength(1);
	});

	test('a copy Only Final Results skips is not remembered either', async () => {
		const h = await host({ parameters: { options: { onlyFinal: true } } });
		const skipped = await postSigned(h.url, BODIES.IDENTIFICATION_RESUBMITTED, {
			key: KEY,
			eventType: 'IDENTIFICATION_RESUBMITTED',
		});
		expect(skipped.json).toEqual({ received: true, ignored: 'not a final result' });
		expect(JSON.stringify(h.staticData())).not.toContain('seenDeliveries');
	});

	test('a delivery remembered before the key left out the event kind is still a duplicate', async () => {
		const bodyHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
		const earlierKey = createHash('sha256')
			.update(`IDENTIFICATION_MANUAL_FINISHED\n${bodyHash}`)
			.digest('hex')
			.slice(0, 32);
		const h = await host({
			staticData: {
				'node:Identity Verification Trigger': { seenDeliveries: { [earlierKey]: Date.now() } },
			},
		});
		const res = await postSigned(h.url, body, { key: KEY, eventType: 'IDENTIFICATION' });
		expect(res.json).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(h.emitted).toHaveLength(0);
	});

	test('with the option off, a redelivery is emitted again', async () => {
		const h = await host({ parameters: { options: { ignoreDuplicates: false } } });
		await postSigned(h.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' });
		await postSigned(h.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' });
		expect(h.emitted).toHaveLength(2);
		expect(h.emitted[0][0].json.deliveryId).toBe(h.emitted[1][0].json.deliveryId);
	});

	test('the same delivery arriving many times at once starts exactly one workflow', async () => {
		const h = await host({ overlapFirst: 8 });
		const answers = await Promise.all(
			Array.from(
				{ length: 8 },
				async () =>
					await postSigned(h.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' }),
			),
		);
		expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
		expect(h.emitted).toHaveLength(1);
	});

	test('what was seen is kept in the workflow static data and survives a restart of n8n', async () => {
		const workflowId = `wf-restart-${Date.now()}`;
		const before = await host({ workflowId });
		await postSigned(before.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' });
		expect(before.emitted).toHaveLength(1);
		const saved = before.staticData();
		const stored = Object.values(saved)[0] as Record<string, unknown>;
		expect(Object.keys(stored.seenDeliveries as object)).toHaveLength(1);
		expect(JSON.stringify(saved)).not.toContain(KEY);

		// A fresh copy of the node module = a restarted n8n process (its in-memory store is empty).
		const freshNode = (): INodeType => {
			let cls: new () => INodeType = undefined as never;
			jest.isolateModules(() => {
				cls =
					require('../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node').IdentityVerificationTrigger;
			});
			return new cls();
		};

		const restarted = await host({ workflowId, staticData: saved, nodeType: freshNode() });
		const res = await postSigned(restarted.url, body, {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(res.json).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(restarted.emitted).toHaveLength(0);

		// Without the saved static data, the restarted process has no memory of it.
		const forgetful = await host({ workflowId, nodeType: freshNode() });
		await postSigned(forgetful.url, body, {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(forgetful.emitted).toHaveLength(1);
	});

	test('the remembered deliveries are bounded', async () => {
		const h = await host({ parameters: { events: ['ACCOUNT_CHECK'] } });
		for (let i = 0; i < 1010; i += 1) {
			await postSigned(
				h.url,
				{ ...BODIES.ACCOUNT_CHECK, clientId: `c-${i}` },
				{ key: KEY, eventType: 'ACCOUNT_CHECK' },
			);
		}
		expect(h.emitted).toHaveLength(1010);
		const stored = Object.values(h.staticData())[0] as Record<string, object>;
		expect(Object.keys(stored.seenDeliveries)).toHaveLength(1000);
		// The newest are kept: the last one is still a duplicate.
		const res = await postSigned(
			h.url,
			{ ...BODIES.ACCOUNT_CHECK, clientId: 'c-1009' },
			{ key: KEY, eventType: 'ACCOUNT_CHECK' },
		);
		expect(res.json).toEqual({ received: true, ignored: 'duplicate delivery' });
	});

	test('while listening for a test event, a resent delivery is shown again', async () => {
		const h = await host({ mode: 'manual' });
		await postSigned(h.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' });
		await postSigned(h.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' });
		expect(h.emitted).toHaveLength(2);
	});
});

describe('event filter and final results', () => {
	test('unselected kinds are acknowledged 200 and start nothing; selected ones start the workflow', async () => {
		const h = await host({
			parameters: { events: ['BANK_VERIFICATION', 'IDENTIFICATION_MANUAL_FINISHED'] },
		});
		const ignored = await postSigned(h.url, BODIES.ACCOUNT_CHECK, {
			key: KEY,
			eventType: 'ACCOUNT_CHECK',
		});
		expect(ignored.status).toBe(200);
		expect(ignored.json).toEqual({
			received: true,
			ignored: 'event kind ACCOUNT_CHECK is not selected',
		});
		const inferred = await postSigned(h.url, BODIES.IDENTIFICATION, { key: KEY });
		expect(inferred.status).toBe(200);
		expect(h.emitted).toHaveLength(0);

		await postSigned(h.url, BODIES.BANK_VERIFICATION, { key: KEY, eventType: 'BANK_VERIFICATION' });
		await postSigned(h.url, BODIES.IDENTIFICATION_MANUAL_FINISHED, {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(h.emitted.map((e) => e[0].json.eventType)).toEqual([
			'BANK_VERIFICATION',
			'IDENTIFICATION_MANUAL_FINISHED',
		]);
	});

	test('an empty selection receives every kind', async () => {
		const h = await host({ parameters: { events: [] } });
		await postSigned(h.url, BODIES.COMPANY_REVIEW, { key: KEY, eventType: 'KYB_REVIEW_RESULT' });
		expect(h.emitted).toHaveLength(1);
	});

	test('Only Final Results skips non-final identification results (200) and keeps final ones and outcomes', async () => {
		const h = await host({ parameters: { options: { onlyFinal: true } } });
		const preliminary = await postSigned(
			h.url,
			{ ...BODIES.IDENTIFICATION_AUTO_FINISHED, final: false },
			{ key: KEY, eventType: 'IDENTIFICATION_AUTO_FINISHED' },
		);
		expect(preliminary.status).toBe(200);
		expect(preliminary.json).toEqual({ received: true, ignored: 'not a final result' });
		await postSigned(h.url, BODIES.IDENTIFICATION_RESUBMITTED, {
			key: KEY,
			eventType: 'IDENTIFICATION_RESUBMITTED',
		});
		expect(h.emitted).toHaveLength(0);

		await postSigned(h.url, BODIES.IDENTIFICATION_AUTO_FINISHED, {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		await postSigned(h.url, BODIES.IDENTIFICATION_EXPIRED, {
			key: KEY,
			eventType: 'IDENTIFICATION_EXPIRED',
		});
		await postSigned(h.url, BODIES.BANK_VERIFICATION, { key: KEY, eventType: 'BANK_VERIFICATION' });
		expect(h.emitted.map((e) => e[0].json.eventType)).toEqual([
			'IDENTIFICATION_AUTO_FINISHED',
			'IDENTIFICATION_EXPIRED',
			'BANK_VERIFICATION',
		]);
	});

	test('without Only Final Results, non-final results start the workflow with final: false', async () => {
		const h = await host();
		await postSigned(h.url, BODIES.IDENTIFICATION_RESUBMITTED, {
			key: KEY,
			eventType: 'IDENTIFICATION_RESUBMITTED',
		});
		expect(last(h)).toMatchObject({
			eventType: 'IDENTIFICATION_RESUBMITTED',
			final: false,
			overallStatus: 'REVIEWING',
		});
	});
});

describe('fail closed', () => {
	test('when n8n gives the node no raw body, the delivery is refused (500) with a clear log, never accepted', async () => {
		const logger = n8nLogger();
		const spy = jest.spyOn(logger, 'error');
		try {
			const h = await host({ withoutRawBody: true });
			const res = await postSigned(h.url, BODIES.BANK_VERIFICATION, {
				key: KEY,
				eventType: 'BANK_VERIFICATION',
			});
			expect(res.status).toBe(500);
			expect(h.emitted).toHaveLength(0);
			expect(spy.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(
				/no raw request body, so the signature cannot be checked/,
			);
		} finally {
			spy.mockRestore();
		}
	});

	test('without a signing key credential the delivery is refused (500) and nothing starts', async () => {
		const h = await host({ credentials: {} });
		const res = await postSigned(h.url, BODIES.BANK_VERIFICATION, {
			key: KEY,
			eventType: 'BANK_VERIFICATION',
		});
		expect(res.status).toBe(500);
		expect(h.emitted).toHaveLength(0);
	});

	test('with an empty signing key the delivery is refused (500), even with a signature made with an empty key', async () => {
		const h = await host({ credentials: { [SIGNING_CREDENTIAL]: { signingSecret: '' } } });
		const res = await postSigned(h.url, BODIES.BANK_VERIFICATION, {
			key: '',
			eventType: 'BANK_VERIFICATION',
		});
		expect(res.status).toBe(500);
		expect(h.emitted).toHaveLength(0);
	});

	test('with Verify Signature off (local testing only), unsigned deliveries start the workflow', async () => {
		const h = await host({ credentials: {}, parameters: { options: { verifySignature: false } } });
		const res = await post(h.url, JSON.stringify(BODIES.IDENTIFICATION_CANCELLED), {
			'service-event-type': 'IDENTIFICATION_CANCELLED',
		});
		expect(res.status).toBe(200);
		expect(last(h)).toMatchObject({
			eventType: 'IDENTIFICATION_CANCELLED',
			overallStatus: 'DENIED',
		});
	});
});

describe('in a workflow run', () => {
	test("the emitted item is the trigger's output when the workflow is executed by n8n-core", async () => {
		const h = await host({ execute: true });
		const res = await postSigned(h.url, BODIES.IDENTIFICATION_AUTO_FINISHED, {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(res.json).toEqual({ received: true });
		await h.idle();
		expect(h.executions).toHaveLength(1);
		const run = h.executions[0];
		expect(run.status).toBe('success');
		const output = triggerOutput(run);
		expect(output).toHaveLength(1);
		expect(output[0].json).toEqual(h.emitted[0][0].json);
		expect(output[0].json).toMatchObject({
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
			final: true,
			overallStatus: 'APPROVED',
		});
	});
});

describe('signing key credential test', () => {
	test('a clean key passes', async () => {
		const result = await testSigningKeyCredential({ signingSecret: 'sk_live_abc123' });
		expect(result.status).toBe('OK');
		expect(result.message).not.toContain('sk_live_abc123');
	});

	test.each([
		['empty', '', /Enter the signing key/],
		['with a trailing space', 'sk_live_abc123 ', /spaces or a line break/],
		['with a leading line break', '\nsk_live_abc123', /spaces or a line break/],
		['with a line break inside', 'sk_live\nabc123', /line break/],
	])('a key %s fails with a message saying what to fix', async (_name, signingKey, message) => {
		const result = await testSigningKeyCredential({ signingSecret: signingKey });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
		if (signingKey.trim()) expect(result.message).not.toContain(signingKey.trim());
	});

	test('a missing key fails', async () => {
		expect((await testSigningKeyCredential({})).status).toBe('Error');
	});
});
