// The example workflows users import (workflows/*.json), as the demo, the screenshots and the
// end-to-end tests load them. The files carry no credentials (nobody's n8n has the same ids), so a
// copy gives this package's nodes the sandbox credentials. A workflow with a node of an outside
// service (Slack, HubSpot, Google Sheets, e-mail) cannot run without the user's own account of it:
// the demo imports it and says so, and runs the others.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './runtime.cjs';
import {
	CREDENTIALS,
	NODE_TYPES,
	credentialRef,
	isSignupWorkflow,
	isTriggerWorkflow,
	type StackOptions,
	type WorkflowNode,
} from './stack.cjs';

const EXAMPLES_DIR = path.join(ROOT, 'workflows');

export interface ExampleWorkflow {
	id: string;
	name: string;
	nodes: Array<WorkflowNode & { alwaysOutputData?: boolean }>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

/** The example workflows as saved in workflows/, in file-name order. */
function exampleWorkflows(): Array<{ file: string; workflow: ExampleWorkflow }> {
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')),
		}));
}

/** One example workflow by its file name in workflows/. */
export function exampleWorkflow(file: string): ExampleWorkflow {
	const found = exampleWorkflows().find((w) => w.file === file);
	if (!found) throw new Error(`workflows/${file} does not exist`);
	return found.workflow;
}

/** Node types of outside services, with the service a user needs an account of. */
export const OUTSIDE_SERVICES: Record<string, string> = {
	'n8n-nodes-base.slack': 'Slack',
	'n8n-nodes-base.hubspot': 'HubSpot',
	'n8n-nodes-base.googleSheets': 'Google Sheets',
	'n8n-nodes-base.googleDrive': 'Google Drive',
	'n8n-nodes-base.emailSend': 'e-mail (SMTP)',
};

/** The outside services a workflow needs accounts of, each once, in node order. */
function outsideServicesOf(workflow: Pick<ExampleWorkflow, 'nodes'>): string[] {
	const services = workflow.nodes.map((n) => OUTSIDE_SERVICES[n.type]).filter(Boolean);
	return [...new Set(services)];
}

/** The sandbox credential a node of this package uses, or undefined for other nodes. */
function sandboxCredentialOf(
	node: Pick<WorkflowNode, 'type' | 'parameters'>,
): keyof typeof CREDENTIALS | undefined {
	if (node.type === NODE_TYPES.trigger) return 'webhookSigning';
	if (node.type === NODE_TYPES.pollingTrigger) return 'api';
	if (node.type !== NODE_TYPES.action) return undefined;
	if (node.parameters.operation === 'waitForResult') return 'webhookSigning';
	return node.parameters.authentication === 'kybFormToken' ? 'kybFormToken' : 'api';
}

/** A copy whose nodes of this package use the sandbox credentials. */
export function withSandboxCredentials<T extends Pick<ExampleWorkflow, 'nodes'>>(workflow: T): T {
	const copy: T = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes) {
		const which = sandboxCredentialOf(node);
		if (which) node.credentials = credentialRef(which);
	}
	return copy;
}

export interface DemoWorkflow {
	file: string;
	workflow: ExampleWorkflow;
	/** Outside services it needs accounts of: the demo imports it but does not run it. */
	needs: string[];
}

/** The example workflows with the sandbox credentials, and what each needs besides them. */
export function demoWorkflows(): DemoWorkflow[] {
	return exampleWorkflows().map(({ file, workflow }) => ({
		file,
		workflow: withSandboxCredentials(workflow),
		needs: outsideServicesOf(workflow),
	}));
}

/** Whether the demo runs it: it needs only this package's credentials and n8n's own nodes. */
export const runsInDemo = (w: DemoWorkflow) => w.needs.length === 0;

/**
 * Stack options for the demo (and its pictures): every example imported; those the demo runs and
 * that start from a webhook (this package's trigger, a sign-up) published; a KYB session's link
 * opens the sandbox's own form, so a company can be onboarded without the provider's site.
 */
export function demoStackOptions(): Pick<StackOptions, 'publish' | 'sandbox'> & {
	workflows: ExampleWorkflow[];
} {
	const workflows = demoWorkflows();
	return {
		sandbox: { kybFormLinks: true },
		workflows: workflows.map((w) => w.workflow),
		publish: workflows
			.filter((w) => runsInDemo(w) && (isTriggerWorkflow(w) || isSignupWorkflow(w)))
			.map((w) => w.workflow.id),
	};
}
