// End-to-end, on both n8n lines: the Identity Verification Polling Trigger in a published workflow
// of real n8n, reading the sandbox's lists each minute (n8n runs the first poll when it activates
// the workflow, then one a minute at a second of its choosing).
//  1. The first poll, at activation, takes a baseline: a result from before starts nothing.
//  2. Each result finished after it starts the workflow once, with the webhook trigger's item
//     (delivery.source "polling"); results one poll finds come as the items of one execution, as
//     n8n's polling triggers do.
//  3. The next poll starts nothing: what the trigger saw is kept between polls.
//  4. n8n restarts (a result finished while it is down): n8n's poll at start emits that result once
//     and none of the old ones again (the trigger's state is in the workflow's static data, which
//     n8n saves to its database when a poll emits), nor does the poll after.
// The test waits for polls by the sandbox's request log (each poll reads the verifications list).
// The sandbox's result webhooks go to a receiver of the test's own, not to n8n (as behind a firewall).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { RestClient, startN8n, type N8nInstance } from '../n8n/runtime.cjs';
import { NODE_TYPES, credentialRef, startStack, type Stack } from '../n8n/stack.cjs';
import { lineUp, node } from '../n8n/workflow.cjs';

const log = (m: string) => process.stderr.write(`[e2e polling] ${m}\n`);

const POLLING = 'Identity Verification Polling Trigger';
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

/** How many polls have been answered: the sandbox's answered reads of the verifications list. */
const pollsAnswered = () =>
	stack.sandbox.requests.filter((r) => r.method === 'GET' && r.path === LIST && r.status > 0)
		.length;

/** Waits until the sandbox has answered more than `after` polls; returns how many it has. */
async function pollAfter(after: number, timeoutMs = POLL_WAIT_MS): Promise<number> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const polls = pollsAnswered();
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

/** The workflow's ended executions, each with the trigger's items (read once per execution). */
async function runs(): Promise<Run[]> {
	const ended = (await rest.listExecutions(workflowId)).filter(
		(e) => !['new', 'running', 'waiting'].includes(e.status),
	);
	for (const e of ended) {
		if (runCache.has(e.id)) continue;
		const execution = await rest.getExecution(e.id);
		const main = execution.data.resultData.runData[POLLING]?.[0]?.data?.main?.[0] ?? [];
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
async function runsOf(scanRef: string): Promise<{ runs: Run[]; times: number }> {
	const all = await runs();
	const count = (r: Run) => r.items.filter((item) => item.scanRef === scanRef).length;
	return {
		runs: all.filter((r) => count(r) > 0),
		times: all.reduce((sum, r) => sum + count(r), 0),
	};
}

/** Waits until each result has started an execution (a poll finds it a minute later at most). */
async function arrived(scanRefs: string[], timeoutMs = POLL_WAIT_MS): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const missing: string[] = [];
		for (const scanRef of scanRefs) if ((await runsOf(scanRef)).times === 0) missing.push(scanRef);
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
				events: ['verificationResult'],
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
			results.push(
				[await finished('customer-polling-1', 'APPROVED'), 'APPROVED'],
				[await finished('customer-polling-2', 'DENIED'), 'DENIED'],
			);
			await arrived(results.map(([scanRef]) => scanRef));
			for (const [scanRef, overall] of results) await expectOnce(scanRef, overall);
			expect((await runsOf(before)).times).toBe(0);

			// The next poll finds nothing new: no execution.
			const executions = (await runs()).length;
			polls = await pollAfter(pollsAnswered());
			await pause(5000);
			expect(await rest.listExecutions(workflowId)).toHaveLength(executions);
			for (const [scanRef, overall] of results) await expectOnce(scanRef, overall);
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
			log(`${polls} polls answered in all`);
		},
		2 * POLL_WAIT_MS + 120_000,
	);
});
