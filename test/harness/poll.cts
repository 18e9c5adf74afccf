/**
 * pollTrigger: one poll of the Polling Trigger, as n8n's ActiveWorkflowManager runs one (packages/cli:
 * a Workflow holding the saved static data, n8n-core's PollContext, the node's `poll()`). Pass the
 * same `staticData` object to the next call to poll again after it, as n8n keeps it between polls.
 */
import './engine.cjs';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { PollContext } from 'n8n-core';

import { makeAdditionalData } from './credentials-helper.cjs';
import { ensurePackageNodes, fullTypeName, nodeCredentials, nodeTypes } from './registry.cjs';

export interface PollTriggerOptions {
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** The workflow's static data, kept by the caller between polls (n8n saves it after each). */
	staticData: IDataObject;
	/** `manual` is the editor's Fetch Test Event; `trigger` an activated workflow's poll. */
	mode?: WorkflowExecuteMode;
	/** The workflow's id (the record shared with the webhook trigger is per workflow). */
	workflowId?: string;
}

export async function pollTrigger(opts: PollTriggerOptions): Promise<INodeExecutionData[] | null> {
	ensurePackageNodes();
	const type = fullTypeName('identityVerificationPollingTrigger');
	const credentials = nodeCredentials(Object.keys(opts.credentials));
	const node: INode = {
		id: 'harness-poll',
		name: 'Identity Verification Polling Trigger',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: opts.parameters,
		credentials,
	};
	const workflow = new Workflow({
		id: opts.workflowId ?? 'harness-workflow',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: opts.staticData,
	});
	const resolved = workflow.getNode(node.name) as INode;
	const context = new PollContext(
		workflow,
		resolved,
		makeAdditionalData(opts.credentials),
		opts.mode ?? 'trigger',
		'activate',
	);
	const nodeType = nodeTypes.getByNameAndVersion(type, 1) as INodeType;
	const result = await nodeType.poll!.call(context);
	return result === null ? null : result[0];
}
