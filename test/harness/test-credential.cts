/**
 * testCredential: the steps of n8n's CredentialsTester
 * (packages/cli/src/services/credentials-tester.service.ts).
 */
import './engine.cjs';

import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunction,
	ICredentialTestRequest,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRunExecutionData,
	ITaskDataConnections,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { createRunExecutionData, VersionedNodeType, Workflow } from 'n8n-workflow';
import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';

import { makeAdditionalData } from './credentials-helper.cjs';
import {
	getCredentialType,
	nodeTypes,
	registeredNodeTypes,
	withCredentialDefaults,
} from './registry.cjs';

/** lodash's `get`, as n8n's CredentialsTester uses it for `responseSuccessBody` rules. */
const get = require('lodash/get') as (object: unknown, path: string) => unknown;

interface DeclarativeTest {
	nodeType?: INodeType;
	testRequest: ICredentialTestRequest;
}

type TestRules = ICredentialTestRequest['rules'];

/** The credential's own `test`, else the first node's `testedBy` for it (a function or a request). */
function findCredentialTest(
	credentialType: string,
): ICredentialTestFunction | DeclarativeTest | undefined {
	const type = getCredentialType(credentialType);
	if (type.test) return { testRequest: type.test };
	for (const node of registeredNodeTypes()) {
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

/** n8n's temporary node and node type: one property whose routing is the test request. */
function temporaryNode(
	test: DeclarativeTest,
	credentials: ICredentialsDecrypted,
): { node: INode; nodeTypeCopy: INodeType } {
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
		credentials: { [credentials.type]: { id: credentials.id, name: credentials.name } },
	};
	const nodeTypeCopy: INodeType = {
		description: {
			...nodeType.description,
			credentials: [{ name: credentials.type, required: true }],
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
	return { node, nodeTypeCopy };
}

/** The RoutingNode that sends the test request, in an ExecuteContext of a one-node workflow. */
function routingNodeFor(
	test: DeclarativeTest,
	credentials: ICredentialsDecrypted,
	additionalData: IWorkflowExecuteAdditionalData,
): RoutingNode {
	const { node, nodeTypeCopy } = temporaryNode(test, credentials);
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
	return new RoutingNode(executeFunctions, nodeTypeCopy, credentials);
}

/** The result of a request that threw: `responseCode` rules first, then n8n's status mapping. */
function failedRequestResult(caught: unknown, rules: TestRules): INodeCredentialTestResult {
	const error = caught as {
		cause?: { response?: { status: number; statusText?: string }; code?: string };
		message: string;
	};
	if (error.cause?.response) {
		const errorResponseData = {
			statusCode: error.cause.response.status,
			statusMessage: error.cause.response.statusText,
		};
		for (const rule of rules ?? []) {
			if (rule.type === 'responseCode' && errorResponseData.statusCode === rule.properties.value) {
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

/** The result of a request that succeeded: a `responseSuccessBody` rule can still fail it. */
function succeededRequestResult(
	response: INodeExecutionData[][] | null | undefined,
	rules: TestRules,
): INodeCredentialTestResult {
	for (const rule of rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response![0][0].json;
			if (get(responseData, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
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

	const routingNode = routingNodeFor(test, credentialsDecrypted, additionalData);
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		return failedRequestResult(caught, test.testRequest.rules);
	}
	return succeededRequestResult(response, test.testRequest.rules);
}
