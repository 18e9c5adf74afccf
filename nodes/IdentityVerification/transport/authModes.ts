/** The n8n credential type of each way of authenticating. */
import type { AuthMode } from './types';

export const CREDENTIAL_BY_AUTH: Record<AuthMode, string> = {
	apiKey: 'identityVerificationApi',
	kybFormToken: 'identityVerificationKybFormTokenApi',
};
