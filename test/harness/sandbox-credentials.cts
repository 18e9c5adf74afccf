/** Credential data pointing at the sandbox, for runNode and testCredential. */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Sandbox } from '../sandbox/index.cjs';

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
