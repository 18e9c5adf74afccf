// Workflow JSON the end-to-end tests create in n8n, written the way the editor saves them.
import type { WorkflowNode as Node } from '../n8n/stack.cjs';
import { actionNode, lineUp, node, triggerNode } from '../n8n/workflow.cjs';

export { ACTION, TRIGGER } from '../n8n/workflow.cjs';

const MANUAL = 'When clicking ‘Execute workflow’';

/**
 * Manual Trigger → [nodes before] → Identity Verification (one operation). The action node uses
 * the sandbox API-key credential, or the KYB form token one when `authentication` is `kybFormToken`.
 */
export function actionWorkflow(
	name: string,
	parameters: Record<string, unknown>,
	opts: { before?: Node[] } = {},
): { name: string; nodes: Node[]; connections: Record<string, unknown> } {
	const manual = node(MANUAL, 'n8n-nodes-base.manualTrigger', 1, {});
	const nodes = [manual, ...(opts.before ?? []), actionNode(parameters)];
	return { name, nodes, connections: lineUp(nodes, 240) };
}

/** A Convert to File node that turns a base64 string into a binary file in field `data`. */
export function fileFromBase64(base64: string, fileName: string, mimeType: string): Node[] {
	const set = node('Example file', 'n8n-nodes-base.set', 3.4, {
		assignments: {
			assignments: [{ id: 'file', name: 'fileBase64', value: base64, type: 'string' }],
		},
		options: {},
	});
	const convert = node('Convert to File', 'n8n-nodes-base.convertToFile', 1.1, {
		operation: 'toBinary',
		sourceProperty: 'fileBase64',
		binaryPropertyName: 'data',
		options: { fileName, mimeType },
	});
	return [set, convert];
}

/** Identity Verification Trigger (all event kinds, default options) as the only node. */
export function triggerWorkflow(
	name: string,
	webhookId: string,
): { name: string; nodes: Node[]; connections: Record<string, unknown> } {
	return { name, nodes: [triggerNode(webhookId)], connections: {} };
}
