/**
 * The example workflows users import (workflows/*.json), read as files. The demo, the screenshots
 * and the end-to-end tests use the same files. Each has a sticky note whose numbered steps name
 * every node needing a credential and that credential, and say how to start it; ends in real steps
 * (no No Operation node); carries no credential of anyone's n8n; is wired whole; uses the current
 * version of this package's nodes; sends the person the link the token step gives; and keeps no
 * successful run that holds a person's data. Whether n8n imports and runs them is
 * test/e2e/ready-made-workflows.test.cts (and onboarding.test.cts for the one-workflow onboarding).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeTypeDescription } from 'n8n-workflow';

import { IdentityVerificationApi } from '../../credentials/IdentityVerificationApi.credentials';
import { IdentityVerificationKybFormTokenApi } from '../../credentials/IdentityVerificationKybFormTokenApi.credentials';
import { IdentityVerification } from '../../nodes/IdentityVerification/IdentityVerification.node';
import { IdentityVerificationTrigger } from '../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import { kybFormLink } from '../../nodes/shared/contract';

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
	if (node.type === ACTION) {
		if (node.parameters.operation === 'waitForResult') return SIGNING;
		return node.parameters.authentication === 'kybFormToken'
			? new IdentityVerificationKybFormTokenApi().displayName
			: new IdentityVerificationApi().displayName;
	}
	return {
		'n8n-nodes-base.slack': 'Slack API',
		'n8n-nodes-base.hubspot': 'HubSpot Service Key',
		'n8n-nodes-base.googleSheets': 'Google Sheets OAuth2 API',
		'n8n-nodes-base.googleDrive': 'Google Drive OAuth2 API',
		'n8n-nodes-base.emailSend': 'SMTP',
	}[node.type];
}

const isTrigger = (node: Node) => /trigger$|\.webhook$/i.test(node.type);
const isWaitForResult = (node: Node) =>
	node.type === ACTION && node.parameters.operation === 'waitForResult';

/**
 * Operations whose output is a person's data: transactions, a report, a document, KYB answers and
 * owners, an AML check, profile or monitoring (names, dates of birth, list entries), a
 * verification's document data, photos and report.
 */
const PERSONAL_OUTPUT = [
	'listTransactions',
	'downloadProfilePdf',
	'createCheck',
	'getAnswers',
	// AML: a check, a profile, a monitoring and their reports (names, dates of birth, list entries).
	'create',
	'getProfile',
	'getAll',
	// KYB and AML: a record, its report; KYB: a company's owners and its answers.
	'get',
	'downloadPdf',
	'getBeneficiaries',
	'getAllAnswers',
	// Identification: a verification's document data, its photos and its report.
	'getData',
	'downloadFiles',
	'downloadReportPdf',
];

/** Whether a run of the workflow holds a person's data (names, documents, amounts, answers). */
function holdsPersonalData(workflow: Workflow): boolean {
	return workflow.nodes.some(
		(n) =>
			(n.type === ACTION && PERSONAL_OUTPUT.includes(String(n.parameters.operation))) ||
			((n.type === TRIGGER || isWaitForResult(n)) && n.parameters.personalData !== 'leaveOut'),
	);
}

/** Every text a node's parameters hold. */
function textsOf(node: Node): string[] {
	const texts: string[] = [];
	const walk = (value: unknown): void => {
		if (typeof value === 'string') texts.push(value);
		else if (Array.isArray(value)) value.forEach(walk);
		else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
	};
	walk(node.parameters);
	return texts;
}

const latestVersion = (description: INodeTypeDescription) =>
	Math.max(...[description.version].flat());
const LATEST: Record<string, number> = {
	[ACTION]: latestVersion(new IdentityVerification().description),
	[TRIGGER]: latestVersion(new IdentityVerificationTrigger().description),
};

test('workflows/ holds one example workflow per job', () => {
	expect(FILES.sort()).toEqual([
		'abandonment-reminder.json',
		'aml-monitoring-alert-triage.json',
		'aml-screening-on-entry-and-monthly.json',
		'bank-transactions-on-connect.json',
		'erasure-request-by-form.json',
		'evidence-on-approval-to-drive.json',
		'evidence-pack-per-customer.json',
		'kyb-answers-then-submit.json',
		'kyb-company-events.json',
		'kyb-onboarding-with-slack-approval.json',
		'nightly-bank-transactions-to-sheets.json',
		'onboarding-in-one-workflow.json',
		'proof-of-address-check-file.json',
		'retention-purge.json',
		'reupload-request-on-denied.json',
		'reverification-on-document-expiry.json',
		'verification-link-by-email.json',
		'verification-results-to-slack-and-hubspot.json',
		'verification-results-with-nightly-catch-up.json',
	]);
});

describe.each(WORKFLOWS)('%s', (_file, workflow) => {
	const notes = workflow.nodes.filter((n) => n.type === STICKY);
	const text = notes.map((n) => String(n.parameters.content ?? '')).join('\n');
	const steps = workflow.nodes.filter((n) => n.type !== STICKY);

	test('has a sticky note with numbered steps naming each node that needs a credential, and the credential', () => {
		expect(notes.length).toBeGreaterThan(0);
		expect(text).toMatch(/what to connect/i);
		expect(text).toMatch(/\n1\. [^\n]+\n2\. /);
		const missing = steps
			.filter((n) => credentialOf(n) !== undefined)
			.flatMap((n) => [n.name, credentialOf(n)!])
			.filter((phrase) => !text.includes(phrase));
		expect(missing).toEqual([]);
	});

	test('says how it starts: Publish (n8n 1.x: Activate) when something else than a click starts it, Execute workflow when a click does', () => {
		const started = steps.filter(isTrigger).map((n) => n.type);
		if (started.some((type) => type !== 'n8n-nodes-base.manualTrigger')) {
			expect(text).toContain('**Publish**');
			expect(text).toContain('(n8n 1.x: **Activate**');
		} else {
			expect(text).not.toMatch(/publish|activate/i);
		}
		if (started.includes('n8n-nodes-base.manualTrigger'))
			expect(text).toContain('**Execute workflow**');
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

	test('uses the current version of this package’s nodes, and reads the fields that version outputs', () => {
		const ours = steps.filter((n) => n.type in LATEST);
		expect(ours.length).toBeGreaterThan(0);
		expect(ours.filter((n) => n.typeVersion !== LATEST[n.type]).map((n) => n.name)).toEqual([]);
		// Version 1.1 keeps how a delivery was read under `delivery`, no longer at the top.
		const versionOneFields = steps
			.flatMap(textsOf)
			.filter((t) =>
				/json\.(deliveryId|eventTypeSource|headerMatchesBody|headerEventType|validationIssues)\b/.test(
					t,
				),
			);
		expect(versionOneFields).toEqual([]);
	});

	test('the trigger and Wait for Result choose Personal Data', () => {
		const choosing = steps.filter((n) => n.type === TRIGGER || isWaitForResult(n));
		for (const node of choosing)
			expect([node.name, node.parameters.personalData]).toEqual([
				node.name,
				expect.stringMatching(/^(include|leaveOut)$/),
			]);
	});

	test('sends the person the link the token step gives, unedited', () => {
		const tokens = steps.filter((n) => n.parameters.operation === 'createVerificationToken');
		const others = steps.filter((n) => !tokens.includes(n));
		if (tokens.length > 0)
			expect(others.flatMap(textsOf).some((t) => /\$json\.verificationUrl\b/.test(t))).toBe(true);
		// No link built from the token by hand, and no page of ours to replace it with. A KYB form link
		// built from an event's form token (Company Information Requested gives no link) opens the
		// hosted form at the address Create Session's formUrl has, kept in one "KYB form address" node
		// (the demo points it at the sandbox's form).
		const hostedForm = kybFormLink('TOKEN').replace('TOKEN', '');
		const address = (
			workflow.nodes.find((n) => n.name === 'KYB form address')?.parameters.assignments as
				| { assignments: Array<{ name: string; value: string }> }
				| undefined
		)?.assignments.find((a) => a.name === 'kybFormAddress')?.value;
		for (const t of others.flatMap(textsOf).filter((t) => /authToken/.test(t))) {
			expect(t).toContain(
				'{{ $json.kybFormAddress }}?authToken={{ encodeURIComponent($json.body.token) }}',
			);
			expect(`${address}?authToken=`).toBe(hostedForm);
		}
		expect(text).not.toMatch(/verify\.example\.com|replace[^.\n]*verification page/i);
	});

	test('keeps no successful run, by hand or not, when its runs hold a person’s data; its note says so', () => {
		if (!holdsPersonalData(workflow)) return;
		expect(workflow.settings).toMatchObject({
			saveDataSuccessExecution: 'none',
			saveManualExecutions: false,
		});
		expect(text).toMatch(/not saved/);
	});
});

test('the routing examples leave personal data out: they need only the decision and the references', () => {
	const routing = WORKFLOWS.filter(([file]) =>
		['onboarding-in-one-workflow.json', 'verification-results-to-slack-and-hubspot.json'].includes(
			file,
		),
	);
	expect(routing).toHaveLength(2);
	for (const [file, workflow] of routing) {
		const choosing = workflow.nodes.filter((n) => n.type === TRIGGER || isWaitForResult(n));
		expect([file, choosing.map((n) => n.parameters.personalData)]).toEqual([file, ['leaveOut']]);
		expect([file, holdsPersonalData(workflow)]).toEqual([file, false]);
	}
});

/** The nightly bank template: it writes names and amounts of bank transactions. */
const NIGHTLY_BANK = WORKFLOWS.filter(([file]) => file.startsWith('nightly-bank-'));

describe.each(NIGHTLY_BANK)('%s', (_file, workflow) => {
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
