/** The context n8n-core's real WebhookContext gives the node's `webhook()`, as n8n's LiveWebhooks do. */
import {
	createRunExecutionData,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type IWebhookData,
	type IWebhookDescription,
	type IWorkflowExecuteAdditionalData,
	type Workflow,
	type WorkflowExecuteMode,
} from 'n8n-workflow';
import * as core from 'n8n-core';

export interface WebhookCall {
	nodeType: INodeType;
	node: INode;
	description: IWebhookDescription;
	mode: WorkflowExecuteMode;
	/** A waiting execution's kept input, when the request resumes one. */
	waitingItems?: INodeExecutionData[];
}

/** The run data of a waiting execution: its stack holds the waiting step with its input. */
function waitingExecution(node: INode, waitingItems: INodeExecutionData[] | undefined) {
	if (!waitingItems) return null;
	return createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node, data: { main: [waitingItems] }, source: null }],
		},
	});
}

/**
 * The node's WebhookContext for the request, and `close` to run the context's close functions
 * once `webhook()` has returned or thrown.
 */
export function webhookContext(
	call: WebhookCall,
	workflow: Workflow,
	additionalData: IWorkflowExecuteAdditionalData,
): { context: core.WebhookContext; close: () => Promise<void> } {
	const { node, description, mode } = call;
	const webhookData: IWebhookData = {
		httpMethod: 'POST',
		node: node.name,
		path: `${node.webhookId}/${description.path}`,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: node.webhookId,
		isTest: mode === 'manual',
	};
	const closeFunctions: Array<() => Promise<void>> = [];
	const context = new core.WebhookContext(
		workflow,
		node,
		additionalData,
		mode,
		webhookData,
		closeFunctions,
		waitingExecution(node, call.waitingItems),
	);
	const close = async () => {
		await Promise.allSettled(closeFunctions.map(async (fn) => await fn()));
	};
	return { context, close };
}
