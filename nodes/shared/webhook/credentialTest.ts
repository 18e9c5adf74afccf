/**
 * Local test of the webhook signing key credential (`identityVerificationWebhookSigningApi`).
 *
 * The service has no API to check a signing key, and the key must never be sent anywhere, so the
 * test checks what can be checked locally: that a key is there and that it was pasted cleanly
 * (surrounding spaces or line breaks would make every signature check fail). The real proof is the
 * first delivery: a wrong key answers it with 401.
 */
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult } from 'n8n-workflow';

import { acceptedHeaderSets, cleanHeaderPrefix } from '../contract';
import { computeSignature } from './signature';

export function checkSigningKey(
	data: ICredentialDataDecryptedObject | undefined,
): INodeCredentialTestResult {
	const key = data?.signingSecret;
	if (typeof key !== 'string' || key.length === 0) {
		return {
			status: 'Error',
			message:
				'Enter the signing key: the service signs each webhook delivery with it, and deliveries cannot be verified without it',
		};
	}
	if (key.trim() !== key) {
		return {
			status: 'Error',
			message:
				'The signing key starts or ends with spaces or a line break. Remove them: they are part of the key when signatures are checked.',
		};
	}
	if (/[\r\n]/.test(key)) {
		return {
			status: 'Error',
			message: 'The signing key contains a line break. Paste it as a single line.',
		};
	}
	const prefix = data?.headerPrefix;
	if (typeof prefix === 'string' && prefix.trim() !== '' && !cleanHeaderPrefix(prefix)) {
		return {
			status: 'Error',
			message:
				'The header prefix can hold only letters, digits, "-" and "_", e.g. the word before "-Signature" in a delivery the dashboard shows',
		};
	}
	// The key must be usable as an HMAC-SHA256 key (always true for a non-empty string; kept as the
	// same code path the trigger uses, so a future key format change fails here first).
	computeSignature(Buffer.from('{}', 'utf8'), key);
	const headers = acceptedHeaderSets(prefix).map((set) => set.signatureName);
	return {
		status: 'OK',
		message: `Checked: a signing key is entered, on one line without spaces around it, and deliveries are read under ${headers.join(' or ')}. Not checked: that it is the key the service signs with (the service cannot check it, and the key is never sent anywhere). Only a delivery shows that: a wrong key is refused (401), and while the workflow listens for a test event the editor shows why.`,
	};
}
