// End-to-end: the packed package installed into the pinned real n8n the way n8n installs a
// community package, one n8n for the whole suite, every operation executed by n8n against the
// sandbox, the credential tests run through n8n's API, and the trigger receiving the sandbox's signed
// webhooks on n8n's production webhook URL.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventType } from '../../nodes/shared/contract';
import { SANDBOX_EVENT_TYPES } from '../sandbox/bodies.cjs';
import { transactionsRange } from '../sandbox/data.cjs';
import { SEED, sign } from '../sandbox/index.cjs';
import {
	execute,
	exportNodes,
	nodeOutput,
	waitForWebhook,
	type ExecuteResult,
} from '../n8n/runtime.cjs';
import { lineUp, node } from '../n8n/workflow.cjs';
import {
	CREDENTIALS,
	credentialRef,
	NODE_TYPES,
	productionWebhookUrl,
	startStack,
	type Stack,
} from '../n8n/stack.cjs';
import {
	expectSuccess,
	PNG_BASE64,
	poaCheck,
	runAction,
	testApiCredential,
	withPng,
} from './helpers.cjs';
import { ACTION, TRIGGER, triggerWorkflow } from './workflows.cjs';

const TRIGGER_WEBHOOK_ID = '0f6d7a52-1c3b-4e8f-9a2d-5b6c7d8e9f01';

let stack: Stack;
let triggerWorkflowId: string;
let webhookUrl: string;
/** Everything the `n8n execute` runs printed (their log lines), checked for secrets at the end. */
const cliOutputs: string[] = [];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Runs an action workflow (see runAction), keeping what `n8n execute` printed. */
async function run(
	name: string,
	parameters: Record<string, unknown>,
	opts?: Parameters<typeof runAction>[3],
): Promise<ExecuteResult> {
	const result = await runAction(stack, name, parameters, opts);
	cliOutputs.push(result.output);
	return result;
}

beforeAll(async () => {
	// Cold machines install the pinned n8n first (minutes); warm ones start in well under a minute.
	stack = await startStack({
		log: (m) => process.stderr.write(`[e2e] ${m}\n`),
		// The most n8n ever logs, for the check that no secret reaches its log (last test).
		n8nEnv: { N8N_LOG_LEVEL: 'debug' },
	});
	triggerWorkflowId = await stack.rest.createWorkflow(
		triggerWorkflow('E2E trigger', TRIGGER_WEBHOOK_ID),
	);
	await stack.rest.activate(triggerWorkflowId);
	webhookUrl = productionWebhookUrl(stack.n8n.url, { webhookId: TRIGGER_WEBHOOK_ID });
	await waitForWebhook(webhookUrl);
	stack.sandbox.webhooks.configure({ url: webhookUrl, retryDelaysMs: [] });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
}, 60_000);

describe('the package inside n8n', () => {
	test('n8n loads the action node, its AI-tool variant and both triggers (n8n export:nodes)', async () => {
		const nodes = await exportNodes(stack.userFolder);
		const names = nodes.map((n) => n.name);
		expect(names).toEqual(
			expect.arrayContaining([
				NODE_TYPES.action,
				NODE_TYPES.tool,
				NODE_TYPES.trigger,
				NODE_TYPES.pollingTrigger,
			]),
		);
		const polling = nodes.find((n) => n.name === NODE_TYPES.pollingTrigger)!;
		expect(polling).toMatchObject({ polling: true });
		const action = nodes.find((n) => n.name === NODE_TYPES.action)!;
		expect(action.displayName).toBe('Identity Verification');
	});
});

describe('credential test through n8n (the editor’s Test button)', () => {
	test('the sandbox API key pair passes', async () => {
		const result = await testApiCredential(stack);
		expect(result.status).toBe('OK');
	});

	// The credential tests run in the node's own code (testedBy), so n8n 1.x applies them too.
	test('a wrong API secret fails with a message that says what to check, without the secret', async () => {
		const wrongSecret = 'wrong-secret-123456';
		const result = await testApiCredential(stack, { apiSecret: wrongSecret });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/key|secret|credential/i);
		expect(result.message).not.toContain(wrongSecret);
	});

	test('the KYB form token passes; a made-up token fails', async () => {
		const ok = await stack.rest.testCredential({
			...CREDENTIALS.kybFormToken,
			data: { formToken: stack.sandbox.credentials.kybFormToken, baseUrl: stack.sandbox.url },
		});
		expect(ok.status).toBe('OK');
		const bad = await stack.rest.testCredential({
			...CREDENTIALS.kybFormToken,
			data: { formToken: 'not-a-real-token', baseUrl: stack.sandbox.url },
		});
		expect(bad.status).toBe('Error');
	});

	test('the webhook signing key passes its local check; an empty key fails', async () => {
		const ok = await stack.rest.testCredential({
			...CREDENTIALS.webhookSigning,
			data: { signingSecret: stack.sandbox.credentials.signingKey },
		});
		expect(ok.status).toBe('OK');
		const bad = await stack.rest.testCredential({
			...CREDENTIALS.webhookSigning,
			data: { signingSecret: '' },
		});
		expect(bad.status).toBe('Error');
	});
});

describe('every operation, executed by n8n against the sandbox', () => {
	/** List Transactions of the seeded account. */
	const seededTransactions = (extra: Record<string, unknown>) => ({
		resource: 'bank',
		operation: 'listTransactions',
		verificationId: SEED.bank.verificationId,
		accountId: SEED.bank.accountId,
		...extra,
		options: {},
	});

	test('Identification → Create Verification Token returns the token for the client', async () => {
		const result = await run('Create verification token', {
			resource: 'identification',
			operation: 'createVerificationToken',
			clientId: 'customer-12345',
		});
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		expect(item.json.clientId).toBe('customer-12345');
		expect(typeof item.json.authToken).toBe('string');
		expect(item.json.authToken.length).toBeGreaterThan(0);
		expect(stack.sandbox.kyc.get(item.json.scanRef)).toMatchObject({ clientId: 'customer-12345' });
	});

	test('Identification → Get Status re-checks a verification by scanRef', async () => {
		const sink = await startSink();
		stack.sandbox.webhooks.configure({ url: sink.url, retryDelaysMs: [] });
		try {
			const { scanRef } = stack.sandbox.kyc.createSession('customer-status');
			await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
			const result = await run('Get status', {
				resource: 'identification',
				operation: 'getStatus',
				scanRef,
			});
			expectSuccess(result);
			expect(nodeOutput(result, ACTION)[0].json).toMatchObject({
				status: 'APPROVED',
				scanRef,
				clientId: 'customer-status',
			});
		} finally {
			stack.sandbox.webhooks.configure({ url: webhookUrl, retryDelaysMs: [] });
			await sink.close();
		}
	});

	test("n8n's HTTP Request node uses the API credential for another endpoint, and only under its Base URL", async () => {
		const { scanRef } = stack.sandbox.kyc.createSession('customer-http');
		const httpRequest = (name: string, url: string) => {
			const manual = node('Start', 'n8n-nodes-base.manualTrigger', 1, {});
			const request = node(
				name,
				'n8n-nodes-base.httpRequest',
				4.2,
				{
					method: 'POST',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIALS.api.type,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify({ scanRef }),
					options: {},
				},
				{ credentials: credentialRef('api') },
			);
			const nodes = [manual, request];
			return { name, nodes, connections: lineUp(nodes) };
		};
		const inside = await execute(
			stack.userFolder,
			await stack.rest.createWorkflow(
				httpRequest('Status by HTTP Request', `${stack.sandbox.url}/api/v2/status`),
			),
		);
		expectSuccess(inside);
		expect(nodeOutput(inside, 'Status by HTTP Request')[0].json).toMatchObject({ scanRef });

		const elsewhere = await startSink();
		try {
			const outside = await execute(
				stack.userFolder,
				await stack.rest.createWorkflow(httpRequest('Somewhere else', elsewhere.url)),
			);
			expect(outside.ok).toBe(false);
			expect(String(outside.run?.data.resultData.error?.message)).toMatch(/Base URL/);
		} finally {
			await elsewhere.close();
		}
	});

	describe("n8n's HTTP Request node never hands the credential to a proxy", () => {
		let proxy: ProxyRecorder;
		let tls: { url: string; ca: string; close(): Promise<void> };
		const owned: Record<string, { id: string; name: string }> = {};

		beforeAll(async () => {
			proxy = await startProxyRecorder();
			tls = await startTlsService();
			const api = { name: 'API over TLS', type: CREDENTIALS.api.type };
			const apiId = await stack.rest.createCredential({
				...api,
				data: { ...stack.sandbox.credentials, baseUrl: tls.url },
			});
			owned[api.type] = { id: apiId, name: api.name };
			const ssl = { name: 'Own CA', type: 'httpSslAuth' };
			const sslId = await stack.rest.createCredential({ ...ssl, data: { ca: tls.ca } });
			owned[ssl.type] = { id: sslId, name: ssl.name };
		});
		afterAll(async () => {
			await proxy?.close();
			await tls?.close();
		});

		const viaProxy = (
			name: string,
			url: string,
			options: Record<string, unknown>,
			credentials: Record<string, { id: string; name: string }>,
			more: Record<string, unknown> = {},
		) => {
			const manual = node('Start', 'n8n-nodes-base.manualTrigger', 1, {});
			const request = node(
				name,
				'n8n-nodes-base.httpRequest',
				4.2,
				{
					method: 'GET',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIALS.api.type,
					options: { proxy: proxy.url, ...options },
					...more,
				},
				{ credentials },
			);
			const nodes = [manual, request];
			return { name, nodes, connections: lineUp(nodes) };
		};

		test.each([
			['Proxy alone, to a plain http:// Base URL on this machine', 'sandbox', {}, {}, /Proxy/],
			['Proxy with Ignore SSL Issues', 'tls', { allowUnauthorizedCerts: true }, {}, /Proxy/],
			[
				'Proxy with its own CA (Provide SSL Certificates)',
				'tls',
				{},
				{ provideSslCertificates: true },
				/Proxy/,
			],
		] as const)(
			'%s: the proxy sees no credential, the user reads why',
			async (_case, target, options, more, words) => {
				const url = target === 'sandbox' ? `${stack.sandbox.url}/api/v2/status` : `${tls.url}/x/`;
				const credentials =
					target === 'sandbox'
						? credentialRef('api')
						: {
								[CREDENTIALS.api.type]: owned[CREDENTIALS.api.type],
								...('provideSslCertificates' in more ? { httpSslAuth: owned.httpSslAuth } : {}),
							};
				const result = await execute(
					stack.userFolder,
					await stack.rest.createWorkflow(
						viaProxy(`Via proxy ${target}`, url, options, credentials, more),
					),
				);
				cliOutputs.push(result.output);
				expect(result.ok).toBe(false);
				expect(String(result.run?.data.resultData.error?.message)).toMatch(words);
				expect(proxy.received).toEqual([]);
			},
		);
	});

	test('Identification → Request Information reactivates a finished verification', async () => {
		// A verification the person finished (its webhook goes to a local sink, not to the trigger).
		const sink = await startSink();
		stack.sandbox.webhooks.configure({ url: sink.url, retryDelaysMs: [] });
		try {
			const { scanRef } = stack.sandbox.kyc.createSession('customer-ri');
			await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
			const result = await run('Request information', {
				resource: 'identification',
				operation: 'requestInformation',
				scanRef,
			});
			expectSuccess(result);
			// The service's answer: the re-upload link and its token.
			expect(nodeOutput(result, ACTION)[0].json).toMatchObject({
				sessionUrl: expect.stringContaining('/api/v2/redirect?authToken='),
				tokenString: stack.sandbox.kyc.get(scanRef)?.authToken,
			});
			expect(stack.sandbox.kyc.get(scanRef)?.state).toBe('REUPLOAD_REQUESTED');
		} finally {
			stack.sandbox.webhooks.configure({ url: webhookUrl, retryDelaysMs: [] });
			await sink.close();
		}
	});

	test('Bank → Create Token returns a valid token with the requested access', async () => {
		const result = await run('Bank token', {
			resource: 'bank',
			operation: 'createToken',
			lifetime: 600,
			country: 'LT',
			bank: 'Swedbank',
			accounts: true,
			balances: false,
			transactions: true,
		});
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		expect(typeof item.json.tokenString).toBe('string');
		expect(item.json.isValid).toBe(true);
		expect(item.json.country).toBe('LT');
		expect(item.json.access).toEqual({ accounts: true, balances: false, transactions: true });
		expect(Number.isNaN(Date.parse(item.json.expiration))).toBe(false);
	});

	test('Bank → List Transactions with Return All gives every transaction as its own item', async () => {
		const result = await run('All transactions', seededTransactions({ returnAll: true }));
		expectSuccess(result);
		const items = nodeOutput(result, ACTION);
		expect(items).toHaveLength(SEED.bank.transactions);
		// Every transaction, in the service's order (pages fetched in parallel are put back in order).
		expect(items.map((item) => item.json)).toEqual(
			transactionsRange(SEED.bank.accountId, 0, SEED.bank.transactions),
		);
		expect(items[0].json.creditor).toHaveProperty('fullName');
	});

	test('Bank → List Transactions with a Limit stops there', async () => {
		const result = await run(
			'Some transactions',
			seededTransactions({ returnAll: false, limit: 7 }),
		);
		expectSuccess(result);
		expect(nodeOutput(result, ACTION)).toHaveLength(7);
	});

	test('Proof of Address → Create Check uploads a file made in the workflow and reports a match', async () => {
		const result = await run('POA check', poaCheck(), withPng());
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		expect(item.json.overallStatus).toBe('MATCH');
		expect(item.json.nameMatch).toBe(true);
		expect(item.json.addressMatch).toBe(true);
		expect(item.json.providedName).toBe(SEED.poa.name);
		// The file n8n stored on disk arrived whole (read from the binary store as it was sent).
		expect(item.json.fileSizeBytes).toBe(Buffer.from(PNG_BASE64, 'base64').length);
	});

	test('Proof of Address → a different name is reported as NO_MATCH', async () => {
		const result = await run('POA check, wrong name', poaCheck('Petras Petraitis'), withPng());
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		expect(item.json.nameMatch).toBe(false);
		expect(item.json.overallStatus).toBe('NO_MATCH');
	});

	test('AML → Download Profile PDF puts the PDF in n8n’s binary data with its mime type and file name', async () => {
		const result = await run('AML PDF', {
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: SEED.aml.checkId,
			profileId: SEED.aml.profileId,
			password: SEED.aml.password,
			binaryPropertyName: 'report',
		});
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		const file = item.binary?.report;
		expect(file).toBeDefined();
		expect(file!.mimeType).toBe('application/pdf');
		expect(file!.fileName).toMatch(/\.pdf$/);
		expect(file!.fileExtension).toBe('pdf');
		// The file as the editor's Download button serves it.
		const download = await stack.rest.downloadBinary(file!.id);
		expect(download.status).toBe(200);
		expect(download.contentType).toMatch(/^application\/pdf/);
		expect(download.disposition).toContain(encodeURIComponent(file!.fileName));
		expect(download.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		// The very bytes the service sends for this profile, asked for directly.
		const direct = await fetch(
			`${stack.sandbox.url}/aml/checks/${SEED.aml.checkId}/profiles/${SEED.aml.profileId}/pdf/`,
			{
				method: 'POST',
				headers: {
					authorization: `Basic ${Buffer.from(`${stack.sandbox.credentials.apiKey}:${stack.sandbox.credentials.apiSecret}`).toString('base64')}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ password: SEED.aml.password }),
			},
		);
		expect(direct.status).toBe(200);
		const sent = Buffer.from(await direct.arrayBuffer());
		expect(download.bytes.length).toBe(sent.length);
		expect(sha256(download.bytes)).toBe(sha256(sent));
		// The size the node reports is the file's (n8n 1.x's binary data carries no byte count).
		expect(item.json.fileSize).toBe(sent.length);
	});

	test('KYB → Get Questionnaire Answers with the KYB form token returns the sections', async () => {
		const result = await run('KYB answers', {
			resource: 'kyb',
			operation: 'getAnswers',
			authentication: 'kybFormToken',
			companyId: SEED.kyb.companyId,
			questionnaireId: SEED.kyb.questionnaireId,
		});
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		expect(item.json.sections).toEqual(
			expect.objectContaining({ companyDetails: expect.any(Object) }),
		);
	});

	test('KYB → Delete Questionnaire Answers (API key) removes them', async () => {
		const form = stack.sandbox.kyb.seedForm();
		const result = await run('KYB delete answers', {
			resource: 'kyb',
			operation: 'deleteAnswers',
			authentication: 'apiKey',
			companyId: form.companyId,
			questionnaireId: form.questionnaireId,
		});
		expectSuccess(result);
		expect(nodeOutput(result, ACTION)[0].json).toEqual(
			expect.objectContaining({ deleted: true, companyId: form.companyId }),
		);
		const again = await run('KYB answers after delete', {
			resource: 'kyb',
			operation: 'getAnswers',
			authentication: 'apiKey',
			companyId: form.companyId,
			questionnaireId: form.questionnaireId,
		});
		expectSuccess(again);
		// The service answers 204 with no body for a questionnaire without answers.
		expect(nodeOutput(again, ACTION)[0].json).toEqual({});
	});

	test('KYB → Submit Form submits the form for review', async () => {
		// The submission's COMPANY_SUBMIT webhook goes to a local sink, not to the trigger.
		const sink = await startSink();
		stack.sandbox.webhooks.configure({ url: sink.url, retryDelaysMs: [] });
		try {
			const form = stack.sandbox.kyb.seedForm();
			expect(stack.sandbox.kyb.isSubmitted(form.formId)).toBe(false);
			const result = await run('KYB submit', {
				resource: 'kyb',
				operation: 'submitForm',
				authentication: 'kybFormToken',
				formId: form.formId,
			});
			expectSuccess(result);
			expect(nodeOutput(result, ACTION)).toHaveLength(1);
			expect(stack.sandbox.kyb.isSubmitted(form.formId)).toBe(true);
			while (stack.sandbox.webhooks.log.some((d) => d.status === 'pending'))
				await new Promise((resolve) => setTimeout(resolve, 10));
		} finally {
			stack.sandbox.webhooks.configure({ url: webhookUrl, retryDelaysMs: [] });
			await sink.close();
		}
	});

	test('an unknown id fails the execution with the service’s message and a hint, not a stack trace', async () => {
		const result = await run('Unknown bank account', {
			resource: 'bank',
			operation: 'listTransactions',
			verificationId: '00000000-0000-4000-8000-000000000000',
			accountId: '00000000-0000-4000-8000-000000000000',
			returnAll: false,
			limit: 5,
			options: {},
		});
		expect(result.ok).toBe(false);
		const error = result.run?.data.resultData.error;
		expect(error).toBeDefined();
		expect(`${error.message} ${error.description ?? ''}`).toMatch(/not found|404/i);
		expect(`${error.message} ${error.description ?? ''}`).not.toContain(
			stack.sandbox.credentials.apiSecret,
		);
		expect(result.run?.data.resultData.lastNodeExecuted).toBe(ACTION);
	});
});

describe('the trigger, activated in n8n, receiving the sandbox’s signed webhooks', () => {
	async function executionCount(): Promise<number> {
		return (await stack.rest.listExecutions(triggerWorkflowId)).length;
	}

	async function newestTriggerItem(
		count: number,
	): Promise<{ status: string; json: any; items: number }> {
		const done = await stack.rest.waitForExecutions(triggerWorkflowId, count);
		const newest = [...done].sort((a, b) => Number(b.id) - Number(a.id))[0];
		const exec = await stack.rest.getExecution(newest.id);
		const items = exec.data.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? [];
		return { status: exec.status, json: items[0]?.json, items: items.length };
	}

	// Version 1 of the trigger names the company review as it did before the provider's kinds.
	const v1 = (kind: EventType) => (kind === 'COMPANY_REVIEW' ? 'KYB_REVIEW_RESULT' : kind);

	test.each(SANDBOX_EVENT_TYPES.map((e) => [e]))(
		'%s becomes exactly one execution with the typed event',
		async (eventType: EventType) => {
			const before = await executionCount();
			const delivery = await stack.sandbox.webhooks.send(eventType);
			expect(delivery.status).toBe('delivered');
			expect(delivery.attempts.map((a) => a.statusCode)).toEqual([200]);
			const { status, json, items } = await newestTriggerItem(before + 1);
			expect(status).toBe('success');
			expect(items).toBe(1);
			expect(json.eventType).toBe(v1(eventType));
			expect(json.body).toEqual(JSON.parse(delivery.payload));
			expect(json.deliveryId).toMatch(/^[0-9a-f]{64}$/);
			expect(await executionCount()).toBe(before + 1);
		},
	);

	test('forged, unsigned and one-byte-changed deliveries get 401 and start nothing', async () => {
		const before = await executionCount();
		const body = JSON.stringify(stack.sandbox.webhooks.sampleBody('IDENTIFICATION_AUTO_FINISHED'));
		const key = stack.sandbox.credentials.signingKey;
		const post = (payload: string, headers: Record<string, string>) =>
			fetch(webhookUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: payload,
			});
		const eventHeader = { 'service-event-type': 'IDENTIFICATION_AUTO_FINISHED' };

		const forged = await post(body, {
			...eventHeader,
			'service-signature': sign(body, 'not-the-signing-key'),
		});
		const unsigned = await post(body, eventHeader);
		const changed = flipOneByte(body);
		expect(Buffer.from(changed).length).toBe(Buffer.from(body).length);
		expect(() => JSON.parse(changed)).not.toThrow();
		const oneByteChanged = await post(changed, {
			...eventHeader,
			'service-signature': sign(body, key),
		});
		expect([forged.status, unsigned.status, oneByteChanged.status]).toEqual([401, 401, 401]);
		expect(await forged.json()).toEqual(expect.objectContaining({ received: false }));

		// A correctly signed delivery afterwards is the barrier: once it has run, every earlier
		// request has been answered, so the count shows whether any of them started a workflow.
		const good = await post(body, { ...eventHeader, 'service-signature': sign(body, key) });
		expect(good.status).toBe(200);
		await newestTriggerItem(before + 1);
		expect(await executionCount()).toBe(before + 1);
	});

	test('a redelivery (the dashboard’s Resend) is acknowledged but starts no second execution', async () => {
		const before = await executionCount();
		const first = await stack.sandbox.webhooks.send('BANK_VERIFICATION', {
			...(stack.sandbox.webhooks.sampleBody('BANK_VERIFICATION') as object),
			id: 'a1b2c3d4-0000-4000-8000-00000000abcd',
		});
		expect(first.status).toBe('delivered');
		await newestTriggerItem(before + 1);

		const again = await stack.sandbox.webhooks.resend(first.id);
		expect(again.status).toBe('delivered');
		expect(again.payload).toBe(first.payload);
		expect(again.attempts.map((a) => a.statusCode)).toEqual([200]);

		// Barrier: a different delivery runs; the resend must not have added one of its own.
		await stack.sandbox.webhooks.send('ACCOUNT_CHECK');
		await newestTriggerItem(before + 2);
		expect(await executionCount()).toBe(before + 2);
	});
});

// Last in the file: by now every operation, the credential tests (with wrong secrets too) and the
// trigger have run, so n8n's log and the CLI runs' output hold everything they would ever log.
describe('logs', () => {
	test("no secret ever appears in n8n's log or in the output of the workflow runs", () => {
		const { apiKey, apiSecret, kybFormToken, signingKey } = stack.sandbox.credentials;
		const secrets = {
			apiSecret,
			'base64 of key:secret': Buffer.from(`${apiKey}:${apiSecret}`).toString('base64'),
			kybFormToken,
			signingKey,
			'a wrong API secret tried in a credential test': 'wrong-secret-123456',
		};
		const serverLog = readFileSync(stack.n8n.logFile, 'utf8');
		expect(serverLog).toContain('Editor is now accessible');
		// (needs the workflow runs above: run the whole file, not this test alone)
		expect(cliOutputs.length).toBeGreaterThan(0);
		const logs = { "n8n's log": serverLog, 'workflow runs': cliOutputs.join('\n') };
		const leaks: string[] = [];
		for (const [where, text] of Object.entries(logs)) {
			for (const [name, secret] of Object.entries(secrets)) {
				if (text.includes(secret)) leaks.push(`${name} in ${where}`);
			}
		}
		expect(leaks).toEqual([]);
	});
});

/** The same JSON text with one byte changed inside the first string value (still valid JSON). */
function flipOneByte(text: string): string {
	const bytes = Buffer.from(text, 'utf8');
	const match = /":"[A-Za-z0-9]/.exec(text);
	if (!match) throw new Error(`no string value to change in ${text}`);
	const at = Buffer.byteLength(text.slice(0, match.index + 3));
	bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
	return bytes.toString('utf8');
}

/** A loopback receiver that answers every webhook with 200 (for deliveries not meant for n8n). */
async function startSink(): Promise<{ url: string; close(): Promise<void> }> {
	const server: Server = createServer((req, res) => {
		req.resume();
		req.on('end', () => res.end('{"received":true}'));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/sink`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** A loopback proxy that records the bytes of every connection made to it, and answers 502. */
interface ProxyRecorder {
	url: string;
	received: string[];
	close(): Promise<void>;
}

async function startProxyRecorder(): Promise<ProxyRecorder> {
	const received: string[] = [];
	const server = createNetServer((socket) => {
		let seen = '';
		socket.on('data', (chunk: Buffer) => {
			if (seen === '') received.push('');
			seen += chunk.toString('latin1');
			received[received.length - 1] = seen;
			socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
		});
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** An https service on loopback with a self-signed certificate (made by openssl), answering 404. */
async function startTlsService(): Promise<{ url: string; ca: string; close(): Promise<void> }> {
	const dir = mkdtempSync(path.join(tmpdir(), 'idv-tls-'));
	const made = spawnSync('openssl', [
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-days',
		'1',
		'-subj',
		'/CN=127.0.0.1',
		'-addext',
		'subjectAltName=IP:127.0.0.1',
		'-keyout',
		path.join(dir, 'key.pem'),
		'-out',
		path.join(dir, 'cert.pem'),
	]);
	if (made.status !== 0) throw new Error(`openssl is needed for this test: ${String(made.stderr)}`);
	const ca = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
	const server = createHttpsServer(
		{ key: readFileSync(path.join(dir, 'key.pem')), cert: ca },
		(_req, res) =>
			res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}'),
	);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	rmSync(dir, { recursive: true, force: true });
	return {
		url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
		ca,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
