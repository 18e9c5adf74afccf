/**
 * The ready-made workflows users import (workflows/*.json), read as files: each has a sticky note
 * that names every node needing a credential and that credential, ends in real steps (no No
 * Operation node), carries no credential of anyone's n8n, and is wired whole. Whether n8n imports
 * and runs them is test/e2e/ready-made-workflows.test.cts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Tests run compiled from .build/test/foundation/; workflows/ is at the repository root.
const DIR = path.resolve(__dirname, '..', '..', '..', 'workflows');

interface Node {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: unknown;
}
interface Workflow {
	name: string;
	nodes: Node[];
	connections: Record<string, { main: Array<Array<{ node: string }> | null> }>;
	settings?: Record<string, unknown>;
}

const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const WORKFLOWS: Array<[string, Workflow]> = FILES.sort().map((file) => [
	file,
	JSON.parse(readFileSync(path.join(DIR, file), 'utf8')),
]);

const STICKY = 'n8n-nodes-base.stickyNote';
const ACTION = 'n8n-nodes-identity-verification.identityVerification';
const TRIGGER = 'n8n-nodes-identity-verification.identityVerificationTrigger';
const SIGNING = 'Identity Verification Webhook Signing API';

/** The credential (as n8n names its type) a node needs, or undefined when it needs none. */
function credentialOf(node: Node): string | undefined {
	if (node.type === TRIGGER) return SIGNING;
	if (node.type === ACTION)
		return node.parameters.operation === 'waitForResult' ? SIGNING : 'Identity Verification API';
	return {
		'n8n-nodes-base.slack': 'Slack API',
		'n8n-nodes-base.hubspot': 'HubSpot Service Key',
		'n8n-nodes-base.googleSheets': 'Google Sheets OAuth2 API',
		'n8n-nodes-base.emailSend': 'SMTP',
	}[node.type];
}

const isTrigger = (node: Node) => /trigger$|\.webhook$/i.test(node.type);

test('workflows/ holds the five ready-made workflows', () => {
	expect(FILES.sort()).toEqual([
		'aml-profile-pdf-by-email.json',
		'kyc-result-to-slack-and-crm.json',
		'nightly-bank-transactions-accounts-from-sheet.json',
		'nightly-bank-transactions-to-sheets.json',
		'onboarding-one-workflow-slack-crm.json',
	]);
});

describe.each(WORKFLOWS)('%s', (_file, workflow) => {
	const notes = workflow.nodes.filter((n) => n.type === STICKY);
	const text = notes.map((n) => String(n.parameters.content ?? '')).join('\n');
	const steps = workflow.nodes.filter((n) => n.type !== STICKY);

	test('has a sticky note naming each node that needs a credential, and the credential', () => {
		expect(notes.length).toBeGreaterThan(0);
		expect(text).toMatch(/what to connect/i);
		const missing = steps
			.filter((n) => credentialOf(n) !== undefined)
			.flatMap((n) => [n.name, credentialOf(n)!])
			.filter((phrase) => !text.includes(phrase));
		expect(missing).toEqual([]);
	});

	test('has no No Operation node, and no credential of anyone’s n8n', () => {
		expect(workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.noOp')).toEqual([]);
		expect(workflow.nodes.filter((n) => n.credentials !== undefined).map((n) => n.name)).toEqual(
			[],
		);
	});

	test('is wired whole: unique names and ids, connections between its nodes, every step reached', () => {
		const names = workflow.nodes.map((n) => n.name);
		expect(new Set(names).size).toBe(names.length);
		expect(new Set(workflow.nodes.map((n) => n.id)).size).toBe(names.length);
		const targets = new Set<string>();
		for (const [from, { main }] of Object.entries(workflow.connections)) {
			expect(names).toContain(from);
			for (const target of main.flat()) {
				if (!target) continue;
				expect(names).toContain(target.node);
				targets.add(target.node);
			}
		}
		expect(steps.filter((n) => !isTrigger(n) && !targets.has(n.name)).map((n) => n.name)).toEqual(
			[],
		);
		expect(steps.filter(isTrigger).length).toBeGreaterThan(0);
	});
});

/** The nightly bank templates: they write names and amounts of bank transactions. */
const NIGHTLY_BANK = WORKFLOWS.filter(([file]) => file.startsWith('nightly-bank-'));

describe.each(NIGHTLY_BANK)('%s', (_file, workflow) => {
	test('saves no successful run (each holds names and amounts), nor a run by hand', () => {
		expect(workflow.settings).toMatchObject({
			saveDataSuccessExecution: 'none',
			saveManualExecutions: false,
		});
	});

	test('pulls one booking day, flat, and never compares transactions to skip one (two identical payments are two)', () => {
		const types = workflow.nodes.map((n) => n.type);
		expect(types).not.toContain('n8n-nodes-base.removeDuplicates');
		const [list, ...more] = workflow.nodes.filter((n) => n.type === ACTION);
		expect(more).toEqual([]);
		expect(list.parameters).toMatchObject({ operation: 'listTransactions', simplify: true });
		const { bookedFrom, bookedTo } = list.parameters.filters as Record<string, string>;
		expect(bookedFrom).toMatch(/bookingDate/);
		expect(bookedTo).toBe(bookedFrom);
	});
});
