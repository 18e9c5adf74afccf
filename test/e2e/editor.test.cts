// The package in n8n's real editor (Debian's Chromium through playwright-core, see
// test/browser/editor.cts), one n8n for the whole file:
//  - every action added from the nodes panel offers the credential types its operation
//    uses and selects the existing credential; saved workflows show the credential by name; the AI
//    tool variant offers the same credential;
//  - `npm run screenshots` (test/browser/screenshots.cts) runs here too, into a temporary
//    folder, and fails when the nodes are not listed, an icon does not load or a workflow errors.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { on2x } from '../n8n/runtime.cjs';
import { CREDENTIALS, NODE_TYPES, startStack, type Stack } from '../n8n/stack.cjs';
import {
	addActionFromPanel,
	closeNode,
	launchBrowser,
	ndv,
	newWorkflow,
	openEditor,
	openNode,
	openWorkflow,
	readCredentialSlots,
	selectCredential,
	setOption,
	type Editor,
} from '../browser/editor.cjs';
import {
	connectDemoWorkflows,
	screenshotStackOptions,
	takeScreenshots,
} from '../browser/screenshots.cjs';
import {
	FIRST_HOUR_NODES,
	executeOpenStep,
	parameterHint,
	searchCredentialTypes,
	searchWhatHappensNext,
	takeFirstHourPictures,
} from '../browser/firstHour.cjs';
import { exampleWorkflow } from '../n8n/examples.cjs';
import { lineUp, node } from '../n8n/workflow.cjs';
import { IdentityVerificationApi } from '../../credentials/IdentityVerificationApi.credentials';
import { IdentityVerificationKybFormTokenApi } from '../../credentials/IdentityVerificationKybFormTokenApi.credentials';
import { NODE_DESCRIPTION } from '../../nodes/shared/nodeDescription';

const API = `${CREDENTIALS.api.name} (Identity Verification API)`;
const FORM_TOKEN = `${CREDENTIALS.kybFormToken.name} (Identity Verification KYB Form Token API)`;
const SIGNING = `${CREDENTIALS.webhookSigning.name} (Identity Verification Webhook Signing API)`;

/** The actions as the nodes panel names them, and the credential each offers by default. */
const ACTIONS: Array<[action: string, offered: string]> = [
	['Create a verification token', API],
	['Request more information for a verification', API],
	['Get the status of a verification', API],
	// It sends no request: it only checks the signature of the result that resumes it.
	['Wait for the verification result', SIGNING],
	['Create a bank token', API],
	['List bank transactions', API],
	['Create a proof of address check', API],
	['Download an AML profile PDF', API],
	['Create an AML check', API],
	['Get an AML check profile', API],
	['Download an AML check PDF', API],
	['Create an AML monitoring', API],
	['Get an AML monitoring', API],
	['Get many AML monitorings', API],
	['Update an AML monitoring', API],
	['Delete an AML monitoring', API],
	['Start an AML monitoring', API],
	['Stop an AML monitoring', API],
	['Download an AML monitoring PDF', API],
	['Remove a profile from an AML monitoring', API],
	['Get questionnaire answers', API],
	['Delete questionnaire answers', API],
	['Submit a KYB form', API],
	['Create a KYB session', API],
	['Get all answers of a KYB form', API],
	['Get many KYB beneficiaries', API],
	['Get a KYB company', API],
	['Get many KYB companies', API],
	['Set a KYB review decision', API],
	['Download a KYB company PDF', API],
	['Delete a KYB company', API],
];

const TOOL_WORKFLOW = {
	id: 'idvEditorToolTest',
	name: 'Editor test: AI agent with the Identity Verification tool',
	nodes: [
		{
			id: 'a1',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			position: [400, 300],
			parameters: {},
		},
		{
			id: 'a2',
			name: 'List Transactions Tool',
			type: NODE_TYPES.tool,
			typeVersion: 1,
			position: [480, 520],
			parameters: { resource: 'bank', operation: 'listTransactions' },
		},
	],
	connections: {
		'List Transactions Tool': {
			ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]],
		},
	},
	settings: { executionOrder: 'v1' },
};

/**
 * The browser helpers (test/browser/editor.cts) drive n8n 2.x's editor (its nodes panel, node
 * panel and credential modal), and the AI tool workflow uses AI Agent 3.1: both 2.x only.
 */
const editorRuns = on2x(
	'n8n 2.x’s editor and AI Agent 3.1',
	'every editor test in this file (the browser helpers drive the 2.x editor)',
);
/** This file's `describe`: jest's on n8n 2.x, `describe.skip` on 1.x (so nothing here runs there). */
const describe = editorRuns ? globalThis.describe : globalThis.describe.skip;

let stack: Stack;
let browser: Browser;
let editor: Editor;

beforeAll(async () => {
	if (!editorRuns) return;
	browser = await launchBrowser();
	const demo = screenshotStackOptions();
	stack = await startStack({
		workflows: [...(demo.workflows ?? []), TOOL_WORKFLOW],
		publish: demo.publish,
		log: (m) => process.stderr.write(`[editor e2e] ${m}\n`),
	});
	await connectDemoWorkflows(stack);
	editor = await openEditor(browser, stack.n8n.url, stack.owner);
}, 20 * 60_000);

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
}, 60_000);

describe('credentials in the editor: each action offers the credential types its operation accepts', () => {
	test.each(ACTIONS)(
		'"%s" added from the nodes panel offers and selects %s',
		async (action, credential) => {
			await newWorkflow(editor);
			await addActionFromPanel(editor, action);
			expect(await readCredentialSlots(editor)).toEqual([
				{
					selected: credential.slice(0, credential.indexOf(' (Identity Verification ')),
					offered: [credential],
				},
			]);
		},
		180_000,
	);

	test('KYB with Authentication = Form Token Credential offers only the form token credential, API Key only the API key', async () => {
		await newWorkflow(editor);
		await addActionFromPanel(editor, 'Get questionnaire answers');
		await setOption(editor, 'authentication', 'Form Token Credential');
		// n8n selects a credential by itself only when a node is added, not when its auth changes.
		const [formToken, ...more] = await readCredentialSlots(editor);
		expect(more).toEqual([]);
		expect(formToken.offered).toEqual([FORM_TOKEN]);
		await selectCredential(editor, CREDENTIALS.kybFormToken.name);
		expect(await readCredentialSlots(editor)).toEqual([
			{ selected: CREDENTIALS.kybFormToken.name, offered: [FORM_TOKEN] },
		]);
		await setOption(editor, 'authentication', 'API Key');
		const [apiKey, ...others] = await readCredentialSlots(editor);
		expect(others).toEqual([]);
		expect(apiKey.offered).toEqual([API]);
	}, 180_000);

	test('KYB with Authentication = Form Token shows the Form Token field and asks for no form token credential, only the API key (its Base URL)', async () => {
		await newWorkflow(editor);
		await addActionFromPanel(editor, 'Get many KYB beneficiaries');
		await setOption(editor, 'authentication', 'Form Token');
		await ndv(editor.page).getByTestId('parameter-input-formToken').waitFor();
		const [slot, ...more] = await readCredentialSlots(editor);
		expect(more).toEqual([]);
		expect(slot.offered).toEqual([API]);
	}, 180_000);

	test('saved example workflows show their credential by name, not by id', async () => {
		await openWorkflow(editor, exampleWorkflow('nightly-bank-transactions-to-sheets.json').id);
		await openNode(editor, 'List Transactions');
		expect(await readCredentialSlots(editor)).toEqual([
			{ selected: CREDENTIALS.api.name, offered: [API] },
		]);
		await closeNode(editor);
		await openWorkflow(editor, exampleWorkflow('kyb-answers-then-submit.json').id);
		await openNode(editor, 'Submit Form');
		expect(await readCredentialSlots(editor)).toEqual([
			{ selected: CREDENTIALS.kybFormToken.name, offered: [FORM_TOKEN] },
		]);
	}, 180_000);

	test('the AI tool variant offers the API credential', async () => {
		await openWorkflow(editor, TOOL_WORKFLOW.id);
		await openNode(editor, 'List Transactions Tool');
		const [slot, ...more] = await readCredentialSlots(editor);
		expect(more).toEqual([]);
		expect(slot.offered).toEqual([API]);
	}, 180_000);
});

/** A saved workflow (manual trigger, then the step) opened on the step. */
async function openStep(step: ReturnType<typeof node>): Promise<void> {
	const nodes = [node('Start', 'n8n-nodes-base.manualTrigger', 1, {}), step];
	const id = await stack.rest.createWorkflow({
		name: `Editor test: ${step.name}`,
		nodes,
		connections: lineUp(nodes),
	});
	await openWorkflow(editor, id);
	await openNode(editor, step.name);
}

describe('the first hour: finding the nodes and the credentials', () => {
	test.each([
		'idenfy',
		'KYC',
		'KYB',
		'AML',
		'wait for',
		'wait for verification result',
		'verification result',
	])(
		'"What happens next?" searched for "%s" lists the package, described by what the action node does',
		async (words) => {
			const { entries } = await searchWhatHappensNext(stack, editor, words);
			expect(entries).toContainEqual({
				name: 'Identity Verification',
				description: NODE_DESCRIPTION,
			});
		},
		180_000,
	);

	// The credentials keep the product's neutral names (n8n's dialog searches display names only).
	test('the "Add new credential" dialog searched for "identity verification" offers the API and the KYB form token credentials', async () => {
		const { offered } = await searchCredentialTypes(editor, 'identity verification');
		expect(offered).toEqual(
			expect.arrayContaining([
				new IdentityVerificationApi().displayName,
				new IdentityVerificationKybFormTokenApi().displayName,
			]),
		);
		await editor.page.keyboard.press('Escape');
	}, 180_000);
});

describe('the first hour: what the fields say', () => {
	test('Wait for Result shows under Scan Reference to leave it empty after the token step', async () => {
		await openStep(FIRST_HOUR_NODES.waitForResult());
		expect(await parameterHint(editor, 'scanRef')).toMatch(
			/^Leave empty when a Create Verification Token step with "Send the Result to This Workflow" on runs before this one/,
		);
		await closeNode(editor);
	}, 180_000);

	test('Create Verification Token shows which output is the link, and the unit of Expiry Time and Session Length', async () => {
		await openStep(
			FIRST_HOUR_NODES.token({ tokenFields: { expiryTime: 3600, sessionLength: 600 } }),
		);
		const panel = editor.page.getByTestId('ndv');
		await panel.getByText(/^Send the person the link in verificationUrl/).waitFor();
		expect(await parameterHint(editor, 'expiryTime')).toMatch(
			/^The link stops working .* 3600 = 1 hour/,
		);
		expect(await parameterHint(editor, 'sessionLength')).toMatch(
			/opens the link: 600 = 10 minutes/,
		);
		await closeNode(editor);
	}, 180_000);

	test('AML Download Profile PDF says the password is one the user chooses', async () => {
		await openStep(FIRST_HOUR_NODES.amlPdf());
		expect(await parameterHint(editor, 'password')).toMatch(/^A password you choose/);
		await closeNode(editor);
	}, 180_000);

	test('KYB Get Questionnaire Answers with Simplify shows one row per answer with the company ID', async () => {
		await openStep(FIRST_HOUR_NODES.kybAnswers({ simplify: true }));
		await executeOpenStep(editor, 'table');
		const output = editor.page.getByTestId('ndv').getByTestId('output-panel');
		expect(await output.getByTestId('ndv-items-count').innerText()).toMatch(/^1\d items$/);
		await output.getByText('companyId', { exact: true }).first().waitFor();
		await output.getByText('legalName', { exact: true }).first().waitFor();
		await closeNode(editor);
	}, 180_000);

	test('Create Verification Token with "Send the Result to This Workflow" runs alone before a Wait for Result exists, and says what the wait needs', async () => {
		await openStep(FIRST_HOUR_NODES.token({ sendResultToWorkflow: true }));
		await executeOpenStep(editor);
		const output = editor.page.getByTestId('ndv').getByTestId('output-panel');
		await output
			.getByText(/^Send the Result to This Workflow: this test run made the token/)
			.waitFor();
		expect(await output.getByTestId('node-error-message').count()).toBe(0);
		await output.getByText('verificationUrl').first().waitFor();
		await closeNode(editor);
	}, 180_000);
});

describe('numbers as the user types them', () => {
	test('Lifetime keeps 99999999 as typed: no editor bound changes it, so the run names the range', async () => {
		await newWorkflow(editor);
		await addActionFromPanel(editor, 'Create a bank token');
		const input = editor.page
			.getByTestId('ndv')
			.getByTestId('parameter-input-lifetime')
			.locator('input')
			.first();
		await input.fill('99999999');
		await input.press('Tab');
		expect(await input.inputValue()).toMatch(/^99,?999,?999$/);
		await closeNode(editor);
	}, 180_000);
});

describe('what users see: the screenshots run against real n8n', () => {
	test(
		'npm run screenshots: nodes panel with icons, action, trigger, credential test, every example workflow (after a run without error when the demo runs it)',
		async () => {
			const dir = mkdtempSync(path.join(tmpdir(), 'idv-screenshots-'));
			try {
				const pictures = await takeScreenshots(stack, editor, dir);
				expect(pictures.map((p) => p.file)).toEqual([
					'nodes-panel.png',
					'action-list-transactions.png',
					'trigger-node.png',
					'schema-view-sample-event.png',
					'credential-api-tested.png',
					'trigger-result-item.png',
					'http-request-credential.png',
					'workflow-01-onboarding-create-verification-token.png',
					'workflow-02-onboarding-route-verification-results.png',
					'workflow-03-bank-scheduled-transaction-pull.png',
					'workflow-04-aml-screening-on-entry-and-monthly.png',
					'workflow-05-proof-of-address-check-file.png',
					'workflow-06-kyb-answers-then-submit.png',
					'workflow-07-onboarding-in-one-workflow.png',
					'workflow-08-aml-monitoring-alert-triage.png',
					'workflow-09-kyb-onboarding-with-slack-approval.png',
					'workflow-10-erasure-request.png',
					'workflow-11-evidence-on-approval.png',
					'workflow-12-reverification-on-document-expiry.png',
					'workflow-13-kyb-company-events.png',
					'workflow-14-bank-transactions-on-connect.png',
					'workflow-15-reupload-request-on-denied.png',
					'workflow-16-verification-results-with-nightly-catch-up.png',
					'workflow-17-retention-purge.png',
					'workflow-18-evidence-pack-per-customer.png',
					'workflow-19-abandonment-reminder.png',
				]);
				expect(readdirSync(dir).sort()).toEqual(pictures.map((p) => p.file).sort());
				expect(editor.brokenIcons).toEqual([]);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		},
		15 * 60_000,
	);

	test(
		'npm run screenshots -- --first-hour: every first-hour picture',
		async () => {
			const dir = mkdtempSync(path.join(tmpdir(), 'idv-first-hour-'));
			try {
				const pictures = await takeFirstHourPictures(stack, editor, dir);
				expect(readdirSync(dir).sort()).toEqual(pictures.map((p) => p.file).sort());
				expect(pictures).toHaveLength(10);
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		},
		15 * 60_000,
	);

	test("n8n serves the trigger's output schema where its /schemas route looks for a node without resource/operation", async () => {
		const res = await fetch(`${stack.n8n.url}/schemas/${NODE_TYPES.trigger}/1.0.0.json`);
		expect(res.status).toBe(200);
		const schema = (await res.json()) as { properties: Record<string, unknown> };
		expect(Object.keys(schema.properties)).toEqual(
			expect.arrayContaining(['eventType', 'final', 'overallStatus', 'scanRef', 'body']),
		);
	});
});
