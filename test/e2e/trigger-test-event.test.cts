// End-to-end, on both n8n lines: what a user sees of a webhook delivery in real n8n, where a refused
// delivery starts no execution.
//  - While the editor listens for a test event (REST, as the editor's "Execute step" / "Listen for
//    test event" does), a badly signed delivery ends the test run with its reason and the header
//    names it carried; the listening stops. A good one (the provider's Idenfy-* headers, credential
//    at its defaults) starts the run.
//  - A manual run waiting in Wait for Result ends with the reason for a result signed with another key.
//  - A published workflow answers a refused delivery 401 and n8n's log gets one line with the reason
//    and the header names, never the signature, the key or the body.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { RestClient, waitForWebhook } from '../n8n/runtime.cjs';
import {
	NODE_TYPES,
	credentialRef,
	productionWebhookUrl,
	startStack,
	type Stack,
	type WorkflowNode,
} from '../n8n/stack.cjs';
import { actionNode, lineUp, node, TRIGGER, triggerNode } from '../n8n/workflow.cjs';

const LISTEN_WEBHOOK_ID = '5d0c1f7a-2b3e-4c5d-8e9f-0a1b2c3d4e51';
const PUBLISHED_WEBHOOK_ID = '5d0c1f7a-2b3e-4c5d-8e9f-0a1b2c3d4e52';
const WAIT = 'Wait for Result';
const MANUAL = 'When clicking ‘Execute workflow’';

/** The trigger (version 1.1, credential at its defaults: no Header Prefix) as the only node. */
function triggerWorkflow(id: string, name: string, webhookId: string) {
	const trigger = { ...triggerNode(webhookId), typeVersion: 1.1 };
	return { id, name, nodes: [trigger], connections: {}, settings: { executionOrder: 'v1' } };
}

const LISTENING = triggerWorkflow(
	'idvE2eListenTest',
	'Listening for a test event',
	LISTEN_WEBHOOK_ID,
);
const PUBLISHED = triggerWorkflow('idvE2eRefusalLog', 'Published trigger', PUBLISHED_WEBHOOK_ID);

/** Manual trigger → Create Verification Token (result to this workflow) → Wait for Result. */
function waitWorkflow() {
	const token = actionNode({
		resource: 'identification',
		operation: 'createVerificationToken',
		clientId: 'customer-e2e-wait',
		sendResultToWorkflow: true,
	});
	token.name = 'Create Verification Token';
	token.typeVersion = 1.1;
	const wait: WorkflowNode = {
		...node(WAIT, NODE_TYPES.action, 1.1, {
			resource: 'identification',
			operation: 'waitForResult',
		}),
		credentials: credentialRef('webhookSigning'),
	};
	const nodes = [node(MANUAL, 'n8n-nodes-base.manualTrigger', 1, {}), token, wait];
	return {
		id: 'idvE2eWaitManual',
		name: 'Manual run waiting for a result',
		nodes,
		connections: lineUp(nodes),
		settings: { executionOrder: 'v1' },
	};
}
const WAITING = waitWorkflow();

let stack: Stack;
let rest: RestClient;

beforeAll(async () => {
	stack = await startStack({
		workflows: [LISTENING, PUBLISHED, WAITING],
		publish: [PUBLISHED.id],
		log: (m) => process.stderr.write(`[e2e test event] ${m}\n`),
	});
	rest = stack.rest;
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 60_000);

/** The signature of the bytes as the provider writes it (lowercase hex HMAC-SHA256). */
const signature = (raw: string, key: string) =>
	createHmac('sha256', key).update(raw, 'utf8').digest('hex');

const RESULT = {
	final: true,
	scanRef: 'scan-e2e-listen',
	clientId: 'customer-e2e',
	status: { overall: 'APPROVED', autoDocument: 'DOC_VALIDATED', fraudTags: [] },
	data: { docFirstName: 'ONA' },
};

/** Posts a delivery as the provider sends it: Idenfy-Signature and Idenfy-Event-Type. */
async function deliver(url: string, body: object, key: string): Promise<number> {
	const raw = JSON.stringify(body);
	const res = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'idenfy-signature': signature(raw, key),
			'idenfy-event-type': 'IDENTIFICATION_AUTO_FINISHED',
		},
		body: raw,
	});
	await res.arrayBuffer();
	return res.status;
}

/** "Execute step" on the trigger: n8n registers its Test URL and waits for one delivery. */
async function listen(workflow: { id: string; nodes: object[] }, trigger = TRIGGER): Promise<void> {
	const res = await rest.request('POST', `/workflows/${workflow.id}/run`, {
		// n8n 1.x reads the workflow from the body, 2.x from its database.
		workflowData: workflow,
		triggerToStartFrom: { name: trigger },
	});
	expect(res).toEqual({ status: 200, body: { waitingForWebhook: true } });
}

/** The workflow's newest manual execution once it has ended, with its run data. */
async function endedManualRun(workflowId: string, after: Set<string>): Promise<any> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const list = await rest.listExecutions(workflowId);
		const ended = list.find(
			(e) => !after.has(e.id) && !['new', 'running', 'waiting'].includes(e.status),
		);
		if (ended) return await rest.getExecution(ended.id);
		if (Date.now() > deadline) throw new Error(`no ended execution of ${workflowId} within 60 s`);
		await new Promise((r) => setTimeout(r, 250));
	}
}

const seen = async (workflowId: string) =>
	new Set((await rest.listExecutions(workflowId)).map((e) => e.id));

const testUrl = () => `${stack.n8n.url}/webhook-test/${LISTEN_WEBHOOK_ID}/webhook`;

describe('listening for a test event', () => {
	test('a delivery signed with another key ends the test run with the reason and the header names it carried; the listening stops', async () => {
		const before = await seen(LISTENING.id);
		await listen(LISTENING);
		// n8n answers the sender itself when the node refuses in a test: 500.
		expect(await deliver(testUrl(), RESULT, 'a-key-that-is-not-the-signing-key')).toBe(500);
		const run = await endedManualRun(LISTENING.id, before);
		expect(run.status).toBe('error');
		expect(run.mode).toBe('manual');
		const error = run.data.resultData.error;
		expect(error.message).toBe(
			'Delivery refused: Invalid Idenfy-Signature: it does not match the body and the signing key',
		);
		expect(error.description).toMatch(/^Copy the signing key again from the dashboard/);
		expect(error.description).toContain('idenfy-event-type, idenfy-signature');
		// The editor shows the error on the trigger's run.
		expect(run.data.resultData.runData[TRIGGER][0].error.message).toBe(error.message);
		// Nothing of the key, the signature or the body is in what n8n stores of the run.
		const stored = JSON.stringify(run.data);
		expect(stored).not.toContain(stack.sandbox.credentials.signingKey);
		expect(stored).not.toContain('ONA');
		// The test has ended: n8n no longer serves the Test URL.
		expect(await deliver(testUrl(), RESULT, stack.sandbox.credentials.signingKey)).toBe(404);
	}, 180_000);

	test('a delivery without a signature the credential reads names the headers it carried', async () => {
		const before = await seen(LISTENING.id);
		await listen(LISTENING);
		const res = await fetch(testUrl(), {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-acme-signature': 'abc' },
			body: JSON.stringify(RESULT),
		});
		expect(res.status).toBe(500);
		const { message, description } = (await endedManualRun(LISTENING.id, before)).data.resultData
			.error;
		expect(message).toBe('Delivery refused: Missing Service-Signature or Idenfy-Signature header');
		expect(description).toContain('Header Prefix');
		expect(description).toContain('x-acme-signature');
	}, 180_000);

	test('the provider’s delivery, with the credential at its defaults, starts the test run with its item', async () => {
		const before = await seen(LISTENING.id);
		await listen(LISTENING);
		expect(await deliver(testUrl(), RESULT, stack.sandbox.credentials.signingKey)).toBe(200);
		const run = await endedManualRun(LISTENING.id, before);
		expect(run.status).toBe('success');
		expect(run.data.resultData.runData[TRIGGER][0].data.main[0][0].json).toMatchObject({
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
			overallStatus: 'APPROVED',
			decision: { overall: 'APPROVED', autoDocument: 'DOC_VALIDATED', fraudTags: [] },
		});
	}, 180_000);
});

describe('a manual run waiting in Wait for Result', () => {
	test('a result signed with another key ends the run with the reason', async () => {
		const before = await seen(WAITING.id);
		const res = await rest.request('POST', `/workflows/${WAITING.id}/run`, {
			workflowData: WAITING,
			triggerToStartFrom: { name: MANUAL },
		});
		expect(res.status).toBe(200);
		const scanRef = await waitingScanRef(before);
		const callbackUrl = stack.sandbox.kyc.get(scanRef)?.callbackUrl;
		expect(callbackUrl).toContain('/webhook-waiting/');
		const body = { ...RESULT, scanRef };
		expect(await deliver(callbackUrl!, body, 'a-key-that-is-not-the-signing-key')).toBe(500);
		const run = await endedManualRun(WAITING.id, before);
		expect(run.status).toBe('error');
		expect(run.data.resultData.error.message).toBe(
			'Delivery refused: Invalid Idenfy-Signature: it does not match the body and the signing key',
		);
		expect(run.data.resultData.lastNodeExecuted).toBe(WAIT);
	}, 180_000);
});

/** The scanRef of the token the manual run created, once the run waits. */
async function waitingScanRef(before: Set<string>): Promise<string> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const waiting = (await rest.listExecutions(WAITING.id)).find(
			(e) => !before.has(e.id) && e.status === 'waiting',
		);
		if (waiting) {
			const exec = await rest.getExecution(waiting.id);
			return exec.data.resultData.runData['Create Verification Token'][0].data.main[0][0].json
				.scanRef;
		}
		if (Date.now() > deadline) throw new Error('the manual run did not wait within 60 s');
		await new Promise((r) => setTimeout(r, 250));
	}
}

describe('a published workflow', () => {
	test('answers a refused delivery 401, and n8n’s log gets one line with the reason and the header names', async () => {
		const url = productionWebhookUrl(stack.n8n.url, { webhookId: PUBLISHED_WEBHOOK_ID });
		await waitForWebhook(url);
		const wrong = signature(JSON.stringify(RESULT), 'a-key-that-is-not-the-signing-key');
		expect(await deliver(url, RESULT, 'a-key-that-is-not-the-signing-key')).toBe(401);
		const deadline = Date.now() + 10_000;
		let line: string | undefined;
		while (!line && Date.now() < deadline) {
			line = readFileSync(stack.n8n.logFile, 'utf8')
				.split('\n')
				.find((l) => l.includes('delivery refused (401): Invalid Idenfy-Signature'));
			if (!line) await new Promise((r) => setTimeout(r, 200));
		}
		expect(line).toContain('Header names it carried:');
		expect(line).toContain('idenfy-event-type, idenfy-signature');
		expect(line).not.toContain(wrong);
		expect(line).not.toContain(stack.sandbox.credentials.signingKey);
		expect(line).not.toContain('ONA');
		// The credential at its defaults accepts the provider's own delivery.
		expect(await deliver(url, RESULT, stack.sandbox.credentials.signingKey)).toBe(200);
	}, 180_000);
});
