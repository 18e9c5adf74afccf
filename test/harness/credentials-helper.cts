/**
 * The credentials helper (like n8n's packages/cli/src/credentials-helper.ts) and the additional data
 * n8n hands to every execution.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';
import { Credentials, type ExecutionLifecycleHooks } from 'n8n-core';

import { credentialTypes, getCredentialType, withCredentialDefaults } from './registry.cjs';

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
