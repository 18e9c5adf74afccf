/**
 * Receiving one delivery (delivery.ts) on its own, with a stub of n8n's webhook context: the exact
 * answer and log line of every refusal, the raw-body rules and the body kinds that are refused. The
 * HTTP tests (trigger.test.cts) show the same end to end; these pin every branch cheaply.
 */
import { NodeOperationError, type IDataObject, type IWebhookFunctions } from 'n8n-workflow';

import { answer } from '../../../nodes/shared/webhook/answer';
import { receiveDelivery, webhookLifecycle } from '../../../nodes/shared/webhook/delivery';
import { FINAL_BODY, sign, StubResponse } from './util.cjs';

const KEY = 'whsec_delivery_test';
const NAME = 'IDV Trigger';

interface Stub {
	context: IWebhookFunctions;
	answered: Array<{ status: number; body: IDataObject }>;
	logs: Array<{ level: 'warn' | 'error'; message: string }>;
	keyReads: number;
}

/** A webhook context for one request: its raw body (or none), headers and signing credential. */
function stub(opts: {
	rawBody?: Buffer;
	readRawBody?: 'fills' | 'none';
	headers?: Record<string, string | string[]>;
	credential?: IDataObject | 'missing';
	/** The node's credential reference and the workflow's id (default: neither has an id). */
	credentialId?: string | null;
	workflowId?: string;
	/** Counts the key reads across stubs (one stub is one request). */
	reads?: { count: number };
	/** n8n's execution mode (default 'webhook', a published workflow; 'manual': listening for a test event). */
	mode?: string;
}): Stub {
	const result: Stub = { context: undefined as never, answered: [], logs: [], keyReads: 0 };
	const req: IDataObject = { headers: opts.headers ?? {}, rawBody: opts.rawBody };
	if (opts.readRawBody === 'fills') {
		const bytes = opts.rawBody;
		req.rawBody = undefined;
		req.readRawBody = async () => {
			req.rawBody = bytes;
		};
	}
	const res = new StubResponse();
	result.answered = res.answered;
	result.context = {
		getRequestObject: () => req,
		getResponseObject: () => res,
		getNode: () => ({
			name: NAME,
			...(opts.credentialId === undefined
				? {}
				: {
						credentials: {
							identityVerificationWebhookSigningApi: { id: opts.credentialId, name: 'Key' },
						},
					}),
		}),
		getWorkflow: () => ({ id: opts.workflowId }),
		getMode: () => opts.mode ?? 'webhook',
		logger: {
			warn: (message: string) => result.logs.push({ level: 'warn', message }),
			error: (message: string) => result.logs.push({ level: 'error', message }),
		},
		getCredentials: async () => {
			result.keyReads++;
			if (opts.reads) opts.reads.count++;
			if (opts.credential === 'missing') throw new Error('Node does not have any credentials set');
			return opts.credential ?? { signingSecret: KEY };
		},
	} as unknown as IWebhookFunctions;
	return result;
}

const BODY = FINAL_BODY;
const signed = (raw: Buffer = BODY) => ({ 'service-signature': sign(raw, KEY) });
const receive = async (s: Stub, verifySignature = true) =>
	await receiveDelivery.call(s.context, { verifySignature, receivedAt: new Date(0) });

/** Receives, expects a refusal, and gives the one answer and the one log line it wrote. */
async function refusal(s: Stub, verifySignature = true) {
	const received = await receive(s, verifySignature);
	expect(received).toEqual({ ok: false, response: { noWebhookResponse: true } });
	expect(s.answered).toHaveLength(1);
	expect(s.logs).toHaveLength(1);
	return { ...s.answered[0], log: s.logs[0] };
}

/** A refusal checked field by field, its log line matched by `why` (the level and reason). */
function expectRefused(
	r: Awaited<ReturnType<typeof refusal>>,
	expected: { status: number; error: string; level: 'warn' | 'error'; why: RegExp },
) {
	expect(r.status).toBe(expected.status);
	expect(r.body).toEqual({ received: false, error: expected.error });
	expect(r.log.level).toBe(expected.level);
	expect(r.log.message).toMatch(expected.why);
}

/** A matcher of text that starts with `start`. */
const startingWith = (start: string) =>
	expect.stringMatching(new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));

/**
 * The whole refusal of a signature: 401, its answer and the warning that repeats it with the
 * header names the delivery carried (`carried`, sorted).
 */
const refused401 = (error: string, carried: string) => ({
	status: 401,
	body: { received: false, error },
	log: {
		level: 'warn',
		message: startingWith(
			`${NAME}: delivery refused (401): ${error}. Header names it carried: ${carried}. `,
		),
	},
});

describe('receiveDelivery', () => {
	test('a signed JSON object is accepted as an event, and nothing is answered or logged yet', async () => {
		const s = stub({ rawBody: BODY, headers: signed() });
		const received = await receive(s);
		expect(received.ok).toBe(true);
		expect(received.ok && received.event).toMatchObject({
			eventType: 'IDENTIFICATION',
			scanRef: 's-1',
			receivedAt: '1970-01-01T00:00:00.000Z',
		});
		expect(s.answered).toEqual([]);
		expect(s.logs).toEqual([]);
		expect(s.keyReads).toBe(1);
	});

	test('the raw body is read when n8n has not read it yet', async () => {
		const s = stub({ rawBody: BODY, readRawBody: 'fills', headers: signed() });
		expect((await receive(s)).ok).toBe(true);
	});

	test('without a raw body (and no way to read it) the delivery is refused 500 and logged as an error', async () => {
		const s = stub({ headers: signed() });
		expectRefused(await refusal(s), {
			status: 500,
			error: 'The receiver could not read the request body',
			level: 'error',
			why: new RegExp(
				`^${NAME}: delivery refused \\(500\\): The receiver could not read the request body \\(n8n gave no raw request body`,
			),
		});
		expect(s.keyReads).toBe(0);
	});

	test.each([
		['missing', {}, 'Missing Service-Signature or Idenfy-Signature header', 'none'],
		[
			'malformed',
			{ 'service-signature': 'abc' },
			'Invalid Service-Signature: it does not match the body and the signing key',
			'service-signature',
		],
	])('a %s signature is refused 401 with a warning', async (_what, headers, error, carried) => {
		const s = stub({ rawBody: BODY, headers });
		expect(await refusal(s)).toEqual(refused401(error, carried));
	});

	test('a signature made with another key is refused 401 after the key is read, with a warning', async () => {
		const s = stub({ rawBody: BODY, headers: { 'service-signature': sign(BODY, 'other') } });
		const error = 'Invalid Service-Signature: it does not match the body and the signing key';
		expect(await refusal(s)).toEqual(refused401(error, 'service-signature'));
		expect(s.keyReads).toBe(1);
	});

	test.each([
		['no signing credential', 'missing' as const, /no webhook signing key credential is set/],
		['an empty signing key', { signingSecret: '' }, /signing key credential is empty/],
		['a signing key that is not text', { signingSecret: 42 }, /signing key credential is empty/],
	])('%s: refused 500 and logged as an error', async (_what, credential, log) => {
		const s = stub({ rawBody: BODY, headers: signed(), credential });
		const r = await refusal(s);
		expectRefused(r, {
			status: 500,
			error: 'The receiver has no signing key configured',
			level: 'error',
			why: log,
		});
		expect(r.log.message.startsWith(`${NAME}: `)).toBe(true);
	});

	test('a body that is not JSON is refused 400 with a warning', async () => {
		const raw = Buffer.from('{"final": tru');
		expectRefused(await refusal(stub({ rawBody: raw, headers: signed(raw) })), {
			status: 400,
			error: 'The body is not valid JSON',
			level: 'warn',
			why: new RegExp(
				`^${NAME}: delivery refused \\(400\\): The body is not valid JSON\\. Header names it carried: service-signature\\. `,
			),
		});
	});

	// JSON.parse's message quotes the body ("Unexpected token ...", '"abc"... is not valid JSON'),
	// and a body is anyone's to write: a person's data, or text forged for the log.
	const MARKER = 'Qz7x';
	test.each([
		[`${MARKER} is no JSON`],
		[`"${MARKER}`],
		[`{"scanRef": "s-1", "final": ${MARKER}}`],
		[`{"a": 1} ${MARKER}`],
		[`${MARKER}`],
	])('the refusal of the body %j quotes none of it, in the log or the error', async (text) => {
		const raw = Buffer.from(text);
		const webhook = stub({ rawBody: raw, headers: signed(raw) });
		await receive(webhook);
		const manual = stub({ rawBody: raw, headers: signed(raw), mode: 'manual' });
		const thrown = (await receive(manual).catch((error: unknown) => error)) as NodeOperationError;
		expect(thrown).toBeInstanceOf(NodeOperationError);
		const said = [
			...webhook.logs.map((line) => line.message),
			...manual.logs.map((line) => line.message),
			JSON.stringify(webhook.answered),
			thrown.message,
			thrown.description,
		];
		expect(webhook.logs).toHaveLength(1);
		for (const text of said) expect(text).not.toContain(MARKER);
	});

	test.each([['null'], ['42'], ['"text"'], ['[1,2]'], ['true']])(
		'the JSON value %s is refused 400: a delivery is a JSON object',
		async (json) => {
			const raw = Buffer.from(json);
			const r = await refusal(stub({ rawBody: raw, headers: signed(raw) }));
			expect(r).toEqual({
				status: 400,
				body: { received: false, error: 'The body must be a JSON object' },
				log: {
					level: 'warn',
					message: startingWith(
						`${NAME}: delivery refused (400): The body must be a JSON object. Header names it carried: service-signature. `,
					),
				},
			});
		},
	);

	test('a UTF-8 byte order mark before the JSON is accepted (and the signature covers it)', async () => {
		const raw = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), BODY]);
		const received = await receive(stub({ rawBody: raw, headers: signed(raw) }));
		expect(received.ok && received.event.scanRef).toBe('s-1');
	});

	test('with Verify Signature off, the signature is not looked at, even without a credential', async () => {
		const s = stub({ rawBody: BODY, credential: 'missing' });
		expect((await receive(s, false)).ok).toBe(true);
	});
});

describe("the real service's header names (Header Prefix in the credential)", () => {
	const idenfy = (raw: Buffer = BODY, key = KEY) => ({
		'idenfy-signature': sign(raw, key),
		'idenfy-event-type': 'IDENTIFICATION_MANUAL_FINISHED',
	});
	const accepted = async (s: Stub) => {
		const received = await receive(s);
		expect(s.answered).toEqual([]);
		expect(received.ok && received.event.eventType).toBe('IDENTIFICATION_MANUAL_FINISHED');
		expect(received.ok && received.event.eventTypeSource).toBe('header');
	};

	test.each([
		['no prefix (a credential saved without one)', { signingSecret: KEY }],
		['the empty default', { signingSecret: KEY, headerPrefix: '' }],
		['Service, the default before (stored)', { signingSecret: KEY, headerPrefix: 'Service' }],
		['" service- " (stored)', { signingSecret: KEY, headerPrefix: ' service- ' }],
	])(
		'with %s, a delivery of the real service (Idenfy-Signature, Idenfy-Event-Type) is accepted with its kind',
		async (_what, credential) => {
			await accepted(stub({ rawBody: BODY, headers: idenfy(), credential }));
		},
	);

	test('with the empty default, the contract’s names (Service-…) are read too', async () => {
		await accepted(
			stub({
				rawBody: BODY,
				headers: { ...signed(), 'service-event-type': 'IDENTIFICATION_MANUAL_FINISHED' },
				credential: { signingSecret: KEY, headerPrefix: '' },
			}),
		);
	});

	test.each([['Idenfy'], [' idenfy- '], ['IDENFY']])(
		'prefix %j: a delivery with Idenfy-Signature and Idenfy-Event-Type is accepted with its kind',
		async (headerPrefix) => {
			const credential = { signingSecret: KEY, headerPrefix };
			await accepted(stub({ rawBody: BODY, headers: idenfy(), credential }));
		},
	);

	test('a prefix narrows to its names: with Idenfy, the contract headers are not read (401 naming Idenfy-Signature)', async () => {
		const s = stub({
			rawBody: BODY,
			headers: signed(),
			credential: { signingSecret: KEY, headerPrefix: 'Idenfy' },
		});
		expect(await refusal(s)).toEqual(
			refused401('Missing Idenfy-Signature header', 'service-signature'),
		);
	});

	test('a white-label prefix reads its own names only', async () => {
		const credential = { signingSecret: KEY, headerPrefix: 'Acme' };
		const own = stub({ rawBody: BODY, headers: { 'acme-signature': sign(BODY, KEY) }, credential });
		expect((await receive(own)).ok).toBe(true);
		const s = stub({ rawBody: BODY, headers: idenfy(), credential });
		expect(await refusal(s)).toEqual(
			refused401('Missing Acme-Signature header', 'idenfy-event-type, idenfy-signature'),
		);
	});

	test('both sets saying the same (a proxy copying the headers) are read as one', async () => {
		const headers = {
			...idenfy(),
			'service-signature': sign(BODY, KEY),
			'service-event-type': 'IDENTIFICATION_MANUAL_FINISHED',
		};
		await accepted(stub({ rawBody: BODY, headers }));
	});

	test.each([
		[
			'two signatures, one of them wrong',
			{ ...idenfy(), 'service-signature': sign(BODY, 'other') },
		],
		[
			'the same signature, different kinds',
			{
				...idenfy(),
				'service-signature': sign(BODY, KEY),
				'service-event-type': 'BANK_VERIFICATION',
			},
		],
		[
			'the signature under one name, the kind under the other',
			{ 'service-signature': sign(BODY, KEY), 'idenfy-event-type': 'IDENTIFICATION_EXPIRED' },
		],
	])(
		'both sets present and disagreeing (%s): refused 401, one set per delivery',
		async (_w, headers) => {
			const r = await refusal(stub({ rawBody: BODY, headers }));
			expect(r.status).toBe(401);
			expect(r.body.error).toBe(
				'Both Service-… and Idenfy-… headers, with different values: a delivery is read under one set of header names',
			);
		},
	);

	test('a signature under the prefix is checked as strictly: another key is refused 401', async () => {
		const s = stub({
			rawBody: BODY,
			headers: { 'idenfy-signature': sign(BODY, 'other') },
			credential: { signingSecret: KEY, headerPrefix: 'Idenfy' },
		});
		expect(await refusal(s)).toEqual(
			refused401(
				'Invalid Idenfy-Signature: it does not match the body and the signing key',
				'idenfy-signature',
			),
		);
	});

	test('with the default, a wrong signature under Idenfy-Signature is named as such', async () => {
		const s = stub({ rawBody: BODY, headers: idenfy(BODY, 'other') });
		expect((await refusal(s)).body.error).toBe(
			'Invalid Idenfy-Signature: it does not match the body and the signing key',
		);
	});

	test.each([
		['Idenfy', 'Idenfy'],
		['the default', ''],
	])(
		'with Verify Signature off, the event kind is read under the names carried (%s)',
		async (_w, headerPrefix) => {
			const s = stub({
				rawBody: BODY,
				headers: { 'idenfy-event-type': 'IDENTIFICATION_MANUAL_FINISHED' },
				credential: { signingSecret: KEY, headerPrefix },
			});
			const received = await receive(s, false);
			expect(received.ok && received.event.eventType).toBe('IDENTIFICATION_MANUAL_FINISHED');
		},
	);
});

describe('the one log line of a refused delivery', () => {
	const SECRET_BODY = Buffer.from('{"scanRef":"s-9","data":{"docFirstName":"ONA"},"final":true}');

	test('says why and names the headers it carried, never their values, the body or the key', async () => {
		const signature = sign(SECRET_BODY, 'a-wrong-key');
		const s = stub({
			rawBody: SECRET_BODY,
			headers: {
				'content-type': 'application/json',
				'x-secret-header': 'a-value-nobody-may-read',
				'idenfy-signature': signature,
			},
		});
		const { log } = await refusal(s);
		expect(log.message).toBe(
			`${NAME}: delivery refused (401): Invalid Idenfy-Signature: it does not match the body and the signing key. Header names it carried: content-type, idenfy-signature, x-secret-header. Copy the signing key again from the dashboard (Settings → Notifications → the notification’s Signing key) into the Webhook Signing credential: each notification has its own key, and it is not the API secret.`,
		);
		for (const hidden of [signature, KEY, 'a-value-nobody-may-read', 'ONA', 's-9']) {
			expect(log.message).not.toContain(hidden);
		}
	});

	test('a sender that sends hundreds of headers gets 30 names and a count into the line', async () => {
		const headers: Record<string, string> = {};
		for (let i = 0; i < 200; i++) headers[`x-h${String(i).padStart(3, '0')}`] = 'v';
		const { log } = await refusal(stub({ rawBody: BODY, headers }));
		expect(log.message).toContain('x-h029, and 170 more.');
		expect(log.message).not.toContain('x-h030');
	});
});

describe('keeping the signing key between deliveries', () => {
	let workflowCounter = 0;
	/** Three signed deliveries of one node: how often the key was read in all. */
	async function readsForThree(ids: { credentialId?: string | null; workflowId?: string }) {
		const reads = { count: 0 };
		for (let i = 0; i < 3; i++) {
			const s = stub({ rawBody: BODY, headers: signed(), reads, ...ids });
			expect((await receive(s)).ok).toBe(true);
		}
		return reads.count;
	}

	test('the key of a workflow and credential that both have an id is read once for several deliveries', async () => {
		expect(await readsForThree({ credentialId: 'c-1', workflowId: `w-${++workflowCounter}` })).toBe(
			1,
		);
	});

	test.each([
		['the node refers to its credential without an id', { credentialId: null, workflowId: 'w-x' }],
		['the node has no credential reference', { workflowId: 'w-y' }],
		['the workflow has no id', { credentialId: 'c-1' }],
	])('no key is kept when %s: each delivery reads it', async (_what, ids) => {
		expect(await readsForThree(ids)).toBe(3);
	});

	test('a failed read is not kept: the next delivery reads again and is accepted', async () => {
		const ids = { credentialId: 'c-1', workflowId: `w-${++workflowCounter}` };
		const reads = { count: 0 };
		const missing = stub({
			rawBody: BODY,
			headers: signed(),
			credential: 'missing',
			reads,
			...ids,
		});
		expect((await refusal(missing)).status).toBe(500);
		const next = stub({ rawBody: BODY, headers: signed(), reads, ...ids });
		expect((await receive(next)).ok).toBe(true);
		expect(reads.count).toBe(2);
	});
});

describe('answer and the webhook lifecycle', () => {
	test('answer writes the status and body and tells n8n not to answer again', () => {
		const s = stub({});
		expect(answer.call(s.context, 409, { received: false })).toEqual({ noWebhookResponse: true });
		expect(s.answered).toEqual([{ status: 409, body: { received: false } }]);
	});

	test('there is nothing to register with the service: check, create and delete all succeed', async () => {
		const hooks = webhookLifecycle.default;
		const context = {} as never;
		await expect(hooks.checkExists.call(context)).resolves.toBe(true);
		await expect(hooks.create.call(context)).resolves.toBe(true);
		await expect(hooks.delete.call(context)).resolves.toBe(true);
	});
});

describe('while the editor listens for a test event (manual mode), a refusal ends the test with its reason', () => {
	const manual = (opts: Parameters<typeof stub>[0]) => stub({ ...opts, mode: 'manual' });

	test.each([
		[
			'a wrong key',
			{ rawBody: BODY, headers: { 'idenfy-signature': sign(BODY, 'other') } },
			'Delivery refused: Invalid Idenfy-Signature: it does not match the body and the signing key',
			/^Copy the signing key again .* Header names the delivery carried: idenfy-signature\.$/,
		],
		[
			'no signature it can read',
			{ rawBody: BODY, headers: { 'acme-signature': 'x', 'content-type': 'application/json' } },
			'Delivery refused: Missing Service-Signature or Idenfy-Signature header',
			/Header Prefix .* Header names the delivery carried: acme-signature, content-type\.$/,
		],
		[
			'no signing key',
			{ rawBody: BODY, headers: signed(), credential: { signingSecret: '' } },
			'Delivery refused: The receiver has no signing key configured',
			/^Select an "Identity Verification Webhook Signing API" credential/,
		],
		[
			'a body that is not JSON',
			{ rawBody: Buffer.from('nope'), headers: signed(Buffer.from('nope')) },
			'Delivery refused: The body is not valid JSON',
			/JSON object/,
		],
	])(
		'%s: the node throws the reason for n8n to show, and answers nothing itself',
		async (_w, opts, message, description) => {
			const s = manual(opts);
			const thrown = await receive(s).then(
				() => undefined,
				(error: unknown) => error,
			);
			expect(thrown).toBeInstanceOf(NodeOperationError);
			expect((thrown as NodeOperationError).message).toBe(message);
			expect((thrown as NodeOperationError).description).toMatch(description);
			expect(s.answered).toEqual([]);
			// The administrator's log line is written in every mode.
			expect(s.logs).toHaveLength(1);
		},
	);

	test('an accepted delivery is not affected', async () => {
		expect((await receive(manual({ rawBody: BODY, headers: signed() }))).ok).toBe(true);
	});
});
