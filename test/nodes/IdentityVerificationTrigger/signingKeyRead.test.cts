/**
 * When the trigger reads its signing key. In n8n every read (`getCredentials` in a webhook) is a
 * database query, a decryption and a fresh expression isolate, so the trigger keeps a key it read
 * for its workflow and credential for 5 s in the process: a burst of deliveries reads it once, also
 * a burst of deliveries whose header cannot be a signature (the key also names the headers). A delivery whose
 * signature does not match a kept key reads it again (a key changed in the credential is used at
 * once), at most once a second, so forged deliveries cannot make it read the key for each of them.
 * The signature itself is checked on every delivery. Time is moved with `Date.now`, which the
 * keeping uses.
 */
import { SIGNING_CREDENTIAL, startTriggerHost, type TriggerHost } from '../../harness/webhook.cjs';
import { BODIES } from './fixtures.cjs';
import { post, postSigned, sign } from './util.cjs';

// Pinned here, not read from the product: a changed rule must turn these tests red.
const TTL_MS = 5000;
const REREAD_MS = 1000;

const body = JSON.stringify(BODIES.BANK_VERIFICATION);
/** A distinct body each time (a duplicate would be acknowledged without starting anything). */
let bodyCounter = 0;
const freshBody = () => JSON.stringify({ ...BODIES.BANK_VERIFICATION, note: `n${++bodyCounter}` });

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

/** A trigger host (its own workflow, the harness's credential id) whose key is `credential`'s. */
async function host(credential: { signingSecret: string }, workflowId?: string) {
	const h = await startTriggerHost({
		credentials: { [SIGNING_CREDENTIAL]: credential },
		...(workflowId ? { workflowId } : {}),
	});
	hosts.push(h);
	return h;
}

let clock = Date.UTC(2026, 10, 1);
beforeEach(() => {
	clock += 24 * 60 * 60 * 1000;
	jest.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => jest.restoreAllMocks());

const deliver = async (h: TriggerHost, key: string, raw = freshBody()) =>
	(await postSigned(h.url, raw, { key, eventType: 'BANK_VERIFICATION' })).status;

test('20 deliveries without a Service-Signature header are refused (401) and read the key once', async () => {
	const credential = countingCredential('key-one');
	const h = await host(credential.data);
	for (let i = 0; i < 20; i++) {
		const res = await post(h.url, body, { 'service-event-type': 'BANK_VERIFICATION' });
		expect(res.status).toBe(401);
		expect(res.json).toEqual({ received: false, error: 'Missing Service-Signature header' });
	}
	expect(credential.reads()).toBe(1);
	expect(h.emitted).toHaveLength(0);
});

test.each([
	['not a digest', 'not-a-signature'],
	['a truncated digest', sign(body, 'key-one').slice(0, 40)],
	['sent twice', [sign(body, 'key-one'), sign(body, 'key-one')]],
])(
	'10 deliveries whose Service-Signature header is %s are refused (401) and read the key once',
	async (_label, header) => {
		const credential = countingCredential('key-one');
		const h = await host(credential.data);
		for (let i = 0; i < 10; i++) {
			const res = await post(h.url, body, {
				'service-event-type': 'BANK_VERIFICATION',
				'service-signature': header as string,
			});
			expect(res.status).toBe(401);
			expect(res.json).toEqual({
				received: false,
				error: 'Invalid Service-Signature: it does not match the body and the signing key',
			});
		}
		expect(credential.reads()).toBe(1);
		expect(h.emitted).toHaveLength(0);
	},
);

test('a burst of 20 signed deliveries at once reads the key once, and starts 20 workflows', async () => {
	const credential = countingCredential('key-one');
	const h = await host(credential.data);
	const statuses = await Promise.all(Array.from({ length: 20 }, async () => deliver(h, 'key-one')));
	expect(statuses).toEqual(Array(20).fill(200));
	expect(credential.reads()).toBe(1);
	expect(h.emitted).toHaveLength(20);
});

test('the kept key is read again once it is 5 s old', async () => {
	const credential = countingCredential('key-one');
	const h = await host(credential.data);
	expect(await deliver(h, 'key-one')).toBe(200);
	clock += TTL_MS - 1;
	expect(await deliver(h, 'key-one')).toBe(200);
	expect(credential.reads()).toBe(1);
	clock += 1;
	expect(await deliver(h, 'key-one')).toBe(200);
	expect(credential.reads()).toBe(2);
});

test('a changed key: a delivery signed with the new one is accepted at once; the old one is refused once the kept key is 5 s old', async () => {
	const credential = countingCredential('key-one');
	const h = await host(credential.data);
	expect(await deliver(h, 'key-one')).toBe(200);

	credential.rotate('key-two');
	// The new key's first delivery does not match the kept key: the key is read again.
	expect(await deliver(h, 'key-two')).toBe(200);
	expect(credential.reads()).toBe(2);
	expect(await deliver(h, 'key-one')).toBe(401);
	expect(await deliver(h, 'key-two')).toBe(200);

	// Rotated without a delivery signed with the new key: the old key serves until the kept key is
	// 5 s old, then it is refused.
	credential.rotate('key-three');
	clock += REREAD_MS;
	expect(await deliver(h, 'key-two')).toBe(200);
	clock += TTL_MS;
	expect(await deliver(h, 'key-two')).toBe(401);
	expect(await deliver(h, 'key-three')).toBe(200);
});

test('a flood of forged deliveries reads the key at most once a second, and every one is refused', async () => {
	const credential = countingCredential('key-one');
	const h = await host(credential.data);
	expect(await deliver(h, 'key-one')).toBe(200);
	expect(credential.reads()).toBe(1);

	const forged = async () =>
		await Promise.all(Array.from({ length: 30 }, async () => deliver(h, 'not-the-key')));
	expect(await forged()).toEqual(Array(30).fill(401));
	expect(credential.reads()).toBe(2);
	clock += REREAD_MS - 1;
	expect(await forged()).toEqual(Array(30).fill(401));
	expect(credential.reads()).toBe(2);
	clock += 1;
	expect(await forged()).toEqual(Array(30).fill(401));
	expect(credential.reads()).toBe(3);
	expect(h.emitted).toHaveLength(1);
});

test("a workflow never uses another workflow's kept key, even under the same credential id", async () => {
	const one = countingCredential('key-one');
	const two = countingCredential('key-two');
	const a = await host(one.data);
	const b = await host(two.data);
	expect(await deliver(a, 'key-one')).toBe(200);
	expect(await deliver(b, 'key-one')).toBe(401);
	expect(await deliver(b, 'key-two')).toBe(200);
	expect(await deliver(a, 'key-two')).toBe(401);
});

test('an empty key is not kept: once the credential has one, the next delivery is accepted', async () => {
	const credential = countingCredential('');
	const h = await host(credential.data);
	expect(await deliver(h, 'key-one')).toBe(500);
	credential.rotate('key-one');
	expect(await deliver(h, 'key-one')).toBe(200);
	expect(credential.reads()).toBe(2);
});
