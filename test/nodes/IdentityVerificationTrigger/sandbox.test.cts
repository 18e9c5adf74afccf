/**
 * Deliveries sent by the sandbox's webhook sender (signed, retried, logged like the dashboard's
 * "Recently sent") to the trigger over real HTTP, and the contract's KYC state table driven end to
 * end: what a workflow receives, in order.
 */
import { request } from 'undici';

import { IDENTIFICATION_EVENT_TYPES, type EventType } from '../../../nodes/shared/contract';
import { SANDBOX_EVENT_TYPES } from '../../sandbox/bodies.cjs';
import { sandboxCredentials } from '../../harness/index.cjs';
import {
	startTriggerHost,
	type TriggerHost,
	type TriggerHostOptions,
} from '../../harness/webhook.cjs';
import { startSandbox, type Sandbox } from '../../sandbox/index.cjs';
import { ENCODINGS } from './util.cjs';

let sb: Sandbox;
const hosts: TriggerHost[] = [];

beforeAll(async () => {
	sb = await startSandbox();
});

afterAll(async () => {
	await Promise.all(hosts.map(async (h) => await h.close()));
	await sb.close();
});

/** A trigger host with the sandbox's signing key, and the sandbox's sender pointed at it. */
async function receiver(
	opts: TriggerHostOptions = {},
	config: Partial<Parameters<Sandbox['webhooks']['configure']>[0]> = {},
) {
	const host = await startTriggerHost({ credentials: sandboxCredentials(sb), ...opts });
	hosts.push(host);
	sb.webhooks.configure({
		url: host.url,
		signingKey: sb.credentials.signingKey,
		retryDelaysMs: [0, 0],
		timeoutMs: 5000,
		...config,
	});
	return host;
}

const events = (h: TriggerHost) => h.emitted.map((e) => e[0].json as Record<string, any>);

describe('deliveries from the sandbox', () => {
	test('every event kind sent by the sandbox is delivered on the first attempt and emitted with its kind', async () => {
		const h = await receiver();
		// Version 1 keeps the name it gave the company review (the contract's KYB review result).
		const v1 = (kind: EventType) => (kind === 'COMPANY_REVIEW' ? 'KYB_REVIEW_RESULT' : kind);
		for (const kind of SANDBOX_EVENT_TYPES) {
			const delivery = await sb.webhooks.send(kind);
			expect(delivery.status).toBe('delivered');
			expect(delivery.attempts.map((a) => a.statusCode)).toEqual([200]);
			const item = events(h)[events(h).length - 1];
			expect(item.eventType).toBe(v1(kind));
			expect(item.body).toEqual(JSON.parse(delivery.payload));
			expect(item.validationIssues).toBeUndefined();
			if (IDENTIFICATION_EVENT_TYPES.includes(kind)) {
				expect(item.overallStatus).toBe(item.body.status.overall);
				expect(item.final).toBe(item.body.final);
				expect(item.scanRef).toBe(item.body.scanRef);
			}
		}
		expect(events(h).map((e) => e.eventType)).toEqual(SANDBOX_EVENT_TYPES.map(v1));
		// The service sends the header with every kind, the legacy event included: each kind came from it.
		expect(events(h).map((e) => e.eventTypeSource)).toEqual(
			SANDBOX_EVENT_TYPES.map(() => 'header'),
		);
	});

	test('with the real service’s header names (Idenfy-Event-Type, Idenfy-Signature) and the credential’s prefix set to match, every kind arrives with its kind', async () => {
		const credentials = sandboxCredentials(sb);
		credentials.identityVerificationWebhookSigningApi = {
			...credentials.identityVerificationWebhookSigningApi,
			headerPrefix: 'Idenfy',
		};
		const h = await receiver({ credentials }, { headerPrefix: 'Idenfy' });
		try {
			for (const kind of SANDBOX_EVENT_TYPES) {
				const delivery = await sb.webhooks.send(kind);
				expect(delivery.headers).toHaveProperty('Idenfy-Signature');
				expect(delivery.attempts.map((a) => a.statusCode)).toEqual([200]);
			}
			expect(events(h).map((e) => [e.eventType, e.eventTypeSource])).toEqual(
				SANDBOX_EVENT_TYPES.map((kind) => [
					kind === 'COMPANY_REVIEW' ? 'KYB_REVIEW_RESULT' : kind,
					'header',
				]),
			);
		} finally {
			sb.webhooks.configure({ url: h.url, headerPrefix: 'Service' });
		}
	});

	test.each(ENCODINGS)('signatures encoded as %s are accepted', async (signatureEncoding) => {
		const h = await receiver({}, { signatureEncoding });
		const delivery = await sb.webhooks.send('BANK_VERIFICATION');
		expect(delivery.status).toBe('delivered');
		expect(events(h).map((e) => e.eventType)).toEqual(['BANK_VERIFICATION']);
	});

	test('identification events sent without the header are the legacy kind: only the header tells them apart', async () => {
		const h = await receiver({}, { omitEventTypeHeaderFor: [...IDENTIFICATION_EVENT_TYPES] });
		await sb.webhooks.send('IDENTIFICATION_AUTO_FINISHED');
		await sb.webhooks.send('IDENTIFICATION_EXPIRED');
		await sb.webhooks.send('IDENTIFICATION_CANCELLED');
		await sb.webhooks.send('BANK_VERIFICATION');
		expect(events(h).map((e) => [e.eventType, e.eventTypeSource])).toEqual([
			// Nothing in the body names the kind: the legacy kind covers every outcome.
			['IDENTIFICATION', 'body'],
			['IDENTIFICATION', 'body'],
			['IDENTIFICATION', 'body'],
			['BANK_VERIFICATION', 'header'],
		]);
	});

	test('deliveries signed with another key are refused (401) on every attempt and start nothing', async () => {
		const h = await receiver({}, { signingKey: 'not-the-configured-key' });
		const delivery = await sb.webhooks.send('ACCOUNT_CHECK');
		expect(delivery.status).toBe('failed');
		expect(delivery.attempts.map((a) => a.statusCode)).toEqual([401, 401, 401]);
		expect(h.emitted).toHaveLength(0);
	});

	test("the dashboard's Resend is acknowledged but starts nothing while duplicates are ignored", async () => {
		const h = await receiver();
		const original = await sb.webhooks.send('IDENTIFICATION_MANUAL_FINISHED');
		const resent = await sb.webhooks.resend(original.id);
		expect(resent.status).toBe('delivered');
		expect(resent.attempts.map((a) => a.statusCode)).toEqual([200]);
		expect(h.emitted).toHaveLength(1);
		expect(h.responses.map((r) => r.json)).toEqual([
			{ received: true },
			{ received: true, ignored: 'duplicate delivery' },
		]);
	});

	test('with duplicates allowed, a Resend starts the workflow again with the same delivery id', async () => {
		const h = await receiver({ parameters: { options: { ignoreDuplicates: false } } });
		const original = await sb.webhooks.send('BANK_CARD_VERIFICATION_COMPLETED');
		await sb.webhooks.resend(original.id);
		expect(events(h).map((e) => e.eventType)).toEqual([
			'BANK_CARD_VERIFICATION_COMPLETED',
			'BANK_CARD_VERIFICATION_COMPLETED',
		]);
		expect(events(h)[0].deliveryId).toBe(events(h)[1].deliveryId);
	});

	test('a KYB form submitted and reviewed arrives as a KYB review result', async () => {
		const h = await receiver();
		const form = sb.kyb.seedForm({ formId: 'form-trigger-1', companyId: 'company-trigger-1' });
		const auth = `Basic ${Buffer.from(`${sb.credentials.apiKey}:${sb.credentials.apiSecret}`).toString('base64')}`;
		const submitted = await request(`${sb.url}/kyb/forms/${form.formId}/submit/`, {
			method: 'POST',
			headers: { authorization: auth },
		});
		await submitted.body.dump();
		expect(submitted.statusCode).toBeLessThan(300);
		// The submission's own webhook (sent in the background) arrives first.
		while (sb.webhooks.log.some((d) => d.status === 'pending'))
			await new Promise((resolve) => setTimeout(resolve, 5));
		await sb.kyb.review(form.formId, 'REJECTED');
		expect(events(h)).toHaveLength(2);
		expect(events(h)[0]).toMatchObject({
			eventType: 'COMPANY_SUBMIT',
			body: { id: form.companyId },
		});
		expect(events(h)[1]).toMatchObject({
			eventType: 'KYB_REVIEW_RESULT',
			body: { id: form.companyId, approvalStatus: 'DENIED' },
		});
	});
});

describe('the KYC state table, driven by the sandbox', () => {
	/** Drives every row of the contract's table; returns the scanRefs in order of the cases. */
	async function driveAllCases() {
		const kyc = sb.kyc;
		// 1. Automated result is preliminary, then the reviewer decides.
		const a = kyc.createSession('client-a').scanRef;
		await kyc.autoFinish(a, { final: false });
		await kyc.manualFinish(a, { overall: 'APPROVED' });
		// 2. Conclusive automated result.
		const b = kyc.createSession('client-b').scanRef;
		await kyc.autoFinish(b, { final: true, overall: 'APPROVED' });
		// 3. Request information (no webhook), re-upload needs no review.
		const c = kyc.createSession('client-c').scanRef;
		await kyc.autoFinish(c, { final: true, overall: 'DENIED' });
		kyc.requestInformation(c);
		await kyc.userResubmits(c, { needsReview: false, overall: 'APPROVED' });
		// 4. Request information, re-upload still needs review, then the reviewer decides.
		const d = kyc.createSession('client-d').scanRef;
		await kyc.autoFinish(d, { final: true, overall: 'DENIED' });
		kyc.requestInformation(d);
		await kyc.userResubmits(d, { needsReview: true, overall: 'APPROVED' });
		// 5. Request information, the re-upload is not completed in time.
		const e = kyc.createSession('client-e').scanRef;
		await kyc.autoFinish(e, { final: true, overall: 'DENIED' });
		kyc.requestInformation(e);
		await kyc.expire(e);
		// 6. Verification not completed in time.
		const f = kyc.createSession('client-f').scanRef;
		await kyc.expire(f);
		// 7. Cancelled.
		const g = kyc.createSession('client-g').scanRef;
		await kyc.cancel(g);
		return { a, b, c, d, e, f, g };
	}

	const summary = (h: TriggerHost) =>
		events(h).map((e) => ({
			eventType: e.eventType,
			scanRef: e.scanRef,
			final: e.final,
			overallStatus: e.overallStatus,
		}));

	test('arrives as the expected ordered list of events', async () => {
		const h = await receiver();
		const s = await driveAllCases();
		expect(summary(h)).toEqual([
			{
				eventType: 'IDENTIFICATION_AUTO_FINISHED',
				scanRef: s.a,
				final: false,
				overallStatus: 'SUSPECTED',
			},
			{
				eventType: 'IDENTIFICATION_MANUAL_FINISHED',
				scanRef: s.a,
				final: true,
				overallStatus: 'APPROVED',
			},
			{
				eventType: 'IDENTIFICATION_AUTO_FINISHED',
				scanRef: s.b,
				final: true,
				overallStatus: 'APPROVED',
			},
			{
				eventType: 'IDENTIFICATION_AUTO_FINISHED',
				scanRef: s.c,
				final: true,
				overallStatus: 'DENIED',
			},
			{
				eventType: 'IDENTIFICATION_RESUBMITTED',
				scanRef: s.c,
				final: true,
				overallStatus: 'APPROVED',
			},
			{
				eventType: 'IDENTIFICATION_AUTO_FINISHED',
				scanRef: s.d,
				final: true,
				overallStatus: 'DENIED',
			},
			{
				eventType: 'IDENTIFICATION_RESUBMITTED',
				scanRef: s.d,
				final: false,
				overallStatus: 'SUSPECTED',
			},
			{
				eventType: 'IDENTIFICATION_MANUAL_FINISHED',
				scanRef: s.d,
				final: true,
				overallStatus: 'APPROVED',
			},
			{
				eventType: 'IDENTIFICATION_AUTO_FINISHED',
				scanRef: s.e,
				final: true,
				overallStatus: 'DENIED',
			},
			{ eventType: 'IDENTIFICATION_EXPIRED', scanRef: s.e, final: true, overallStatus: 'EXPIRED' },
			{ eventType: 'IDENTIFICATION_EXPIRED', scanRef: s.f, final: true, overallStatus: 'EXPIRED' },
			// The service has no CANCELLED overall status.
			{
				eventType: 'IDENTIFICATION_CANCELLED',
				scanRef: s.g,
				final: true,
				overallStatus: 'DENIED',
			},
		]);
		// Every delivery was acknowledged on its first attempt.
		expect(h.responses.length).toBeGreaterThanOrEqual(summary(h).length);
		expect(h.responses.every((r) => r.statusCode === 200)).toBe(true);
	});

	test('with Only Final Results, the preliminary results are acknowledged but do not start the workflow', async () => {
		const h = await receiver({ parameters: { options: { onlyFinal: true } } });
		const s = await driveAllCases();
		expect(summary(h).map((e) => [e.eventType, e.scanRef])).toEqual([
			['IDENTIFICATION_MANUAL_FINISHED', s.a],
			['IDENTIFICATION_AUTO_FINISHED', s.b],
			['IDENTIFICATION_AUTO_FINISHED', s.c],
			['IDENTIFICATION_RESUBMITTED', s.c],
			['IDENTIFICATION_AUTO_FINISHED', s.d],
			['IDENTIFICATION_MANUAL_FINISHED', s.d],
			['IDENTIFICATION_AUTO_FINISHED', s.e],
			['IDENTIFICATION_EXPIRED', s.e],
			['IDENTIFICATION_EXPIRED', s.f],
			['IDENTIFICATION_CANCELLED', s.g],
		]);
		expect(h.responses).toHaveLength(12);
		expect(
			h.responses.filter((r) => (r.json as { ignored?: string }).ignored === 'not a final result'),
		).toHaveLength(2);
	});

	test('a workflow listening only for manual decisions gets exactly those', async () => {
		const h = await receiver({ parameters: { events: ['IDENTIFICATION_MANUAL_FINISHED'] } });
		const s = await driveAllCases();
		expect(summary(h).map((e) => [e.eventType, e.scanRef])).toEqual([
			['IDENTIFICATION_MANUAL_FINISHED', s.a],
			['IDENTIFICATION_MANUAL_FINISHED', s.d],
		]);
	});
});
