// Workflow JSON the end-to-end tests create in n8n, written the way the editor saves them.
import {
	NODE_TYPES,
	chain,
	credentialRef,
	nodeId,
	type WorkflowNode as Node,
} from '../n8n/stack.cjs';

const MANUAL = 'When clicking ‘Execute workflow’';
export const ACTION = 'Identity Verification';
export const TRIGGER = 'Identity Verification Trigger';

/**
 * Manual Trigger → [nodes before] → Identity Verification (one operation). The action node uses
 * the sandbox API-key credential, or the KYB form token one when `authentication` is `kybFormToken`.
 */
export function actionWorkflow(
	name: string,
	parameters: Record<string, unknown>,
	opts: { before?: Node[] } = {},
): { name: string; nodes: Node[]; connections: Record<string, unknown> } {
	const manual: Node = {
		id: nodeId(),
		name: MANUAL,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const action: Node = {
		id: nodeId(),
		name: ACTION,
		type: NODE_TYPES.action,
		typeVersion: 1,
		position: [240 * ((opts.before?.length ?? 0) + 1), 0],
		parameters,
		credentials: credentialRef(
			parameters.authentication === 'kybFormToken' ? 'kybFormToken' : 'api',
		),
	};
	const nodes = [manual, ...(opts.before ?? []), action];
	return { name, nodes, connections: chain(nodes) };
}

/** A Convert to File node that turns a base64 string into a binary file in field `data`. */
export function fileFromBase64(base64: string, fileName: string, mimeType: string): Node[] {
	const set: Node = {
		id: nodeId(),
		name: 'Example file',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [240, 0],
		parameters: {
			assignments: {
				assignments: [{ id: 'file', name: 'fileBase64', value: base64, type: 'string' }],
			},
			options: {},
		},
	};
	const convert: Node = {
		id: nodeId(),
		name: 'Convert to File',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [480, 0],
		parameters: {
			operation: 'toBinary',
			sourceProperty: 'fileBase64',
			binaryPropertyName: 'data',
			options: { fileName, mimeType },
		},
	};
	return [set, convert];
}

/** Identity Verification Trigger (all event kinds, default options) as the only node. */
export function triggerWorkflow(
	name: string,
	webhookId: string,
): { name: string; nodes: Node[]; connections: Record<string, unknown> } {
	return {
		name,
		nodes: [
			{
				id: nodeId(),
				name: TRIGGER,
				type: NODE_TYPES.trigger,
				typeVersion: 1,
				position: [0, 0],
				parameters: { options: {} },
				credentials: credentialRef('webhookSigning'),
				webhookId,
			},
		],
		connections: {},
	};
}
