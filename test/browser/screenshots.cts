// The pictures of the package in n8n's real editor (docs/images, for the README): the nodes panel, an
// action, the trigger, the credential test, the HTTP Request node offering the credential and every
// example workflow, 1280x800 PNGs from Debian's Chromium (test/browser/editor.cts). The editor test
// (test/e2e/editor.test.cts) takes them into a temporary folder and fails when the editor does not
// list the nodes, an icon does not load or a workflow ends in error; `npm --prefix lab run
// screenshots` (lab/screenshots.cts) takes them into docs/images.
import { mkdirSync, readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IdentityVerificationApi } from '../../credentials/IdentityVerificationApi.credentials';
import { IdentityVerification } from '../../nodes/IdentityVerification/IdentityVerification.node';
import { EVENT_TYPES } from '../../nodes/shared/contract';
import { ROOT } from '../n8n/runtime.cjs';
import {
	demoStackOptions,
	demoWorkflows,
	runsInDemo,
	type DemoWorkflow,
	type ExampleWorkflow,
} from '../n8n/examples.cjs';
import {
	NODE_TYPES,
	connectTrigger,
	credentialRef,
	isSignupWorkflow,
	isTriggerWorkflow,
	runSignupApproved,
	signupUrl,
	waitForSignup,
	type Stack,
} from '../n8n/stack.cjs';
import { lineUp, node } from '../n8n/workflow.cjs';
import { SEED } from '../sandbox/index.cjs';
import {
	brokenPackageImages,
	closeNode,
	ndv,
	newWorkflow,
	openNode,
	openPackageInPanel,
	openWorkflow,
	setOption,
	type Editor,
} from './editor.cjs';
import { takeFirstHourPictures } from './firstHour.cjs';

/** The trigger's Events choices: every kind, and any final identification result. */
const EVENT_TYPE_CHOICES = EVENT_TYPES.length + 1;

/** The API credential's name as n8n shows it. */
const API_CREDENTIAL = new IdentityVerificationApi().displayName;
/** The trigger's documented sample event, as n8n's mock data editor takes it (a list of items). */
const SAMPLE_EVENT_FILE = path.join(ROOT, 'docs', 'sample-event.json');

/** The actions the nodes panel lists: every operation's action, as the node describes it. */
const ACTION_NAMES = new IdentityVerification().description.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) => (p.options ?? []) as Array<{ action?: string }>)
	.map((o) => o.action)
	.filter((a): a is string => a !== undefined);

export interface Picture {
	file: string;
	shows: string;
}

/**
 * The picture of each example workflow, by its file in workflows/. The names stay those of the
 * README's pictures of the same jobs; the numbers give the README's order.
 */
const WORKFLOW_PICTURES: Record<string, string> = {
	'verification-link-by-email.json': 'workflow-01-onboarding-create-verification-token.png',
	'verification-results-to-slack-and-hubspot.json':
		'workflow-02-onboarding-route-verification-results.png',
	'nightly-bank-transactions-to-sheets.json': 'workflow-03-bank-scheduled-transaction-pull.png',
	'aml-screening-on-entry-and-monthly.json': 'workflow-04-aml-screening-on-entry-and-monthly.png',
	'proof-of-address-check-file.json': 'workflow-05-proof-of-address-check-file.png',
	'kyb-answers-then-submit.json': 'workflow-06-kyb-answers-then-submit.png',
	'onboarding-in-one-workflow.json': 'workflow-07-onboarding-in-one-workflow.png',
	'aml-monitoring-alert-triage.json': 'workflow-08-aml-monitoring-alert-triage.png',
	'kyb-onboarding-with-slack-approval.json': 'workflow-09-kyb-onboarding-with-slack-approval.png',
	'erasure-request-by-form.json': 'workflow-10-erasure-request.png',
	'evidence-on-approval-to-drive.json': 'workflow-11-evidence-on-approval.png',
	'reverification-on-document-expiry.json': 'workflow-12-reverification-on-document-expiry.png',
	'kyb-company-events.json': 'workflow-13-kyb-company-events.png',
	'bank-transactions-on-connect.json': 'workflow-14-bank-transactions-on-connect.png',
	'reupload-request-on-denied.json': 'workflow-15-reupload-request-on-denied.png',
	'verification-results-with-nightly-catch-up.json':
		'workflow-16-verification-results-with-nightly-catch-up.png',
	'retention-purge.json': 'workflow-17-retention-purge.png',
	'evidence-pack-per-customer.json': 'workflow-18-evidence-pack-per-customer.png',
	'abandonment-reminder.json': 'workflow-19-abandonment-reminder.png',
};

/**
 * Stack options the pictures need: the demo's, except that runs started in the editor are kept
 * (examples holding personal data keep none), so that a run can be read back and checked.
 */
export function screenshotStackOptions(): ReturnType<typeof demoStackOptions> {
	const options = demoStackOptions();
	return {
		...options,
		workflows: (options.workflows as ExampleWorkflow[]).map((w) => ({
			...w,
			settings: { ...w.settings, saveManualExecutions: true },
		})),
	};
}

/** The example workflow started by this package's trigger (its node shows the trigger's URL). */
// The identification results' workflow: its trigger is the one the sample event and the README show.
const triggerExample = () =>
	demoWorkflows().find((w) => w.file === 'verification-results-to-slack-and-hubspot.json')!;

function check(condition: boolean, message: string): void {
	if (!condition) throw new Error(message);
}

async function save(
	editor: Editor,
	dir: string,
	file: string,
	shows: string,
	only?: Locator,
): Promise<Picture> {
	const broken = [...(await brokenPackageImages(editor.page)), ...editor.brokenIcons];
	check(broken.length === 0, `icons of the package did not load for ${file}: ${broken.join(', ')}`);
	// Finished transitions (panels sliding in, toasts), not a frame in the middle of one.
	await (only ?? editor.page).screenshot({ path: path.join(dir, file), animations: 'disabled' });
	return { file, shows };
}

async function nodesPanel(editor: Editor, dir: string): Promise<Picture> {
	const { page } = editor;
	// A taller window for this one picture, so that every trigger event and action shows.
	await page.setViewportSize({ width: 1280, height: 4000 });
	try {
		await newWorkflow(editor);
		const panel = await openPackageInPanel(editor);
		await panel.getByTestId('node-creator-category-item').filter({ hasText: 'Actions' }).click();
		const names = panel.getByTestId('node-creator-item-name');
		// n8n renders a long list a few items per frame: wait for every action, not the first.
		for (const action of ACTION_NAMES) {
			await names
				.getByText(action, { exact: true })
				.waitFor({ timeout: 15_000 })
				.catch(() => undefined);
		}
		const listed = await names.allInnerTexts();
		const missing = ACTION_NAMES.filter((a) => !listed.includes(a));
		check(missing.length === 0, `the nodes panel does not list the actions ${missing.join(', ')}`);
		const events = listed.filter((name) => name.startsWith('On '));
		check(
			events.length === EVENT_TYPE_CHOICES,
			`the nodes panel lists ${events.length} trigger events, not ${EVENT_TYPE_CHOICES}`,
		);
		return await save(
			editor,
			dir,
			'nodes-panel.png',
			`Nodes panel after searching "Identity Verification": the package with its ${EVENT_TYPE_CHOICES} trigger events and its ${ACTION_NAMES.length} actions, each with the icon`,
			panel,
		);
	} finally {
		await page.setViewportSize({ width: 1280, height: 800 });
	}
}

/** Runs a saved workflow with the editor's Execute workflow button; fails on an error. */
async function runInEditor(stack: Stack, editor: Editor, workflowId: string): Promise<void> {
	const before = (await stack.rest.listExecutions(workflowId)).length;
	await openWorkflow(editor, workflowId);
	await editor.page.getByTestId('execute-workflow-button').first().click();
	const [latest] = await stack.rest.waitForExecutions(workflowId, before + 1, 120_000);
	check(
		latest.status === 'success',
		`workflow ${workflowId} ended "${latest.status}" in the editor`,
	);
	await expectRunShown(editor, stack, latest.id);
}

/** Waits until the canvas marks every node that ran as successful, and none with an issue. */
async function expectRunShown(editor: Editor, stack: Stack, executionId: string): Promise<void> {
	const execution = await stack.rest.getExecution(executionId);
	const ran = Object.keys(execution.data?.resultData?.runData ?? {}).length;
	const frame = editor.page;
	await frame
		.getByTestId('canvas-node-status-success')
		.nth(ran - 1)
		.waitFor();
	const issues = await frame.getByTestId('node-issues').count();
	check(
		issues === 0,
		`the canvas shows ${issues} node(s) with an error after execution ${executionId}`,
	);
}

/** Manual Trigger → List Transactions of the sandbox's seeded account, every page. */
function listTransactionsWorkflow() {
	const nodes = [
		node('When clicking ‘Execute workflow’', 'n8n-nodes-base.manualTrigger', 1, {}),
		node(
			'List Transactions',
			NODE_TYPES.action,
			1.1,
			{
				resource: 'bank',
				operation: 'listTransactions',
				verificationId: SEED.bank.verificationId,
				accountId: SEED.bank.accountId,
				returnAll: true,
				options: {},
			},
			{ credentials: credentialRef('api') },
		),
	];
	return { name: 'Bank: list the transactions of an account', nodes, connections: lineUp(nodes) };
}

async function actionNode(stack: Stack, editor: Editor, dir: string): Promise<Picture> {
	await runInEditor(stack, editor, await stack.rest.createWorkflow(listTransactionsWorkflow()));
	await openNode(editor, 'List Transactions');
	// The output table of the run (its first column); the editor keeps the view last chosen (the
	// first-hour pictures choose JSON), so the table is chosen here.
	await ndv(editor.page).getByTestId('output-panel').getByTestId('radio-button-table').click();
	await ndv(editor.page).getByText('creditor', { exact: true }).first().waitFor();
	return await save(
		editor,
		dir,
		'action-list-transactions.png',
		'The action node open on Bank → List Transactions after a run: credential, parameters and the transactions it returned',
	);
}

async function triggerNode(editor: Editor, dir: string): Promise<Picture> {
	await openWorkflow(editor, triggerExample().workflow.id);
	await openNode(editor, 'Identity Verification Trigger');
	const node = ndv(editor.page);
	await node.getByText('Webhook URLs', { exact: true }).click();
	await node.getByText('Production URL', { exact: true }).click();
	await node
		.getByText(/\/webhook\/[0-9a-f-]+\/webhook/)
		.first()
		.waitFor();
	await ndv(editor.page).getByTestId('parameter-input-events').waitFor();
	const picture = await save(
		editor,
		dir,
		'trigger-node.png',
		'The trigger open: its Production URL to paste into the service dashboard, and the Events it starts on',
	);
	await closeNode(editor);
	return picture;
}

async function credentialDialog(editor: Editor, dir: string): Promise<Picture> {
	const { page } = editor;
	await page.goto(`${editor.baseUrl}/home/credentials/idvSandboxApiKey`);
	// n8n tests a stored credential when its dialog opens (the same test as its Retry button).
	await page.getByTestId('credentials-config-container-test-success').waitFor();
	const picture = await save(
		editor,
		dir,
		'credential-api-tested.png',
		`The "${API_CREDENTIAL}" credential dialog: n8n tested it against the service ("Connection tested successfully")`,
	);
	await page.keyboard.press('Escape');
	return picture;
}

/**
 * The trigger's item as a user first sees it: a version 1.1 trigger listening for a test event, and
 * its Test URL opened (here fetched) as a browser would, which sends the sample event.
 */
async function triggerResultItem(stack: Stack, editor: Editor, dir: string): Promise<Picture> {
	const webhookId = '5b0d6a4e-9c3f-4e2a-8b1d-7f6e5d4c3b2a';
	const trigger = node(
		'Identity Verification Trigger',
		NODE_TYPES.trigger,
		1.1,
		{},
		{
			credentials: credentialRef('webhookSigning'),
			webhookId,
		},
	);
	const id = await stack.rest.createWorkflow({
		name: 'The trigger’s sample event',
		nodes: [trigger],
		connections: {},
	});
	await openWorkflow(editor, id);
	await openNode(editor, trigger.name);
	const panel = ndv(editor.page);
	// n8n 2.x's button on a webhook trigger (1.x: "Listen for test event").
	await panel
		.getByRole('button', { name: /execute step|listen for test event/i })
		.first()
		.click();
	const testUrl = `${stack.n8n.url}/webhook-test/${webhookId}/webhook`;
	// The test webhook is registered once the editor listens: open the address until it answers.
	for (let tries = 0; ; tries++) {
		const res = await fetch(testUrl);
		if (res.ok) break;
		check(tries < 40, `the Test URL answered ${res.status} while the trigger listened`);
		await new Promise((r) => setTimeout(r, 250));
	}
	await panel.getByTestId('output-panel').getByText('overallStatus').first().waitFor();
	const picture = await save(
		editor,
		dir,
		'trigger-result-item.png',
		'The trigger’s item after its Test URL was opened in a browser: the sample event, leading with the kind, overall status, final flag and references, then the body and the delivery',
	);
	await closeNode(editor);
	return picture;
}

/** n8n's HTTP Request node offering this package's credential for the service's other endpoints. */
async function httpRequestCredential(editor: Editor, dir: string): Promise<Picture> {
	const { page } = editor;
	await newWorkflow(editor);
	await page.getByTestId('node-creator-plus-button').click();
	const creator = page.getByTestId('node-creator');
	await creator.getByTestId('node-creator-search-bar').fill('HTTP Request');
	await creator
		.getByTestId('node-creator-item-name')
		.getByText('HTTP Request', { exact: true })
		.first()
		.click();
	await ndv(page).waitFor();
	await setOption(editor, 'authentication', 'Predefined Credential Type');
	await ndv(page).getByTestId('parameter-input-nodeCredentialType').click();
	await page.keyboard.type('Identity Verification');
	const offered = page
		.locator('.el-select-dropdown__item:visible')
		.filter({ hasText: API_CREDENTIAL });
	await offered.first().waitFor();
	return await save(
		editor,
		dir,
		'http-request-credential.png',
		`n8n’s HTTP Request node, Authentication: Predefined Credential Type, offering the ${API_CREDENTIAL} credential for the service’s other endpoints`,
	);
}

/** The picture file of an example workflow (throws for a file without one). */
function pictureOf(file: string): string {
	const png = WORKFLOW_PICTURES[file];
	check(png !== undefined, `workflows/${file} has no picture name in WORKFLOW_PICTURES`);
	return png;
}

/** Runs an example the demo runs as the demo does, and opens that run on the canvas. */
async function runExample(stack: Stack, editor: Editor, { workflow }: DemoWorkflow): Promise<void> {
	if (isTriggerWorkflow({ workflow })) {
		// A real signed delivery from the sandbox to the published workflow's production URL.
		const before = (await stack.rest.listExecutions(workflow.id)).length;
		const { scanRef } = stack.sandbox.kyc.createSession('demo-customer-42');
		const delivery = await stack.sandbox.kyc.autoFinish(scanRef, {
			final: true,
			overall: 'APPROVED',
		});
		check(delivery.status === 'delivered', `the sandbox's webhook was ${delivery.status}`);
		const [latest] = await stack.rest.waitForExecutions(workflow.id, before + 1, 120_000);
		check(latest.status === 'success', `"${workflow.name}" ended "${latest.status}"`);
		await openWorkflow(editor, workflow.id, latest.id);
		await expectRunShown(editor, stack, latest.id);
	} else if (isSignupWorkflow({ workflow })) {
		// A customer signs up, the execution waits, the sandbox's result resumes it.
		await waitForSignup(signupUrl(stack, { workflow }));
		const done = await runSignupApproved(stack, { workflow }, 'screenshot-customer');
		check(done.status === 'success', `"${workflow.name}" ended "${done.status}"`);
		await openWorkflow(editor, workflow.id, done.id);
		await expectRunShown(editor, stack, done.id);
	} else {
		await runInEditor(stack, editor, workflow.id);
	}
}

/**
 * Each example workflow on the canvas, in the README's order: after a run when the demo runs it,
 * as imported when it needs accounts of outside services.
 */
async function workflowPictures(stack: Stack, editor: Editor, dir: string): Promise<Picture[]> {
	const pictures: Picture[] = [];
	const examples = demoWorkflows().sort((a, b) =>
		pictureOf(a.file).localeCompare(pictureOf(b.file)),
	);
	for (const example of examples) {
		const { workflow } = example;
		let shows: string;
		if (runsInDemo(example)) {
			await runExample(stack, editor, example);
			shows = `Example workflow "${workflow.name}" on the canvas after a run`;
		} else {
			await openWorkflow(editor, workflow.id);
			shows = `Example workflow "${workflow.name}" on the canvas (it needs ${example.needs.join(', ')}: not run)`;
		}
		pictures.push(await save(editor, dir, pictureOf(example.file), shows));
	}
	return pictures;
}

/** The first node the named node passes its items to. */
function nextNodeOf(workflow: ExampleWorkflow, name: string): string {
	const outputs = (workflow.connections[name] as { main?: Array<Array<{ node: string }>> })?.main;
	const next = outputs?.[0]?.[0]?.node;
	check(next !== undefined, `nothing follows "${name}" in "${workflow.name}"`);
	return next!;
}

/** A copy of the trigger workflow with the sample event pinned: the schema view of the next node. */
async function schemaView(stack: Stack, editor: Editor, dir: string): Promise<Picture> {
	const demo = triggerExample();
	const sample = JSON.parse(readFileSync(SAMPLE_EVENT_FILE, 'utf8'));
	const trigger = demo.workflow.nodes.find((n) => n.type === NODE_TYPES.trigger)!;
	const next = nextNodeOf(demo.workflow, trigger.name);
	const id = await stack.rest.createWorkflow({
		...(demo.workflow as any),
		id: undefined,
		name: `${demo.workflow.name} (sample event pinned)`,
		nodes: demo.workflow.nodes.map((n: any) => ({ ...n, webhookId: undefined })),
		pinData: { [trigger.name]: sample.map((json: object) => ({ json })) },
	} as any);
	await openWorkflow(editor, id);
	await openNode(editor, next);
	const input = ndv(editor.page).getByTestId('ndv-input-panel');
	for (const field of ['overallStatus', 'final', 'scanRef'])
		await input.getByText(field, { exact: true }).first().waitFor();
	return await save(
		editor,
		dir,
		'schema-view-sample-event.png',
		'The node after the trigger, before any delivery: the schema view offers the event fields (overallStatus, final, scanRef, ...) from the pinned sample event',
	);
}

/** Every picture, in README order. Throws on the first thing that is not as it should be. */
export async function takeScreenshots(
	stack: Stack,
	editor: Editor,
	dir: string,
): Promise<Picture[]> {
	mkdirSync(dir, { recursive: true });
	const pictures: Picture[] = [];
	try {
		pictures.push(await nodesPanel(editor, dir));
		pictures.push(await actionNode(stack, editor, dir));
		pictures.push(await triggerNode(editor, dir));
		pictures.push(await schemaView(stack, editor, dir));
		pictures.push(await credentialDialog(editor, dir));
		pictures.push(await triggerResultItem(stack, editor, dir));
		pictures.push(await httpRequestCredential(editor, dir));
		pictures.push(...(await workflowPictures(stack, editor, dir)));
		return pictures;
	} catch (error) {
		// What the editor showed when it went wrong, for the failure message.
		const shot = path.join(tmpdir(), `idv-editor-failure-${Date.now()}.png`);
		await editor.page.screenshot({ path: shot }).catch(() => undefined);
		(error as Error).message += `\n(the editor at that moment: ${shot})`;
		throw error;
	}
}

/**
 * Points the sandbox's webhook sender at the published trigger workflow, if the demo runs one, and
 * waits until n8n serves the published webhooks.
 */
export async function connectDemoWorkflows(stack: Stack): Promise<void> {
	for (const w of demoWorkflows().filter(runsInDemo)) {
		if (isTriggerWorkflow(w)) await connectTrigger(stack, w);
		else if (isSignupWorkflow(w)) await waitForSignup(signupUrl(stack, w));
	}
}
