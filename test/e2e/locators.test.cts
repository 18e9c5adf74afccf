// The resource locators of version 2 in n8n's real editor (Debian's Chromium, test/browser/editor.cts):
// an action added from the nodes panel asks for its ID From List; each list (companies, monitorings,
// verifications, a company's questionnaires, a form token's form) loads from the sandbox through
// n8n's own resource-locator route, the monitorings' is searched, and the picked entry is the ID.
// Selectors are the editor's `data-test-id`s of its resource locator (`resource-locator-<name>`,
// `rlc-input`, and in its list, teleported to the page, `rlc-search` and `rlc-item`). With IDV_PICTURES_DIR set, a picture of each open list
// is saved there (docs/images for the README).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';

import { on2x } from '../n8n/runtime.cjs';
import { CREDENTIALS, startStack, type Stack } from '../n8n/stack.cjs';
import {
	addActionFromPanel,
	launchBrowser,
	ndv,
	newWorkflow,
	openEditor,
	selectCredential,
	setOption,
	type Editor,
} from '../browser/editor.cjs';

const editorRuns = on2x(
	'n8n 2.x’s editor',
	'the resource locator tests (the browser helpers drive the 2.x editor)',
);
const describe = editorRuns ? globalThis.describe : globalThis.describe.skip;

let stack: Stack;
let browser: Browser;
let editor: Editor;
const pictures = process.env.IDV_PICTURES_DIR ?? mkdtempSync(path.join(tmpdir(), 'idv-locators-'));

beforeAll(async () => {
	if (!editorRuns) return;
	browser = await launchBrowser();
	stack = await startStack({ log: (m) => process.stderr.write(`[locators e2e] ${m}\n`) });
	editor = await openEditor(browser, stack.n8n.url, stack.owner);
	mkdirSync(pictures, { recursive: true });
}, 20 * 60_000);

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
}, 60_000);

/** The open node's resource locator of a field. */
const locator = (name: string): Locator => ndv(editor.page).getByTestId(`resource-locator-${name}`);

/** The entries of the open From List (its popover is teleported to the page). */
const entries = (): Locator => editor.page.getByTestId('rlc-item').locator('visible=true');

/** Opens the field's From List; resolves with its entries' texts once they have loaded. */
async function openList(name: string): Promise<string[]> {
	await locator(name).getByTestId('rlc-input').click();
	await entries().first().waitFor();
	return (await entries().allInnerTexts()).map((text) => text.trim());
}

/** Types in the open list's search box. */
async function searchList(text: string): Promise<void> {
	const search = editor.page.getByTestId('rlc-search').locator('visible=true');
	const isInput = await search.evaluate(
		(element: { tagName: string }) => element.tagName === 'INPUT',
	);
	await (isInput ? search : search.locator('input')).fill(text);
}

/** Picks the entry with the text; the list closes and the field shows it. */
async function pick(name: string, text: string): Promise<void> {
	await entries().filter({ hasText: text }).first().click();
	await entries().first().waitFor({ state: 'hidden' });
	expect(await locator(name).getByTestId('rlc-input').inputValue()).toBe(text);
}

async function picture(file: string): Promise<void> {
	await editor.page.screenshot({ path: path.join(pictures, file) });
}

describe('version 2 in the editor: IDs picked From List', () => {
	test('KYB Company → Get: the account’s companies by name, registration number and status; one is picked', async () => {
		stack.sandbox.kyb.addCompany({
			companyName: 'UAB Nordic Parts',
			registrationNumber: '304000111',
		});
		await newWorkflow(editor);
		await addActionFromPanel(editor, 'Get a KYB company');
		const listed = await openList('companyId');
		expect(listed).toContain('UAB Nordic Parts — 304000111 — PENDING');
		await picture('locator-company-list.png');
		await pick('companyId', 'UAB Nordic Parts — 304000111 — PENDING');
	}, 180_000);

	test('AML Monitoring → Get: ALERT first; the search box finds a monitoring by name', async () => {
		const person = (fullName: string, clientId: string) =>
			stack.sandbox.aml.seedMonitoring({
				isSubscribed: false,
				amlCheck: { userType: 'PERSON', clientId, input: { fullName } },
			});
		expect(person('Łukasz Müller-Wiśniewski', 'customer-7').status).toBe('ALERT');
		person('Ona Petraitė', 'customer-8');
		await newWorkflow(editor);
		await addActionFromPanel(editor, 'Get an AML monitoring');
		const listed = await openList('monitoringId');
		expect(listed[0]).toBe('Łukasz Müller-Wiśniewski — ALERT — PERSON');
		await searchList('Ona Petraitė');
		// The unfiltered list had both; the searched one has Ona's only.
		await entries().filter({ hasText: 'Łukasz' }).waitFor({ state: 'detached' });
		await entries().filter({ hasText: 'Ona Petraitė' }).first().waitFor();
		expect((await entries().allInnerTexts()).map((text) => text.trim())).toEqual([
			'Ona Petraitė — ACTIVE — PERSON',
		]);
		const searched = stack.sandbox.requests.filter((r) => r.path === '/aml/monitorings/');
		expect(searched.some((request) => request.query.name === 'Ona Petraitė')).toBe(true);
		await picture('locator-monitoring-search.png');
		await pick('monitoringId', 'Ona Petraitė — ACTIVE — PERSON');
	}, 180_000);

	test('Identification → Get Status: the verifications with their status; one is picked', async () => {
		const { scanRef } = stack.sandbox.kyc.createSession('customer-42');
		await newWorkflow(editor);
		await addActionFromPanel(editor, 'Get the status of a verification');
		const listed = await openList('scanRef');
		const entry = listed.find((text) => text.startsWith(scanRef));
		expect(entry).toBeDefined();
		await picture('locator-verification-list.png');
		await pick('scanRef', entry!);
	}, 180_000);

	test('KYB Form → Get Questionnaire Answers: the chosen company’s questionnaires', async () => {
		await newWorkflow(editor);
		await addActionFromPanel(editor, 'Get questionnaire answers');
		await openList('companyId');
		await pick('companyId', 'UAB Baltic Widgets — 305123456 — PENDING');
		expect(await openList('questionnaireId')).toEqual(['Company onboarding']);
		await pick('questionnaireId', 'Company onboarding');
	}, 180_000);

	test('KYB Form → Submit Form with the Form Token Credential: the token’s form', async () => {
		await newWorkflow(editor);
		await addActionFromPanel(editor, 'Submit a KYB form');
		await setOption(editor, 'authentication', 'Form Token Credential');
		await selectCredential(editor, CREDENTIALS.kybFormToken.name);
		expect(await openList('formId')).toEqual(['UAB Baltic Widgets — PENDING']);
		await pick('formId', 'UAB Baltic Widgets — PENDING');
	}, 180_000);
});
