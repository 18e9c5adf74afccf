// The package in n8n's queue mode, in short: Postgres, Redis, one main process, one `n8n webhook`
// process and two `n8n worker`s (test/n8n/queue.cts), the packed package installed as a community
// package, binary data in the database. One signed delivery to the trigger and one action (the AML
// PDF: a file made on the worker and answered by the webhook process) each run on a worker; the
// Polling Trigger polls on the main process and each result it finds runs once, on a worker. The
// load runs (hundreds of deliveries, races between processes, 100,000 transactions, throughput) are
// the lab's: lab/queue/.
import { SEED, signedDelivery } from '../sandbox/index.cjs';
import { waitForWebhook } from '../n8n/runtime.cjs';
import {
	NODE_TYPES,
	credentialRef,
	productionWebhookUrl,
	type WorkflowNode,
} from '../n8n/stack.cjs';
import { afterOnePollMore, endedRuns, startQueueStack, type QueueStack } from '../n8n/queue.cjs';
import {
	ACTION,
	TRIGGER,
	actionNode,
	lineUp,
	node,
	triggerNode,
	webhookNode,
} from '../n8n/workflow.cjs';

const TRIGGER_FLOW = { id: 'idvQSmokeTrigger', webhookId: '7c3f2e5a-9d4b-4e0f-8a2c-3d4e5f6a7b81' };
const PDF_FLOW = { id: 'idvQSmokeAmlPdf0', path: 'queue-smoke-aml-pdf' };
const POLL_FLOW = { id: 'idvQSmokePolling' };
const POLLING = 'Identity Verification Polling Trigger';

const workflow = (id: string, name: string, nodes: WorkflowNode[]) => ({
	id,
	name,
	nodes,
	connections: lineUp(nodes),
	settings: { executionOrder: 'v1' },
});

let stack: QueueStack;

beforeAll(async () => {
	const workflows = [
		workflow(TRIGGER_FLOW.id, 'Queue smoke: trigger', [triggerNode(TRIGGER_FLOW.webhookId)]),
		workflow(PDF_FLOW.id, 'Queue smoke: AML PDF', [
			webhookNode(PDF_FLOW.path, {
				responseMode: 'lastNode',
				responseData: 'firstEntryBinary',
				responseBinaryPropertyName: 'report',
			}),
			actionNode({
				resource: 'aml',
				operation: 'downloadProfilePdf',
				checkId: '={{ $json.body.checkId }}',
				profileId: '={{ $json.body.profileId }}',
				password: '={{ $json.body.password }}',
				binaryPropertyName: 'report',
			}),
		]),
		workflow(POLL_FLOW.id, 'Queue smoke: polling', [
			node(
				POLLING,
				NODE_TYPES.pollingTrigger,
				1,
				{ events: ['verificationResult'], pollTimes: { item: [{ mode: 'everyMinute' }] } },
				{ credentials: credentialRef('api') },
			),
		]),
	];
	stack = await startQueueStack({
		webhookProcesses: 1,
		workers: 2,
		workflows,
		publish: workflows.map((w) => w.id),
		log: (m) => process.stderr.write(`[queue] ${m}\n`),
	});
	// An unsigned probe: 401 once the webhook process serves the trigger, and no execution.
	await waitForWebhook(productionWebhookUrl(stack.webhooks[0].url, TRIGGER_FLOW), {
		timeoutMs: 120_000,
	});
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 120_000);

interface ExecutionRow {
	id: string;
	status: string;
	mode: string;
}

/** The workflow's one execution once it has finished, with the worker that ran it. */
async function onlyExecution(workflowId: string): Promise<ExecutionRow & { worker?: string }> {
	const deadline = Date.now() + 120_000;
	for (;;) {
		const rows = await stack.query<ExecutionRow>(
			'SELECT id::text AS id, status, mode FROM execution_entity WHERE "workflowId" = $1',
			[workflowId],
		);
		const done = rows.length > 0 && rows.every((r) => !['new', 'running'].includes(r.status));
		if (done) {
			expect(rows).toHaveLength(1);
			return { ...rows[0], worker: stack.executionsByWorker().get(rows[0].id) };
		}
		if (Date.now() > deadline) throw new Error(`no finished execution of ${workflowId}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

test('a signed delivery to the webhook process becomes one execution, run by the worker, with the event as its item', async () => {
	const delivery = signedDelivery(stack.sandbox.credentials.signingKey);
	const res = await fetch(productionWebhookUrl(stack.webhooks[0].url, TRIGGER_FLOW), {
		method: 'POST',
		headers: delivery.headers,
		body: delivery.body,
	});
	await res.arrayBuffer();
	expect(res.status).toBe(200);

	const execution = await onlyExecution(TRIGGER_FLOW.id);
	expect(execution).toEqual(
		expect.objectContaining({
			status: 'success',
			mode: 'webhook',
			worker: expect.stringMatching(/^worker-/),
		}),
	);
	const stored = await stack.rest.getExecution(execution.id);
	const [item] = stored.data.resultData.runData[TRIGGER][0].data.main[0];
	expect(item.json).toEqual(
		expect.objectContaining({ scanRef: JSON.parse(delivery.body).scanRef }),
	);
}, 300_000);

test('the AML PDF made on the worker is answered by the webhook process, byte for byte, and kept in the database', async () => {
	const res = await fetch(`${stack.webhooks[0].url}/webhook/${PDF_FLOW.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			checkId: SEED.aml.checkId,
			profileId: SEED.aml.profileId,
			password: SEED.aml.password,
		}),
	});
	const answered = Buffer.from(await res.arrayBuffer());
	expect(res.status).toBe(200);
	expect(answered.subarray(0, 5).toString('latin1')).toBe('%PDF-');

	const execution = await onlyExecution(PDF_FLOW.id);
	expect(execution).toEqual(
		expect.objectContaining({
			status: 'success',
			mode: 'webhook',
			worker: expect.stringMatching(/^worker-/),
		}),
	);
	const stored = await stack.rest.getExecution(execution.id);
	const file = stored.data.resultData.runData[ACTION][0].data.main[0][0].binary.report;
	expect(file.id).toMatch(/^database:/);
	const download = await stack.rest.downloadBinary(file.id);
	expect(download.status).toBe(200);
	expect(download.bytes.equals(answered)).toBe(true);
}, 300_000);

const pollRuns = () => endedRuns(stack, POLL_FLOW.id, [POLLING]);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('the Polling Trigger polls on the main process; each result it finds runs once, on a worker', async () => {
	// The results finish after the poll at start (the baseline) read the list; their webhooks go nowhere.
	stack.sandbox.webhooks.configure({ url: 'http://127.0.0.1:9/', retryDelaysMs: [] });
	const polls = () => stack.sandbox.count({ path: '/kyc/identifications/' });
	const deadline = Date.now() + 240_000;
	while (polls() === 0 && Date.now() < deadline) await pause(500);
	const scanRefs: string[] = [];
	for (const clientId of ['queue-poll-1', 'queue-poll-2']) {
		const { scanRef } = stack.sandbox.kyc.createSession(clientId);
		await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
		scanRefs.push(scanRef);
	}
	// And one poll more, which must start nothing.
	await afterOnePollMore(pollRuns, scanRefs.length, polls, deadline);

	const runs = await pollRuns();
	expect(runs.flatMap((run) => run.scanRefs).sort()).toEqual([...scanRefs].sort());
	for (const run of runs) {
		expect(run).toEqual(
			expect.objectContaining({
				status: 'success',
				mode: 'trigger',
				worker: expect.stringMatching(/^worker-/),
			}),
		);
	}
}, 300_000);
