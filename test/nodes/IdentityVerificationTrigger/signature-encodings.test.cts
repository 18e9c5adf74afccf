/**
 * The signature module's decoder against the shared vectors: it returns the very 32 bytes for every
 * spelling the vectors use and it accepts (and nothing for near misses), and the reasons a delivery
 * is refused.
 */
import {
	computeSignature,
	decodeSignature,
	signatureRefusal,
	verifySignature,
} from '../../../nodes/shared/webhook/signature';
import { loadVectors } from './util.cjs';

const vectors = loadVectors();
const v = vectors.valid[0];
const body = Buffer.from(v.bodyBase64, 'base64');
const digest = computeSignature(body, vectors.signingKey);
const ENCODINGS = Object.keys(v.signatures) as Array<keyof typeof v.signatures>;

describe('decodeSignature', () => {
	test.each(ENCODINGS.map((encoding) => [encoding]))(
		'%s decodes to the digest bytes',
		(encoding) => {
			expect(decodeSignature(v.signatures[encoding])?.equals(digest)).toBe(true);
		},
	);

	test('URL-safe base64, no padding, a SHA256= prefix in any case and spaces around are fine', () => {
		const b64 = digest.toString('base64');
		const urlSafe = b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
		for (const value of [
			urlSafe,
			` ${b64} `,
			`SHA256=${digest.toString('hex')}`,
			`Sha256=${b64}`,
		]) {
			expect(decodeSignature(value)?.equals(digest)).toBe(true);
		}
	});

	test('refuses anything but a complete digest', () => {
		const hex = digest.toString('hex');
		const b64 = digest.toString('base64');
		for (const value of [
			hex.slice(1),
			`${hex}0`,
			`${hex.slice(0, 63)}g`,
			b64.slice(1),
			`${b64.slice(0, 42)}==`,
			`${b64}=`,
			`x${hex}`,
			`sha256:${hex}`,
			`${hex.slice(0, 10)}sha256=${hex.slice(10)}`,
			'',
			undefined,
			42,
		]) {
			expect(decodeSignature(value)).toBeUndefined();
		}
	});

	test('refuses non-canonical base64 (bits beyond the 32 bytes in the last character)', () => {
		const b64 = digest.toString('base64').replace(/=+$/, '');
		const last = b64[42];
		// The last of 43 characters carries 4 bits of data and 2 zero bits: set one of those.
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
		const tweaked = alphabet[alphabet.indexOf(last) | 1];
		expect(tweaked).not.toBe(last);
		expect(decodeSignature(`${b64.slice(0, 42)}${tweaked}`)).toBeUndefined();
	});
});

describe('verifySignature reasons', () => {
	test('no key, missing, malformed, two headers, mismatch', () => {
		const good = v.signatures.hexLower;
		expect(verifySignature(body, good, '')).toEqual({ valid: false, reason: 'noKey' });
		expect(verifySignature(body, undefined, 'k')).toEqual({ valid: false, reason: 'missing' });
		expect(verifySignature(body, '  ', 'k')).toEqual({ valid: false, reason: 'missing' });
		expect(verifySignature(body, 'abc', 'k')).toEqual({ valid: false, reason: 'malformed' });
		expect(verifySignature(body, [good, good], vectors.signingKey)).toEqual({
			valid: false,
			reason: 'malformed',
		});
		expect(
			verifySignature(Buffer.concat([body, Buffer.from(' ')]), good, vectors.signingKey),
		).toEqual({ valid: false, reason: 'mismatch' });
		expect(verifySignature(body, good, vectors.signingKey)).toEqual({ valid: true });
	});
});

describe('header values that cannot be a signature', () => {
	test.each([
		['absent', undefined, { valid: false, reason: 'missing' }],
		['blank', '   ', { valid: false, reason: 'missing' }],
		['not a digest', 'abc', { valid: false, reason: 'malformed' }],
		[
			'sent twice',
			[v.signatures.hexLower, v.signatures.hexLower],
			{ valid: false, reason: 'malformed' },
		],
		['a well-formed digest', v.signatures.hexLower, { valid: true }],
		['a well-formed digest with spaces around', ` ${v.signatures.base64} `, { valid: true }],
	])('%s: %j', (_what, header, check) => {
		expect(verifySignature(body, header, vectors.signingKey)).toEqual(check);
	});

	test('a missing header is named as missing, anything else as not matching', () => {
		expect(signatureRefusal('missing')).toBe('Missing Service-Signature header');
		for (const reason of ['malformed', 'mismatch'] as const) {
			expect(signatureRefusal(reason)).toBe(
				'Invalid Service-Signature: it does not match the body and the signing key',
			);
		}
		expect(signatureRefusal('missing', 'Idenfy-Signature')).toBe('Missing Idenfy-Signature header');
	});
});
