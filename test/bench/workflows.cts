// Workflow JSON the bench creates in real n8n, written the way the editor saves them. Every
// comparison pairs a workflow with this package's node and one with the n8n node a user would use
// instead, identical apart from that node.
import { NODE_TYPES, chain, credentialRef, nodeId, type WorkflowNode } from '../n8n/stack.cjs';

export interface Workflow {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

export const NAMES = {
	webhook: 'Webhook',
	splitOut: 'Split Out',
	action: 'Identity Verification',
	httpRequest: 'HTTP Request',
	trigger: 'Identity Verification Trigger',
} as const;

/**
 * n8n's Webhook node. `lastNode` + `noData`: the HTTP call returns when the workflow has finished
 * (so the bench runs one execution at a time); `onReceived`: answers as soon as the execution is
 * started, like the trigger does.
 */
function webhookNode(webhookPath: string, responseMode: 'lastNode' | 'onReceived'): WorkflowNode {
	return {
		id: nodeId(),
		name: NAMES.webhook,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		parameters: {
			httpMethod: 'POST',
			path: webhookPath,
			responseMode,
			...(responseMode === 'lastNode' ? { responseData: 'noData' } : {}),
			options: {},
		},
		webhookId: webhookPath,
	};
}

/** Webhook (waits for the end) → [Split Out body.items] → the measured node. */
export function measuredWorkflow(
	name: string,
	webhookPath: string,
	measured: WorkflowNode,
	opts: { splitItems?: boolean } = {},
): Workflow {
	const nodes: WorkflowNode[] = [webhookNode(webhookPath, 'lastNode')];
	if (opts.splitItems) {
		nodes.push({
			id: nodeId(),
			name: NAMES.splitOut,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0],
			parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
		});
	}
	nodes.push({ ...measured, position: [220 * nodes.length, 0] });
	return { name, nodes, connections: chain(nodes), settings: { executionOrder: 'v1' } };
}

/** This package's action node with the sandbox API-key credential. */
export function actionNode(parameters: Record<string, unknown>): WorkflowNode {
	return {
		id: nodeId(),
		name: NAMES.action,
		type: NODE_TYPES.action,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: credentialRef('api'),
	};
}

/** n8n's HTTP Request node (4.2) with a generic Basic-auth credential. */
export function httpRequestNode(
	parameters: Record<string, unknown>,
	basicAuth: { id: string; name: string },
): WorkflowNode {
	return {
		id: nodeId(),
		name: NAMES.httpRequest,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		parameters: {
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBasicAuth',
			...parameters,
		},
		credentials: { httpBasicAuth: basicAuth },
	};
}

/** HTTP Request following `next` links one page at a time (its "Response Contains Next URL" pagination). */
export function httpPaginationParameters(firstPageUrl: string): Record<string, unknown> {
	return {
		method: 'GET',
		url: firstPageUrl,
		options: {
			pagination: {
				pagination: {
					paginationMode: 'responseContainsNextURL',
					nextURL: '={{ $response.body.next }}',
					paginationCompleteWhen: 'other',
					completeExpression: '={{ !$response.body.next }}',
				},
			},
		},
	};
}

/** The trigger alone (all event kinds, default options: signature check and duplicate suppression on). */
export function triggerWorkflow(
	name: string,
	webhookId: string,
	options: Record<string, unknown> = {},
): Workflow {
	return {
		name,
		nodes: [
			{
				id: nodeId(),
				name: NAMES.trigger,
				type: NODE_TYPES.trigger,
				typeVersion: 1,
				position: [0, 0],
				parameters: { options },
				credentials: credentialRef('webhookSigning'),
				webhookId,
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** n8n's plain Webhook node alone, answering on receipt (no signature check). */
export function plainWebhookWorkflow(name: string, webhookPath: string): Workflow {
	return {
		name,
		nodes: [webhookNode(webhookPath, 'onReceived')],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** The bench's null community trigger (test/bench/null-trigger), installed as a community package. */
export const NULL_TRIGGER = {
	packageName: 'n8n-nodes-bench-null-trigger',
	type: 'n8n-nodes-bench-null-trigger.nullTrigger',
} as const;

/** The null community trigger alone: no credential, no parameter, the body as it is. */
export function nullTriggerWorkflow(name: string, webhookId: string): Workflow {
	return {
		name,
		nodes: [
			{
				id: nodeId(),
				name: 'Bench Null Trigger',
				type: NULL_TRIGGER.type,
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
				webhookId,
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * What a user builds without this package: Webhook (Raw Body on, answering on receipt) → Crypto
 * (HMAC-SHA256 of the raw body with a Crypto credential holding the signing key, hex) → If (the
 * HMAC equals the Service-Signature header). Only the If's true branch would go on.
 */
export function workflowCheckWorkflow(
	name: string,
	webhookPath: string,
	cryptoCredential: { id: string; name: string },
): Workflow {
	const webhook = webhookNode(webhookPath, 'onReceived');
	webhook.parameters.options = { rawBody: true };
	const crypto: WorkflowNode = {
		id: nodeId(),
		name: 'Crypto',
		type: 'n8n-nodes-base.crypto',
		typeVersion: 2,
		position: [220, 0],
		parameters: {
			action: 'hmac',
			binaryData: true,
			binaryPropertyName: 'data',
			type: 'SHA256',
			dataPropertyName: 'signature',
			encoding: 'hex',
		},
		credentials: { crypto: cryptoCredential },
	};
	const check: WorkflowNode = {
		id: nodeId(),
		name: 'Signature Matches',
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
		position: [440, 0],
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
				conditions: [
					{
						id: '5b0c2a6e-1f3d-4c8b-9a7e-2d4f6b8c0e1a',
						leftValue: '={{ $json.signature }}',
						rightValue: `={{ $('${NAMES.webhook}').item.json.headers['service-signature'] }}`,
						operator: { type: 'string', operation: 'equals' },
					},
				],
				combinator: 'and',
			},
			options: {},
		},
	};
	const nodes = [webhook, crypto, check];
	return { name, nodes, connections: chain(nodes), settings: { executionOrder: 'v1' } };
}
