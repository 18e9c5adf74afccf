/**
 * When the trigger reads its signing key. In n8n every read (`getCredentials` in a webhook) is a
 * database query, a decryption and a fresh expression isolate, so the trigger reads the key at most
 * once per delivery, never for a delivery whose header cannot be a signature, and never keeps it
 * between deliveries: a key changed in the credential applies to the very next delivery.
 */
import { SIGNING_CREDENTIAL, startTriggerHost, type TriggerHost } from '../../harness/webhook.cjs';
import { BODIES } from './fixtures.cjs';
import { post, postSigned, sign } from './util.cjs';

const body = JSON.stringify(BODIES.BANK_VERIFICATION);

/** A signing-key credential that counts how often the node reads its key, and can be rotated. */
function countingCredential(initialKey: string) {
	let key = initialKey;
	let reads = 0;
	const data = {
		get signingSecret() {
			reads++;
			return key;
		},
	};
	return {
		data,
		reads: () => reads,
		rotate: (next: string) => {
			key = next;
		},
	};
}

const hosts: TriggerHost[] = [];
afterAll(async () => {
	await Promise.all(hosts.map(async (h) => await h.close()));
});

async function host(credential: { signingSecret: string }): Promise<TriggerHost> {
	const h = await startTriggerHost({ credentials: { [SIGNING_CREDENTIAL]: credential } });
	hosts.push(h);
	return h;
}

test('a delivery without a Service-Signature header is refused (401) without reading the signing key', async () => {
	const credential = countingCredential('key-one');
	const h = await host(credential.data);
	const res = await post(h.url, body, { 'service-event-type': 'BANK_VERIFICATION' });
	expect(res.status).toBe(401);
	expect(res.json).toEqual({ received: false, error: 'Missing Service-Signature header' });
	expect(credential.reads()).toBe(0);
	expect(h.emitted).toHaveLength(0);
});

test.each([
	['not a digest', 'not-a-signature'],
	['a truncated digest', sign(body, 'key-one').slice(0, 40)],
	['sent twice', [sign(body, 'key-one'), sign(body, 'key-one')]],
])(
	'a Service-Signature header that is %s is refused (401) without reading the signing key',
	async (_label, header) => {
		const credential = countingCredential('key-one');
		const h = await host(credential.data);
		const res = await post(h.url, body, {
			'service-event-type': 'BANK_VERIFICATION',
			'service-signature': header as string,
		});
		expect(res.status).toBe(401);
		expect(res.json).toEqual({
			received: false,
			error: 'Invalid Service-Signature: it does not match the body and the signing key',
		});
		expect(credential.reads()).toBe(0);
		expect(h.emitted).toHaveLength(0);
	},
);

test('a signed delivery reads the signing key once, and a rotated key applies to the next delivery', async () => {
	const credential = countingCredential('key-one');
	const h = await host(credential.data);

	const first = await postSigned(h.url, body, { key: 'key-one', eventType: 'BANK_VERIFICATION' });
	expect(first.status).toBe(200);
	expect(credential.reads()).toBe(1);

	credential.rotate('key-two');
	const other = JSON.stringify({ ...BODIES.BANK_VERIFICATION, note: 'after rotation' });
	const oldKey = await postSigned(h.url, other, { key: 'key-one', eventType: 'BANK_VERIFICATION' });
	expect(oldKey.status).toBe(401);
	const newKey = await postSigned(h.url, other, { key: 'key-two', eventType: 'BANK_VERIFICATION' });
	expect(newKey.status).toBe(200);
	expect(credential.reads()).toBe(3);
	expect(h.emitted).toHaveLength(2);
});
