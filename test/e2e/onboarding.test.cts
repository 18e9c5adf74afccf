// End-to-end: onboarding in one workflow inside the pinned real n8n. The example workflow
// workflows/onboarding-in-one-workflow.json (a Webhook trigger → Create Verification Token with
// "Send the Result to This Workflow" → Respond to Webhook with the link → Wait for the result →
// Switch) is published; each test signs a customer up, lets the execution wait, and drives the
// sandbox's verification, whose result the sandbox delivers (signed) to the token's callback URL:
// this execution's resume URL.
import { SEED, sign } from '../sandbox/index.cjs';
import { exampleWorkflow, withSandboxCredentials } from '../n8n/examples.cjs';
import {
	RestClient,
	on2x,
	requireFromN8n,
	startN8n,
	waitForPostWebhook,
	waitForWebhook,
	type N8nInstance,
} from '../n8n/runtime.cjs';
import {
	NODE_TYPES,
	credentialRef,
	productionWebhookUrl,
	routesTaken,
	signUp as postSignUp,
	startStack,
	waitForSignup,
	type Stack,
} from '../n8n/stack.cjs';
import { triggerWorkflow } from './workflows.cjs';

const DEMO: any = withSandboxCredentials(exampleWorkflow('onboarding-in-one-workflow.json'));
const WAIT_NODE = 'Wait for the result';
const ROUTE_NODE = DEMO.nodes.find((n: any) => n.name === 'Route the result');
/** The outputs of "Route the result", by the names the workflow gives them. */
const ROUTES = {
	approved: 'Approved',
	denied: 'Denied',
	timedOut: 'Timed out',
	other: 'Other (suspected, expired, cancelled, …)',
};
const pathOf = (workflow: any): string =>
	workflow.nodes.find((n: any) => n.type === 'n8n-nodes-base.webhook').parameters.path;
const SIGNUP_PATH = pathOf(DEMO);

/** The example workflow with a 3-second time limit, on its own sign-up path. */
function withTimeLimit(): any {
	const copy = JSON.parse(JSON.stringify(DEMO));
	copy.id = 'idvE2eOnboardTime';
	copy.name = 'Onboarding with a 3-second time limit';
	const signup = copy.nodes.find((n: any) => n.type === 'n8n-nodes-base.webhook');
	signup.parameters.path = `${SIGNUP_PATH}-time-limit`;
	signup.webhookId = '7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4b08';
	const wait = copy.nodes.find((n: any) => n.name === WAIT_NODE);
	wait.parameters.waitOptions = {
		limitWaitTime: { values: { resumeAmount: 3, resumeUnit: 'seconds' } },
	};
	return copy;
}
const TIME_LIMITED = withTimeLimit();
const DASHBOARD_TRIGGER_ID = '0f6d7a52-1c3b-4e8f-9a2d-5b6c7d8e9f13';

/** n8n 2.x signs a waiting execution's resume URL (`?signature=`) and refuses it without; 1.x does not. */
const signedResumeUrls = () =>
	on2x(
		'signed resume URLs (webhook-waiting/<id>?signature=…)',
		'the checks that the resume URL carries n8n’s signature and that n8n refuses it without (on 1.x only the package’s own signature check guards the resume URL)',
	);

let stack: Stack;
let n8n: N8nInstance;
let rest: RestClient;
let triggerWorkflowId: string;
/** An n8n started by the restart test (stopped in afterAll). */
let restarted: N8nInstance | undefined;

const signupUrl = (p: string) => `${n8n.url}/webhook/${p}`;

/** Signs a customer up; resolves once the execution waits, with the token and the sign-up's answer. */
async function signUp(
	workflow: any,
	customerId: string,
): Promise<{ id: string; scanRef: string; answer: any }> {
	const before = new Set((await rest.listExecutions(workflow.id)).map((e) => e.id));
	const { status, answer } = await postSignUp({ n8n }, { workflow }, customerId);
	expect(status).toBe(200);
	const deadline = Date.now() + 30_000;
	for (;;) {
		const fresh = (await rest.listExecutions(workflow.id)).filter((e) => !before.has(e.id));
		const waiting = fresh.find((e) => e.status === 'waiting');
		if (waiting) {
			const exec = await rest.getExecution(waiting.id);
			const token = exec.data.resultData.runData['Create Verification Token'][0].data.main[0][0];
			return { id: waiting.id, scanRef: token.json.scanRef, answer };
		}
		const failed = fresh.find((e) => ['error', 'crashed', 'success'].includes(e.status));
		if (failed) throw new Error(`execution ${failed.id} ended ${failed.status} instead of waiting`);
		if (Date.now() > deadline) throw new Error('no waiting execution within 30 s');
		await new Promise((r) => setTimeout(r, 200));
	}
}

async function statusOf(id: string): Promise<string> {
	return (await rest.getExecution(id)).status;
}

/** Waits until the execution has finished; returns it with its run data. */
async function finished(id: string, timeoutMs = 30_000): Promise<any> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const exec = await rest.getExecution(id);
		if (!['new', 'running', 'waiting'].includes(exec.status)) return exec;
		if (Date.now() > deadline)
			throw new Error(`execution ${id} still ${exec.status} after ${timeoutMs} ms`);
		await new Promise((r) => setTimeout(r, 250));
	}
}

/** The route the result took (the output of "Route the result") and the Wait for Result output item. */
function outcome(exec: any): { route: string | undefined; result: any } {
	const runData = exec.data.resultData.runData;
	const [route, ...more] = routesTaken(ROUTE_NODE, runData);
	expect(more).toEqual([]);
	return { route, result: runData[WAIT_NODE]?.at(-1)?.data?.main?.[0]?.[0]?.json };
}

function callbackUrlOf(scanRef: string): string {
	const url = stack.sandbox.kyc.get(scanRef)?.callbackUrl;
	if (!url) throw new Error(`the token ${scanRef} has no callback URL`);
	return url;
}

beforeAll(async () => {
	stack = await startStack({
		workflows: [DEMO, TIME_LIMITED],
		publish: [DEMO.id, TIME_LIMITED.id],
		log: (m) => process.stderr.write(`[e2e onboarding] ${m}\n`),
	});
	n8n = stack.n8n;
	rest = stack.rest;
	triggerWorkflowId = await rest.createWorkflow(
		triggerWorkflow('Dashboard URL trigger', DASHBOARD_TRIGGER_ID),
	);
	await rest.activate(triggerWorkflowId);
	await waitForWebhook(productionWebhookUrl(n8n.url, { webhookId: DASHBOARD_TRIGGER_ID }));
	await waitForSignup(signupUrl(SIGNUP_PATH));
	await waitForSignup(signupUrl(pathOf(TIME_LIMITED)));
}, 20 * 60_000);

afterAll(async () => {
	await restarted?.stop();
	await stack?.stop();
}, 60_000);

beforeEach(() => {
	stack.sandbox.reset();
});

describe('Onboarding in one workflow (create, send link, wait, route) in real n8n', () => {
	test('waitForSignup starts nothing, and only a served sign-up path passes it', async () => {
		const runs = await rest.countExecutions(DEMO.id);
		await waitForSignup(signupUrl(SIGNUP_PATH));
		await expect(
			waitForPostWebhook(signupUrl('no-such-sign-up'), { timeoutMs: 1_000 }),
		).rejects.toThrow(/did not register/);
		expect(await rest.countExecutions(DEMO.id)).toBe(runs);
	});

	test('approved: the final result resumes the waiting execution and routes it to Approved', async () => {
		const { id, scanRef } = await signUp(DEMO, 'customer-approved');
		expect(callbackUrlOf(scanRef)).toMatch(
			signedResumeUrls()
				? new RegExp(`/webhook-waiting/${id}\\?signature=`)
				: new RegExp(`/webhook-waiting/${id}$`),
		);
		const delivery = await stack.sandbox.kyc.autoFinish(scanRef, {
			final: true,
			overall: 'APPROVED',
		});
		expect(delivery.status).toBe('delivered');
		expect(delivery.attempts.map((a) => a.statusCode)).toEqual([200]);
		const exec = await finished(id);
		expect(exec.status).toBe('success');
		const { route, result } = outcome(exec);
		expect(route).toBe(ROUTES.approved);
		expect(result).toMatchObject({
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
			final: true,
			overallStatus: 'APPROVED',
			scanRef,
			clientId: 'customer-approved',
		});
	});

	test('the sign-up is answered with the link to send the person; "Finish as approved" on that page resumes the wait with the decision only', async () => {
		const { id, scanRef, answer } = await signUp(DEMO, 'customer-page');
		expect(answer).toEqual({ verificationUrl: expect.any(String), scanRef });
		const link = new URL(answer.verificationUrl);
		expect(`${link.origin}${link.pathname}`).toBe(`${stack.sandbox.url}/api/v2/redirect`);
		const page = await fetch(link);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('Finish as approved');
		// The page's button, as the browser posts it.
		const finish = await fetch(`${stack.sandbox.url}/api/v2/redirect`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				authToken: link.searchParams.get('authToken') ?? '',
				result: 'APPROVED',
			}).toString(),
		});
		expect(finish.status).toBe(200);
		const exec = await finished(id);
		expect(exec.status).toBe('success');
		const { route, result } = outcome(exec);
		expect(route).toBe(ROUTES.approved);
		expect(result).toMatchObject({ overallStatus: 'APPROVED', scanRef, final: true });
		// Personal Data: Leave Out. The decision, no body with the person's document data.
		expect(result.body).toBeUndefined();
	});

	test('denied: routed to Denied', async () => {
		const { id, scanRef } = await signUp(DEMO, 'customer-denied');
		await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'DENIED' });
		const exec = await finished(id);
		expect(outcome(exec)).toMatchObject({
			route: ROUTES.denied,
			result: { overallStatus: 'DENIED' },
		});
	});

	test('non-final then final: the automated result is acknowledged (200), the execution keeps waiting for the review', async () => {
		const { id, scanRef } = await signUp(DEMO, 'customer-review');
		const preliminary = await stack.sandbox.kyc.autoFinish(scanRef, { final: false });
		expect(preliminary.attempts.map((a) => a.statusCode)).toEqual([200]);
		// Give n8n time to (wrongly) resume before checking that it did not.
		await new Promise((r) => setTimeout(r, 1500));
		expect(await statusOf(id)).toBe('waiting');
		await stack.sandbox.kyc.manualFinish(scanRef, { overall: 'APPROVED' });
		const exec = await finished(id);
		expect(outcome(exec)).toMatchObject({
			route: ROUTES.approved,
			result: { eventType: 'IDENTIFICATION_MANUAL_FINISHED', final: true },
		});
	});

	test('expired: the session expiring resumes it as IDENTIFICATION_EXPIRED', async () => {
		const { id, scanRef } = await signUp(DEMO, 'customer-expired');
		await stack.sandbox.kyc.expire(scanRef);
		const exec = await finished(id);
		expect(outcome(exec)).toMatchObject({
			route: ROUTES.other,
			result: { eventType: 'IDENTIFICATION_EXPIRED', scanRef },
		});
	});

	test('forged resume: a wrong signature is answered 401 and the execution keeps waiting', async () => {
		const { id, scanRef } = await signUp(DEMO, 'customer-forged');
		const url = callbackUrlOf(scanRef);
		const body = JSON.stringify({ scanRef, final: true, status: { overall: 'APPROVED' } });
		const forged = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'service-event-type': 'IDENTIFICATION_AUTO_FINISHED',
				'service-signature': sign(Buffer.from(body), 'not-the-signing-key'),
			},
			body,
		});
		expect(forged.status).toBe(401);
		const unsigned = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body,
		});
		expect(unsigned.status).toBe(401);
		if (signedResumeUrls()) {
			// A correctly signed body on a resume URL without n8n's token: n8n itself refuses it.
			const withoutToken = await fetch(url.replace(/\?.*$/, ''), {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'service-signature': sign(Buffer.from(body), stack.sandbox.credentials.signingKey),
				},
				body,
			});
			expect(withoutToken.status).toBe(401);
		}
		await new Promise((r) => setTimeout(r, 1000));
		expect(await statusOf(id)).toBe('waiting');
		await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
		expect(outcome(await finished(id)).route).toBe(ROUTES.approved);
	});

	test('time limit: without a result it resumes with { timedOut: true, scanRef } (n8n checks waits every 60 s)', async () => {
		const { id, scanRef } = await signUp(TIME_LIMITED, 'customer-silent');
		const exec = await finished(id, 150_000);
		expect(exec.status).toBe('success');
		expect(outcome(exec)).toEqual({
			route: ROUTES.timedOut,
			result: { timedOut: true, scanRef },
		});
	}, 180_000);

	test('both URLs: the result sent to the token URL and the dashboard URL resumes the wait AND starts the trigger', async () => {
		stack.sandbox.webhooks.configure({
			url: productionWebhookUrl(n8n.url, { webhookId: DASHBOARD_TRIGGER_ID }),
			retryDelaysMs: [],
		});
		const triggerRunsBefore = await rest.countExecutions(triggerWorkflowId);
		const { id, scanRef } = await signUp(DEMO, 'customer-both');
		await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
		const deliveries = stack.sandbox.webhooks.log.filter((d) =>
			d.payload.includes(`"scanRef":"${scanRef}"`),
		);
		expect(deliveries.map((d) => (d.target ? 'token' : 'dashboard')).sort()).toEqual([
			'dashboard',
			'token',
		]);
		expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
		const exec = await finished(id);
		const waited = outcome(exec).result;
		const triggerRuns = await rest.waitForExecutions(triggerWorkflowId, triggerRunsBefore + 1);
		const triggered = await rest.getExecution(triggerRuns[0].id);
		const event =
			triggered.data.resultData.runData['Identity Verification Trigger'][0].data.main[0][0].json;
		// The same delivery (same bytes, same deliveryId) reached both; neither dropped it. The
		// dashboard URL's trigger is a version 1 node (deliveryId on top), Wait for Result 1.1.
		expect(event.deliveryId).toBe(waited.delivery.deliveryId);
		expect(event).toMatchObject({ scanRef, overallStatus: 'APPROVED' });
	});

	test('restart: an execution waiting when n8n stops resumes after n8n starts again', async () => {
		const { id, scanRef } = await signUp(DEMO, 'customer-restart');
		const port = n8n.port;
		await n8n.stop();
		restarted = await startN8n({ userFolder: stack.userFolder, port });
		n8n = restarted;
		rest = new RestClient(n8n.url);
		await rest.setupOwnerOrLogin(stack.owner);
		expect(await statusOf(id)).toBe('waiting');
		const delivery = await stack.sandbox.kyc.autoFinish(scanRef, {
			final: true,
			overall: 'APPROVED',
		});
		expect(delivery.attempts.at(-1)?.statusCode).toBe(200);
		expect(outcome(await finished(id)).route).toBe(ROUTES.approved);
	}, 300_000);
});

// ---------------------------------------------------------------------------------------------
// The AI tool variant behind n8n's own MCP Server Trigger, called by a real MCP client
// ---------------------------------------------------------------------------------------------

const MCP_PATH = 'identity-verification-tools';
const MCP_WEBHOOK_ID = '7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4c09';
const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

/** One Tool-variant node per operation (Wait for Result is not offered to tools). */
const TOOLS: Array<{ name: string; parameters: Record<string, unknown> }> = [
	{
		name: 'Create verification token',
		parameters: {
			resource: 'identification',
			operation: 'createVerificationToken',
			clientId: fromAI('clientId', 'Your own reference for the person, e.g. a customer number'),
		},
	},
	{
		name: 'Request information',
		parameters: {
			resource: 'identification',
			operation: 'requestInformation',
			scanRef: fromAI('scanRef', 'The scanRef of a finished verification'),
		},
	},
	{
		name: 'Create bank token',
		parameters: {
			resource: 'bank',
			operation: 'createToken',
			lifetime: fromAI('lifetime', 'Seconds the bank token stays valid', 'number'),
		},
	},
	{
		name: 'List bank transactions',
		parameters: {
			resource: 'bank',
			operation: 'listTransactions',
			verificationId: fromAI('verificationId', 'The bank verification id'),
			accountId: fromAI('accountId', 'The bank account id'),
			returnAll: false,
			limit: 3,
		},
	},
	{
		name: 'Check proof of address',
		parameters: {
			resource: 'proofOfAddress',
			operation: 'createCheck',
			providedName: fromAI('providedName', 'The full name of the person'),
			providedAddress: fromAI('providedAddress', 'The address of the person'),
		},
	},
	{
		name: 'Download AML profile PDF',
		parameters: {
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: fromAI('checkId', 'The AML check id (a UUID)'),
			profileId: fromAI('profileId', 'The profile id'),
			password: fromAI('password', 'A password for the PDF'),
		},
	},
	{
		name: 'Get KYB answers',
		parameters: {
			resource: 'kyb',
			operation: 'getAnswers',
			authentication: 'apiKey',
			companyId: fromAI('companyId', 'The company id'),
			questionnaireId: fromAI('questionnaireId', 'The questionnaire id'),
		},
	},
	{
		name: 'Delete KYB answers',
		parameters: {
			resource: 'kyb',
			operation: 'deleteAnswers',
			authentication: 'apiKey',
			companyId: fromAI('companyId', 'The company id'),
			questionnaireId: fromAI('questionnaireId', 'The questionnaire id'),
		},
	},
	{
		name: 'Submit KYB form',
		parameters: {
			resource: 'kyb',
			operation: 'submitForm',
			authentication: 'apiKey',
			formId: fromAI('formId', 'The KYB form id'),
		},
	},
];

function mcpWorkflow(): { name: string; nodes: object[]; connections: Record<string, unknown> } {
	const trigger = {
		id: '00000000-0000-4000-8000-000000000c00',
		name: 'MCP Server Trigger',
		type: '@n8n/n8n-nodes-langchain.mcpTrigger',
		typeVersion: 2,
		position: [0, 0],
		parameters: { path: MCP_PATH, authentication: 'none' },
		webhookId: MCP_WEBHOOK_ID,
	};
	const tools = TOOLS.map((tool, index) => ({
		id: `00000000-0000-4000-8000-000000000c${String(index + 1).padStart(2, '0')}`,
		name: tool.name,
		type: NODE_TYPES.tool,
		typeVersion: 1,
		position: [index * 200, 240],
		parameters: tool.parameters,
		credentials: credentialRef('api'),
	}));
	const connections: Record<string, unknown> = {};
	for (const tool of tools) {
		connections[tool.name] = {
			ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]],
		};
	}
	return {
		name: 'Identity verification tools for AI agents',
		nodes: [trigger, ...tools],
		connections,
	};
}

interface McpClient {
	connect(transport: unknown): Promise<void>;
	listTools(): Promise<{ tools: Array<{ name: string; description?: string; inputSchema: any }> }>;
	callTool(request: {
		name: string;
		arguments: Record<string, unknown>;
	}): Promise<{ content: Array<{ type: string; text?: string }>; isError?: boolean }>;
	close(): Promise<void>;
}

describe('the AI tool variant behind n8n’s MCP Server Trigger, called by a real MCP client', () => {
	let client: McpClient;
	let tools: Array<{ name: string; description?: string; inputSchema: any }>;
	const toolName = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
	const textOf = (result: { content: Array<{ type: string; text?: string }> }) =>
		result.content.map((c) => c.text ?? '').join('\n');
	const call = (nodeName: string, args: Record<string, unknown>) =>
		client.callTool({ name: toolName(nodeName), arguments: args });

	beforeAll(async () => {
		const id = await rest.createWorkflow(mcpWorkflow());
		await rest.activate(id);
		const { Client } = requireFromN8n<{ Client: new (info: object) => McpClient }>(
			'@modelcontextprotocol/sdk/client/index.js',
		);
		const { StreamableHTTPClientTransport } = requireFromN8n<{
			StreamableHTTPClientTransport: new (url: URL) => unknown;
		}>('@modelcontextprotocol/sdk/client/streamableHttp.js');
		const url = new URL(`${n8n.url}/mcp/${MCP_PATH}`);
		const deadline = Date.now() + 60_000;
		for (;;) {
			client = new Client({ name: 'idv-e2e', version: '1.0.0' });
			try {
				await client.connect(new StreamableHTTPClientTransport(url));
				break;
			} catch (error) {
				// n8n activates published workflows asynchronously: 404 until the trigger is registered.
				if (Date.now() > deadline) throw error;
				await new Promise((r) => setTimeout(r, 500));
			}
		}
		tools = (await client.listTools()).tools;
	}, 120_000);

	afterAll(async () => {
		await client?.close();
	});

	test('lists one tool per operation, with input schemas from $fromAI, and no Wait for Result', () => {
		expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => toolName(t.name)).sort());
		const token = tools.find((t) => t.name === toolName('Create verification token'))!;
		expect(token.inputSchema.properties.clientId).toMatchObject({
			type: 'string',
			description: 'Your own reference for the person, e.g. a customer number',
		});
		expect(token.inputSchema.required).toContain('clientId');
		const bank = tools.find((t) => t.name === toolName('Create bank token'))!;
		expect(bank.inputSchema.properties.lifetime.type).toBe('number');
		for (const tool of tools) expect(tool.description ?? '').not.toMatch(/wait for result/i);
	});

	test('Create verification token answers with the simplified token (Simplify is on for tools)', async () => {
		const result = await call('Create verification token', { clientId: 'agent-customer-1' });
		expect(result.isError).toBeFalsy();
		const text = textOf(result);
		expect(text).toContain('agent-customer-1');
		expect(text).toContain('authToken');
		expect(text).toContain('scanRef');
		expect(text).not.toContain('digitString');
	});

	test('every other operation is callable and answers with its result', async () => {
		const { scanRef } = stack.sandbox.kyc.createSession('agent-customer-2');
		stack.sandbox.webhooks.configure({ url: `${stack.sandbox.url}/nowhere`, retryDelaysMs: [] });
		await stack.sandbox.kyc.autoFinish(scanRef, { final: true });
		const calls: Array<[string, Record<string, unknown>, RegExp]> = [
			['Request information', { scanRef }, /sessionUrl/],
			['Create bank token', { lifetime: 600 }, /tokenString/],
			[
				'List bank transactions',
				{ verificationId: SEED.bank.verificationId, accountId: SEED.bank.accountId },
				/transactionAmount/,
			],
			[
				'Download AML profile PDF',
				{ checkId: SEED.aml.checkId, profileId: SEED.aml.profileId, password: SEED.aml.password },
				/application\/pdf|fileName/,
			],
			[
				'Get KYB answers',
				{ companyId: SEED.kyb.companyId, questionnaireId: SEED.kyb.questionnaireId },
				/sections/,
			],
			[
				'Delete KYB answers',
				{ companyId: SEED.kyb.companyId, questionnaireId: SEED.kyb.questionnaireId },
				/deleted/,
			],
			['Submit KYB form', { formId: SEED.kyb.formId }, /submitted|form/i],
		];
		for (const [name, args, expected] of calls) {
			const result = await call(name, args);
			expect({ name, isError: Boolean(result.isError), text: textOf(result) }).toMatchObject({
				name,
				isError: false,
				text: expect.stringMatching(expected),
			});
		}
	});

	test('errors are readable by a model: the field, the rule, what to do; no secret', async () => {
		const badToken = await call('Create verification token', { clientId: 'x'.repeat(101) });
		expect(textOf(badToken)).toMatch(/Client ID: must be at most 100 characters/);
		const unknown = await call('Request information', { scanRef: 'no-such-scan' });
		expect(textOf(unknown)).toMatch(/404|not found|check the id/i);
		const noFile = await call('Check proof of address', {
			providedName: SEED.poa.name,
			providedAddress: SEED.poa.address,
		});
		expect(textOf(noFile)).toMatch(/Input Binary Field: the input item has no file/);
		for (const result of [badToken, unknown, noFile]) {
			expect(textOf(result)).not.toContain(stack.sandbox.credentials.apiSecret);
		}
	});
});
