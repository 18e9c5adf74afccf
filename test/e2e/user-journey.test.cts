// End-to-end, on both n8n lines: a compliance officer's day in real n8n with the sandbox, done only
// the way a person does it: workflows saved and run in n8n (Manual Trigger → this package's node,
// run as "Execute workflow" does with `n8n execute`), a published workflow with the Identity
// Verification Trigger receiving the results, and the sandbox's own HTML pages, the verification
// page clicked in Chromium and the KYB form posted as a browser posts it. The test itself makes no
// call to the sandbox's service API or its admin API; it only reads results back to check them.
//
// 1. A workflow starts a verification (Create Verification Token, its Callback URL the trigger's
//    Production URL).
// 2. The person finishes it as approved on the verification page: the trigger's workflow runs with
//    APPROVED.
// 3. Another person's link is expired on its page ("Expire now"): the trigger runs with EXPIRED, and
//    a workflow erases the verification (Delete Personal Data).
// 4. A workflow screens the sandbox's listed name (AML Check → Create): the output has the hit.
// 5. A workflow creates a KYB session; the company fills in and submits the form its `formUrl`
//    opens; a workflow finds the company, approves it and reads it back approved.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';

import { launchBrowser } from '../browser/editor.cjs';
import { execute, nodeOutput, waitForWebhook } from '../n8n/runtime.cjs';
import {
	NODE_TYPES,
	credentialRef,
	productionWebhookUrl,
	startStack,
	type Stack,
	type WorkflowNode,
} from '../n8n/stack.cjs';
import { lineUp, node, TRIGGER, triggerNode } from '../n8n/workflow.cjs';
import { expectSuccess } from './helpers.cjs';

const log = (m: string) => process.stderr.write(`[e2e journey] ${m}\n`);

let stack: Stack;
let browser: Browser;
let page: Page;

/** The published workflow that receives every result: the trigger alone, at its defaults. */
const TRIGGER_WEBHOOK_ID = randomUUID();
let triggerWorkflowId: string;
let resultsUrl: string;

beforeAll(async () => {
	// kybFormLinks: the session answer carries the sandbox's own form page as formUrl (as the demo).
	stack = await startStack({ sandbox: { kybFormLinks: true }, log });
	browser = await launchBrowser();
	page = await (await browser.newContext()).newPage();
	page.setDefaultTimeout(60_000);
	const trigger = { ...triggerNode(TRIGGER_WEBHOOK_ID), typeVersion: 1.1 };
	trigger.parameters = { events: [], options: {} };
	triggerWorkflowId = await stack.rest.createWorkflow({
		name: 'Verification results',
		nodes: [trigger],
		connections: {},
	});
	// Publish it, as the editor's toggle does; n8n serves its Production URL a moment later.
	await stack.rest.activate(triggerWorkflowId);
	resultsUrl = productionWebhookUrl(stack.n8n.url, { webhookId: TRIGGER_WEBHOOK_ID });
	await waitForWebhook(resultsUrl);
}, 20 * 60_000);

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
}, 60_000);

/** This package's action node (the version the nodes panel adds) with the sandbox API key. */
const action = (name: string, parameters: Record<string, unknown>): WorkflowNode =>
	node(name, NODE_TYPES.action, 2, parameters, { credentials: credentialRef('api') });

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** A workflow of a Manual Trigger and the steps after it, saved, then run as "Execute workflow". */
async function run(name: string, steps: WorkflowNode[]) {
	const nodes = [node('When clicking ‘Execute workflow’', 'n8n-nodes-base.manualTrigger', 1, {})];
	nodes.push(...steps);
	const id = await stack.rest.createWorkflow({ name, nodes, connections: lineUp(nodes) });
	const result = await execute(stack.userFolder, id);
	expectSuccess(result);
	return (step: string) => nodeOutput(result, step).map((item) => item.json);
}

/** Step 1: the workflow that starts a verification, its results to the published trigger. */
async function startVerification(clientId: string) {
	const out = await run(`Verify ${clientId}`, [
		action('Create Verification Token', {
			resource: 'identification',
			operation: 'createVerificationToken',
			clientId,
			tokenFields: { callbackUrl: resultsUrl },
			simplify: true,
		}),
	]);
	const [token] = out('Create Verification Token');
	expect(token).toMatchObject({
		clientId,
		scanRef: expect.any(String),
		callbackUrl: resultsUrl,
		verificationUrl: expect.stringContaining('/api/v2/redirect?authToken='),
	});
	return token as { scanRef: string; verificationUrl: string };
}

/** The trigger workflow's run started by the result of `scanRef`, once it has ended. */
async function resultRun(scanRef: string, eventType: string) {
	const deadline = Date.now() + 60_000;
	for (;;) {
		for (const summary of await stack.rest.listExecutions(triggerWorkflowId)) {
			if (['new', 'running', 'waiting'].includes(summary.status)) continue;
			const execution = await stack.rest.getExecution(summary.id);
			const item = execution.data.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0]?.[0]?.json;
			if (item?.scanRef === scanRef && item?.eventType === eventType)
				return { status: execution.status, item };
		}
		if (Date.now() > deadline)
			throw new Error(`the trigger's workflow did not run with ${eventType} of ${scanRef}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** The person opens the link and presses one of the page's buttons; resolves with what it says. */
async function choose(verificationUrl: string, button: string, resultTitle: string) {
	await page.goto(verificationUrl);
	await page.getByRole('heading', { name: 'Identity verification (sandbox)' }).waitFor();
	// The page says where the result goes before anything is pressed.
	expect(await page.locator('body').innerText()).toContain(resultsUrl);
	await page.getByRole('button', { name: button, exact: true }).click();
	await page.getByRole('heading', { name: resultTitle }).waitFor();
	return await page.locator('body').innerText();
}

test('a verification started in n8n, finished as approved on its page: the trigger’s workflow runs with APPROVED', async () => {
	const { scanRef, verificationUrl } = await startVerification('customer-1001');
	const said = await choose(verificationUrl, 'Finish as approved', 'Verification approved');
	expect(said).toContain('IDENTIFICATION_AUTO_FINISHED with overall status APPROVED');
	expect(said).toMatch(/the token’s Callback URL\): answered HTTP 200 \(accepted\)/);
	const { status, item } = await resultRun(scanRef, 'IDENTIFICATION_AUTO_FINISHED');
	expect(status).toBe('success');
	expect(item).toMatchObject({ clientId: 'customer-1001', overallStatus: 'APPROVED' });
	expect(stack.sandbox.kyc.get(scanRef)?.state).toBe('FINISHED');
}, 180_000);

test('a link expired on its page (“Expire now”), then a workflow erases the verification', async () => {
	const { scanRef, verificationUrl } = await startVerification('customer-1002');
	const said = await choose(verificationUrl, 'Expire now', 'Verification expired');
	expect(said).toContain('Delete Personal Data now removes the verification’s data');
	const { item } = await resultRun(scanRef, 'IDENTIFICATION_EXPIRED');
	expect(item).toMatchObject({ clientId: 'customer-1002', overallStatus: 'EXPIRED' });

	const out = await run('Erase customer-1002', [
		action('Delete Personal Data', {
			resource: 'identification',
			operation: 'deletePersonalData',
			scanRef: byId(scanRef),
		}),
	]);
	expect(out('Delete Personal Data')).toEqual([
		expect.objectContaining({ scanRef, deleted: true, alreadyDeleted: false }),
	]);
	expect(stack.sandbox.kyc.get(scanRef)?.deletedAt).toBeDefined();
	// The link's page now says the verification has ended, with nothing left to press.
	await page.goto(verificationUrl);
	await page.getByRole('heading', { name: 'This verification has ended' }).waitFor();
	expect(await page.getByRole('button').count()).toBe(0);
}, 180_000);

test('a workflow screens the sandbox’s listed name: the AML check has its hit', async () => {
	const out = await run('Screen Aleksandr Volkov', [
		action('Screen against AML lists', {
			resource: 'aml',
			operation: 'create',
			userType: 'PERSON',
			clientId: 'customer-1003',
			fullName: 'Aleksandr Volkov',
			dateOfBirth: '1968-02-11',
		}),
	]);
	const [check] = out('Screen against AML lists');
	expect(check).toMatchObject({ overallStatus: 'FLAGS_FOUND', hitCount: 1 });
	expect(check.amlCheck).toEqual([
		expect.objectContaining({ name: expect.stringContaining('Volkov') }),
	]);
}, 180_000);

/** The fields a browser posts for the page's one form: its inputs, checked boxes only. */
function formFields(html: string): URLSearchParams {
	const unescape = (text: string) =>
		text
			.replace(/&quot;/g, '"')
			.replace(/&#39;/g, "'")
			.replace(/&lt;/g, '<')
			.replace(/&gt;/g, '>')
			.replace(/&amp;/g, '&');
	const fields = new URLSearchParams();
	for (const [tag] of html.matchAll(/<input\b[^>]*>/g)) {
		const attribute = (name: string) =>
			new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? undefined;
		const name = attribute('name');
		if (name === undefined) continue;
		if (attribute('type') === 'checkbox' && !/\schecked\b/.test(tag)) continue;
		fields.append(unescape(name), unescape(attribute('value') ?? ''));
	}
	return fields;
}

test('a KYB session from n8n, the form filled in and submitted by the company, then found, approved and read back approved in n8n', async () => {
	const session = await run('KYB for deal-2001', [
		action('Create Session', {
			resource: 'kyb',
			operation: 'createSession',
			clientId: 'deal-2001',
		}),
	]);
	const [{ formUrl }] = session('Create Session');
	expect(formUrl).toMatch(new RegExp(`^${stack.sandbox.url}/kyb-ui/welcome\\?authToken=`));

	// The company opens its link, fills in its details and owner, and submits.
	const form = await fetch(formUrl);
	expect(form.status).toBe(200);
	const html = await form.text();
	const formAction = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
	expect(formAction).toBeDefined();
	const fields = formFields(html);
	fields.set('companyName', 'UAB Vilniaus Duona');
	fields.set('registrationNumber', '304777111');
	fields.set('owner0.name', 'Rūta');
	fields.set('owner0.surname', 'Žukauskienė');
	fields.set('owner0.ownershipPercentage', '60');
	fields.set('owner1.ownershipPercentage', '40');
	const submitted = await fetch(new URL(formAction!, formUrl), {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: fields.toString(),
	});
	const answer = await submitted.text();
	expect({ status: submitted.status, answer }).toEqual({
		status: 200,
		answer: expect.stringContaining('Form submitted'),
	});
	const companyId = /is company <code>([^<]+)<\/code>/.exec(answer)?.[1];
	expect(companyId).toEqual(expect.any(String));

	// The reviewer finds the company by its registration number, approves it and reads it again.
	const review = await run('Approve UAB Vilniaus Duona', [
		action('Find the company', {
			resource: 'kybCompany',
			operation: 'getAll',
			returnAll: true,
			filters: { registrationNumber: '304777111' },
			simplify: true,
		}),
		action('Approve', {
			resource: 'kybCompany',
			operation: 'setReviewDecision',
			companyId: byId('={{ $json.id }}'),
			decision: 'APPROVED',
		}),
		action('Read it again', {
			resource: 'kybCompany',
			operation: 'get',
			companyId: byId("={{ $('Find the company').item.json.id }}"),
			simplify: true,
		}),
	]);
	expect(review('Find the company')).toEqual([
		expect.objectContaining({
			id: companyId,
			companyName: 'UAB Vilniaus Duona',
			status: 'NEED_TO_REVIEW',
		}),
	]);
	expect(review('Approve')).toEqual([
		expect.objectContaining({
			companyId,
			status: 'COMPLETED',
			reviewInfo: expect.objectContaining({ approvalStatus: 'APPROVED' }),
		}),
	]);
	expect(review('Read it again')).toEqual([
		expect.objectContaining({ id: companyId, status: 'COMPLETED', approvalStatus: 'APPROVED' }),
	]);
	// What the company typed is what was recorded.
	const record = stack.sandbox.kyb.company(companyId!);
	expect(record?.info).toMatchObject({
		companyName: 'UAB Vilniaus Duona',
		registrationNumber: '304777111',
	});
	expect(record?.beneficiaries.map((owner) => [owner.surname, owner.ownershipPercentage])).toEqual([
		['Žukauskienė', 60],
		['Onaitė', 40],
	]);
}, 180_000);
