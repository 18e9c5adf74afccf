// The demo's copy of an example workflow: every node of an outside service the demo has no account
// of (Slack, HubSpot, Google Sheets, Google Drive) becomes one of n8n's own nodes of the same name,
// id, position and settings, so its connections and every other node (this package's nodes, the
// routing) stay as they are; Send Email keeps its node and sends to the sandbox's mailbox. By node
// type and operation, so a new example using these services runs in the demo too:
// - a read or search (a sheet's rows, a CRM record) becomes an Edit Fields (Set) node giving one
//   sample record with the fields the example reads of it, with values the sandbox knows;
// - Slack's send-and-wait (a reviewer's approval) becomes n8n's own human step: a Wait node "On Form
//   Submitted" asking the reviewer the same question (its two answers and a comment), then an Edit
//   Fields node of the original's name and id giving what Slack's answer gives (`data.approved`), so
//   the routing after it is the same (reviewerForm below);
// - every other step (post, upload, append, update) becomes No Operation: its items go on as they came.
import { createHash } from 'node:crypto';
import { SEED } from '../sandbox/index.cjs';
import { OUTSIDE_SERVICES, type ExampleWorkflow } from './examples.cjs';
import { MAILBOX_CREDENTIAL, nodeId, type WorkflowNode } from './stack.cjs';

const EMAIL = 'n8n-nodes-base.emailSend';

/** The values of a sample record, by the field name an example reads (else `demo <field>`). */
const SAMPLE_VALUES: Record<string, string> = {
	id: 'demo-deal-1',
	clientId: 'demo-customer-1',
	// A name the sandbox's AML lists hit: the screening's hit branch runs.
	fullName: 'Aleksandr Volkov',
	// His date of birth on the lists: another one would not match (Date of Birth Matching).
	dateOfBirth: '1968-02-11',
	nationality: 'LT',
	verificationId: SEED.bank.verificationId,
	accountId: SEED.bank.accountId,
	email: 'customer@example.com',
	kyb_contact_email: 'kyb-contact@example.com',
	dealname: 'Demo Trading Ltd',
};

const sampleValue = (field: string) =>
	SAMPLE_VALUES[field] ?? (/email/i.test(field) ? 'person@example.com' : `demo ${field}`);

const isRead = (node: WorkflowNode) =>
	['read', 'search', 'get', 'getAll', 'lookup'].includes(String(node.parameters.operation));

/** A send-and-wait step of an outside service: a reviewer's approval. */
const isApproval = (node: WorkflowNode) =>
	node.type in OUTSIDE_SERVICES && node.parameters.operation === 'sendAndWait';

/** The nodes the given node's main outputs lead to, by name. */
function nextNodes(workflow: ExampleWorkflow, name: string): string[] {
	const outputs = (workflow.connections[name] as { main?: Array<Array<{ node: string }>> })?.main;
	return (outputs ?? [])
		.flat()
		.map((c) => c?.node)
		.filter(Boolean);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The fields an example reads of a node's output: `$json.x` / `$json['x']` in the nodes right after
 * it, `$('<name>').item.json.x` anywhere; `properties.x` (a CRM record's) kept as a dotted path.
 */
export function fieldsReadOf(workflow: ExampleWorkflow, node: WorkflowNode): string[] {
	const field = String.raw`((?:properties\.)?[A-Za-z_][\w]*|\[['"][^'"]+['"]\])`;
	const text = (nodes: WorkflowNode[]) => nodes.map((n) => JSON.stringify(n.parameters)).join('\n');
	const after = workflow.nodes.filter((n) => nextNodes(workflow, node.name).includes(n.name));
	const found = [
		...text(after).matchAll(new RegExp(String.raw`\$json\.?${field}`, 'g')),
		...text(workflow.nodes).matchAll(
			new RegExp(
				String.raw`\$\(\\?['"]${escapeRegExp(node.name)}\\?['"]\)\.(?:item|first\(\)|last\(\))\.json\.?${field}`,
				'g',
			),
		),
	].map((m) => m[1].replace(/^\[['"]|['"]\]$/g, ''));
	return [...new Set(found)].filter((f) => f !== 'body');
}

/** A field an Edit Fields node sets: its name, value, and type (a string unless said). */
type Field = [name: string, value: string, type?: 'string' | 'boolean'];

/** An Edit Fields node in the given node's place; `keep` keeps the fields of its input. */
function setNode(node: WorkflowNode, fields: Field[], keep = true): WorkflowNode {
	return {
		...node,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		credentials: undefined,
		parameters: {
			assignments: {
				assignments: fields.map(([name, value, type = 'string']) => ({
					id: nodeId(),
					name,
					value,
					type,
				})),
			},
			includeOtherFields: keep,
			options: {},
		},
	};
}

/** The stand-in of one outside service's node (see the file's comment). */
function standInOf(workflow: ExampleWorkflow, node: WorkflowNode): WorkflowNode {
	if (isRead(node))
		return setNode(
			node,
			fieldsReadOf(workflow, node).map(
				(f): Field => [f, sampleValue(f.replace(/^properties\./, ''))],
			),
		);
	return {
		...node,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		credentials: undefined,
		parameters: {},
	};
}

/** The name of the reviewer's form that stands in for a send-and-wait node. */
export const reviewerFormOf = (name: string) => `${name} (n8n Form)`;

/** The reviewer's two answers, as the send-and-wait node labels its buttons. */
export function answersOf(node: Pick<WorkflowNode, 'parameters'>): {
	approve: string;
	deny: string;
} {
	const values = (node.parameters.approvalOptions as { values?: Record<string, string> })?.values;
	return { approve: values?.approveLabel ?? 'Approve', deny: values?.disapproveLabel ?? 'Decline' };
}

/** The form's fields: the decision (field-0), and a comment kept in the execution (field-1). */
const DECISION_FIELD = 'Decision';
const COMMENT_FIELD = 'Comment';

/** A UUID of its own for a node the copy adds, the same in every copy (stable webhook paths). */
function derivedId(id: string, what: string): string {
	const hex = createHash('sha256').update(`${id}:${what}`).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A send-and-wait node as two: n8n's Wait node "On Form Submitted", where the reviewer reads the
 * same message and chooses one of the same two answers; then an Edit Fields node of the original's
 * name giving `data.approved` as Slack's answer does (and the comment).
 */
function reviewerForm(node: WorkflowNode): WorkflowNode[] {
	const { approve, deny } = answersOf(node);
	const [x, y] = node.position;
	const form: WorkflowNode = {
		id: derivedId(node.id, 'form'),
		name: reviewerFormOf(node.name),
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		position: [x, y - 180],
		webhookId: derivedId(node.id, 'webhook'),
		parameters: {
			resume: 'form',
			formTitle: 'Reviewer’s decision',
			formDescription: node.parameters.message,
			formFields: {
				values: [
					{
						fieldLabel: DECISION_FIELD,
						fieldType: 'dropdown',
						fieldOptions: { values: [{ option: approve }, { option: deny }] },
						requiredField: true,
					},
					{ fieldLabel: COMMENT_FIELD, fieldType: 'textarea' },
				],
			},
			options: {},
		},
	};
	// Slack's answer is `data` alone: the form's fields are not passed on.
	const answer = setNode(
		node,
		[
			['data.approved', `={{ $json.${DECISION_FIELD} === ${JSON.stringify(approve)} }}`, 'boolean'],
			['data.comment', `={{ $json.${COMMENT_FIELD} ?? '' }}`],
		],
		false,
	);
	return [form, answer];
}

/** Connections into a send-and-wait node go to its reviewer's form, and the form leads to it. */
function throughReviewerForm(
	connections: Record<string, unknown>,
	name: string,
): Record<string, unknown> {
	const into = (to: string) => JSON.stringify({ node: to, type: 'main', index: 0 });
	const text = JSON.stringify(connections).replaceAll(into(name), into(reviewerFormOf(name)));
	return {
		...JSON.parse(text),
		[reviewerFormOf(name)]: { main: [[{ node: name, type: 'main', index: 0 }]] },
	};
}

/** The demo's copy of an example: stand-ins for outside services, e-mail to the sandbox's mailbox. */
export function withStandIns<T extends ExampleWorkflow>(workflow: T): T {
	const copy: T = JSON.parse(JSON.stringify(workflow));
	for (const node of copy.nodes.filter(isApproval))
		copy.connections = throughReviewerForm(copy.connections, node.name);
	copy.nodes = copy.nodes.flatMap((node) => {
		if (node.type === EMAIL)
			return {
				...node,
				credentials: { smtp: { id: MAILBOX_CREDENTIAL.id, name: MAILBOX_CREDENTIAL.name } },
			};
		if (isApproval(node)) return reviewerForm(node);
		if (node.type in OUTSIDE_SERVICES) return standInOf(workflow, node);
		return node;
	});
	return copy;
}
