import type {
	IAuthenticate,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { authenticateWithFormToken } from '../nodes/shared/credentialAuth';
import { baseUrlProperty, failureRules, MADE_UP_ID, readMadeUpResource } from './common';

/** Reading the answers of a questionnaire that does not exist changes nothing. */
const FAILURE_RULES = failureRules('token', {
	401: 'The KYB form token is wrong or has expired: generate a new form token for the company and paste its tokenString here',
});

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

	/**
	 * A token the service knows gets 404 (no such form) or 403 (the token belongs to another form):
	 * both prove the token is valid. 401 means the service does not know the token.
	 */
	test: ICredentialTestRequest = readMadeUpResource(
		`/kyb/forms/${MADE_UP_ID}/questionnaires/${MADE_UP_ID}/answers/`,
		FAILURE_RULES,
	);
}
