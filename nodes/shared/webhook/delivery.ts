/**
 * Receiving one signed delivery of the service: the raw body, the HMAC-SHA256 signature check with
 * the Webhook Signing credential, the JSON body and the typed event. Shared by the trigger and by
 * the action node's Wait for Result step (the resume request of a waiting execution), so both
 * accept and refuse exactly the same deliveries.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IHookFunctions,
	INodeCredentialTestResult,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { WEBHOOK_HEADERS, acceptedHeaderSets, type WebhookHeaderNames } from '../contract';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../jsonDepth';
import { refuse, type Refusal } from './answer';
import { checkSigningKey } from './credentialTest';
import { buildEvent, type IdentityVerificationEvent } from './events';
import { bodyHash, signatureRefusal, verifySignature } from './signature';
import { keyAfterMismatch, keyScope, signingKeyFor } from './signingKey';

export type ReceivedDelivery =
	| { ok: true; event: IdentityVerificationEvent; deliveryId: string }
	| { ok: false; response: IWebhookResponseData };

type HeaderRead = { names: WebhookHeaderNames } | { refused: 'missing' | 'conflict' };

/**
 * The one header set a delivery is read under, of those the credential accepts: the set whose
 * signature or event-type header it carries. Carrying two sets is accepted only when they say the
 * same; two that disagree (a signature under one name, another under the other) are refused.
 */
function readHeaderSet(headers: IDataObject, sets: WebhookHeaderNames[]): HeaderRead {
	const carried = sets.filter(
		(set) => headers[set.signature] !== undefined || headers[set.eventType] !== undefined,
	);
	if (carried.length === 0) return { refused: 'missing' };
	const said = (set: WebhookHeaderNames) =>
		JSON.stringify([headers[set.signature], headers[set.eventType]]);
	if (carried.some((set) => said(set) !== said(carried[0]))) return { refused: 'conflict' };
	return { names: carried[0] };
}

const KEY_FIX =
	'Copy the signing key again from the dashboard (Settings → Notifications → the notification’s Signing key) into the Webhook Signing credential: each notification has its own key, and it is not the API secret.';

/**
 * The refusal of a signature check (401), in words that name the headers it read: those of the set
 * the delivery used, or every accepted set when it carried none.
 */
function signatureProblem(
	reason: 'missing' | 'malformed' | 'mismatch' | 'conflict',
	sets: WebhookHeaderNames[],
	used?: WebhookHeaderNames,
): Refusal {
	const prefixes = sets.map((set) => set.signatureName.replace(/Signature$/, '…')).join(' and ');
	if (reason === 'conflict') {
		return {
			status: 401,
			level: 'warn',
			error: `Both ${prefixes} headers, with different values: a delivery is read under one set of header names`,
			fix: 'Send each delivery with one set of header names.',
		};
	}
	if (reason === 'missing') {
		return {
			status: 401,
			level: 'warn',
			error: signatureRefusal(
				'missing',
				(used ? [used] : sets).map((set) => set.signatureName),
			),
			fix: 'If the service writes another word before "-Signature" (see a delivery’s details in the dashboard), enter that word as Header Prefix in the Webhook Signing credential.',
		};
	}
	return {
		status: 401,
		level: 'warn',
		error: signatureRefusal(reason, (used ?? sets[0]).signatureName),
		fix: KEY_FIX,
	};
}

/** Without a signing key nothing can be verified: 500, so the service keeps the delivery for later. */
function noSigningKey(why: string): Refusal {
	return {
		status: 500,
		level: 'error',
		error: 'The receiver has no signing key configured',
		detail: why,
		fix: 'Select an "Identity Verification Webhook Signing API" credential on the node and enter the signing key.',
	};
}

/**
 * Checks the delivery's signature with the signing key: the header names to read the delivery
 * with when it is valid, else the refusal (401, or 500 without a usable signing key).
 */
async function checkSignature(
	context: IWebhookFunctions,
	rawBody: Buffer,
): Promise<{ headers: WebhookHeaderNames } | { refusal: Refusal }> {
	const now = Date.now();
	const scope = keyScope(context);
	const used = signingKeyFor(context, scope, now);
	try {
		const credential = await used.key;
		const read = readHeaderSet(context.getRequestObject().headers, credential.headers);
		if (credential.key !== '' && 'refused' in read) {
			return { refusal: signatureProblem(read.refused, credential.headers) };
		}
		const names = 'names' in read ? read.names : credential.headers[0];
		const header = context.getRequestObject().headers[names.signature];
		let check = verifySignature(rawBody, header, credential.key);
		if (!check.valid && check.reason === 'mismatch') {
			const again = keyAfterMismatch(context, scope, used, now);
			if (again) check = verifySignature(rawBody, header, (await again).key);
		}
		if (check.valid) return { headers: names };
		if (check.reason === 'noKey') {
			return { refusal: noSigningKey('the webhook signing key credential is empty') };
		}
		return { refusal: signatureProblem(check.reason, credential.headers, names) };
	} catch (error) {
		const why = `no webhook signing key credential is set (${(error as Error).message})`;
		return { refusal: noSigningKey(why) };
	}
}

/**
 * The header names when the signature is not checked (local testing): the set the delivery carries
 * of those the credential accepts (both when it cannot be read), else the contract's.
 */
async function unverifiedHeaders(context: IWebhookFunctions): Promise<WebhookHeaderNames> {
	let sets: WebhookHeaderNames[];
	try {
		sets = (await signingKeyFor(context, keyScope(context), Date.now()).key).headers;
	} catch {
		sets = acceptedHeaderSets('');
	}
	const read = readHeaderSet(context.getRequestObject().headers, sets);
	return 'names' in read ? read.names : WEBHOOK_HEADERS;
}

/** The raw body bytes, read if n8n has not yet; undefined when n8n does not have them. */
async function rawBodyOf(context: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = context.getRequestObject();
	// The signature covers the body bytes exactly as sent. n8n's raw body reader keeps them in
	// `req.rawBody` (read before the node runs; `readRawBody()` reads them if not yet done).
	// Never fall back to re-serialising the parsed body: without the raw bytes, refuse.
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
}

const NOT_AN_OBJECT_FIX =
	'The service sends each delivery as a JSON object; check what sends to this address.';

/** The body as a JSON object nested at most MAX_JSON_DEPTH deep, or the refusal (400). */
function parseBody(rawBody: Buffer): { body: IDataObject } | { refusal: Refusal } {
	let body: unknown;
	try {
		const text = rawBody.toString('utf8');
		body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
	} catch {
		// Without the parser's message: it quotes the body, which is anyone's to write.
		return {
			refusal: {
				status: 400,
				level: 'warn',
				error: 'The body is not valid JSON',
				fix: NOT_AN_OBJECT_FIX,
			},
		};
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		return {
			refusal: {
				status: 400,
				level: 'warn',
				error: 'The body must be a JSON object',
				fix: NOT_AN_OBJECT_FIX,
			},
		};
	}
	if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
		return {
			refusal: {
				status: 400,
				level: 'warn',
				error: `The body is nested more than ${MAX_JSON_DEPTH} levels deep, which n8n cannot store`,
				fix: 'The service’s deliveries are nested a few levels only; check what sends to this address.',
			},
		};
	}
	return { body: body as IDataObject };
}

const NO_RAW_BODY: Refusal = {
	status: 500,
	level: 'error',
	error: 'The receiver could not read the request body',
	detail:
		'n8n gave no raw request body, so the signature cannot be checked; the service will retry',
	fix: 'Check that nothing in front of n8n changes the request (a proxy that re-encodes bodies).',
};

/**
 * Reads, verifies and parses the delivery. A refusal is already answered or thrown (answer.ts:
 * 500 without raw body or signing key, 401 for a missing or wrong signature, 400 for a body that is
 * not a JSON object or is nested too deep). The signature is checked on every delivery; only the
 * key's read is shared.
 */
export async function receiveDelivery(
	this: IWebhookFunctions,
	opts: { verifySignature: boolean; receivedAt: Date },
): Promise<ReceivedDelivery> {
	const refused = (refusal: Refusal): ReceivedDelivery => ({
		ok: false,
		response: refuse(this, refusal),
	});
	const rawBody = await rawBodyOf(this);
	if (rawBody === undefined) return refused(NO_RAW_BODY);
	let headers: WebhookHeaderNames;
	if (opts.verifySignature) {
		const checked = await checkSignature(this, rawBody);
		if ('refusal' in checked) return refused(checked.refusal);
		headers = checked.headers;
	} else {
		headers = await unverifiedHeaders(this);
	}
	const parsed = parseBody(rawBody);
	if ('refusal' in parsed) return refused(parsed.refusal);

	const deliveryId = bodyHash(rawBody);
	const event = buildEvent({
		headerEventType: this.getRequestObject().headers[headers.eventType],
		body: parsed.body,
		deliveryId,
		receivedAt: opts.receivedAt,
	});
	return { ok: true, event, deliveryId };
}

/** The Webhook Signing credential's test, for both nodes that receive deliveries. */
export const signingKeyCredentialTest = {
	async webhookSigningKeyTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		return checkSigningKey(credential.data);
	},
};

/**
 * Webhook lifecycle of both nodes. The service has no API to register webhook URLs (the user pastes
 * the trigger's URL into the dashboard; a token carries Wait for Result's resume URL), so there is
 * nothing to check, create or delete. n8n 2.40.7 would activate without them, but n8n's
 * community-node lint requires them (webhook-lifecycle-complete).
 */
export const webhookLifecycle = {
	default: {
		async checkExists(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async create(this: IHookFunctions): Promise<boolean> {
			return true;
		},
		async delete(this: IHookFunctions): Promise<boolean> {
			return true;
		},
	},
};
