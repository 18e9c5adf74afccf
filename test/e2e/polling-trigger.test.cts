// End-to-end, on both n8n lines: the Identity Verification Polling Trigger in a published workflow
// of real n8n, reading the sandbox's lists each minute (n8n runs the first poll when it activates
// the workflow, then one a minute at a second of its choosing).
//  1. The first poll, at activation, takes a baseline: a result from before starts nothing.
//  2. Each result finished after it starts the workflow once, with the webhook trigger's item
//     (delivery.source "polling"); results one poll finds come as the items of one execution, as
//     n8n's polling triggers do.
//     An AML monitoring whose year ended comes the same way (AML Monitoring Expired), once.
//  3. The next poll starts nothing: what the trigger saw is kept between polls.
//  4. n8n restarts (a result finished while it is down): n8n's poll at start emits that result once
//     and none of the old ones again (the trigger's state is in the workflow's static data, which
//     n8n saves to its database when a poll emits), nor does the poll after.
//  5. One workflow with both triggers (the webhook trigger and the Polling Trigger): the sandbox
//     delivers some results to n8n and drops others; every result starts the workflow exactly once,
//     the delivered ones by the webhook, the lost ones by the next poll.
// The test waits for polls by the sandbox's request log (each poll reads the verifications list).
// The sandbox's result webhooks go to a receiver of the test's own, not to n8n (as behind a firewall),
// except in 5.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { randomUUID } from 'node:crypto';

import { RestClient, startN8n, waitForWebhook, type N8nInstance } from '../n8n/runtime.cjs';
import {
	NODE_TYPES,
	chain,
	credentialRef,
	productionWebhookUrl,
	startStack,
	type Stack,
} from '../n8n/stack.cjs';
import { lineUp, node } from '../n8n/workflow.cjs';

const log = (m: string) => process.stderr.write(`[e2e polling] ${m}\n`);

const POLLING = 'Identity Verification Polling Trigger';
const WEBHOOK = 'Identity Verification Trigger';
/** The list each poll reads (one page: the sandbox holds fewer than 100 verifications). */
const LIST = '/kyc/identifications/';
/** A poll a minute, at a second n8n picks: the next one is at most a minute and a bit away. */
const POLL_WAIT_MS = 150_000;

let stack: Stack;
let n8n: N8nInstance;
let rest: RestClient;
/** The n8n started by the restart test (stopped in afterAll; the stack stops the first). */
let restarted: N8nInstance | undefined;
let workflowId: string;
/** Where the sandbox's webhooks go: a receiver that answers 200 and is no part of n8n. */
let receiver: http.Server;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How many polls have been answered: the sandbox's answered reads of the verifications list (those
 * for `clientId` only, when given: the both-triggers workflow's poll reads its client's list).
 */
const pollsAnswered = (clientId?: string) =>
	stack.sandbox.requests.filter(
		(r) =>
			r.method === 'GET' &&
			r.path === LIST &&
			r.status > 0 &&
			(clientId === undefined || r.query.clientId === clientId),
	).length;

/** Waits until the sandbox has answered more than `after` polls; returns how many it has. */
async function pollAfter(
	after: number,
	timeoutMs = POLL_WAIT_MS,
	clientId?: string,
): Promise<number> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const polls = pollsAnswered(clientId);
		if (polls > after) return polls;
		if (Date.now() > deadline)
			throw new Error(`no poll after poll ${after} within ${timeoutMs} ms`);
		await pause(1000);
	}
}

interface Run {
	id: string;
	status: string;
	mode: string;
	items: Array<Record<string, any>>;
}

const runCache = new Map<string, Run>();

/** The workflow's ended executions, each with its trigger's items (read once per execution). */
async function runs(id = workflowId): Promise<Run[]> {
	const ended = (await rest.listExecutions(id)).filter(
		(e) => !['new', 'running', 'waiting'].includes(e.status),
	);
	for (const e of ended) {
		if (runCache.has(e.id)) continue;
		const execution = await rest.getExecution(e.id);
		const runData = execution.data.resultData.runData;
		const main = (runData[POLLING] ?? runData[WEBHOOK])?.[0]?.data?.main?.[0] ?? [];
		runCache.set(e.id, {
			id: e.id,
			status: execution.status,
			mode: execution.mode,
			items: main.map((item: { json: Record<string, any> }) => item.json),
		});
	}
	return ended.map((e) => runCache.get(e.id)!);
}

/** The executions whose items hold the result of `scanRef`, and how often it is there in all. */
async function runsOf(scanRef: string, id = workflowId): Promise<{ runs: Run[]; times: number }> {
	const all = await runs(id);
	const count = (r: Run) => r.items.filter((item) => item.scanRef === scanRef).length;
	return {
		runs: all.filter((r) => count(r) > 0),
		times: all.reduce((sum, r) => sum + count(r), 0),
	};
}

/** Waits until each result has started an execution (a poll finds it a minute later at most). */
async function arrived(
	scanRefs: string[],
	timeoutMs = POLL_WAIT_MS,
	id = workflowId,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const missing: string[] = [];
		for (const scanRef of scanRefs)
			if ((await runsOf(scanRef, id)).times === 0) missing.push(scanRef);
		if (missing.length === 0) return;
		if (Date.now() > deadline)
			throw new Error(
				`no execution with ${missing.join(', ')} within ${timeoutMs} ms (${pollsAnswered()} polls answered)`,
			);
		await pause(3000);
	}
}

/** A verification finished in the sandbox (a session created, its automated review final). */
async function finished(clientId: string, overall: string): Promise<string> {
	const { scanRef } = stack.sandbox.kyc.createSession(clientId);
	await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall });
	return scanRef;
}

/** A monitoring of the sandbox whose year ended a moment ago; its id. */
function lapsedMonitoring(): string {
	const request = {
		isSubscribed: false,
		amlCheck: {
			clientId: 'customer-lapsed',
			userType: 'PERSON',
			input: { fullName: 'Jonas Jonaitis' },
		},
	};
	const expiration = new Date(Date.now() - 1000).toISOString();
	return stack.sandbox.aml.seedMonitoring(request as never, { expiration }).monitoringId;
}

/** How often the monitoring's expiry is among the workflow's items, in all. */
async function expiryTimes(monitoringId: string): Promise<number> {
	const isIt = (item: Record<string, any>) =>
		item.eventType === 'AML_MONITORING_EXPIRATION' && item.body?.monitoringId === monitoringId;
	return (await runs()).reduce((sum, r) => sum + r.items.filter(isIt).length, 0);
}

/** The result's one item: in exactly one execution, once, as the trigger makes it. */
async function expectOnce(scanRef: string, overallStatus: string): Promise<void> {
	const { runs: found, times } = await runsOf(scanRef);
	expect(times).toBe(1);
	expect(found).toHaveLength(1);
	expect(found[0]).toMatchObject({ status: 'success', mode: 'trigger' });
	expect(found[0].items.find((item) => item.scanRef === scanRef)).toMatchObject({
		eventType: 'IDENTIFICATION',
		overallStatus,
		scanRef,
		final: true,
		delivery: { source: 'polling' },
	});
}

let before: string;
/** The workflow with both triggers (published in its own describe, after the others). */
let bothId: string;
const BOTH_CLIENT = 'customer-both-triggers';
const webhookTrigger = node(
	WEBHOOK,
	NODE_TYPES.trigger,
	1.1,
	{ events: [], options: {} },
	{ credentials: credentialRef('webhookSigning'), webhookId: randomUUID() },
);

beforeAll(async () => {
	stack = await startStack({ log });
	n8n = stack.n8n;
	rest = stack.rest;
	receiver = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => res.writeHead(200).end());
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const { port } = receiver.address() as AddressInfo;
	stack.sandbox.webhooks.configure({ url: `http://127.0.0.1:${port}/`, retryDelaysMs: [] });
	before = await finished('customer-before-activation', 'APPROVED');
	const nodes = [
		node(
			POLLING,
			NODE_TYPES.pollingTrigger,
			1,
			{
				events: ['verificationResult', 'amlMonitoringExpired'],
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				options: {},
			},
			{ credentials: credentialRef('api') },
		),
		node('No Operation, do nothing', 'n8n-nodes-base.noOp', 1, {}),
	];
	workflowId = await rest.createWorkflow({
		name: 'Verification results by polling',
		nodes,
		connections: lineUp(nodes),
	});
	const both = [
		webhookTrigger,
		node(
			POLLING,
			NODE_TYPES.pollingTrigger,
			1,
			{
				events: ['verificationResult'],
				clientIds: BOTH_CLIENT,
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				options: {},
			},
			{ credentials: credentialRef('api') },
		),
		node('Record the result', 'n8n-nodes-base.noOp', 1, {}),
	];
	bothId = await rest.createWorkflow({
		name: 'Verification results by webhook, caught up by polling',
		nodes: both,
		connections: { ...chain([both[0], both[2]]), ...chain([both[1], both[2]]) },
	});
}, 20 * 60_000);

afterAll(async () => {
	await restarted?.stop();
	await stack?.stop();
	if (receiver) await new Promise<void>((resolve) => receiver.close(() => resolve()));
}, 60_000);

describe('the Polling Trigger in a published workflow', () => {
	// What the last test saw: the polls answered by then and the results so far.
	let polls = 0;
	const results: Array<[string, string]> = [];
	let lapsed = '';

	test('the poll at activation takes a baseline: a result from before starts nothing', async () => {
		// Published as the editor's toggle does; n8n polls once right then.
		await rest.activate(workflowId);
		polls = await pollAfter(0, 60_000);
		await pause(3000);
		expect(await rest.listExecutions(workflowId)).toEqual([]);
		expect((await runsOf(before)).times).toBe(0);
	}, 120_000);

	test(
		'each result finished after the baseline starts the workflow once, with its item',
		async () => {
			lapsed = lapsedMonitoring();
			results.push(
				[await finished('customer-polling-1', 'APPROVED'), 'APPROVED'],
				[await finished('customer-polling-2', 'DENIED'), 'DENIED'],
			);
			await arrived(results.map(([scanRef]) => scanRef));
			const deadline = Date.now() + POLL_WAIT_MS;
			while ((await expiryTimes(lapsed)) === 0 && Date.now() < deadline) await pause(3000);
			for (const [scanRef, overall] of results) await expectOnce(scanRef, overall);
			expect((await runsOf(before)).times).toBe(0);

			// The next poll finds nothing new: no execution.
			const executions = (await runs()).length;
			polls = await pollAfter(pollsAnswered());
			await pause(5000);
			expect(await rest.listExecutions(workflowId)).toHaveLength(executions);
			for (const [scanRef, overall] of results) await expectOnce(scanRef, overall);
			expect(await expiryTimes(lapsed)).toBe(1);
		},
		2 * POLL_WAIT_MS + 30_000,
	);

	test(
		'after a restart of n8n, a result finished while it was down arrives once and the old ones not again',
		async () => {
			const executions = (await runs()).length;
			const port = n8n.port;
			await n8n.stop();
			const whileDown: [string, string] = [
				await finished('customer-while-down', 'APPROVED'),
				'APPROVED',
			];
			restarted = await startN8n({ userFolder: stack.userFolder, port, log });
			n8n = restarted;
			rest = new RestClient(n8n.url);
			await rest.setupOwnerOrLogin(stack.owner);
			await arrived([whileDown[0]]);
			results.push(whileDown);
			expect(await rest.listExecutions(workflowId)).toHaveLength(executions + 1);

			// And the poll after that one starts nothing either.
			polls = await pollAfter(pollsAnswered());
			await pause(5000);
			expect(await rest.listExecutions(workflowId)).toHaveLength(executions + 1);
			for (const [scanRef, overall] of results) await expectOnce(scanRef, overall);
			expect((await runsOf(before)).times).toBe(0);
			expect(await expiryTimes(lapsed)).toBe(1);
			log(`${polls} polls answered in all`);
		},
		2 * POLL_WAIT_MS + 120_000,
	);
});

describe('one workflow with both triggers: some deliveries dropped, every result exactly once', () => {
	const webhookUrl = () => productionWebhookUrl(n8n.url, webhookTrigger as { webhookId: string });
	/** Results go to n8n's webhook from now on. */
	const deliver = () =>
		stack.sandbox.webhooks.configure({
			url: webhookUrl(),
			signingKey: stack.sandbox.credentials.signingKey,
			retryDelaysMs: [],
		});
	/** Results are lost from now on (they go to the test's receiver, as a notification n8n missed). */
	const drop = () => {
		const { port } = receiver.address() as AddressInfo;
		stack.sandbox.webhooks.configure({ url: `http://127.0.0.1:${port}/`, retryDelaysMs: [] });
	};

	/** The result's one item, in exactly one execution, from the trigger named. */
	async function expectOnceFrom(scanRef: string, by: 'webhook' | 'polling'): Promise<void> {
		const { runs: found, times } = await runsOf(scanRef, bothId);
		expect(times).toBe(1);
		expect(found).toHaveLength(1);
		expect(found[0]).toMatchObject({ status: 'success' });
		const item = found[0].items.find((i) => i.scanRef === scanRef)!;
		expect(item.delivery?.source).toBe(by === 'polling' ? 'polling' : undefined);
	}

	test(
		'delivered results start it by the webhook, the dropped ones by the next poll, none twice',
		async () => {
			const polls = pollsAnswered(BOTH_CLIENT);
			await rest.activate(bothId);
			// The poll at activation (the baseline), and the webhook served.
			await pollAfter(polls, 60_000, BOTH_CLIENT);
			expect(await waitForWebhook(webhookUrl())).toBe(401);

			deliver();
			const delivered = [
				await finished(BOTH_CLIENT, 'APPROVED'),
				await finished(BOTH_CLIENT, 'DENIED'),
			];
			drop();
			const lost = [
				await finished(BOTH_CLIENT, 'SUSPECTED'),
				await finished(BOTH_CLIENT, 'APPROVED'),
			];
			deliver();
			delivered.push(await finished(BOTH_CLIENT, 'DENIED'));
			await arrived(delivered, 60_000, bothId);

			// The next poll sees all five as new on the list; it starts the workflow for the lost two.
			await arrived(lost, POLL_WAIT_MS, bothId);
			const executions = (await runs(bothId)).length;
			// And the poll after that starts nothing.
			await pollAfter(pollsAnswered(BOTH_CLIENT), POLL_WAIT_MS, BOTH_CLIENT);
			await pause(5000);
			expect(await runs(bothId)).toHaveLength(executions);
			for (const scanRef of delivered) await expectOnceFrom(scanRef, 'webhook');
			for (const scanRef of lost) await expectOnceFrom(scanRef, 'polling');
			log(`both triggers: ${executions} executions for ${delivered.length + lost.length} results`);
		},
		3 * POLL_WAIT_MS + 60_000,
	);
});
