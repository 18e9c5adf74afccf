// Workflow nodes as the editor saves them, shared by the workflows of the e2e tests, the bench and
// the queue-mode tests, so that each node type is written in one place.
import { NODE_TYPES, chain, credentialRef, nodeId, type WorkflowNode } from './stack.cjs';

export const ACTION = 'Identity Verification';
export const TRIGGER = 'Identity Verification Trigger';

/** A node at [0, 0]; `lineUp` places it in its workflow. */
export function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	more: Pick<WorkflowNode, 'credentials' | 'webhookId'> = {},
): WorkflowNode {
	return { id: nodeId(), name, type, typeVersion, position: [0, 0], parameters, ...more };
}

/** Places the nodes left to right, `step` apart, and connects them one after the other. */
export function lineUp(nodes: WorkflowNode[], step = 220): Record<string, unknown> {
	nodes.forEach((n, i) => (n.position = [step * i, 0]));
	return chain(nodes);
}

/**
 * This package's action node (one operation), with the sandbox API-key credential, or the KYB form
 * token one when `authentication` is `kybFormToken`.
 */
export const actionNode = (parameters: Record<string, unknown>) =>
	node(ACTION, NODE_TYPES.action, 1, parameters, {
		credentials: credentialRef(
			parameters.authentication === 'kybFormToken' ? 'kybFormToken' : 'api',
		),
	});

/** The trigger; default options: signature check and duplicate suppression on. */
export const triggerNode = (webhookId: string, options: Record<string, unknown> = {}) =>
	node(
		TRIGGER,
		NODE_TYPES.trigger,
		1,
		{ options },
		{
			credentials: credentialRef('webhookSigning'),
			webhookId,
		},
	);

/** n8n's Webhook node for POSTs to `webhookPath`, answering as `response` says. */
export const webhookNode = (webhookPath: string, response: Record<string, unknown>) =>
	node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path: webhookPath, ...response, options: {} },
		{ webhookId: webhookPath },
	);

/** n8n's If node (2.2): items go on (its first output) when `condition` holds. */
export const ifNode = (
	name: string,
	condition: { id: string; leftValue: string; rightValue: unknown; operator: object },
) =>
	node(name, 'n8n-nodes-base.if', 2.2, {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
			conditions: [condition],
			combinator: 'and',
		},
		options: {},
	});
