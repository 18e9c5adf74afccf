/**
 * The host's workflow: its static data as n8n's database keeps it (LiveWebhooks +
 * WorkflowStaticDataService: loaded for each request, saved after answering when changed), and the
 * runs n8n-core's WorkflowExecute makes from the trigger's items.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
	createRunExecutionData,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type IRun,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import * as core from 'n8n-core';

import { HarnessCredentialsHelper, makeAdditionalData } from '../index.cjs';
import { TriggerNodeTypes } from './node.cjs';

const copy = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export class WorkflowStore {
	/** The "database" copy of the workflow's static data. */
	private storedStaticData: IDataObject;
	private readonly nodeTypes: TriggerNodeTypes;

	constructor(
		private readonly workflowId: string,
		private readonly node: INode,
		nodeType: INodeType,
		private readonly active: boolean,
		staticData: IDataObject | undefined,
	) {
		this.nodeTypes = new TriggerNodeTypes(nodeType);
		this.storedStaticData = copy(staticData ?? {});
	}

	/** The workflow as loaded from the database, with its own copy of the static data. */
	load(): Workflow {
		return new Workflow({
			id: this.workflowId,
			name: 'Trigger test workflow',
			nodes: [this.node],
			connections: {},
			active: this.active,
			nodeTypes: this.nodeTypes,
			staticData: copy(this.storedStaticData),
			settings: {},
		});
	}

	/** Saves the workflow's static data when the node marked it changed. */
	save(workflow: Workflow): void {
		const data = workflow.staticData as IDataObject;
		if (data.__dataChanged === true) {
			const saved = copy(data);
			delete saved.__dataChanged;
			this.storedStaticData = saved;
		}
	}

	/** A copy of the static data as last saved. */
	staticData(): IDataObject {
		return copy(this.storedStaticData);
	}
}

/** n8n's additional data for a webhook call: the shared harness's, plus the request and response. */
export function additionalDataFor(
	credentials: Record<string, ICredentialDataDecryptedObject>,
	req?: IncomingMessage,
	res?: ServerResponse,
	hooks?: core.ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const base = makeAdditionalData(credentials, hooks) as IWorkflowExecuteAdditionalData &
		Record<string, unknown>;
	base.credentialsHelper = new HarnessCredentialsHelper(credentials);
	base.httpRequest = req;
	base.httpResponse = res;
	return base as IWorkflowExecuteAdditionalData;
}

/** Runs the workflow with the trigger's items as its first node's output, as a webhook execution. */
export async function runWorkflow(
	workflow: Workflow,
	node: INode,
	workflowData: INodeExecutionData[][],
	credentials: Record<string, ICredentialDataDecryptedObject>,
	executionId: string,
): Promise<IRun> {
	const hooks = new core.ExecutionLifecycleHooks('webhook', executionId, {
		id: workflow.id,
		name: workflow.name ?? '',
		nodes: [node],
		connections: {},
		active: true,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const additionalData = additionalDataFor(credentials, undefined, undefined, hooks);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node, data: { main: workflowData }, source: null }],
		},
	});
	const execute = new core.WorkflowExecute(additionalData, 'webhook', runExecutionData);
	return await execute.processRunExecutionData(workflow);
}
