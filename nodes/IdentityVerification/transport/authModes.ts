/** The credential of each way of authenticating: its n8n type, and the name the user sees in messages. */
import type { AuthMode } from './types';

export const CREDENTIAL_BY_AUTH: Record<AuthMode, string> = {
	apiKey: 'identityVerificationApi',
	kybFormToken: 'identityVerificationKybFormTokenApi',
};

export const CREDENTIAL_DISPLAY_NAME: Record<AuthMode, string> = {
	apiKey: 'Identity Verification API',
	kybFormToken: 'Identity Verification KYB Form Token API',
};
