// End-to-end: what the provider publishes for AML, through real n8n (the pin, or IDV_N8N_VERSION's
// line). A stand-in of the service answers every AML operation with a value generated from aml.yaml's
// answer schema (a fixed seed) and Get Many also with the provider's published example page; one
// workflow runs every AML operation of the packed package against it with `n8n execute`, and each
// node's output must be that answer, unchanged after the fields the node puts first (a PDF: the
// file, stored by n8n).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { execute, nodeOutput } from '../n8n/runtime.cjs';
import { CREDENTIALS, startStack, type Stack, type WorkflowNode } from '../n8n/stack.cjs';
import { node } from '../n8n/workflow.cjs';
import { corpusJson, fakeInstances, responseSchema } from '../real-service/provider.cjs';
import { expectSuccess } from './helpers.cjs';

const CHECK_ID = '3b1f8c2e-6d4a-4f0b-8e21-7a9c5d3e1f42';
const MONITORING_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const EXAMPLE = corpusJson('responses/aml-monitorings-list.idenfy-api-reference.json') as {
	results: Array<Record<string, unknown>>;
};

/** A value of the provider's answer schema (aml.yaml), from a fixed seed. */
function generated(apiPath: string, method: string, status: number): Record<string, unknown> {
	const schema = responseSchema(apiPath, method, status);
	if (!schema)
		throw new Error(`aml.yaml publishes no JSON answer ${status} of ${method} ${apiPath}`);
	return fakeInstances(schema, { seed: 77, count: 1, alwaysFakeOptionals: true })[0] as Record<
		string,
		unknown
	>;
}

const PAGE = generated('/aml/monitorings/', 'get', 200) as { results: unknown[] };
/** The answer of each request the workflow sends, by `METHOD path`. */
const ANSWERS: Record<string, { status: number; body?: unknown; pdf?: boolean }> = {
	'POST /aml/checks/': { status: 201, body: generated('/aml/checks/', 'post', 201) },
	[`GET /aml/checks/${CHECK_ID}/profiles/prof-001/`]: {
		status: 200,
		body: generated('/aml/checks/{id}/profiles/{profileId}/', 'get', 200),
	},
	[`POST /aml/checks/${CHECK_ID}/pdf/`]: { status: 200, pdf: true },
	[`POST /aml/checks/${CHECK_ID}/profiles/prof-001/pdf/`]: { status: 200, pdf: true },
	'POST /aml/monitorings/': { status: 201, body: generated('/aml/monitorings/', 'post', 201) },
	// One page: a generated `next` link points anywhere, which the node refuses by design.
	'GET /aml/monitorings/': {
		status: 200,
		body: { ...PAGE, count: PAGE.results.length, next: null, previous: null },
	},
	// The published example, its links (to api.example.org) left out for the same reason.
	'GET /aml/monitorings/?published': {
		status: 200,
		body: { ...EXAMPLE, count: EXAMPLE.results.length, next: null, previous: null },
	},
	[`GET /aml/monitorings/${MONITORING_ID}/`]: {
		status: 200,
		body: generated('/aml/monitorings/{id}/', 'get', 200),
	},
	[`PATCH /aml/monitorings/${MONITORING_ID}/`]: {
		status: 200,
		body: generated('/aml/monitorings/{id}/', 'patch', 200),
	},
	[`DELETE /aml/monitorings/${MONITORING_ID}/`]: { status: 204 },
	[`POST /aml/monitorings/${MONITORING_ID}/stop/`]: {
		status: 200,
		body: generated('/aml/monitorings/{id}/{action}/', 'post', 200),
	},
	[`POST /aml/monitorings/${MONITORING_ID}/start/`]: {
		status: 200,
		body: generated('/aml/monitorings/{id}/{action}/', 'post', 200),
	},
	[`POST /aml/monitorings/${MONITORING_ID}/pdf/`]: { status: 200, pdf: true },
	[`DELETE /aml/monitorings/${MONITORING_ID}/profiles/prof-001/`]: { status: 204 },
};

/** Each AML operation as a node of the workflow: its name, parameters and the answer it gets. */
const STEPS: Array<{ name: string; parameters: Record<string, unknown>; answer: string }> = [
	{
		name: 'Create',
		parameters: {
			resource: 'aml',
			operation: 'create',
			clientId: 'c-1',
			fullName: 'Ąžuolas Müller',
		},
		answer: 'POST /aml/checks/',
	},
	{
		name: 'Get Profile',
		parameters: {
			resource: 'aml',
			operation: 'getProfile',
			checkId: CHECK_ID,
			profileId: 'prof-001',
		},
		answer: `GET /aml/checks/${CHECK_ID}/profiles/prof-001/`,
	},
	{
		name: 'Download PDF',
		parameters: { resource: 'aml', operation: 'downloadPdf', checkId: CHECK_ID },
		answer: `POST /aml/checks/${CHECK_ID}/pdf/`,
	},
	{
		name: 'Download Profile PDF',
		parameters: {
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: CHECK_ID,
			profileId: 'prof-001',
			password: 'p',
		},
		answer: `POST /aml/checks/${CHECK_ID}/profiles/prof-001/pdf/`,
	},
	...[
		[
			'Create monitoring',
			'create',
			{ clientId: 'c-2', fullName: 'Jonas Jonaitis' },
			'POST /aml/monitorings/',
		],
		['Get Many', 'getAll', { returnAll: true }, 'GET /aml/monitorings/'],
		[
			'Get Many (published example)',
			'getAll',
			{ returnAll: true, filters: { name: 'published' } },
			'GET /aml/monitorings/?published',
		],
		['Get', 'get', {}, `GET /aml/monitorings/${MONITORING_ID}/`],
		[
			'Update',
			'update',
			{ updateFields: { isSubscribed: true } },
			`PATCH /aml/monitorings/${MONITORING_ID}/`,
		],
		['Delete', 'delete', {}, `DELETE /aml/monitorings/${MONITORING_ID}/`],
		['Stop', 'stop', { comment: 'Reviewed' }, `POST /aml/monitorings/${MONITORING_ID}/stop/`],
		['Start', 'start', {}, `POST /aml/monitorings/${MONITORING_ID}/start/`],
		['Monitoring PDF', 'downloadPdf', {}, `POST /aml/monitorings/${MONITORING_ID}/pdf/`],
		[
			'Remove Profile',
			'removeProfile',
			{ profileId: 'prof-001' },
			`DELETE /aml/monitorings/${MONITORING_ID}/profiles/prof-001/`,
		],
	].map(([name, operation, extra, answer]) => ({
		name: name as string,
		parameters: {
			resource: 'amlMonitoring',
			operation,
			monitoringId: MONITORING_ID,
			...(extra as object),
		},
		answer: answer as string,
	})),
];

let stack: Stack;
let service: Server;

beforeAll(async () => {
	service = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://service');
			const published = url.searchParams.get('name') === 'published' ? '?published' : '';
			const reply = ANSWERS[`${req.method} ${url.pathname}${published}`];
			if (!reply) return void res.writeHead(404).end('{"detail":"Not found."}');
			if (reply.pdf) return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF);
			if (reply.body === undefined) return void res.writeHead(reply.status).end();
			res.writeHead(reply.status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(reply.body));
		});
	});
	await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
	stack = await startStack({ log: (m) => process.stderr.write(`[e2e aml] ${m}\n`) });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	await new Promise<void>((resolve) => (service ? service.close(() => resolve()) : resolve()));
}, 60_000);

test('every AML operation outputs the provider’s answer (generated from aml.yaml, and its published example page) unchanged', async () => {
	const { body: credential } = await stack.rest.request<{ id: string }>('POST', '/credentials', {
		name: 'AML answers of the provider',
		type: CREDENTIALS.api.type,
		data: {
			apiKey: 'k',
			apiSecret: 's',
			baseUrl: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
		},
	});
	const manual = node('When clicking ‘Execute workflow’', 'n8n-nodes-base.manualTrigger', 1, {});
	const steps: WorkflowNode[] = STEPS.map((step, index) => ({
		...node(
			step.name,
			`n8n-nodes-identity-verification.identityVerification`,
			1.1,
			step.parameters,
			{
				credentials: {
					[CREDENTIALS.api.type]: { id: credential.id, name: 'AML answers of the provider' },
				},
			},
		),
		position: [300, index * 120] as [number, number],
	}));
	const id = await stack.rest.createWorkflow({
		name: 'AML operations against the provider’s answers',
		nodes: [manual, ...steps],
		connections: {
			[manual.name]: { main: [steps.map((s) => ({ node: s.name, type: 'main', index: 0 }))] },
		},
	});
	const result = await execute(stack.userFolder, id);
	expectSuccess(result);

	for (const step of STEPS) {
		const items = nodeOutput(result, step.name);
		const { body, pdf } = ANSWERS[step.answer];
		if (pdf) {
			expect([step.name, items[0]?.json.mimeType, items[0]?.json.fileSize]).toEqual([
				step.name,
				'application/pdf',
				PDF.length,
			]);
			continue;
		}
		const results = (body as { results?: unknown[] } | undefined)?.results;
		const expected = results ?? [body ?? {}];
		expect([step.name, items.length]).toEqual([step.name, expected.length]);
		items.forEach((item, index) => {
			if (body === undefined) expect(item.json).toMatchObject({ monitoringId: MONITORING_ID });
			else
				expect([step.name, item.json]).toEqual([
					step.name,
					expect.objectContaining(expected[index] as object),
				]);
		});
	}
}, 300_000);
