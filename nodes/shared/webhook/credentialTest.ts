/**
 * Local test of the webhook signing key credential (`identityVerificationWebhookSigningApi`).
 *
 * The service has no API to check a signing key, and the key must never be sent anywhere, so the
 * test checks what can be checked locally: that a key is there and that it was pasted cleanly
 * (surrounding spaces or line breaks would make every signature check fail). The real proof is the
 * first delivery: a wrong key answers it with 401.
 */
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult } from 'n8n-workflow';

import { cleanHeaderPrefix, webhookHeaders } from '../contract';
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
	return {
		status: 'OK',
		message: `The signing key is set. It is checked against the ${webhookHeaders(prefix).signatureName} header of each delivery when one arrives (a wrong key or header prefix answers deliveries with 401).`,
	};
}
