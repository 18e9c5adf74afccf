import type {
	IAuthenticate,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { authenticateWithApiKey } from '../nodes/shared/credentialAuth';
import { baseUrlProperty, failureRules, MADE_UP_ID, readMadeUpResource } from './common';

/**
 * Reading the transactions of a verification that does not exist is harmless: a right key pair gets
 * 404 (nothing found), a wrong one 401 or 403. Nothing is created.
 */
const FAILURE_RULES = failureRules('key', {
	401: 'The API key or API secret is wrong: copy both again from the dashboard (Settings → API Keys) and check that the key has not been deleted',
	403: 'The service recognised the request but refused this API key (403): check in the dashboard (Settings → API Keys) that the key is active and allowed to use the API',
});

export class IdentityVerificationApi implements ICredentialType {
	name = 'identityVerificationApi';

	displayName = 'Identity Verification API';

	icon: Icon = {
		light: 'file:identityVerification.svg',
		dark: 'file:identityVerification.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-identity-verification/n8n-nodes-identity-verification#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			hint: 'From the provider’s dashboard: Settings → API Keys → Create. Copy the key shown there.',
			description:
				'In the provider’s dashboard open Settings → API Keys and click Create. Sandbox and production accounts have different keys.',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			hint: 'Shown next to the API key when you create it, and only then: if you did not copy it, create a new key.',
			description:
				'Shown once, next to the API Key, when you create the key (Settings → API Keys → Create). Keep it private: anyone with it can act for your account.',
		},
		baseUrlProperty(
			'The same address serves sandbox and production: your API key decides which one you use. For a local test service use e.g. http://127.0.0.1:8787.',
		),
	];

	/**
	 * HTTP Basic (key as user, secret as password), added only to requests under the Base URL
	 * (nodes/shared/credentialAuth.ts). A property, not a method: n8n copies a credential type with
	 * `{ ...type }` before describing it to the editor, which keeps only its own properties; as a
	 * method, the editor never learned that the credential authenticates, and its HTTP Request node
	 * did not offer it. A function rather than a generic `={{$credentials.apiKey}}` template: n8n
	 * evaluates a template's expressions on every request, which measurably slowed every page of a
	 * transaction list.
	 */
	authenticate: IAuthenticate = authenticateWithApiKey;

	test: ICredentialTestRequest = readMadeUpResource(
		`/bank/verifications/${MADE_UP_ID}/accounts/${MADE_UP_ID}/transactions/`,
		FAILURE_RULES,
		{ page: 1, perPage: 1 },
	);
}
