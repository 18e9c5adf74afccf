// Queue mode with both triggers in one workflow: Postgres, Redis, one main process that serves the
// production webhooks and runs the polls, and two `n8n worker`s. Results are delivered to the
// webhook trigger on the main, some are lost, and the Polling Trigger beside it catches those: each
// result runs once, on a worker. (With `n8n webhook` processes the two triggers do not share the
// record: docs/polling.md.)
import { randomUUID } from 'node:crypto';
import { waitForWebhook } from '../n8n/runtime.cjs';
import { NODE_TYPES, chain, credentialRef, productionWebhookUrl } from '../n8n/stack.cjs';
import { afterOnePollMore, endedRuns, startQueueStack, type QueueStack } from '../n8n/queue.cjs';
import { node, TRIGGER } from '../n8n/workflow.cjs';

const POLLING = 'Identity Verification Polling Trigger';
const CLIENT = 'queue-both-triggers';
const webhook = node(
	TRIGGER,
	NODE_TYPES.trigger,
	1.1,
	{ events: [], options: {} },
	{ credentials: credentialRef('webhookSigning'), webhookId: randomUUID() },
);
const poll = node(
	POLLING,
	NODE_TYPES.pollingTrigger,
	1,
	{
		events: ['verificationResult'],
		clientIds: CLIENT,
		pollTimes: { item: [{ mode: 'everyMinute' }] },
		options: {},
	},
	{ credentials: credentialRef('api') },
);
const done = node('Record the result', 'n8n-nodes-base.noOp', 1, {});
const BOTH = {
	id: 'idvQBothTriggers',
	name: 'Queue: both triggers',
	nodes: [webhook, poll, done],
	connections: { ...chain([webhook, done]), ...chain([poll, done]) },
	settings: { executionOrder: 'v1' },
};

let stack: QueueStack;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const webhookUrl = () => productionWebhookUrl(stack.main.url, webhook as { webhookId: string });
const polls = () => stack.sandbox.count({ path: '/kyc/identifications/' });

beforeAll(async () => {
	stack = await startQueueStack({
		webhookProcesses: 0,
		workers: 2,
		workflows: [BOTH],
		publish: [BOTH.id],
		log: (m) => process.stderr.write(`[queue both] ${m}\n`),
	});
	await waitForWebhook(webhookUrl(), { timeoutMs: 120_000 });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 120_000);

const runs = () => endedRuns(stack, BOTH.id, [TRIGGER, POLLING]);

/** A verification of the client finished with the result; its scanRef. */
async function finished(overall: 'APPROVED' | 'DENIED' | 'SUSPECTED'): Promise<string> {
	const { scanRef } = stack.sandbox.kyc.createSession(CLIENT);
	await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall });
	return scanRef;
}

test('delivered results run by the webhook on the main, lost ones by the next poll: each once, on a worker', async () => {
	const deadline = Date.now() + 300_000;
	// The poll at activation (the baseline) has read the list.
	while (polls() === 0 && Date.now() < deadline) await pause(500);
	const deliver = () =>
		stack.sandbox.webhooks.configure({
			url: webhookUrl(),
			signingKey: stack.sandbox.credentials.signingKey,
			retryDelaysMs: [],
		});
	deliver();
	const delivered = [await finished('APPROVED'), await finished('DENIED')];
	stack.sandbox.webhooks.configure({ url: 'http://127.0.0.1:9/', retryDelaysMs: [] });
	const lost = [await finished('SUSPECTED')];
	deliver();
	delivered.push(await finished('APPROVED'));
	const all = [...delivered, ...lost];

	// And one poll more, which must start nothing.
	await afterOnePollMore(runs, all.length, polls, deadline);

	const ended = await runs();
	expect(ended.flatMap((run) => run.scanRefs).sort()).toEqual([...all].sort());
	for (const run of ended)
		expect(run).toEqual(
			expect.objectContaining({ status: 'success', worker: expect.stringMatching(/^worker-/) }),
		);
	const byPoll = (scanRef: string) =>
		ended.find((run) => run.scanRefs.includes(scanRef))!.triggers.includes(POLLING);
	for (const scanRef of delivered) expect(byPoll(scanRef)).toBe(false);
	for (const scanRef of lost) expect(byPoll(scanRef)).toBe(true);
}, 400_000);
