// The demo's copies of the example workflows (workflows/*.json): the sandbox credentials, and
// n8n's own stand-ins for the outside services (standins.cts), so that every example runs in the
// demo; the files users import keep the real services. And how each copy is started: the demo
// runs every start an example has (Execute workflow, its webhook, its form, this package's trigger).
import { demoWorkflows, type DemoWorkflow } from '../n8n/examples.cjs';
import { withStandIns } from '../n8n/standins.cjs';
import { NODE_TYPES, triggerEvents, type StackOptions } from '../n8n/stack.cjs';
import { simpleParser } from 'mailparser';
import type { Sandbox } from '../sandbox/index.cjs';
import type { MailMessage } from '../sandbox/mailbox.cjs';
import { DEMO_SEED } from '../sandbox/seed.cjs';
import { KYB_FORM_PATH } from '../sandbox/pages.cjs';

/**
 * The examples as the demo imports them: sandbox credentials and stand-ins; given the sandbox's
 * address, a KYB form link they build opens the sandbox's own form page.
 */
export function demoCopies(sandboxUrl?: string): DemoWorkflow[] {
	return demoWorkflows().map((w) => {
		const copy = withoutSchedules(keepingRuns(withStandIns(w.workflow)));
		return { ...w, workflow: sandboxUrl ? withSandboxKybForm(copy, sandboxUrl) : copy };
	});
}

/** The field an example's Edit Fields node holds the KYB form's address in (the provider's). */
export const KYB_FORM_ADDRESS_FIELD = 'kybFormAddress';

/**
 * The provider's hosted KYB form knows none of the sandbox's tokens: in the demo the address an
 * example links to (its "KYB form address" node) is the sandbox's form page.
 */
function withSandboxKybForm(
	workflow: DemoWorkflow['workflow'],
	sandboxUrl: string,
): DemoWorkflow['workflow'] {
	const copy: DemoWorkflow['workflow'] = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes.filter((n) => n.type === 'n8n-nodes-base.set')) {
		const fields = (node.parameters.assignments as { assignments?: any[] })?.assignments ?? [];
		for (const field of fields.filter((f) => f.name === KYB_FORM_ADDRESS_FIELD))
			field.value = `${sandboxUrl}${KYB_FORM_PATH}`;
	}
	return copy;
}

/**
 * A published copy's schedule would fire on its own while the demo runs (KYB onboarding's every 15
 * minutes mails a new link each time): in the demo it is switched off, and the copy is run by hand.
 */
function withoutSchedules(workflow: DemoWorkflow['workflow']): DemoWorkflow['workflow'] {
	const nodes = workflow.nodes.map((n) =>
		n.type === 'n8n-nodes-base.scheduleTrigger' ? { ...n, disabled: true } : n,
	);
	return { ...workflow, nodes };
}

/**
 * The files keep no successful run (it would hold personal data); the demo's copies keep every run
 * of the sandbox's invented people, so its executions list shows each (and the headless demo reads it).
 */
function keepingRuns(workflow: DemoWorkflow['workflow']): DemoWorkflow['workflow'] {
	const settings = {
		...workflow.settings,
		saveDataSuccessExecution: 'all',
		saveManualExecutions: true,
	};
	return { ...workflow, settings };
}

const hasNode = (w: DemoWorkflow, test: (n: { type: string; parameters: any }) => boolean) =>
	w.workflow.nodes.some(test);

/** The one-workflow onboarding: a sign-up webhook and a Wait for Result. */
export const isSignupWorkflow = (w: DemoWorkflow) =>
	hasNode(w, (n) => n.type === 'n8n-nodes-base.webhook') &&
	hasNode(w, (n) => n.type === NODE_TYPES.action && n.parameters.operation === 'waitForResult');

export type Start = 'manual' | 'signup' | 'webhook' | 'form' | 'trigger';

/** The ways an example starts, each of which the headless demo runs once. */
export function startsOf(w: DemoWorkflow): Start[] {
	if (isSignupWorkflow(w)) return ['signup'];
	const starts: Start[] = [];
	const types = new Set(w.workflow.nodes.map((n) => n.type));
	if (types.has('n8n-nodes-base.manualTrigger')) starts.push('manual');
	if (types.has('n8n-nodes-base.webhook')) starts.push('webhook');
	if (types.has('n8n-nodes-base.formTrigger')) starts.push('form');
	if (types.has(NODE_TYPES.trigger)) starts.push('trigger');
	return starts;
}

/**
 * Published: the copies that start from a webhook, a form or this package's trigger. The copies are
 * made once the sandbox runs (their KYB form links open its page).
 */
export function demoStackOptions(smtpPort = 0): Pick<StackOptions, 'publish' | 'sandbox'> & {
	workflows: (sandbox: { url: string }) => object[];
} {
	const copies = demoCopies();
	return {
		sandbox: { kybFormLinks: true, smtpPort },
		workflows: (sandbox) => demoCopies(sandbox.url).map((w) => w.workflow),
		publish: copies
			.filter((w) => startsOf(w).some((s) => s !== 'manual'))
			.map((w) => w.workflow.id),
	};
}

/** What a new customer's sign-up posts to an example's webhook (a name the AML lists hit). */
export function webhookSample(customerId: string): Record<string, string> {
	return {
		customerId,
		email: `${customerId}@example.com`,
		fullName: 'Aleksandr Volkov',
		// His date of birth on the sandbox's lists: another one would not match (Date of Birth Matching).
		dateOfBirth: '1968-02-11',
		nationality: 'LT',
	};
}

/** A form's fields as a person fills them in (`field-<n>`, as n8n's form page posts them). */
export function formFieldsOf(
	form: { parameters: any },
	clientId: string,
	yesterday: string,
): Array<[string, string]> {
	const fields = (form.parameters.formFields?.values ?? []) as Array<{
		fieldLabel: string;
		fieldType?: string;
	}>;
	return fields.map((f, i) => {
		const value =
			f.fieldType === 'email'
				? 'requester@example.com'
				: f.fieldType === 'date'
					? yesterday
					: /client/i.test(f.fieldLabel)
						? clientId
						: 'demo';
		return [`field-${i}`, value];
	});
}

/** The KYB form link (`…?authToken=…`) in the first of these e-mails that has one, decoded. */
export async function kybFormLinkIn(messages: readonly MailMessage[]): Promise<string | undefined> {
	for (const m of messages) {
		const text = (await simpleParser(m.raw)).text ?? '';
		const link = /https?:\/\/[^\s<>"']+\?authToken=[^\s<>"']+/.exec(text)?.[0];
		if (link) return link;
	}
	return undefined;
}

/** What the demo seeds on its sandbox at start (DEMO_SEED), by the IDs the sandbox gave. */
export interface DemoSeeded {
	/** A monitoring in ALERT: the alert-triage example's AML_MONITORING is its daily screening. */
	amlAlertMonitoringId: string;
	/** A verification approved six years ago: the retention purge example erases it. */
	oldVerificationScanRef: string;
}

const SIX_YEARS_MS = 6 * 365 * 86_400_000;

export function seedDemoData(sandbox: Sandbox): DemoSeeded {
	const { monitoringId } = sandbox.aml.seedMonitoring(DEMO_SEED.amlAlertMonitoring);
	const { scanRef } = sandbox.kyc.seedFinished(DEMO_SEED.oldVerificationClientId, {
		startedAt: Date.now() - SIX_YEARS_MS,
	});
	return { amlAlertMonitoringId: monitoringId, oldVerificationScanRef: scanRef };
}

/**
 * Each kind goes to every trigger workflow that listens to it (the dashboard has one notification
 * per receiver and kind).
 */
export function kindReceivers(
	triggers: DemoWorkflow[],
	urlOf: (w: DemoWorkflow) => string,
): Record<string, string[]> {
	const receivers: Record<string, string[]> = {};
	for (const w of triggers)
		for (const kind of triggerEvents(w)) (receivers[kind] ??= []).push(urlOf(w));
	return receivers;
}
