import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { NODE_DESCRIPTION } from '../shared/nodeDescription';
import { signingKeyCredentialTest, webhookLifecycle } from '../shared/webhook/delivery';
import * as waitForResult from './actions/identification/waitForResult.operation';
import { RESOURCE_FIELDS, RESOURCE_OPTIONS } from './actions/resources';
import { router } from './actions/router';
import { serviceCredentialTests } from './helpers/credentialTest';
import { listSearch } from './methods/listSearch';
import { requestOptionsProperty } from './transport';

const PROPERTIES: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCE_OPTIONS,
		default: 'identification',
	},
	...RESOURCE_FIELDS,
	// Last, under every operation that calls the service: how long an answer may take.
	{ ...requestOptionsProperty, displayOptions: { hide: { operation: ['waitForResult'] } } },
];

/** The display name of every operation, by `<resource>:<operation>`. */
function operationNames(properties: INodeProperties[]): Record<string, string> {
	const names: Record<string, string> = {};
	for (const property of properties) {
		if (property.name !== 'operation') continue;
		for (const resource of property.displayOptions?.show?.resource ?? []) {
			for (const option of property.options as INodePropertyOptions[]) {
				names[`${String(resource)}:${String(option.value)}`] = option.name;
			}
		}
	}
	return names;
}

/**
 * The canvas subtitle: the selected operation's display name ("Create Verification Token"), not
 * its internal values; the operation's value for one the list does not know.
 */
const SUBTITLE = `={{ ${JSON.stringify(operationNames(PROPERTIES))}[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;

/** Every resource but KYB Form: only its operations accept a form token. */
const RESOURCES_WITHOUT_FORM_TOKEN = RESOURCE_OPTIONS.map((option) => option.value).filter(
	(value) => value !== 'kyb',
);

export class IdentityVerification implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Identity Verification',
		name: 'identityVerification',
		icon: { light: 'file:identityVerification.svg', dark: 'file:identityVerification.dark.svg' },
		group: ['transform'],
		// 1.1: Wait for Result continues with the item of the trigger's version 1.1, and Documents
		// (Create Verification Token) is a list of the service's document types. 2: every ID field is
		// a resource locator (From List, By URL, By ID); saved text IDs stay with 1 and 1.1.
		version: [1, 1.1, 2],
		subtitle: SUBTITLE,
		description: NODE_DESCRIPTION,
		defaults: {
			name: 'Identity Verification',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Both credentials are declared with `hide` only. n8n's editor takes a parameter named
		// `authentication` that a credential lists under `show` as the node's main auth field and then
		// offers only the credentials keyed on it, which hid the API key credential outside KYB.
		// The signing key credential is shown on Wait for Result only, keyed on `operation`: no
		// `operation` selector has all its values listed there, so the editor finds no main auth field
		// in it either. Wait for Result sends no request, so the API key credential is hidden there.
		credentials: [
			{
				name: 'identityVerificationApi',
				required: true,
				testedBy: 'identityVerificationApiTest',
				displayOptions: {
					hide: { authentication: ['kybFormToken'], operation: ['waitForResult'] },
				},
			},
			{
				name: 'identityVerificationWebhookSigningApi',
				required: true,
				testedBy: 'webhookSigningKeyTest',
				displayOptions: { show: { operation: ['waitForResult'] } },
			},
			{
				name: 'identityVerificationKybFormTokenApi',
				required: true,
				testedBy: 'kybFormTokenTest',
				// Only for Authentication → Form Token Credential: the Form Token field needs none.
				displayOptions: {
					hide: {
						resource: RESOURCES_WITHOUT_FORM_TOKEN,
						authentication: ['apiKey', 'formToken'],
						operation: ['createSession'],
					},
				},
			},
		],
		// The resume address of Wait for Result ($execution.resumeUrl), as n8n's Wait node declares it.
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: '',
				restartWebhook: true,
			},
		],
		properties: PROPERTIES,
	};

	methods = {
		credentialTest: { ...signingKeyCredentialTest, ...serviceCredentialTests },
		listSearch,
	};

	webhookMethods = webhookLifecycle;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getNodeParameter('operation', 0) === 'waitForResult') {
			return await waitForResult.execute.call(this);
		}
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await waitForResult.webhook.call(this);
	}
}
