// The demo's copy of an example workflow: every node of an outside service the demo has no account
// of (Slack, HubSpot, Google Sheets, Google Drive) becomes one of n8n's own nodes of the same name,
// id, position and settings, so its connections and every other node (this package's nodes, the
// routing) stay as they are; Send Email keeps its node and sends to the sandbox's mailbox. By node
// type and operation, so a new example using these services runs in the demo too:
// - a read or search (a sheet's rows, a CRM record) becomes an Edit Fields (Set) node giving one
//   sample record with the fields the example reads of it, with values the sandbox knows;
// - Slack's send-and-wait (a reviewer's approval) becomes an Edit Fields node answering what the
//   reviewer's Approve gives (`data.approved`);
// - every other step (post, upload, append, update) becomes No Operation: its items go on as they came.
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

const isSendAndWait = (node: WorkflowNode) => node.parameters.operation === 'sendAndWait';

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

function setNode(node: WorkflowNode, fields: Array<[string, string | boolean]>): WorkflowNode {
	return {
		...node,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		credentials: undefined,
		parameters: {
			assignments: {
				assignments: fields.map(([name, value]) => ({
					id: nodeId(),
					name,
					value,
					type: typeof value === 'boolean' ? 'boolean' : 'string',
				})),
			},
			includeOtherFields: true,
			options: {},
		},
	};
}

/** The stand-in of one outside service's node (see the file's comment). */
function standInOf(workflow: ExampleWorkflow, node: WorkflowNode): WorkflowNode {
	if (isSendAndWait(node)) return setNode(node, [['data.approved', true]]);
	if (isRead(node))
		return setNode(
			node,
			fieldsReadOf(workflow, node).map((f) => [f, sampleValue(f.replace(/^properties\./, ''))]),
		);
	return {
		...node,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		credentials: undefined,
		parameters: {},
	};
}

/** The demo's copy of an example: stand-ins for outside services, e-mail to the sandbox's mailbox. */
export function withStandIns<T extends ExampleWorkflow>(workflow: T): T {
	const copy: T = JSON.parse(JSON.stringify(workflow));
	copy.nodes = copy.nodes.map((node) => {
		if (node.type === EMAIL)
			return {
				...node,
				credentials: { smtp: { id: MAILBOX_CREDENTIAL.id, name: MAILBOX_CREDENTIAL.name } },
			};
		if (node.type in OUTSIDE_SERVICES) return standInOf(workflow, node);
		return node;
	});
	return copy;
}
