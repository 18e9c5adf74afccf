/** runNode: Manual Trigger -> input items -> the node, through n8n-core's WorkflowExecute. */
import './engine.cjs';

import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IWorkflowBase,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, VersionedNodeType, Workflow } from 'n8n-workflow';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';

import { makeAdditionalData } from './credentials-helper.cjs';
import {
	credentialTypes,
	ensurePackageNodes,
	fullTypeName,
	nodeTypes,
	type AnyNodeType,
} from './registry.cjs';
import { START_NODE_TYPE } from './start-node.cjs';

export interface RunNodeOptions {
	node: 'identityVerification' | 'identityVerificationTrigger' | string;
	parameters: INodeParameters;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** The names the user gave the credentials, by type (default: n8n's, "<type's display name> account"). */
	credentialNames?: Record<string, string>;
	input?: INodeExecutionData[];
	/** Sets the node setting "On Error: Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	/** Sets the node setting "On Error" itself, e.g. `continueErrorOutput` (its second output). */
	onError?: INode['onError'];
	typeVersion?: number;
	/** Name of the node in the workflow (default: the node type's default name). */
	nodeName?: string;
	/** Nodes of the same type chained after the node (they run too), e.g. a later Wait for Result. */
	after?: Array<{ name: string; parameters: INodeParameters }>;
	/** n8n's execution mode (default `manual`, the editor's runs); e.g. `trigger` for a production run. */
	mode?: WorkflowExecuteMode;
}

export interface RunNodeResult {
	/** The node's first output (main[0]). */
	items: INodeExecutionData[];
	/** All outputs of the node. */
	outputs: INodeExecutionData[][];
	/** The error the node threw: the real thrown object (with `cause`), or n8n's copy of it. */
	error?: Error & {
		description?: string;
		httpCode?: string | null;
		context?: IDataObject;
		cause?: unknown;
	};
	run: IRun;
}

/** The node type under test, its version, and node types that hand out its capturing wrapper. */
interface TypeUnderTest {
	typeName: string;
	typeVersion: number;
	versioned: INodeType;
	sink: { error?: unknown };
	runNodeTypes: INodeTypes;
}

function latestVersion(type: AnyNodeType): number {
	if (type instanceof VersionedNodeType) return type.getLatestVersion();
	const { version } = (type as INodeType).description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** Wraps the node's `execute` so the harness sees the very object the node threw. */
function capturingType(type: INodeType, sink: { error?: unknown }): INodeType {
	if (typeof type.execute !== 'function') return type;
	const original = type.execute;
	const wrapped = Object.create(type) as INodeType;
	wrapped.execute = async function (this: ThisParameterType<NonNullable<INodeType['execute']>>) {
		try {
			return await original.call(this);
		} catch (error) {
			sink.error = error;
			throw error;
		}
	} as INodeType['execute'];
	return wrapped;
}

function typeUnderTest(opts: RunNodeOptions): TypeUnderTest {
	const typeName = fullTypeName(opts.node);
	const registered = nodeTypes.getByName(typeName);
	const typeVersion = opts.typeVersion ?? latestVersion(registered);
	const versioned = NodeHelpers.getVersionedNodeType(registered, typeVersion);
	const sink: { error?: unknown } = {};
	const target = capturingType(versioned, sink);
	const runNodeTypes: INodeTypes = {
		getByName: (name) => (name === typeName ? target : nodeTypes.getByName(name)),
		getByNameAndVersion: (name, version) =>
			name === typeName ? target : nodeTypes.getByNameAndVersion(name, version),
		getKnownTypes: () => nodeTypes.getKnownTypes(),
	};
	return { typeName, typeVersion, versioned, sink, runNodeTypes };
}

/** The start node, the node under test and the `after` nodes, in the order they run. */
function nodeChain(opts: RunNodeOptions, type: TypeUnderTest): [INode, INode, ...INode[]] {
	const { typeName, typeVersion, versioned } = type;
	const nodeCredentials: INodeCredentials = {};
	for (const credentialType of Object.keys(opts.credentials ?? {})) {
		nodeCredentials[credentialType] = {
			id: `harness-${credentialType}`,
			name:
				opts.credentialNames?.[credentialType] ??
				`${credentialTypes().get(credentialType)?.displayName ?? credentialType} account`,
		};
	}
	const startNode: INode = {
		id: 'harness-start',
		name: 'When clicking ‘Execute workflow’',
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodeName =
		opts.nodeName ?? versioned.description.defaults.name ?? versioned.description.displayName;
	const node: INode = {
		id: 'harness-node',
		name: nodeName,
		type: typeName,
		typeVersion,
		position: [220, 0],
		parameters: JSON.parse(JSON.stringify(opts.parameters ?? {})) as INodeParameters,
		credentials: nodeCredentials,
		...(opts.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(opts.onError ? { onError: opts.onError } : {}),
	};
	const later: INode[] = (opts.after ?? []).map((entry, index) => ({
		id: `harness-after-${index}`,
		name: entry.name,
		type: typeName,
		typeVersion,
		position: [440 + 220 * index, 0],
		parameters: entry.parameters,
		credentials: nodeCredentials,
	}));
	return [startNode, node, ...later];
}

/** The workflow object the engine runs and the stored form n8n's hooks are given. */
function harnessWorkflow(
	chain: INode[],
	nodeTypesOfRun: INodeTypes,
): { workflow: Workflow; workflowData: IWorkflowBase } {
	const connections: IConnections = {};
	for (let i = 0; i < chain.length - 1; i++) {
		connections[chain[i].name] = {
			main: [[{ node: chain[i + 1].name, type: 'main' as const, index: 0 }]],
		};
	}
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes: chain,
		connections,
		active: false,
		nodeTypes: nodeTypesOfRun,
		settings: { executionOrder: 'v1' },
	});
	const workflowData: IWorkflowBase = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		nodes: chain,
		connections,
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
	return { workflow, workflowData };
}

let executionCounter = 0;

/** Runs the workflow from the start node with the input items; resolves with n8n's IRun. */
async function executeManually(
	workflow: Workflow,
	workflowData: IWorkflowBase,
	startNode: INode,
	opts: RunNodeOptions,
): Promise<IRun> {
	const executionId = `harness-${++executionCounter}`;
	const mode = opts.mode ?? 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	let resolveFinished!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));
	const additionalData = makeAdditionalData(opts.credentials ?? {}, hooks);
	additionalData.executionId = executionId;

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [opts.input ?? [{ json: {} }]] }, source: null },
			],
		},
	});
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	await workflowExecute.processRunExecutionData(workflow);
	return await finished;
}

export async function runNode(opts: RunNodeOptions): Promise<RunNodeResult> {
	ensurePackageNodes();
	const type = typeUnderTest(opts);
	const chain = nodeChain(opts, type);
	const [startNode, node] = chain;
	const { workflow, workflowData } = harnessWorkflow(chain, type.runNodeTypes);
	const run = await executeManually(workflow, workflowData, startNode, opts);

	const task = run.data.resultData.runData[node.name]?.[0];
	const outputs = (task?.data?.main ?? []).map((items: INodeExecutionData[] | null) => items ?? []);
	const error = (type.sink.error ??
		task?.error ??
		run.data.resultData.error) as RunNodeResult['error'];
	return { items: outputs[0] ?? [], outputs, error, run };
}
