// The trigger and its credential where the user meets them: n8n 2.x's real editor in Debian's
// Chromium (test/browser/editor.cts). The nodes panel found by the provider's name, with each event
// as written; the Events list of the open node in the order users route on; the Webhook Signing
// credential's Header Prefix hint and what its test checks; and a badly signed delivery ending
// "Execute step" with its reason in the node's panel. And the panel's two entries, which say which trigger
// to pick: instant (a public URL) or polling (behind a firewall).
import { createHmac } from 'node:crypto';

import type { Browser } from 'playwright-core';

import {
	closeNode,
	launchBrowser,
	ndv,
	newWorkflow,
	openEditor,
	openWorkflow,
	openNode,
	type Editor,
} from '../browser/editor.cjs';
import { on2x } from '../n8n/runtime.cjs';
import { CREDENTIALS, credentialRef, NODE_TYPES, startStack, type Stack } from '../n8n/stack.cjs';
import { node, TRIGGER } from '../n8n/workflow.cjs';

/** The browser helpers drive n8n 2.x's editor: this file runs on 2.x only. */
const editorRuns = on2x(
	'n8n 2.x’s editor',
	'the trigger’s editor tests (the browser helpers drive the 2.x editor)',
);
const describe = editorRuns ? globalThis.describe : globalThis.describe.skip;

const WEBHOOK_ID = '6e1d2a8b-3c4f-4d5e-9f0a-1b2c3d4e5f61';

let stack: Stack;
let browser: Browser;
let editor: Editor;
let workflowId: string;

beforeAll(async () => {
	if (!editorRuns) return;
	browser = await launchBrowser();
	stack = await startStack({ log: (m) => process.stderr.write(`[trigger editor] ${m}\n`) });
	workflowId = await stack.rest.createWorkflow({
		name: 'Trigger in the editor',
		nodes: [
			node(
				TRIGGER,
				NODE_TYPES.trigger,
				1.1,
				{},
				{
					credentials: credentialRef('webhookSigning'),
					webhookId: WEBHOOK_ID,
				},
			),
		],
		connections: {},
	});
	editor = await openEditor(browser, stack.n8n.url, stack.owner);
}, 20 * 60_000);

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
}, 60_000);

/** The texts of the visible dropdown options, in order. */
async function visibleOptions(editor: Editor): Promise<string[]> {
	const items = editor.page.locator('.el-select-dropdown__item:visible');
	await items.first().waitFor();
	return (await items.allInnerTexts()).map((text) => text.split('\n')[0].trim());
}

describe('the trigger in the editor', () => {
	test('the nodes panel finds it by the provider’s name and lists each event as written', async () => {
		await newWorkflow(editor);
		const { page } = editor;
		await page.getByTestId('node-creator-plus-button').click();
		const panel = page.getByTestId('node-creator');
		await panel.getByTestId('node-creator-search-bar').fill('iDenfy');
		// n8n's panel merges the trigger into the action node's entry (searched by the action node's
		// aliases, described by the trigger's description) and lists the trigger's events in it.
		const items = panel.getByTestId('node-creator-item-name');
		await items.getByText('Identity Verification', { exact: true }).first().click();
		await items.getByText('On company AML review (KYB)').waitFor();
		const names = await items.allInnerTexts();
		expect(names).toEqual(
			expect.arrayContaining([
				'On any final identification result',
				'On identification decided by a reviewer',
				'On company AML review (KYB)',
				'On other (not recognised)',
			]),
		);
		// Before: "On company aml review kyb", "On other not recognised".
		expect(names.filter((name) => /\bkyb\b|aml review kyb/.test(name))).toEqual([]);
		await page.keyboard.press('Escape');
	}, 180_000);

	test('the nodes panel tells the two triggers apart: instant with a public URL, or polling behind a firewall', async () => {
		const entries = async (text: string) => {
			await newWorkflow(editor);
			const { page } = editor;
			await page.getByTestId('node-creator-plus-button').click();
			const panel = page.getByTestId('node-creator');
			await panel.getByTestId('node-creator-search-bar').fill(text);
			// The panel lists n8n's own triggers until the search has been applied.
			await panel
				.getByTestId('node-creator-item-name')
				.getByText('Identity Verification Polling', { exact: true })
				.waitFor();
			const texts = await panel.getByTestId('item-iterator-item').allInnerTexts();
			await page.keyboard.press('Escape');
			return texts.map((entry) => entry.split(/\n+/).map((line) => line.trim()));
		};
		const webhook = [
			'Identity Verification',
			'Verify people and companies (KYC, KYB, AML screening and monitoring, bank accounts, proof of address) and start workflows on their results the moment they come (n8n needs a public URL for that)',
		];
		const polling = [
			'Identity Verification Polling',
			'Starts a workflow on verification, company and AML monitoring results by checking the service’s lists: works behind a firewall, a few minutes late (the triggers under Identity Verification are instant but need a public URL)',
		];
		expect(await entries('Identity Verification')).toEqual([webhook, polling]);
		// Found by what a user behind a firewall would type, too.
		expect(await entries('firewall')).toEqual([polling]);
		expect(await entries('polling')).toContainEqual(polling);
	}, 180_000);

	test('the Events list shows names a person reads, identification results first', async () => {
		await openWorkflow(editor, workflowId);
		await openNode(editor, TRIGGER);
		await ndv(editor.page).getByTestId('parameter-input-events').click();
		const options = await visibleOptions(editor);
		expect(options.slice(0, 8)).toEqual([
			'Any final identification result',
			'Identification finished by the automated review',
			'Identification decided by a reviewer',
			'Identification resubmitted',
			'Identification expired',
			'Identification cancelled',
			'Identification, any outcome (legacy)',
			'Company reviewed (KYB)',
		]);
		expect(options).toContain('Company AML review (KYB)');
		expect(options.at(-1)).toBe('Other (not recognised)');
		await editor.page.keyboard.press('Escape');
		await closeNode(editor);
	}, 180_000);

	test('a delivery signed with another key ends "Execute step" with its reason in the node’s panel', async () => {
		await openWorkflow(editor, workflowId);
		await openNode(editor, TRIGGER);
		const panel = ndv(editor.page);
		await panel
			.getByRole('button', { name: /execute step/i })
			.first()
			.click();
		const raw = JSON.stringify({
			final: true,
			scanRef: 's-editor',
			status: { overall: 'APPROVED' },
		});
		const url = `${stack.n8n.url}/webhook-test/${WEBHOOK_ID}/webhook`;
		let status = 404;
		for (let tries = 0; status === 404 && tries < 80; tries++) {
			if (tries > 0) await new Promise((r) => setTimeout(r, 250));
			const res = await fetch(url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'idenfy-signature': createHmac('sha256', 'not-the-key').update(raw).digest('hex'),
				},
				body: raw,
			});
			await res.arrayBuffer();
			status = res.status;
		}
		expect(status).toBe(500);
		await panel
			.getByText(
				'Delivery refused: Invalid Idenfy-Signature: it does not match the body and the signing key',
			)
			.first()
			.waitFor();
		await closeNode(editor);
	}, 180_000);
});

describe('the Webhook Signing credential in the editor', () => {
	test('Header Prefix shows its hint with the provider’s value, and the form says what the test checks', async () => {
		const { page } = editor;
		await page.goto(`${editor.baseUrl}/home/credentials/${CREDENTIALS.webhookSigning.id}`);
		// n8n tests a stored credential when its dialog opens; a passed test shows only this banner.
		await page.getByTestId('credentials-config-container-test-success').waitFor();
		const dialog = page.getByTestId('credential-edit-dialog');
		await dialog
			.getByText(
				'Leave empty: deliveries are read under Idenfy-Signature and Idenfy-Event-Type (iDenfy’s names) or Service-Signature and Service-Event-Type. Enter a word only to accept that one, e.g. Idenfy.',
			)
			.waitFor();
		await dialog.getByText(/The Test button checks only that a key is entered/).waitFor();
		await dialog.getByText(/Only a delivery shows that it is the right key/).waitFor();
		await page.keyboard.press('Escape');
	}, 180_000);
});
