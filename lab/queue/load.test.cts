// The package in n8n's queue mode: Postgres, Redis, one main process, two `n8n webhook` processes
// (deliveries alternate between them, as behind a load balancer) and two `n8n worker` processes,
// the packed package installed as a community package, binary data in the database. One stack for
// the whole file (see test/n8n/queue.cts). What the trigger guarantees there is measured and
// written to .build/queue-measurements.json (docs/scaling.md quotes it).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
	SEED,
	signedDelivery,
	transactionsRange,
	type WebhookRequest,
} from '../../test/sandbox/index.cjs';
import { ROOT, waitForWebhook } from '../../test/n8n/runtime.cjs';
import { productionWebhookUrl } from '../../test/n8n/stack.cjs';
import { startQueueStack, type QueueStack } from '../../test/n8n/queue.cjs';
import {
	ACTION,
	REDIS_CREDENTIAL,
	allTransactions,
	amlPdf,
	poaUpload,
	triggerOnly,
	triggerWithRedisClaim,
	triggerWithRemoveDuplicates,
} from './workflows.cjs';

// An 8x8 PNG (a real image file, as a customer's scanned utility bill would be).
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQyzuBFTEMLQkADDdVAYyuhw4AAAAASUVORK5CYII=',
	'base64',
);

const FLOWS = {
	trigger: { id: 'idvQueueTrigOnly', webhookId: '5a1d0c3e-7b2f-4c8d-9e0a-1b2c3d4e5f61' },
	removeDuplicates: { id: 'idvQueueTrigRmDp', webhookId: '5a1d0c3e-7b2f-4c8d-9e0a-1b2c3d4e5f62' },
	redis: { id: 'idvQueueTrigRdis', webhookId: '5a1d0c3e-7b2f-4c8d-9e0a-1b2c3d4e5f63' },
} as const;
type Flow = keyof typeof FLOWS;
const FLOW_NAMES = Object.keys(FLOWS) as Flow[];
const ACTIONS = {
	transactions: { id: 'idvQueueTx100k00', path: 'queue-transactions' },
	pdf: { id: 'idvQueueAmlPdf00', path: 'queue-aml-pdf' },
	poa: { id: 'idvQueuePoaUpld0', path: 'queue-poa' },
} as const;

let stack: QueueStack;
let sink: Sink;
const measurements: Record<string, unknown> = {};

beforeAll(async () => {
	sink = await startSink();
	const workflows = [
		triggerOnly(FLOWS.trigger.id, FLOWS.trigger.webhookId, sink.url),
		triggerWithRemoveDuplicates(
			FLOWS.removeDuplicates.id,
			FLOWS.removeDuplicates.webhookId,
			sink.url,
		),
		triggerWithRedisClaim(FLOWS.redis.id, FLOWS.redis.webhookId, sink.url),
		allTransactions(ACTIONS.transactions.id, ACTIONS.transactions.path),
		amlPdf(ACTIONS.pdf.id, ACTIONS.pdf.path),
		poaUpload(ACTIONS.poa.id, ACTIONS.poa.path, { name: SEED.poa.name, address: SEED.poa.address }),
	];
	stack = await startQueueStack({
		workflows,
		publish: workflows.map((w) => w.id),
		credentials: ({ redisPort }) => [
			{
				...REDIS_CREDENTIAL,
				data: { host: '127.0.0.1', port: redisPort, password: '', database: 0 },
			},
		],
		log: (m) => process.stderr.write(`[queue] ${m}\n`),
	});
	// Each webhook process serves each trigger (an unsigned probe: 401, no execution).
	for (const flow of FLOW_NAMES)
		for (const url of urls(flow)) await waitForWebhook(url, { timeoutMs: 120_000 });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	await sink?.close();
	writeFileSync(
		path.join(ROOT, '.build', 'queue-measurements.json'),
		JSON.stringify(measurements, null, 2),
	);
	process.stderr.write(`[queue] measurements: ${JSON.stringify(measurements)}\n`);
}, 120_000);

/** The trigger's production URL on each webhook process. */
function urls(flow: Flow): string[] {
	return stack.webhooks.map((w) => productionWebhookUrl(w.url, FLOWS[flow]));
}

type Delivery = WebhookRequest;
/** A fresh delivery signed with the stack's signing key, or `key`. */
const signed = (key = stack.sandbox.credentials.signingKey) => signedDelivery(key);

async function post(url: string, d: Delivery): Promise<number> {
	const res = await fetch(url, { method: 'POST', headers: d.headers, body: d.body });
	await res.arrayBuffer();
	return res.status;
}

/** Sends deliveries with `inFlight` at a time, delivery i to webhook process i mod 2. */
async function deliverAlternating(flow: Flow, deliveries: Delivery[], inFlight = 20) {
	const targets = urls(flow);
	const statuses: number[] = new Array(deliveries.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (next < deliveries.length) {
				const i = next++;
				statuses[i] = await post(targets[i % targets.length], deliveries[i]);
			}
		}),
	);
	return statuses;
}

interface ExecutionRow {
	id: string;
	status: string;
	mode: string;
}

async function executions(workflowId: string): Promise<ExecutionRow[]> {
	return await stack.query<ExecutionRow>(
		'SELECT id::text AS id, status, mode FROM execution_entity WHERE "workflowId" = $1 ORDER BY id',
		[workflowId],
	);
}

/** Waits until the workflow's executions stop changing and none is still queued or running. */
async function settle(workflowId: string, timeoutMs = 300_000): Promise<ExecutionRow[]> {
	const deadline = Date.now() + timeoutMs;
	let last = -1;
	for (;;) {
		const rows = await executions(workflowId);
		const busy = rows.some((r) => ['new', 'running', 'waiting'].includes(r.status));
		if (!busy && rows.length === last) return rows;
		last = busy ? -1 : rows.length;
		if (Date.now() > deadline)
			throw new Error(`workflow ${workflowId} did not come to rest within ${timeoutMs} ms`);
		await new Promise((r) => setTimeout(r, 500));
	}
}

const count = (rows: ExecutionRow[], status: string) =>
	rows.filter((r) => r.status === status).length;

describe('the trigger across two webhook processes and two workers', () => {
	test('200 distinct signed deliveries, alternating between the webhook processes, become 200 executions, all run by workers, none failed (trigger alone, and with the Redis claim)', async () => {
		const deliveries = Array.from({ length: 200 }, () => signed());
		for (const flow of ['trigger', 'redis'] as const) {
			const before = (await settle(FLOWS[flow].id)).length;
			const statuses = await deliverAlternating(flow, deliveries);
			expect(statuses.filter((s) => s === 200)).toHaveLength(200);
			const rows = (await settle(FLOWS[flow].id)).slice(before);
			const byWorker = stack.executionsByWorker();
			measurements[`distinct.${flow}`] = {
				executions: rows.length,
				failed: rows.length - count(rows, 'success'),
				workers: Object.fromEntries(
					['worker-1', 'worker-2'].map((w) => [
						w,
						rows.filter((r) => byWorker.get(r.id) === w).length,
					]),
				),
				handled: sink.hits(flow).length,
			};
			expect({ flow, executions: rows.length, success: count(rows, 'success') }).toEqual({
				flow,
				executions: 200,
				success: 200,
			});
			expect(rows.every((r) => r.mode === 'webhook')).toBe(true);
			expect(rows.filter((r) => !byWorker.has(r.id))).toEqual([]);
			// Every delivery reached the end of the workflow exactly once.
			expect(new Set(sink.hits(flow)).size).toBe(200);
			expect(sink.hits(flow)).toHaveLength(200);
		}
		// How many of the 200 the trigger's duplicate memory in static data kept: it is read when a
		// request arrives and written whole after it, so concurrent deliveries overwrite each other.
		const [row] = await stack.query<{ staticData: any }>(
			'SELECT "staticData" FROM workflow_entity WHERE id = $1',
			[FLOWS.trigger.id],
		);
		const nodeData = Object.values((row?.staticData ?? {}) as Record<string, any>)[0];
		measurements.staticDataEntriesAfter200 = Object.keys(nodeData?.seenDeliveries ?? {}).length;
		// Both workers took part.
		const byWorker = [...stack.executionsByWorker().values()];
		expect(new Set(byWorker)).toEqual(new Set(['worker-1', 'worker-2']));
	}, 900_000);

	test('the same body sent to both webhook processes at once, 20 times: how many executions the trigger alone starts, and exactly 20 handled deliveries with the Redis claim', async () => {
		const rounds = 20;
		const result: Record<string, unknown> = {};
		for (const flow of FLOW_NAMES) {
			const before = (await settle(FLOWS[flow].id)).length;
			const hitsBefore = sink.hits(flow).length;
			const sent = Array.from({ length: rounds }, () => signed());
			for (const d of sent) {
				// A retry racing the original: one copy to each webhook process at the same moment.
				const statuses = await Promise.all(urls(flow).map((url) => post(url, d)));
				expect(statuses).toEqual([200, 200]);
			}
			const rows = (await settle(FLOWS[flow].id)).slice(before);
			const hits = sink.hits(flow).slice(hitsBefore);
			result[flow] = {
				executions: rows.length,
				failed: rows.length - count(rows, 'success'),
				handled: hits.length,
				distinctHandled: new Set(hits).size,
			};
			// Nothing is lost: every delivery was handled at least once.
			expect(new Set(hits).size).toBe(rounds);
			expect(rows.length).toBeGreaterThanOrEqual(rounds);
			expect(rows.length).toBeLessThanOrEqual(2 * rounds);
		}
		measurements.race = result;
		// The recommended pattern: the trigger's deliveryId claimed in Redis, exactly once each.
		expect(result.redis).toEqual(
			expect.objectContaining({ handled: rounds, distinctHandled: rounds, failed: 0 }),
		);
	}, 600_000);

	test('20 deliveries to one webhook process, then the same 20 to the other after the answers: how many executions the trigger alone starts, and exactly 20 handled deliveries with the Redis claim', async () => {
		const result: Record<string, unknown> = {};
		for (const flow of ['trigger', 'redis'] as const) {
			const before = (await settle(FLOWS[flow].id)).length;
			const hitsBefore = sink.hits(flow).length;
			const sent = Array.from({ length: 20 }, () => signed());
			const [first, second] = urls(flow);
			for (const d of sent) expect(await post(first, d)).toBe(200);
			for (const d of sent) expect(await post(second, d)).toBe(200);
			const rows = (await settle(FLOWS[flow].id)).slice(before);
			const hits = sink.hits(flow).slice(hitsBefore);
			result[flow] = { executions: rows.length, handled: hits.length };
			expect(new Set(hits).size).toBe(20);
			expect(rows.length).toBeGreaterThanOrEqual(20);
			expect(rows.length).toBeLessThanOrEqual(40);
		}
		measurements.redeliveryToOtherProcess = result;
		expect(result.redis).toEqual(expect.objectContaining({ handled: 20 }));
	}, 300_000);

	test('forged and unsigned deliveries get 401 from either webhook process and start nothing', async () => {
		const flow: Flow = 'trigger';
		const before = (await settle(FLOWS[flow].id)).length;
		const forged = signed('not-the-signing-key');
		const unsigned = signed();
		delete unsigned.headers['service-signature'];
		const statuses: number[] = [];
		for (const url of urls(flow)) {
			statuses.push(await post(url, forged), await post(url, unsigned));
		}
		expect(statuses).toEqual([401, 401, 401, 401]);
		// Barrier: one good delivery per process; once they have run, only they may have started.
		expect(await deliverAlternating(flow, [signed(), signed()])).toEqual([200, 200]);
		expect((await settle(FLOWS[flow].id)).length).toBe(before + 2);
	}, 300_000);
});

describe('the action node on a worker, binary data in the database', () => {
	async function lastExecution(workflowId: string): Promise<ExecutionRow & { worker?: string }> {
		const rows = await settle(workflowId);
		const last = rows[rows.length - 1];
		return { ...last, worker: stack.executionsByWorker().get(last.id) };
	}

	test('Return All of 100,000 transactions: every transaction, in order, as on one process', async () => {
		const account = stack.sandbox.bank.seedAccount({ transactions: 100_000 });
		const res = await fetch(`${stack.webhooks[0].url}/webhook/${ACTIONS.transactions.path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(account),
		});
		expect(res.status).toBe(200);
		const items = (await res.json()) as unknown[];
		expect(items).toHaveLength(100_000);
		// The sandbox's transactions are a pure function of (account, index): compare every one.
		expect(JSON.stringify(items)).toBe(
			JSON.stringify(transactionsRange(account.accountId, 0, 100_000)),
		);
		const execution = await lastExecution(ACTIONS.transactions.id);
		expect(execution).toEqual(expect.objectContaining({ status: 'success', mode: 'webhook' }));
		expect(execution.worker).toMatch(/^worker-/);
	}, 600_000);

	test('the AML PDF made on a worker is served by a webhook process and by the main process’s download, byte for byte', async () => {
		const res = await fetch(`${stack.webhooks[1].url}/webhook/${ACTIONS.pdf.path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				checkId: SEED.aml.checkId,
				profileId: SEED.aml.profileId,
				password: SEED.aml.password,
			}),
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
		const answered = Buffer.from(await res.arrayBuffer());
		// The same PDF straight from the service.
		const direct = await fetch(
			`${stack.sandbox.url}/aml/checks/${SEED.aml.checkId}/profiles/${SEED.aml.profileId}/pdf/`,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					authorization: `Basic ${Buffer.from(`${stack.sandbox.credentials.apiKey}:${stack.sandbox.credentials.apiSecret}`).toString('base64')}`,
				},
				body: JSON.stringify({ password: SEED.aml.password }),
			},
		);
		const expected = Buffer.from(await direct.arrayBuffer());
		expect(answered.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(answered.equals(expected)).toBe(true);

		const execution = await lastExecution(ACTIONS.pdf.id);
		expect(execution).toEqual(expect.objectContaining({ status: 'success', mode: 'webhook' }));
		expect(execution.worker).toMatch(/^worker-/);
		const stored = await stack.rest.getExecution(execution.id);
		const file = stored.data.resultData.runData[ACTION][0].data.main[0][0].binary.report;
		expect(file.id).toMatch(/^database:/);
		expect(file).toEqual(
			expect.objectContaining({ mimeType: 'application/pdf', fileExtension: 'pdf' }),
		);
		const download = await stack.rest.downloadBinary(file.id);
		expect(download.status).toBe(200);
		expect(download.bytes.equals(expected)).toBe(true);
	}, 300_000);

	test('a document received by a webhook process is uploaded by a worker for the POA check', async () => {
		const res = await fetch(`${stack.webhooks[0].url}/webhook/${ACTIONS.poa.path}`, {
			method: 'POST',
			headers: { 'content-type': 'image/png' },
			body: PNG,
		});
		const answer = (await res.json()) as Record<string, any>;
		expect(res.status).toBe(200);
		expect(answer).toEqual(
			expect.objectContaining({ overallStatus: 'MATCH', nameMatch: true, addressMatch: true }),
		);
		// The service received the whole file: the node gives the size of the document the service
		// echoed (and leaves the echoed document itself out of the output).
		expect(answer.fileSizeBytes).toBe(PNG.length);
		expect(answer.file).toBeUndefined();
		const execution = await lastExecution(ACTIONS.poa.id);
		expect(execution).toEqual(expect.objectContaining({ status: 'success', mode: 'webhook' }));
		expect(execution.worker).toMatch(/^worker-/);
	}, 300_000);
});

interface Sink {
	url: string;
	/** Delivery ids that reached the end of the given workflow, in arrival order. */
	hits(label: string): string[];
	close(): Promise<void>;
}

/** A loopback receiver the workflows' last node calls with the delivery id it handled. */
async function startSink(): Promise<Sink> {
	const hits: Record<string, string[]> = {};
	const server: Server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://sink');
		const label = url.pathname.slice(1);
		(hits[label] ??= []).push(url.searchParams.get('delivery') ?? '');
		req.resume();
		res.end('{"ok":true}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		hits: (label) => hits[label] ?? [],
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
