/** The credential of each way of authenticating: its n8n type, and the name the user sees in messages. */
import type { AuthMode } from './types';

export const CREDENTIAL_BY_AUTH: Record<AuthMode, string> = {
	apiKey: 'identityVerificationApi',
	kybFormToken: 'identityVerificationKybFormTokenApi',
};

const CREDENTIAL_DISPLAY_NAME: Record<AuthMode, string> = {
	apiKey: 'Identity Verification API',
	kybFormToken: 'Identity Verification KYB Form Token API',
};

/**
 * How messages name the credential: by the name the user gave it in n8n (n8n keeps it on the node,
 * `credentials[type].name`), else by its type.
 */
export function credentialLabel(auth: AuthMode, ownName?: string): string {
	const name = typeof ownName === 'string' ? ownName.trim() : '';
	return name === '' ? CREDENTIAL_DISPLAY_NAME[auth] : name;
}
