// The first hour of a new user in n8n's real editor, as pictures (`npm run screenshots --
// --first-hour [<folder>]`, default docs/images/first-hour): finding the nodes and the
// credentials by the provider's name and by what they do, the entry "What happens next?" shows, the
// fields where a user hesitates (Scan Reference, the token's link and times, the AML password, the
// KYB answers) and the token step run on its own. Each picture returns what the editor showed, so
// the editor e2e test (test/e2e/editor.test.cts) checks the same screens the pictures show.
import path from 'node:path';
import type { Locator } from 'playwright-core';

import { CREDENTIALS, NODE_TYPES, credentialRef, type Stack } from '../n8n/stack.cjs';
import { lineUp, node } from '../n8n/workflow.cjs';
import { SEED } from '../sandbox/index.cjs';
import { ndv, openNode, openWorkflow, type Editor } from './editor.cjs';

export interface FirstHourPicture {
	file: string;
	shows: string;
}

/** What a nodes-panel search listed: each entry's name and the description under it. */
export interface PanelEntry {
	name: string;
	description: string;
}

const MANUAL_TRIGGER = 'When clicking ‘Execute workflow’';

/** A saved workflow: a manual trigger and, after it, the given nodes in a line. */
async function manualWorkflow(
	stack: Pick<Stack, 'rest'>,
	name: string,
	nodes: ReturnType<typeof node>[],
): Promise<string> {
	const all = [node(MANUAL_TRIGGER, 'n8n-nodes-base.manualTrigger', 1, {}), ...nodes];
	return await stack.rest.createWorkflow({ name, nodes: all, connections: lineUp(all) });
}

const action = (
	name: string,
	parameters: Record<string, unknown>,
	credential: keyof typeof CREDENTIALS = 'api',
) => node(name, NODE_TYPES.action, 1.1, parameters, { credentials: credentialRef(credential) });

async function shoot(editor: Editor, dir: string, file: string, only?: Locator): Promise<void> {
	// No hover effect (a field's Fixed/Expression switch) in the picture.
	await editor.page.mouse.move(0, 0);
	await (only ?? editor.page).screenshot({ path: path.join(dir, file), animations: 'disabled' });
}

/**
 * "What happens next?": the nodes panel opened from a trigger's + (the panel a user sees when adding
 * a step), searched for `text`. Returns the panel and the entries it lists.
 */
export async function searchWhatHappensNext(
	stack: Pick<Stack, 'rest'>,
	editor: Editor,
	text: string,
): Promise<{ panel: Locator; entries: PanelEntry[] }> {
	const { page } = editor;
	await openWorkflow(editor, await manualWorkflow(stack, `Search: ${text}`, []));
	await page.getByTestId('canvas-handle-plus').first().click();
	const panel = page.getByTestId('node-creator');
	await panel.getByText('What happens next?').waitFor();
	await panel.getByTestId('node-creator-search-bar').fill(text);
	// Nodes (with or without actions) or "No results" replace the categories once the search ran.
	const nodes = panel.locator(
		'[data-test-id="node-creator-node-item"], [data-test-id="node-creator-action-item"]',
	);
	await nodes
		.or(panel.getByText(`No results for "${text}"`))
		.first()
		.waitFor();
	const entries: PanelEntry[] = [];
	for (const item of await nodes.all()) {
		const [name] = await item.getByTestId('node-creator-item-name').allInnerTexts();
		const [description] = await item.getByTestId('node-creator-item-description').allInnerTexts();
		entries.push({ name: (name ?? '').trim(), description: (description ?? '').trim() });
	}
	return { panel, entries };
}

/** The "Add new credential" dialog searched for `text`: the credential types it offers. */
export async function searchCredentialTypes(
	editor: Editor,
	text: string,
): Promise<{ offered: string[] }> {
	const { page } = editor;
	await page.goto(`${editor.baseUrl}/home/credentials/create`);
	const select = page.getByTestId('new-credential-type-select');
	await select.click();
	await page.keyboard.type(text);
	const options = page.locator('[data-test-id="new-credential-type-select-option"]:visible');
	await options.first().or(page.getByText('No data').locator('visible=true')).first().waitFor();
	return { offered: (await options.allInnerTexts()).map((o) => o.trim()) };
}

/**
 * The hint n8n shows under a text or number parameter of the open node (empty when none): the
 * text of the parameter's input container, which holds the input (no text of its own) and the hint.
 */
export async function parameterHint(editor: Editor, parameter: string): Promise<string> {
	const field = editor.page.getByTestId(`parameter-input-${parameter}`);
	await ndv(editor.page).locator(field).first().waitFor();
	// `has` matches inside each container: the field's own locator, not one rooted at the panel.
	const container = ndv(editor.page)
		.locator('[data-test-id="parameter-input"]')
		.filter({ has: field });
	return (await container.first().innerText()).trim();
}

/**
 * Runs the open node's step alone (Execute step), waits for its output or its error and shows the
 * output as JSON (every field of one item readable) or as the table (rows, as in a spreadsheet).
 */
export async function executeOpenStep(
	editor: Editor,
	view: 'json' | 'table' = 'json',
): Promise<void> {
	const output = ndv(editor.page).getByTestId('output-panel');
	await ndv(editor.page).getByTestId('node-execute-button').first().click();
	await output
		.getByTestId('ndv-items-count')
		.or(output.getByTestId('node-error-message'))
		.first()
		.waitFor();
	const button = output.getByTestId(`radio-button-${view}`);
	if (await button.isVisible()) await button.click();
}

/** Workflows whose nodes the pictures open, each created once per call. */
export const FIRST_HOUR_NODES = {
	waitForResult: () =>
		action(
			'Wait for Result',
			{ resource: 'identification', operation: 'waitForResult' },
			'webhookSigning',
		),
	token: (parameters: Record<string, unknown> = {}) =>
		action('Create Verification Token', {
			resource: 'identification',
			operation: 'createVerificationToken',
			clientId: 'customer-42',
			...parameters,
		}),
	amlPdf: () =>
		action('Download Profile PDF', { resource: 'aml', operation: 'downloadProfilePdf' }),
	kybAnswers: (parameters: Record<string, unknown> = {}) =>
		action('Get Questionnaire Answers', {
			resource: 'kyb',
			operation: 'getAnswers',
			companyId: SEED.kyb.companyId,
			questionnaireId: SEED.kyb.questionnaireId,
			...parameters,
		}),
};

/** Opens a one-node workflow (after a manual trigger) on that node. */
async function openOneNode(
	stack: Pick<Stack, 'rest'>,
	editor: Editor,
	title: string,
	step: ReturnType<typeof node>,
): Promise<void> {
	await openWorkflow(editor, await manualWorkflow(stack, title, [step]));
	await openNode(editor, step.name);
}

/** The first-hour pictures, in the order of the brief's points. */
export async function takeFirstHourPictures(
	stack: Pick<Stack, 'rest'>,
	editor: Editor,
	dir: string,
): Promise<FirstHourPicture[]> {
	const pictures: FirstHourPicture[] = [];
	const add = (file: string, shows: string) => pictures.push({ file, shows });
	const { page } = editor;

	for (const [file, text] of [
		['fh-01-search-idenfy.png', 'idenfy'],
		['fh-02-search-wait-for.png', 'wait for'],
		['fh-03-search-verification-result.png', 'verification result'],
		['fh-05-what-happens-next-entry.png', 'identity verification'],
	] as const) {
		const { panel, entries } = await searchWhatHappensNext(stack, editor, text);
		await shoot(editor, dir, file, panel);
		add(file, `"What happens next?" searched for "${text}": ${JSON.stringify(entries)}`);
	}

	const { offered } = await searchCredentialTypes(editor, 'identity verification');
	await shoot(editor, dir, 'fh-04-credential-search.png');
	add(
		'fh-04-credential-search.png',
		`"Add new credential" searched for "identity verification": ${JSON.stringify(offered)}`,
	);
	await page.keyboard.press('Escape');

	await openOneNode(stack, editor, 'Wait for Result', FIRST_HOUR_NODES.waitForResult());
	await shoot(editor, dir, 'fh-06-wait-for-result-scan-reference.png');
	add('fh-06-wait-for-result-scan-reference.png', 'Wait for Result: the Scan Reference field');

	const token = FIRST_HOUR_NODES.token({ tokenFields: { expiryTime: 3600, sessionLength: 600 } });
	await openOneNode(stack, editor, 'Create Verification Token', token);
	await executeOpenStep(editor);
	await shoot(editor, dir, 'fh-07-token-fields-and-output.png');
	add(
		'fh-07-token-fields-and-output.png',
		'Create Verification Token run alone: Expiry Time and Session Length, and the answer with verificationUrl and redirectUrl',
	);

	await openOneNode(stack, editor, 'AML PDF', FIRST_HOUR_NODES.amlPdf());
	await shoot(editor, dir, 'fh-08-aml-fields.png');
	add('fh-08-aml-fields.png', 'Download Profile PDF: the example IDs and the Password field');

	// Simplify on (a package without the option ignores it and shows the whole answer).
	const answers = FIRST_HOUR_NODES.kybAnswers({ simplify: true });
	await openOneNode(stack, editor, 'KYB answers', answers);
	await executeOpenStep(editor, 'table');
	await shoot(editor, dir, 'fh-09-kyb-answers-output.png');
	add('fh-09-kyb-answers-output.png', 'Get Questionnaire Answers after a run: its output');

	const alone = FIRST_HOUR_NODES.token({ sendResultToWorkflow: true });
	await openOneNode(stack, editor, 'Token step alone', alone);
	await executeOpenStep(editor);
	await shoot(editor, dir, 'fh-10-token-step-alone.png');
	add(
		'fh-10-token-step-alone.png',
		'Create Verification Token with "Send the Result to This Workflow" on, run before any Wait for Result exists',
	);
	return pictures;
}
