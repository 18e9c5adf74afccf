// `npm run screenshots`: pictures of the package in n8n's real editor for the README (docs/images).
// Starts the demo stack (sandbox + pinned n8n with the demo workflows, the trigger workflow
// published), drives the editor in Debian's Chromium (test/browser/editor.cts) and saves 1280x800
// PNGs. The same steps run as an e2e test (test/e2e/editor.test.cts, into a temporary folder): they
// throw when the editor does not list the nodes, an icon does not load or a workflow ends in error.
import { mkdirSync, readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EVENT_TYPES } from '../../nodes/shared/contract';
import { ROOT } from '../n8n/runtime.cjs';
import {
	NODE_TYPES,
	connectTrigger,
	demoStackOptions,
	demoWorkflows,
	isSignupWorkflow,
	isTriggerWorkflow,
	runSignupApproved,
	signupUrl,
	startStack,
	waitForSignup,
	type Stack,
} from '../n8n/stack.cjs';
import {
	brokenPackageImages,
	closeNode,
	launchBrowser,
	ndv,
	newWorkflow,
	openEditor,
	openNode,
	openPackageInPanel,
	openWorkflow,
	type Editor,
} from './editor.cjs';

const IMAGES_DIR = path.join(ROOT, 'docs', 'images');
/** The trigger's documented sample event, as n8n's mock data editor takes it (a list of items). */
const SAMPLE_EVENT_FILE = path.join(ROOT, 'docs', 'sample-event.json');

const ACTION_NAMES = [
	'Create a verification token',
	'Request more information for a verification',
	'Wait for the verification result',
	'Create a bank token',
	'List bank transactions',
	'Create a proof of address check',
	'Download an AML profile PDF',
	'Get questionnaire answers',
	'Delete questionnaire answers',
	'Submit a KYB form',
];

export interface Picture {
	file: string;
	shows: string;
}

interface DemoWorkflow {
	file: string;
	workflow: { id: string; name: string; nodes: Array<{ name: string; type: string }> };
}

/** Stack options the pictures need: the demo's (its workflows, the trigger's workflow published). */
export const screenshotStackOptions = demoStackOptions;

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
	await page.setViewportSize({ width: 1280, height: 2200 });
	try {
		await newWorkflow(editor);
		const panel = await openPackageInPanel(editor);
		await panel.getByTestId('node-creator-category-item').filter({ hasText: 'Actions' }).click();
		const names = panel.getByTestId('node-creator-item-name');
		await names.getByText(ACTION_NAMES[0], { exact: true }).waitFor();
		const listed = await names.allInnerTexts();
		const missing = ACTION_NAMES.filter((a) => !listed.includes(a));
		check(missing.length === 0, `the nodes panel does not list the actions ${missing.join(', ')}`);
		const events = listed.filter((name) => name.startsWith('On '));
		check(
			events.length === EVENT_TYPES.length,
			`the nodes panel lists ${events.length} trigger events, not ${EVENT_TYPES.length}`,
		);
		return await save(
			editor,
			dir,
			'nodes-panel.png',
			`Nodes panel after searching "Identity Verification": the package with its ${EVENT_TYPES.length} trigger events and its ${ACTION_NAMES.length} actions, each with the icon`,
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

async function actionNode(stack: Stack, editor: Editor, dir: string): Promise<Picture> {
	await runInEditor(stack, editor, 'idvDemoTransactions');
	await openNode(editor, 'List Transactions');
	// The output table of the run (its first column).
	await ndv(editor.page).getByText('creditor', { exact: true }).first().waitFor();
	return await save(
		editor,
		dir,
		'action-list-transactions.png',
		'The action node open on Bank → List Transactions after a run: credential, parameters and the transactions it returned',
	);
}

async function triggerNode(editor: Editor, dir: string): Promise<Picture> {
	await openWorkflow(editor, 'idvDemoOnboarding2');
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
		'The "Identity Verification API" credential dialog: n8n tested it against the service ("Connection tested successfully")',
	);
	await page.keyboard.press('Escape');
	return picture;
}

async function workflowPictures(stack: Stack, editor: Editor, dir: string): Promise<Picture[]> {
	const pictures: Picture[] = [];
	for (const { file, workflow } of demoWorkflows() as DemoWorkflow[]) {
		const png = `workflow-${file.replace(/\.json$/, '')}.png`;
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
		pictures.push(
			await save(editor, dir, png, `Example workflow "${workflow.name}" on the canvas after a run`),
		);
	}
	return pictures;
}

/** A copy of the trigger workflow with the sample event pinned: the schema view of the next node. */
async function schemaView(stack: Stack, editor: Editor, dir: string): Promise<Picture> {
	const demo = (demoWorkflows() as DemoWorkflow[]).find(isTriggerWorkflow)!;
	const sample = JSON.parse(readFileSync(SAMPLE_EVENT_FILE, 'utf8'));
	const trigger = demo.workflow.nodes.find((n) => n.type === NODE_TYPES.trigger)!;
	const id = await stack.rest.createWorkflow({
		...(demo.workflow as any),
		id: undefined,
		name: `${demo.workflow.name} (sample event pinned)`,
		nodes: demo.workflow.nodes.map((n: any) => ({ ...n, webhookId: undefined })),
		pinData: { [trigger.name]: sample.map((json: object) => ({ json })) },
	} as any);
	await openWorkflow(editor, id);
	await openNode(editor, 'Final result?');
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

/** Points the sandbox's webhook sender at the published trigger workflow and waits for it. */
export async function connectTriggerWorkflow(stack: Stack): Promise<void> {
	await connectTrigger(stack, demoWorkflows().find(isTriggerWorkflow)!);
}

async function main(): Promise<number> {
	const browser = await launchBrowser();
	const stack = await startStack({
		...screenshotStackOptions(),
		log: (m) => console.log(`[screenshots] ${m}`),
	});
	try {
		await connectTriggerWorkflow(stack);
		const editor = await openEditor(browser, stack.n8n.url, stack.owner);
		const pictures = await takeScreenshots(stack, editor, IMAGES_DIR);
		for (const p of pictures) console.log(`  docs/images/${p.file}: ${p.shows}`);
		return 0;
	} finally {
		await browser.close();
		await stack.stop();
	}
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(error) => {
			console.error(`[screenshots] ${error instanceof Error ? error.message : error}`);
			process.exit(1);
		},
	);
}
