/**
 * Webhook signature check (docs/service-interface.md, "Webhook deliveries").
 *
 * The service signs every delivery with HMAC-SHA256 over the RAW request body bytes, keyed with the
 * signing key (UTF-8 bytes), and sends the result in the `Service-Signature` header. The contract
 * does not state the encoding of the header value, so every common one is accepted:
 *
 *   - lowercase hex              `b74d14da…`
 *   - uppercase hex              `B74D14DA…`
 *   - base64 (standard or URL-safe alphabet, padding optional) `t00U2t/Lu06f…=`
 *   - any of the above behind an optional `sha256=` prefix (any case), e.g. `sha256=b74d14da…`
 *
 * Anything else (empty, missing, truncated, a different length, garbage, several values) is invalid.
 * The comparison is constant time (`crypto.timingSafeEqual` on two 32-byte digests), so the check
 * leaks nothing about how much of a forged signature was right.
 *
 * Only the raw bytes are ever hashed: hashing a re-serialisation of the parsed JSON would accept
 * signatures the service never made and reject genuine ones (whitespace, key order, unicode escapes).
 */
import { createHash, createHmac, timingSafeEqual } from 'crypto';

/** Length in bytes of an HMAC-SHA256 digest. */
const DIGEST_LENGTH = 32;

const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;
/** 32 bytes in base64: 43 significant characters and an optional `=`; URL-safe alphabet tolerated. */
const BASE64_DIGEST = /^[A-Za-z0-9+/_-]{43}=?$/;
const PREFIX = /^sha256=/i;

export type SignatureCheck =
	| { valid: true }
	| { valid: false; reason: 'missing' | 'malformed' | 'mismatch' | 'noKey' };

/** HMAC-SHA256 digest of the raw body bytes with the signing key (UTF-8). */
export function computeSignature(rawBody: Buffer, signingKey: string): Buffer {
	return createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(rawBody).digest();
}

/**
 * Decodes a `Service-Signature` header value into the 32 digest bytes it carries, or `undefined`
 * when the value is not a complete signature in one of the accepted encodings.
 */
export function decodeSignature(headerValue: unknown): Buffer | undefined {
	if (typeof headerValue !== 'string') return undefined;
	const value = headerValue.trim().replace(PREFIX, '');
	if (HEX_DIGEST.test(value)) {
		return Buffer.from(value, 'hex');
	}
	if (BASE64_DIGEST.test(value)) {
		const standard = value.replace(/-/g, '+').replace(/_/g, '/');
		const decoded = Buffer.from(standard, 'base64');
		// Reject values whose last character carries bits beyond the 32 bytes (non-canonical base64):
		// only the canonical spelling of a digest is accepted.
		if (
			decoded.length === DIGEST_LENGTH &&
			decoded.toString('base64').replace(/=+$/, '') === standard.replace(/=+$/, '')
		) {
			return decoded;
		}
	}
	return undefined;
}

/**
 * The answer's `error` for a delivery refused 401 by the signature check: a missing signature names
 * every header it was looked for under, a wrong one the header it was read from.
 */
export function signatureRefusal(
	reason: 'missing' | 'malformed' | 'mismatch',
	headerNames: string | string[] = 'Service-Signature',
): string {
	const names = Array.isArray(headerNames) ? headerNames : [headerNames];
	return reason === 'missing'
		? `Missing ${names.join(' or ')} header`
		: `Invalid ${names[0]}: it does not match the body and the signing key`;
}

/**
 * Checks the `Service-Signature` header value of a delivery against its raw body bytes.
 * `headerValue` is what Node's `req.headers['service-signature']` holds (string, string[] when the
 * header was sent twice, or undefined).
 */
export function verifySignature(
	rawBody: Buffer,
	headerValue: string | string[] | undefined,
	signingKey: string,
): SignatureCheck {
	if (typeof signingKey !== 'string' || signingKey.length === 0) {
		return { valid: false, reason: 'noKey' };
	}
	if (headerValue === undefined || (typeof headerValue === 'string' && headerValue.trim() === '')) {
		return { valid: false, reason: 'missing' };
	}
	// A header sent more than once is ambiguous: refuse it rather than pick one.
	const provided = decodeSignature(Array.isArray(headerValue) ? undefined : headerValue);
	if (provided === undefined) {
		return { valid: false, reason: 'malformed' };
	}
	const expected = computeSignature(rawBody, signingKey);
	if (provided.length !== expected.length || !timingSafeEqual(provided, expected)) {
		return { valid: false, reason: 'mismatch' };
	}
	return { valid: true };
}

/** Stable identifier of a delivery: SHA-256 (hex) of its raw body. Retries and Resends share it. */
export function bodyHash(rawBody: Buffer): string {
	return createHash('sha256').update(rawBody).digest('hex');
}
