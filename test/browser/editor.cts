// Drives n8n's real editor in Debian's Chromium (playwright-core, no browser download): sign in, add
// a node from the nodes panel, open a node on the canvas, read the credential picker, watch icons.
// Shared by the editor e2e test (test/e2e/editor.test.cts) and the lab's `npm run screenshots`.
//
// Selectors are the editor's own `data-test-id` attributes (the ones n8n's Playwright tests use), so
// they survive styling changes. Every step waits for an element; nothing sleeps a fixed time.
import { existsSync } from 'node:fs';
import { chromium, selectors, type Browser, type Locator, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const INSTALL_CHROMIUM = 'apt-get update && apt-get install -y chromium';

/** Generous for a loaded 2-core machine; each wait ends as soon as the element is there. */
const STEP_TIMEOUT_MS = 60_000;

/** Fails with the one command that installs the browser when it is missing. */
function requireChromium(): void {
	if (!existsSync(CHROMIUM)) {
		throw new Error(`Chromium is missing (${CHROMIUM}). Install it with: ${INSTALL_CHROMIUM}`);
	}
}

export async function launchBrowser(): Promise<Browser> {
	requireChromium();
	selectors.setTestIdAttribute('data-test-id');
	return await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
}

export interface Editor {
	page: Page;
	baseUrl: string;
	/** Icon requests of this package that did not answer 200 (`<url> <status>`). */
	brokenIcons: string[];
	close(): Promise<void>;
}

/** A signed-in editor tab (1280x800) on the given n8n. */
export async function openEditor(
	browser: Browser,
	baseUrl: string,
	owner: { email: string; password: string },
): Promise<Editor> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	context.setDefaultTimeout(STEP_TIMEOUT_MS);
	const page = await context.newPage();
	const brokenIcons: string[] = [];
	page.on('response', (res) => {
		if (res.url().includes('/icons/n8n-nodes-identity-verification/') && res.status() !== 200)
			brokenIcons.push(`${res.url()} ${res.status()}`);
	});
	const login = await page.request.post(`${baseUrl}/rest/login`, {
		data: { emailOrLdapLoginId: owner.email, password: owner.password },
	});
	if (!login.ok()) throw new Error(`signing in to n8n failed: ${login.status()}`);
	return { page, baseUrl, brokenIcons, close: () => context.close() };
}

/** An empty new workflow, canvas ready. */
export async function newWorkflow(editor: Editor): Promise<void> {
	await editor.page.goto(`${editor.baseUrl}/workflow/new`);
	await editor.page.getByTestId('node-creator-plus-button').waitFor();
}

/** A saved workflow on the canvas (or one of its executions when `executionId` is given). */
export async function openWorkflow(
	editor: Editor,
	workflowId: string,
	executionId?: string,
): Promise<void> {
	const route = executionId
		? `/workflow/${workflowId}/executions/${executionId}`
		: `/workflow/${workflowId}`;
	await editor.page.goto(`${editor.baseUrl}${route}`);
	await editor.page.getByTestId('canvas-node').first().waitFor();
}

/** Opens the nodes panel and searches for the text. */
async function searchNodesPanel(editor: Editor, text: string): Promise<Locator> {
	const { page } = editor;
	await page.getByTestId('node-creator-plus-button').click();
	const panel = page.getByTestId('node-creator');
	await panel.getByTestId('node-creator-search-bar').fill(text);
	await panel.getByTestId('node-creator-item-name').first().waitFor();
	return panel;
}

/** Nodes panel → search "Identity Verification" → the package's entry (triggers and actions). */
export async function openPackageInPanel(editor: Editor): Promise<Locator> {
	const panel = await searchNodesPanel(editor, 'Identity Verification');
	await panel
		.getByTestId('item-iterator-item')
		.filter({
			has: editor.page
				.getByTestId('node-creator-item-name')
				.getByText('Identity Verification', { exact: true }),
		})
		.first()
		.click();
	await panel.getByTestId('node-creator-category-item').filter({ hasText: 'Actions' }).waitFor();
	return panel;
}

/** Adds the action (e.g. "Create a bank token") from the nodes panel; its node opens. */
export async function addActionFromPanel(editor: Editor, action: string): Promise<void> {
	const panel = await openPackageInPanel(editor);
	const actions = panel.getByTestId('node-creator-category-item').filter({ hasText: 'Actions' });
	if ((await actions.locator('..').getAttribute('data-category-collapsed')) === 'true')
		await actions.click();
	await panel.getByTestId('node-creator-item-name').getByText(action, { exact: true }).click();
	await ndv(editor.page).waitFor();
}

/** The open node (NDV). */
export function ndv(page: Page): Locator {
	return page.getByTestId('ndv');
}

/** Opens a node of the canvas by its name. */
export async function openNode(editor: Editor, name: string): Promise<void> {
	await editor.page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).dblclick();
	await ndv(editor.page).waitFor();
}

export async function closeNode(editor: Editor): Promise<void> {
	await editor.page.getByTestId('ndv-close-button').click();
	await ndv(editor.page).waitFor({ state: 'hidden' });
}

/** Picks an option of an options parameter of the open node (e.g. Authentication). */
export async function setOption(editor: Editor, parameter: string, option: string): Promise<void> {
	const { page } = editor;
	await ndv(page).getByTestId(`parameter-input-${parameter}`).click();
	await page
		.locator('.el-select-dropdown__item:visible')
		.filter({ hasText: option })
		.first()
		.click();
}

/** Picks a credential by name in the open node's (only) credential picker. */
export async function selectCredential(editor: Editor, name: string): Promise<void> {
	const { page } = editor;
	await ndv(page).getByTestId('node-credentials-slot').getByRole('combobox').click();
	await page
		.locator('li[data-test-id^="node-credentials-select-item-"]:visible')
		.filter({ hasText: name })
		.first()
		.click();
}

export interface CredentialSlot {
	/** What the picker shows (the selected credential's name, or '' when none). */
	selected: string;
	/** The credentials the picker offers, as `<name> (<credential type>)`. */
	offered: string[];
}

/**
 * Opens a credential picker's dropdown. It is teleported to the page, and its footer ("Create new
 * credential") always shows. After a change of Authentication, n8n 2.41.1's picker sometimes opens
 * nothing on the first click (seen in two of three editor runs): then it clicks again.
 */
async function openDropdown(combobox: Locator): Promise<void> {
	const footer = combobox
		.page()
		.getByTestId('node-credentials-select-item-new')
		.locator('visible=true');
	for (let attempt = 1; ; attempt++) {
		await combobox.click();
		try {
			await footer.waitFor({ timeout: 5_000 });
			return;
		} catch (error) {
			if (attempt >= 3) throw error;
		}
	}
}

/** The open node's credential pickers: what each shows and what its dropdown offers. */
export async function readCredentialSlots(editor: Editor): Promise<CredentialSlot[]> {
	const { page } = editor;
	const slots = ndv(page).getByTestId('node-credentials-slot');
	await slots.first().waitFor();
	const result: CredentialSlot[] = [];
	for (let i = 0; i < (await slots.count()); i++) {
		const combobox = slots.nth(i).getByRole('combobox');
		const selected = await combobox.inputValue();
		await openDropdown(combobox);
		const options = page.locator('li[data-test-id^="node-credentials-select-item-"]:visible');
		// The options render a moment after the footer; none at all is a finding, not a hang.
		await options
			.first()
			.waitFor({ timeout: 10_000 })
			.catch(() => undefined);
		const offered: string[] = [];
		for (const option of await options.all()) {
			const [name, type] = (await option.innerText()).split('\n').map((s) => s.trim());
			offered.push(`${name} (${type})`);
		}
		await page.keyboard.press('Escape');
		await page
			.getByTestId('node-credentials-select-item-new')
			.locator('visible=true')
			.waitFor({ state: 'hidden' });
		result.push({ selected, offered: offered.sort() });
	}
	return result;
}

/** Images of this package on the page that do not load (decode fails or naturalWidth is 0). */
export async function brokenPackageImages(page: Page): Promise<string[]> {
	const images = page.locator('img[src*="/icons/n8n-nodes-identity-verification/"]');
	const broken: string[] = [];
	for (const image of await images.all()) {
		// The editor's code runs in the page; `img` is an HTMLImageElement there (no DOM types here).
		const width = await image.evaluate((img: any) =>
			img.decode().then(
				() => img.naturalWidth as number,
				() => 0,
			),
		);
		if (width === 0) broken.push((await image.getAttribute('src')) ?? '?');
	}
	return broken;
}
