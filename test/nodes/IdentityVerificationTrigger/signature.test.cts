/**
 * The signature check against the shared vectors: once on the pure module, and once end to end
 * over real HTTP through n8n-core's WebhookContext (the vector's exact raw bytes are sent).
 */
import { decodeSignature, verifySignature } from '../../../nodes/shared/webhook/signature';
import { SIGNING_CREDENTIAL, startTriggerHost, type TriggerHost } from '../../harness/webhook.cjs';
import { ENCODINGS, loadVectors, post } from './util.cjs';

const vectors = loadVectors();
const bytes = (b64: string) => Buffer.from(b64, 'base64');

describe('signature module against the shared vectors', () => {
	for (const v of vectors.valid) {
		for (const encoding of ENCODINGS) {
			test(`accepts ${v.name} signed as ${encoding}`, () => {
				expect(
					verifySignature(bytes(v.bodyBase64), v.signatures[encoding], vectors.signingKey),
				).toEqual({ valid: true });
			});
		}
	}

	for (const v of vectors.invalid) {
		test(`rejects ${v.name}`, () => {
			expect(verifySignature(bytes(v.bodyBase64), v.signature, vectors.signingKey).valid).toBe(
				false,
			);
		});
	}

	test('rejects a valid signature checked with another key', () => {
		const v = vectors.valid[0];
		expect(verifySignature(bytes(v.bodyBase64), v.signatures.hexLower, 'another-key')).toEqual({
			valid: false,
			reason: 'mismatch',
		});
	});

	test('refuses to check without a key, and reports a missing header as missing', () => {
		const v = vectors.valid[0];
		expect(verifySignature(bytes(v.bodyBase64), v.signatures.hexLower, '')).toEqual({
			valid: false,
			reason: 'noKey',
		});
		expect(verifySignature(bytes(v.bodyBase64), undefined, vectors.signingKey)).toEqual({
			valid: false,
			reason: 'missing',
		});
		expect(verifySignature(bytes(v.bodyBase64), '   ', vectors.signingKey)).toEqual({
			valid: false,
			reason: 'missing',
		});
	});

	test('rejects a header sent twice, even when one copy is right', () => {
		const v = vectors.valid[0];
		expect(
			verifySignature(
				bytes(v.bodyBase64),
				[v.signatures.hexLower, v.signatures.hexLower],
				vectors.signingKey,
			).valid,
		).toBe(false);
	});

	test('decodes only complete digests: URL-safe base64 and unpadded base64 are accepted, extra characters are not', () => {
		const v = vectors.valid[1];
		const b64 = v.signatures.base64;
		const urlSafe = b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
		expect(decodeSignature(urlSafe)?.toString('hex')).toBe(v.signatures.hexLower);
		expect(decodeSignature(b64.replace(/=+$/, ''))?.toString('hex')).toBe(v.signatures.hexLower);
		expect(decodeSignature(`SHA256=${v.signatures.hexUpper}`)?.toString('hex')).toBe(
			v.signatures.hexLower,
		);
		expect(decodeSignature(`${v.signatures.hexLower}00`)).toBeUndefined();
		expect(decodeSignature(`${b64}AA`)).toBeUndefined();
		expect(decodeSignature(`sha1=${v.signatures.hexLower}`)).toBeUndefined();
		expect(decodeSignature('')).toBeUndefined();
	});
});

describe('trigger over HTTP against the shared vectors', () => {
	let host: TriggerHost;

	beforeAll(async () => {
		host = await startTriggerHost({
			credentials: { [SIGNING_CREDENTIAL]: { signingSecret: vectors.signingKey } },
			// Every encoding of a vector is the same body: duplicates must not hide the 2nd..4th.
			parameters: { options: { ignoreDuplicates: false } },
		});
	});

	afterAll(async () => {
		await host.close();
	});

	for (const v of vectors.valid) {
		for (const encoding of ENCODINGS) {
			test(`emits ${v.name} signed as ${encoding}`, async () => {
				const before = host.emitted.length;
				const res = await post(host.url, bytes(v.bodyBase64), {
					'service-signature': v.signatures[encoding],
				});
				expect(res.status).toBe(200);
				expect(res.json).toEqual({ received: true });
				expect(host.emitted).toHaveLength(before + 1);
				const item = host.emitted[host.emitted.length - 1][0].json;
				// The body arrives exactly as sent (non-ASCII included).
				expect(item.body).toEqual(JSON.parse(bytes(v.bodyBase64).toString('utf8')));
			});
		}
	}

	for (const v of vectors.invalid) {
		test(`answers ${v.name} with 401 and emits nothing`, async () => {
			const before = host.emitted.length;
			const res = await post(host.url, bytes(v.bodyBase64), { 'service-signature': v.signature });
			expect(res.status).toBe(401);
			expect(res.json).toMatchObject({ received: false });
			expect(res.text).not.toContain(vectors.signingKey);
			expect(host.emitted).toHaveLength(before);
			expect(host.responses[host.responses.length - 1]).toMatchObject({
				statusCode: 401,
				workflowStarted: false,
			});
		});
	}
});
