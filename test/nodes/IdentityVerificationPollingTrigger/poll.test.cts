/**
 * The Polling Trigger against the sandbox, one poll at a time as n8n runs them (harness/poll.cts):
 * the first poll takes a baseline, each later one emits what changed once, in the webhook trigger's
 * item (version 1.1) with delivery.source "polling"; Catch Up From replays; a 429 ends a poll
 * quietly; Fetch Test Event returns the newest result; the lists are read, never Get Status.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { pollTrigger, sandboxCredentials } from '../../harness/index.cjs';
import { startTriggerHost, type TriggerHost } from '../../harness/webhook.cjs';
import { verificationEventItemSchema } from '../../../nodes/shared/contract';
import { useKycSandbox } from '../IdentityVerification/kyc-util.cjs';
import { call } from '../../sandbox/test-helpers.cjs';

const ctx = useKycSandbox();

let workflowCounter = 0;

/**
 * One trigger node's polls, keeping its static data between them as n8n does; each in a workflow of
 * its own unless `workflowId` names the one it shares with a webhook trigger.
 */
function trigger(
	parameters: INodeParameters = {},
	workflowId = `poll-test-${++workflowCounter}`,
	staticData: IDataObject = {},
) {
	const poll = async (mode: 'trigger' | 'manual' = 'trigger') => {
		const items = await pollTrigger({
			parameters: { events: ['verificationResult'], ...parameters },
			credentials: { identityVerificationApi: sandboxCredentials(ctx.sb).identityVerificationApi },
			staticData,
			mode,
			workflowId,
		});
		return items?.map((item) => item.json) ?? null;
	};
	return { poll, staticData };
}

/** A company submitted from its KYB session's link. */
async function submittedCompany(): Promise<string> {
	const session = await call(ctx.sb, 'POST', '/kyb/tokens/', {
		body: { tokenType: 'FORM', clientId: 'deal-42' },
	});
	return (await ctx.sb.kyb.submitSession(session.json.tokenString)).companyId;
}

describe('verification results', () => {
	test('the first poll is a baseline; each later result starts the workflow once', async () => {
		await ctx.finished('before-activation');
		const waiting = ctx.sb.kyc.createSession('later').scanRef;
		const { poll } = trigger();
		expect(await poll()).toBeNull();

		await ctx.sb.kyc.autoFinish(waiting, { final: true, overall: 'DENIED' });
		const newOne = await ctx.finished('new-client', 'SUSPECTED');
		const items = (await poll())!;
		expect(items.map((item) => [item.scanRef, item.overallStatus])).toEqual(
			expect.arrayContaining([
				[waiting, 'DENIED'],
				[newOne, 'SUSPECTED'],
			]),
		);
		expect(items).toHaveLength(2);
		for (const item of items) {
			expect(verificationEventItemSchema.safeParse(item).success).toBe(true);
			expect(item).toMatchObject({
				eventType: 'IDENTIFICATION',
				final: true,
				delivery: { source: 'polling' },
			});
		}
		expect(await poll()).toBeNull();
		// Lists and one full read per result: never the status endpoint the provider asks not to poll.
		expect(ctx.sb.count({ path: '/api/v2/status' })).toBe(0);
	});

	test('an expiry is IDENTIFICATION_EXPIRED; unselected results and unfinished ones start nothing', async () => {
		const { poll } = trigger({ statuses: ['EXPIRED'] });
		const expiring = ctx.sb.kyc.createSession('expiring').scanRef;
		ctx.sb.kyc.createSession('still-active');
		expect(await poll()).toBeNull();
		await ctx.finished('approved');
		await ctx.sb.kyc.expire(expiring);
		const items = (await poll())!;
		expect(items).toEqual([
			expect.objectContaining({
				eventType: 'IDENTIFICATION_EXPIRED',
				overallStatus: 'EXPIRED',
				scanRef: expiring,
			}),
		]);
	});

	test('Client IDs read only those clients; Personal Data: Leave Out keeps the body out', async () => {
		const { poll } = trigger({ clientIds: 'watched-1, watched-2', personalData: 'leaveOut' });
		expect(await poll()).toBeNull();
		await ctx.finished('watched-2');
		await ctx.finished('someone-else');
		const items = (await poll())!;
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ clientId: 'watched-2', overallStatus: 'APPROVED' });
		expect(items[0].body).toBeUndefined();
		expect(ctx.sb.count({ path: '/kyc/identifications/' })).toBe(4);
	});

	test('Catch Up From replays the results since that date once, then goes on from there', async () => {
		const old = await ctx.finished('replayed');
		const { poll } = trigger({
			options: { catchUpFrom: new Date(Date.now() - 60_000).toISOString() },
		});
		const replayed = (await poll())!;
		expect(replayed.map((item) => item.scanRef)).toContain(old);
		expect(await poll()).toBeNull();
		const later = await ctx.finished('after-replay');
		expect((await poll())!.map((item) => item.scanRef)).toEqual([later]);
	});

	test('a 429 ends the poll quietly and the next one emits what it missed', async () => {
		const { poll, staticData } = trigger();
		await poll();
		const saved = JSON.stringify(staticData);
		const scanRef = await ctx.finished('rate-limited');
		ctx.sb.faults.add({
			path: '/kyc/identifications/',
			status: 429,
			retryAfter: 0,
			times: Infinity,
		});
		expect(await poll()).toBeNull();
		expect(JSON.stringify(staticData)).toBe(saved);
		ctx.sb.faults.clear();
		expect((await poll())!.map((item) => item.scanRef)).toEqual([scanRef]);
	});

	test('a wrong key is an error n8n shows, not a quiet poll', async () => {
		const { staticData } = trigger();
		const credentials = {
			identityVerificationApi: {
				...sandboxCredentials(ctx.sb).identityVerificationApi,
				apiSecret: 'wrong-secret',
			},
		};
		await expect(
			pollTrigger({ parameters: { events: ['verificationResult'] }, credentials, staticData }),
		).rejects.toThrow(/401|key|secret/i);
		expect(JSON.stringify(staticData)).not.toContain('wrong-secret');
	});

	test.each([
		[{ pagesPerPoll: 0 }, 'Pages per Poll: must be a whole number from 1 to 100'],
		[{ pagesPerPoll: 2.5 }, 'Pages per Poll: must be a whole number from 1 to 100'],
		[{ pagesPerPoll: 101 }, 'Pages per Poll: must be a whole number from 1 to 100'],
		[{ catchUpFrom: 'last Tuesday' }, 'Catch Up From: "last Tuesday" is not a date'],
	])(
		'an option the poll cannot use (%j) is an error naming it, before any request',
		async (options, message) => {
			const { poll } = trigger({ options });
			ctx.sb.resetLog();
			await expect(poll()).rejects.toThrow(message);
			expect(ctx.sb.count()).toBe(0);
		},
	);

	test('Fetch Test Event returns the newest result, or says there is none, and keeps no state', async () => {
		const { poll, staticData } = trigger();
		await expect(poll('manual')).rejects.toThrow('No result of the selected kinds yet');
		const scanRef = await ctx.finished('tested');
		expect((await poll('manual'))!).toEqual([expect.objectContaining({ scanRef })]);
		expect(JSON.stringify(staticData)).not.toContain('pollState');
	});
});

describe('companies and AML monitorings', () => {
	test('a submission and a review each start the workflow once', async () => {
		const { poll } = trigger({ events: ['companySubmitted', 'companyReviewed'] });
		expect(await poll()).toBeNull();
		const companyId = await submittedCompany();
		expect(await poll()).toEqual([
			expect.objectContaining({ eventType: 'COMPANY_SUBMIT', companyId }),
		]);
		expect(await poll()).toBeNull();
		await call(ctx.sb, 'POST', `/kyb/companies/${companyId}/change-status/`, {
			body: { status: 'COMPLETED', reviewInfo: { approvalStatus: 'APPROVED' } },
		});
		expect(await poll()).toEqual([
			expect.objectContaining({
				eventType: 'COMPANY_REVIEW',
				companyId,
				approvalStatus: 'APPROVED',
				delivery: expect.objectContaining({ source: 'polling' }),
			}),
		]);
		expect(await poll()).toBeNull();
	});

	test('a monitoring that enters ALERT starts the workflow once', async () => {
		const { poll } = trigger({ events: ['amlMonitoringAlert'] });
		expect(await poll()).toBeNull();
		const { monitoringId } = ctx.sb.aml.seedMonitoring({
			isSubscribed: false,
			amlCheck: {
				clientId: 'monitored',
				userType: 'PERSON',
				input: { fullName: 'Łukasz Müller-Wiśniewski' },
			} as never,
		});
		expect(await poll()).toEqual([
			expect.objectContaining({ eventType: 'AML_MONITORING', status: 'ALERT' }),
		]);
		expect(JSON.stringify(ctx.sb.aml.monitoring(monitoringId))).toContain('ALERT');
		expect(await poll()).toBeNull();
	});
});

describe('expired AML monitorings', () => {
	test('a monitoring whose year ends starts the workflow once, with the monitoring; renewed and expired again, once more', async () => {
		const { poll } = trigger({ events: ['amlMonitoringExpired'] });
		expect(await poll()).toBeNull();
		const expiration = new Date(Date.now() + 1000).toISOString();
		const { monitoringId } = ctx.sb.aml.seedMonitoring(
			{
				isSubscribed: false,
				amlCheck: {
					clientId: 'renewal',
					userType: 'PERSON',
					input: { fullName: 'Jonas Jonaitis' },
				},
			} as never,
			{ expiration },
		);
		expect(await poll()).toBeNull();
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const [item, ...others] = (await poll()) ?? [];
		expect(others).toEqual([]);
		expect(item).toEqual(
			expect.objectContaining({
				eventType: 'AML_MONITORING_EXPIRATION',
				delivery: expect.objectContaining({ source: 'polling' }),
				body: expect.objectContaining({ monitoringId, expiration }),
			}),
		);
		expect(await poll()).toBeNull();
		expect(ctx.sb.count({ path: '/aml/monitorings/' })).toBeGreaterThan(0);
	});

	test('Catch Up From replays the monitorings that expired since that date', async () => {
		const expiration = new Date(Date.now() - 60_000).toISOString();
		const { monitoringId } = ctx.sb.aml.seedMonitoring(
			{
				isSubscribed: false,
				amlCheck: { clientId: 'lapsed', userType: 'PERSON', input: { fullName: 'Jonas Jonaitis' } },
			} as never,
			{ expiration },
		);
		const { poll } = trigger({ events: ['amlMonitoringExpired'] });
		expect(await poll()).toBeNull();
		const replay = trigger(
			{
				events: ['amlMonitoringExpired'],
				options: { catchUpFrom: new Date(Date.now() - 120_000).toISOString() },
			},
			undefined,
		);
		const replayed = (await replay.poll()) ?? [];
		expect(replayed.map((i) => (i.body as IDataObject).monitoringId)).toContain(monitoringId);
		expect(await replay.poll()).toBeNull();
	});
});

describe('with the webhook trigger in the same workflow: each result starts it once', () => {
	const hosts: TriggerHost[] = [];
	afterAll(async () => {
		await Promise.all(hosts.map(async (h) => await h.close()));
	});

	/** Both triggers of one workflow; the sandbox delivers to the webhook trigger until `drop()`. */
	async function bothTriggers(webhookParameters: INodeParameters = {}) {
		const workflowId = `both-${++workflowCounter}`;
		const host = await startTriggerHost({
			credentials: sandboxCredentials(ctx.sb),
			workflowId,
			parameters: webhookParameters,
		});
		hosts.push(host);
		// The sandbox's other receiver (useKycSandbox's): answers 200, is no part of this workflow.
		const dropped = ctx.sb.webhooks.urlOf('IDENTIFICATION_AUTO_FINISHED')!;
		const deliver = () =>
			ctx.sb.webhooks.configure({ url: host.url, retryDelaysMs: [], timeoutMs: 5000 });
		const drop = () => ctx.sb.webhooks.configure({ url: dropped, retryDelaysMs: [] });
		deliver();
		// The poll's copy of the static data is its own, as n8n's is the one it loaded at activation.
		return { host, deliver, drop, ...trigger({}, workflowId) };
	}
	const scanRefs = (items: IDataObject[] | null) => (items ?? []).map((item) => item.scanRef);
	const emittedBy = (host: TriggerHost) => host.emitted.map((e) => e[0].json.scanRef);

	test('the poll starts only the results whose delivery was lost', async () => {
		const { host, deliver, drop, poll } = await bothTriggers();
		expect(await poll()).toBeNull();
		const delivered = [
			await ctx.finished('delivered-1'),
			await ctx.finished('delivered-2', 'DENIED'),
		];
		drop();
		const lost = [await ctx.finished('lost-1', 'SUSPECTED'), await ctx.finished('lost-2')];
		deliver();
		const alsoDelivered = await ctx.finished('delivered-3');
		expect(emittedBy(host)).toEqual([...delivered, alsoDelivered]);

		expect(scanRefs(await poll()).sort()).toEqual([...lost].sort());
		expect(await poll()).toBeNull();
	});

	test('a delivery of a result the poll started first is acknowledged and starts nothing', async () => {
		const { host, deliver, drop, poll } = await bothTriggers();
		expect(await poll()).toBeNull();
		drop();
		const late = await ctx.finished('late-delivery');
		expect(scanRefs(await poll())).toEqual([late]);
		deliver();
		// The dashboard's Resend of the lost delivery, now that n8n is reachable again.
		const [first] = ctx.sb.webhooks.log.filter((d) => JSON.stringify(d.payload).includes(late));
		const resent = await ctx.sb.webhooks.resend(first.id);
		expect(resent.status).toBe('delivered');
		expect(host.responses.at(-1)?.json).toEqual({
			received: true,
			ignored: 'result already started',
		});
		expect(host.emitted).toHaveLength(0);
	});

	test('with Ignore Duplicate Deliveries off the webhook still records its results: the poll does not repeat them', async () => {
		const { host, poll } = await bothTriggers({ options: { ignoreDuplicates: false } });
		expect(await poll()).toBeNull();
		const delivered = await ctx.finished('duplicates-allowed');
		expect(emittedBy(host)).toEqual([delivered]);
		expect(await poll()).toBeNull();
	});

	test('a workflow with the webhook trigger alone keeps no record of results: a second delivery of a result with another body runs as before', async () => {
		const host = await startTriggerHost({
			credentials: sandboxCredentials(ctx.sb),
			workflowId: `webhook-only-${++workflowCounter}`,
		});
		hosts.push(host);
		ctx.sb.webhooks.configure({ url: host.url, retryDelaysMs: [], timeoutMs: 5000 });
		const scanRef = await ctx.finished('webhook-only');
		const [first] = ctx.sb.webhooks.log.filter((d) => JSON.stringify(d.payload).includes(scanRef));
		expect((await ctx.sb.webhooks.resend(first.id)).status).toBe('delivered');
		// The same result under the legacy kind (another body: no duplicate delivery) runs too.
		const legacy = await ctx.sb.webhooks.send('IDENTIFICATION', {
			...(JSON.parse(first.payload) as object),
			legacy: true,
		});
		expect(legacy.status).toBe('delivered');
		expect(emittedBy(host)).toEqual([scanRef, scanRef]);
		expect(JSON.stringify(host.staticData())).not.toContain('resultsStarted');
	});

	test('static data written before the shared record (the poll’s state alone) re-emits nothing', async () => {
		const before = trigger();
		expect(await before.poll()).toBeNull();
		await ctx.finished('seen-before-upgrade');
		await before.poll();
		const saved = JSON.parse(JSON.stringify(before.staticData)) as IDataObject;
		delete saved.global;
		const upgraded = trigger({}, undefined, saved);
		expect(await upgraded.poll()).toBeNull();
		const after = await ctx.finished('after-upgrade');
		expect(scanRefs(await upgraded.poll())).toEqual([after]);
	});
});
