/**
 * A stand-in for n8n's Manual Trigger (n8n-nodes-base is not installed here): it has no inputs and
 * passes on the items the harness puts on the execution stack, like a manual run's first node.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

export const START_NODE_TYPE = 'n8n-nodes-base.manualTrigger';

export class HarnessStart implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'When clicking ‘Execute workflow’',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow with the items given to the test harness',
		defaults: { name: 'When clicking ‘Execute workflow’' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

/** n8n's No Operation node, which n8n's CredentialsTester uses as the host of a declarative test. */
export class HarnessNoOp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'No Operation, do nothing',
		name: 'noOp',
		group: ['organization'],
		version: 1,
		description: 'No Operation',
		defaults: { name: 'No Operation, do nothing' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
