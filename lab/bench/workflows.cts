// Workflow JSON the bench creates in real n8n, written the way the editor saves them. Every
// comparison pairs a workflow with this package's node and one with the n8n node a user would use
// instead, identical apart from that node.
import type { WorkflowNode } from '../../test/n8n/stack.cjs';
import {
	ACTION,
	TRIGGER,
	ifNode,
	lineUp,
	node,
	triggerNode,
	webhookNode as n8nWebhookNode,
} from '../../test/n8n/workflow.cjs';

// The package's action node (the sandbox API-key credential), as the bench measures it.
export { actionNode } from '../../test/n8n/workflow.cjs';

export interface Workflow {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

export const NAMES = {
	webhook: 'Webhook',
	splitOut: 'Split Out',
	action: ACTION,
	httpRequest: 'HTTP Request',
	trigger: TRIGGER,
} as const;

/**
 * n8n's Webhook node. `lastNode` + `noData`: the HTTP call returns when the workflow has finished
 * (so the bench runs one execution at a time); `onReceived`: answers as soon as the execution is
 * started, like the trigger does.
 */
function webhookNode(webhookPath: string, responseMode: 'lastNode' | 'onReceived'): WorkflowNode {
	return n8nWebhookNode(webhookPath, {
		responseMode,
		...(responseMode === 'lastNode' ? { responseData: 'noData' } : {}),
	});
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
		nodes.push(
			node(NAMES.splitOut, 'n8n-nodes-base.splitOut', 1, {
				fieldToSplitOut: 'body.items',
				include: 'noOtherFields',
				options: {},
			}),
		);
	}
	nodes.push({ ...measured });
	return { name, nodes, connections: lineUp(nodes), settings: { executionOrder: 'v1' } };
}

/** n8n's HTTP Request node (4.2) with a generic Basic-auth credential. */
export function httpRequestNode(
	parameters: Record<string, unknown>,
	basicAuth: { id: string; name: string },
): WorkflowNode {
	return node(
		NAMES.httpRequest,
		'n8n-nodes-base.httpRequest',
		4.2,
		{ authentication: 'genericCredentialType', genericAuthType: 'httpBasicAuth', ...parameters },
		{ credentials: { httpBasicAuth: basicAuth } },
	);
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
		nodes: [triggerNode(webhookId, options)],
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

/** The bench's null community trigger (lab/bench/null-trigger), installed as a community package. */
export const NULL_TRIGGER = {
	packageName: 'n8n-nodes-bench-null-trigger',
	type: 'n8n-nodes-bench-null-trigger.nullTrigger',
} as const;

/** The null community trigger alone: no credential, no parameter, the body as it is. */
export function nullTriggerWorkflow(name: string, webhookId: string): Workflow {
	return {
		name,
		nodes: [node('Bench Null Trigger', NULL_TRIGGER.type, 1, {}, { webhookId })],
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
	const crypto = node(
		'Crypto',
		'n8n-nodes-base.crypto',
		2,
		{
			action: 'hmac',
			binaryData: true,
			binaryPropertyName: 'data',
			type: 'SHA256',
			dataPropertyName: 'signature',
			encoding: 'hex',
		},
		{ credentials: { crypto: cryptoCredential } },
	);
	const check = ifNode('Signature Matches', {
		id: '5b0c2a6e-1f3d-4c8b-9a7e-2d4f6b8c0e1a',
		leftValue: '={{ $json.signature }}',
		rightValue: `={{ $('${NAMES.webhook}').item.json.headers['service-signature'] }}`,
		operator: { type: 'string', operation: 'equals' },
	});
	const nodes = [webhook, crypto, check];
	return { name, nodes, connections: lineUp(nodes), settings: { executionOrder: 'v1' } };
}
