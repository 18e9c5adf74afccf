// End-to-end: what the real service (iDenfy) publishes, through the pinned real n8n. Its webhooks as
// it sends them (Idenfy-Event-Type, a lowercase hex Idenfy-Signature, the published example bodies
// byte for byte and instances of every webhook schema it publishes) reach a published trigger whose
// credential names the header prefix; a transactions page written the way Python and PHP write JSON
// (every non-ASCII character a \u escape) is read by List Transactions with every name intact.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { postWhenRegistered, waitForWebhook } from '../n8n/runtime.cjs';
import { CREDENTIALS, productionWebhookUrl, startStack, type Stack } from '../n8n/stack.cjs';
import { actionNode, lineUp, node, webhookNode } from '../n8n/workflow.cjs';
import { CORPUS, fakeInstances, webhookSchemas } from '../real-service/provider.cjs';

const KEY = 'provider-signing-key-e2e';
const TRIGGER = 'Identity Verification Trigger';
const TRIGGER_ID = '6a0e1c2d-3b4f-4a5e-8c6d-7e8f9a0b1c31';
const v1Name = (kind: string) => (kind === 'COMPANY_REVIEW' ? 'KYB_REVIEW_RESULT' : kind);

let stack: Stack;
let triggerWorkflowId: string;
let transactions: Server;

/** A delivery as the provider sends it: the body's bytes, its kind and a hex HMAC-SHA256. */
interface Delivery {
	name: string;
	kind: string;
	payload: string;
}

/** The published example bodies, byte for byte, and 2 instances of every webhook schema. */
function deliveries(): Delivery[] {
	const index = JSON.parse(readFileSync(path.join(CORPUS, 'webhooks', 'index.json'), 'utf8')) as {
		files: Array<{ file: string; eventType: string }>;
	};
	const published = index.files.map((entry) => ({
		name: `published ${entry.file}`,
		kind: entry.eventType,
		payload: readFileSync(path.join(CORPUS, 'webhooks', entry.file), 'utf8'),
	}));
	const generated = [...webhookSchemas()].flatMap(([kind, schema]) =>
		fakeInstances(schema, { seed: 31, count: 2, alwaysFakeOptionals: true })
			.filter((body) => typeof body === 'object' && body !== null && !Array.isArray(body))
			.map((body, i) => ({
				name: `generated ${kind} #${i + 1}`,
				kind,
				payload: JSON.stringify({
					...(body as object),
					// The provider's docs send a manual decision with final: true (the schema allows false,
					// which the nodes never take for a manual decision: test/real-service/webhooks.test.cts).
					...(kind === 'IDENTIFICATION_MANUAL_FINISHED' ? { final: true } : {}),
					e2eNote: 'Ąžuolas Müller 客户',
				}),
			})),
	);
	return [...published, ...generated];
}

const DELIVERIES = deliveries();

async function deliver(delivery: Delivery): Promise<number> {
	const url = productionWebhookUrl(stack.n8n.url, { webhookId: TRIGGER_ID });
	const res = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'idenfy-event-type': delivery.kind,
			'idenfy-signature': createHmac('sha256', KEY).update(delivery.payload).digest('hex'),
		},
		body: delivery.payload,
	});
	await res.arrayBuffer();
	return res.status;
}

/** A transactions page as Python's json.dumps writes it: every non-ASCII character escaped. */
const NAMES = ['Müller GmbH', 'Łukasz Żółć', '中文 有限公司', 'Zoë 😀 Ltd', 'Ąžuolas Jonaitis'];
function pythonStylePage(): string {
	const results = NAMES.map((name, i) => ({
		creditor: { fullName: name },
		debtor: { fullName: `${name} / debtor` },
		bookingDate: '2026-11-25',
		transactionDate: null,
		transactionAmount: { amount: `-${i}.50`, currency: 'EUR' },
	}));
	const text = JSON.stringify({ count: NAMES.length, next: null, previous: null, results });
	return text.replace(
		/[\u0080-\uffff]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}

beforeAll(async () => {
	transactions = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' }).end(pythonStylePage());
	});
	await new Promise<void>((resolve) => transactions.listen(0, '127.0.0.1', resolve));
	stack = await startStack({ log: (m) => process.stderr.write(`[e2e real-service] ${m}\n`) });
	const { body: credential } = await stack.rest.request<{ id: string }>('POST', '/credentials', {
		name: 'iDenfy webhook signing key',
		type: CREDENTIALS.webhookSigning.type,
		data: { signingSecret: KEY, headerPrefix: 'Idenfy' },
	});
	const trigger = node(
		TRIGGER,
		'n8n-nodes-identity-verification.identityVerificationTrigger',
		1,
		{ options: { ignoreDuplicates: false } },
		{
			credentials: {
				[CREDENTIALS.webhookSigning.type]: {
					id: credential.id,
					name: 'iDenfy webhook signing key',
				},
			},
			webhookId: TRIGGER_ID,
		},
	);
	triggerWorkflowId = await stack.rest.createWorkflow({
		name: 'The real service’s webhooks',
		nodes: [trigger],
		connections: {},
	});
	await stack.rest.activate(triggerWorkflowId);
	await waitForWebhook(productionWebhookUrl(stack.n8n.url, { webhookId: TRIGGER_ID }));
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	await new Promise<void>((resolve) =>
		transactions ? transactions.close(() => resolve()) : resolve(),
	);
}, 60_000);

test(`the provider's webhooks (${DELIVERIES.length}: published examples and every schema) each start one execution with their own kind`, async () => {
	const statuses: number[] = [];
	for (const delivery of DELIVERIES) statuses.push(await deliver(delivery));
	expect(statuses.filter((status) => status !== 200)).toEqual([]);

	const done = await stack.rest.waitForExecutions(triggerWorkflowId, DELIVERIES.length, 180_000);
	expect(done).toHaveLength(DELIVERIES.length);
	const emitted: any[] = [];
	for (const { id } of done) {
		const exec = await stack.rest.getExecution(id);
		emitted.push(exec.data.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0]?.[0]?.json);
	}
	const expected = DELIVERIES.map((d) => ({
		kind: v1Name(d.kind),
		body: JSON.parse(d.payload) as unknown,
	}));
	const wrong = expected.filter(
		(e) =>
			!emitted.some(
				(item) =>
					item?.eventType === e.kind &&
					item.headerMatchesBody === true &&
					JSON.stringify(item.body) === JSON.stringify(e.body),
			),
	);
	expect(wrong.map((w) => w.kind)).toEqual([]);
});

test('List Transactions reads a page whose names are all \\u escapes (as Python and PHP write JSON) with every name intact', async () => {
	const { body: credential } = await stack.rest.request<{ id: string }>('POST', '/credentials', {
		name: 'Escaping service',
		type: CREDENTIALS.api.type,
		data: {
			apiKey: 'k',
			apiSecret: 's',
			baseUrl: `http://127.0.0.1:${(transactions.address() as AddressInfo).port}`,
		},
	});
	const action = actionNode({
		resource: 'bank',
		operation: 'listTransactions',
		verificationId: 'v-1',
		accountId: 'a-1',
		returnAll: true,
	});
	action.credentials = { [CREDENTIALS.api.type]: { id: credential.id, name: 'Escaping service' } };
	const nodes = [webhookNode('real-service-escapes', { responseMode: 'onReceived' }), action];
	const id = await stack.rest.createWorkflow({
		name: 'Escaped names',
		nodes,
		connections: lineUp(nodes),
	});
	await stack.rest.activate(id);
	expect(
		await postWhenRegistered(`${stack.n8n.url}/webhook/real-service-escapes`, {
			headers: { 'content-type': 'application/json' },
			body: '{}',
		}),
	).toBe(200);
	const [done] = await stack.rest.waitForExecutions(id, 1, 120_000);
	const exec = await stack.rest.getExecution(done.id);
	expect(exec.status).toBe('success');
	const items = exec.data.resultData.runData[action.name][0].data.main[0];
	expect(items.map((i: any) => i.json.creditor.fullName)).toEqual(NAMES);
	expect(items.map((i: any) => i.json.debtor.fullName)).toEqual(NAMES.map((n) => `${n} / debtor`));
});
