import type { IAuthenticate, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { authenticateWithApiKey } from '../nodes/shared/credentialAuth';
import { baseUrlProperty } from './common';

export class IdentityVerificationApi implements ICredentialType {
	name = 'identityVerificationApi';

	// Neutral, as the product's names are: the README names the provider whose API it follows.
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
}
