/**
 * Test harness on n8n's real engine, modelled on n8n's own NodeTestHarness
 * (packages/core/nodes-testing): real `WorkflowExecute` + `ExecutionLifecycleHooks` from n8n-core,
 * our real node and credential classes loaded from `.build/`, a CredentialsHelper that calls each
 * credential's `authenticate` function as n8n's CLI does, n8n-core's BinaryDataService (inline/memory
 * mode) and a credential tester that runs the declarative `test` like n8n's CredentialsTester.
 *
 *   const { items, error } = await runNode({ node: 'identityVerification', parameters, credentials: sandboxCredentials(sb) });
 *   const result = await testCredential('identityVerificationApi', { apiKey, apiSecret, baseUrl });
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type {
	ICredentialDataDecryptedObject,
	IConnections,
	ICredentials,
	ICredentialsDecrypted,
	ICredentialTestFunction,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestOptions,
	INode,
	INodeCredentialTestResult,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	ITaskDataConnections,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IRequestOptionsSimplified,
	IHttpRequestHelper,
	INodeCredentialsDetails,
	INodeProperties,
} from 'n8n-workflow';

// n8n-core reads its settings from a user folder: keep it out of the real home directory.
if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(path.join(os.tmpdir(), 'n8n-harness-'));
}
process.env.N8N_ENCRYPTION_KEY ??= 'n8n-test-harness-encryption-key';

import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeHelpers,
	VersionedNodeType,
	Workflow,
} from 'n8n-workflow';
import {
	BinaryDataService,
	Credentials,
	CredentialTestContext,
	ErrorReporter,
	ExecuteContext,
	ExecutionLifecycleHooks,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';

import type { Sandbox } from '../sandbox/index.cjs';
import { HarnessNoOp, HarnessStart, START_NODE_TYPE } from './start-node.cjs';

/** n8n-core has its own copy of @n8n/di: its Container is the one the engine reads services from. */
const { Container } = require(
	require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }),
) as typeof import('@n8n/di');

/** lodash's `get`, as n8n's CredentialsTester uses it for `responseSuccessBody` rules. */
const get = require('lodash/get') as (object: unknown, path: string) => unknown;

export const PACKAGE_NAME = 'n8n-nodes-identity-verification';

/** `.build/` (this file is compiled to `.build/test/harness/index.cjs`). */
const BUILD_DIR = path.resolve(__dirname, '..', '..');

// ------------------------------------------------------------------------------------------------
// Binary data: n8n-core's own service; without a storage manager it keeps data inline (base64),
// which is what n8n's nodes-testing InlineBinaryDataService does too.
// ------------------------------------------------------------------------------------------------

const quietLogger = {
	error() {},
	warn() {},
	info() {},
	debug() {},
	scoped() {
		return quietLogger;
	},
};
const binaryDataService = new BinaryDataService(
	{
		mode: 'default',
		availableModes: ['default'],
		localStoragePath: '',
		signingSecret: 'harness',
	} as never,
	{ error() {}, warn() {}, info() {} } as never,
	quietLogger as never,
);
(binaryDataService as unknown as { mode: string }).mode = 'default';
Container.set(BinaryDataService, binaryDataService);

// n8n's ErrorReporter logs every node error to the console (and would report to Sentry when set
// up). Tests assert on errors themselves; set HARNESS_VERBOSE=1 to see the reports.
if (!process.env.HARNESS_VERBOSE) {
	Container.set(ErrorReporter, {
		error() {},
		warn() {},
		info() {},
		async init() {},
	} as unknown as ErrorReporter);
}

// ------------------------------------------------------------------------------------------------
// Node and credential types
// ------------------------------------------------------------------------------------------------

type AnyNodeType = INodeType | IVersionedNodeType;

const nodeRegistry = new Map<string, AnyNodeType>();

function loadClass<T>(file: string, exportName: string): T | undefined {
	const full = path.join(BUILD_DIR, file);
	let mod: Record<string, unknown>;
	try {
		mod = require(full) as Record<string, unknown>;
	} catch (error) {
		if (
			(error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' &&
			String((error as Error).message).includes(full)
		) {
			return undefined;
		}
		throw error;
	}
	const Ctor = mod[exportName] as (new () => T) | undefined;
	return Ctor ? new Ctor() : undefined;
}

/** Registers a node type under its short name and under `n8n-nodes-identity-verification.<name>`. */
export function registerNodeType(name: string, type: AnyNodeType): void {
	const short = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
	nodeRegistry.set(short, type);
	nodeRegistry.set(`${PACKAGE_NAME}.${short}`, type);
	// A full name of another package (the bench runs n8n-nodes-base.httpRequest) is kept as given.
	if (name.includes('.')) nodeRegistry.set(name, type);
}

let packageNodesLoaded = false;
function ensurePackageNodes(): void {
	if (packageNodesLoaded) return;
	packageNodesLoaded = true;
	nodeRegistry.set(START_NODE_TYPE, new HarnessStart());
	nodeRegistry.set('n8n-nodes-base.noOp', new HarnessNoOp());
	const action = loadClass<INodeType>(
		'nodes/IdentityVerification/IdentityVerification.node.js',
		'IdentityVerification',
	);
	if (action) registerNodeType('identityVerification', action);
	const trigger = loadClass<INodeType>(
		'nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node.js',
		'IdentityVerificationTrigger',
	);
	if (trigger) registerNodeType('identityVerificationTrigger', trigger);
}

function fullTypeName(name: string): string {
	if (nodeRegistry.has(name) && name.includes('.')) return name;
	return `${PACKAGE_NAME}.${name}`;
}

/** n8n's INodeTypes over the registry (like nodes-testing's NodeTypes). */
const nodeTypes: INodeTypes = {
	getByName(nodeType: string) {
		ensurePackageNodes();
		const type = nodeRegistry.get(nodeType);
		if (!type) throw new Error(`Unknown node type "${nodeType}" (is it compiled into .build/?)`);
		return type;
	},
	getByNameAndVersion(nodeType: string, version?: number) {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	},
	getKnownTypes() {
		ensurePackageNodes();
		return Object.fromEntries(
			[...nodeRegistry.keys()].map((key) => [key, { className: key, sourcePath: '' }]),
		);
	},
};

const CREDENTIAL_FILES: Array<[file: string, exportName: string]> = [
	['credentials/IdentityVerificationApi.credentials.js', 'IdentityVerificationApi'],
	[
		'credentials/IdentityVerificationKybFormTokenApi.credentials.js',
		'IdentityVerificationKybFormTokenApi',
	],
	[
		'credentials/IdentityVerificationWebhookSigningApi.credentials.js',
		'IdentityVerificationWebhookSigningApi',
	],
];

let credentialTypeMap: Map<string, ICredentialType> | undefined;

/** Our credential classes by name (`identityVerificationApi`, ...). */
export function credentialTypes(): Map<string, ICredentialType> {
	if (!credentialTypeMap) {
		credentialTypeMap = new Map();
		for (const [file, exportName] of CREDENTIAL_FILES) {
			const type = loadClass<ICredentialType>(file, exportName);
			if (type) credentialTypeMap.set(type.name, type);
		}
	}
	return credentialTypeMap;
}

export function getCredentialType(name: string): ICredentialType {
	const type = credentialTypes().get(name);
	if (!type) throw new Error(`Unknown credential type "${name}"`);
	return type;
}

/** Fills in the defaults of the credential's properties, as n8n does when it loads a credential. */
function withCredentialDefaults(
	typeName: string,
	data: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const type = credentialTypes().get(typeName);
	const result: ICredentialDataDecryptedObject = {};
	for (const property of type?.properties ?? ([] as INodeProperties[])) {
		if (property.default !== undefined)
			result[property.name] = property.default as ICredentialDataDecryptedObject[string];
	}
	return { ...result, ...data };
}

// ------------------------------------------------------------------------------------------------
// Credentials helper (like n8n's packages/cli/src/credentials-helper.ts)
// ------------------------------------------------------------------------------------------------

export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentialsByType: Record<string, ICredentialDataDecryptedObject> = {},
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		const type = credentialTypes().get(name);
		const parents = type?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/** Our credentials authenticate with a function, which n8n calls with the decrypted data. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = getCredentialType(typeName);
		if (authenticate === undefined) return requestOptions as IHttpRequestOptions;
		if (typeof authenticate !== 'function')
			throw new Error(
				`The harness applies only function \`authenticate\`s (credential "${typeName}")`,
			);
		return await authenticate(credentials, requestOptions as IHttpRequestOptions);
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
		_credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type, '');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.credentialsByType[type];
		if (!data) throw new Error(`The harness was given no credentials of type "${type}"`);
		return withCredentialDefaults(type, data);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes().get(type)?.properties ?? [];
	}
}

/** The additional data n8n hands to every execution (the parts our nodes and n8n-core use). */
export function makeAdditionalData(
	credentials: Record<string, ICredentialDataDecryptedObject> = {},
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const notAvailable = (what: string) => () => {
		throw new Error(`${what} is not available in the test harness`);
	};
	return {
		credentialsHelper: new HarnessCredentialsHelper(credentials),
		hooks,
		executeWorkflow: notAvailable('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: notAvailable('startRunnerTask'),
		currentNodeParameters: undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}

// ------------------------------------------------------------------------------------------------
// runNode: Manual Trigger -> input items -> the node, through WorkflowExecute
// ------------------------------------------------------------------------------------------------

export interface RunNodeOptions {
	node: 'identityVerification' | 'identityVerificationTrigger' | string;
	parameters: INodeParameters;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	input?: INodeExecutionData[];
	/** Sets the node setting "On Error: Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	typeVersion?: number;
	/** Name of the node in the workflow (default: the node type's default name). */
	nodeName?: string;
	/** Nodes of the same type chained after the node (they run too), e.g. a later Wait for Result. */
	after?: Array<{ name: string; parameters: INodeParameters }>;
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

let executionCounter = 0;

export async function runNode(opts: RunNodeOptions): Promise<RunNodeResult> {
	ensurePackageNodes();
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

	const credentials = opts.credentials ?? {};
	const nodeCredentials: INodeCredentials = {};
	for (const type of Object.keys(credentials)) {
		nodeCredentials[type] = { id: `harness-${type}`, name: `${type} (test)` };
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
	const chain = [startNode, node, ...later];
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
		nodeTypes: runNodeTypes,
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

	const executionId = `harness-${++executionCounter}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	let resolveFinished!: (run: IRun) => void;
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));
	const additionalData = makeAdditionalData(credentials, hooks);
	additionalData.executionId = executionId;

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [opts.input ?? [{ json: {} }]] }, source: null },
			],
		},
	});
	const workflowExecute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	await workflowExecute.processRunExecutionData(workflow);
	const run = await finished;

	const task = run.data.resultData.runData[node.name]?.[0];
	const outputs = (task?.data?.main ?? []).map((items: INodeExecutionData[] | null) => items ?? []);
	const error = (sink.error ?? task?.error ?? run.data.resultData.error) as RunNodeResult['error'];
	return { items: outputs[0] ?? [], outputs, error, run };
}

// ------------------------------------------------------------------------------------------------
// testCredential: n8n's CredentialsTester (packages/cli/src/services/credentials-tester.service.ts)
// ------------------------------------------------------------------------------------------------

interface DeclarativeTest {
	nodeType?: INodeType;
	testRequest: ICredentialTestRequest;
}

function findCredentialTest(
	credentialType: string,
): ICredentialTestFunction | DeclarativeTest | undefined {
	const type = getCredentialType(credentialType);
	if (type.test) return { testRequest: type.test };
	ensurePackageNodes();
	const seen = new Set<AnyNodeType>();
	for (const node of nodeRegistry.values()) {
		if (seen.has(node)) continue;
		seen.add(node);
		const versions: INodeType[] =
			node instanceof VersionedNodeType ? Object.values(node.nodeVersions) : [node as INodeType];
		for (const nodeType of versions) {
			for (const { name, testedBy } of nodeType.description.credentials ?? []) {
				if (name !== credentialType || !testedBy) continue;
				if (typeof testedBy === 'string') {
					const fn = nodeType.methods?.credentialTest?.[testedBy];
					if (fn) return fn;
					continue;
				}
				return { nodeType, testRequest: testedBy };
			}
		}
	}
	return undefined;
}

export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const test = findCredentialTest(type);
	if (test === undefined)
		return { status: 'Error', message: 'No testing function found for this credential.' };

	const credentialsDecrypted: ICredentialsDecrypted = {
		id: 'harness-credential',
		name: `${type} (test)`,
		type,
		data: withCredentialDefaults(type, data),
	};
	const additionalData = makeAdditionalData({ [type]: credentialsDecrypted.data! });

	if (typeof test === 'function') {
		const context = new CredentialTestContext(additionalData);
		return await test.call(context, credentialsDecrypted);
	}

	const nodeType =
		test.nodeType ?? (nodeTypes.getByNameAndVersion('n8n-nodes-base.noOp') as INodeType);
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeType.description.name.includes('.')
			? nodeType.description.name
			: `n8n-nodes-base.${nodeType.description.name}`,
		typeVersion: Array.isArray(nodeType.description.version)
			? nodeType.description.version.slice(-1)[0]
			: nodeType.description.version,
		position: [0, 0],
		credentials: { [type]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const nodeTypeCopy: INodeType = {
		description: {
			...nodeType.description,
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.testRequest.request },
					default: '',
				},
			],
		},
	};
	const mockNodeTypes: INodeTypes = {
		getByName: () => nodeTypeCopy,
		getByNameAndVersion: () => nodeTypeCopy,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: mockNodeTypes,
	});
	const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		resultData: { runData: {} },
	});
	const executeData: IExecuteData = { node, data: {}, source: null };
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		inputData,
		executeData,
		[],
	);
	const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
			message: string;
		};
		if (error.cause?.response) {
			const errorResponseData = {
				statusCode: error.cause.response.status,
				statusMessage: error.cause.response.statusText,
			};
			for (const rule of test.testRequest.rules ?? []) {
				if (
					rule.type === 'responseCode' &&
					errorResponseData.statusCode === rule.properties.value
				) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (errorResponseData.statusCode < 199 || errorResponseData.statusCode > 299) {
				return {
					status: 'Error',
					message:
						errorResponseData.statusMessage ||
						`Received HTTP status code: ${errorResponseData.statusCode}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message.toString() };
	}

	for (const rule of test.testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response![0][0].json;
			if (get(responseData, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

// ------------------------------------------------------------------------------------------------
// Sandbox credentials
// ------------------------------------------------------------------------------------------------

/** Data for all three credential types, pointing at the sandbox. */
export function sandboxCredentials(
	sb: Pick<Sandbox, 'url' | 'credentials'>,
): Record<string, ICredentialDataDecryptedObject> {
	return {
		identityVerificationApi: {
			apiKey: sb.credentials.apiKey,
			apiSecret: sb.credentials.apiSecret,
			baseUrl: sb.url,
		},
		identityVerificationKybFormTokenApi: {
			formToken: sb.credentials.kybFormToken,
			baseUrl: sb.url,
		},
		identityVerificationWebhookSigningApi: {
			signingSecret: sb.credentials.signingKey,
		},
	};
}
