import type { IAuthenticate, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { authenticateWithFormToken } from '../nodes/shared/credentialAuth';
import { baseUrlProperty } from './common';

export class IdentityVerificationKybFormTokenApi implements ICredentialType {
	name = 'identityVerificationKybFormTokenApi';

	displayName = 'Identity Verification KYB Form Token API';

	icon: Icon = {
		light: 'file:identityVerification.svg',
		dark: 'file:identityVerification.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-identity-verification/n8n-nodes-identity-verification#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Form Token',
			name: 'formToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			hint: 'The tokenString of a KYB form token the service generates for a company (POST /kyb/tokens/ with your API key, or in the provider’s dashboard). Only for the KYB form operations.',
			description:
				'The tokenString the service returns when a KYB form token is generated for a company. It only works for KYB form operations (read or delete questionnaire answers, submit a form). For everything else use the Identity Verification API credential.',
		},
		baseUrlProperty('For a local test service use e.g. http://127.0.0.1:8787.'),
	];

	/**
	 * `Authorization: Bearer <tokenString>`, added only to requests under the Base URL; a property
	 * for the same reason as the API credential's.
	 */
	authenticate: IAuthenticate = authenticateWithFormToken;
}
