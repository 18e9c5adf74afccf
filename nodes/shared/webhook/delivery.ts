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

import { WEBHOOK_HEADERS } from '../contract';
import { checkSigningKey } from './credentialTest';
import { buildEvent, type IdentityVerificationEvent } from './events';
import { bodyHash, signatureRefusal, verifySignature } from './signature';
import { keyAfterMismatch, keyScope, signingKeyFor, type SigningCredential } from './signingKey';

/** Answers the delivery without starting (or resuming) a workflow. */
export function answer(
	this: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	this.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

export type ReceivedDelivery =
	| { ok: true; event: IdentityVerificationEvent; deliveryId: string }
	| { ok: false; response: IWebhookResponseData };

type DeliveryHeaders = SigningCredential['headers'];

/** Why a delivery's signature check refused it, as answered and logged. */
function refuseSignature(
	context: IWebhookFunctions,
	reason: 'missing' | 'malformed' | 'mismatch' | 'noKey',
	headers: DeliveryHeaders,
): IWebhookResponseData {
	if (reason === 'noKey')
		return noSigningKey(context, 'the webhook signing key credential is empty');
	const error = signatureRefusal(reason, headers.signatureName);
	context.logger.warn(`${context.getNode().name}: delivery refused (401): ${error}`);
	return answer.call(context, 401, { received: false, error });
}

/** Without a signing key nothing can be verified: 500, so the service keeps the delivery for later. */
function noSigningKey(context: IWebhookFunctions, why: string): IWebhookResponseData {
	context.logger.error(
		`${context.getNode().name}: ${why}, so the delivery was refused (500). Select an "Identity Verification Webhook Signing API" credential on the node and enter the signing key.`,
	);
	return answer.call(context, 500, {
		received: false,
		error: 'The receiver has no signing key configured',
	});
}

/**
 * Checks the delivery's signature with the signing key: the header names to read the delivery
 * with when it is valid, else the answer already given (401, or 500 without a usable signing key).
 */
async function checkSignature(
	context: IWebhookFunctions,
	rawBody: Buffer,
): Promise<{ headers: DeliveryHeaders } | { response: IWebhookResponseData }> {
	const now = Date.now();
	const scope = keyScope(context);
	const used = signingKeyFor(context, scope, now);
	try {
		const credential = await used.key;
		const header = context.getRequestObject().headers[credential.headers.signature];
		let check = verifySignature(rawBody, header, credential.key);
		if (!check.valid && check.reason === 'mismatch') {
			const again = keyAfterMismatch(context, scope, used, now);
			if (again) check = verifySignature(rawBody, header, (await again).key);
		}
		if (check.valid) return { headers: credential.headers };
		return { response: refuseSignature(context, check.reason, credential.headers) };
	} catch (error) {
		return {
			response: noSigningKey(
				context,
				`no webhook signing key credential is set (${(error as Error).message})`,
			),
		};
	}
}

/**
 * The header names when the signature is not checked (local testing): the credential's prefix if it
 * can be read, else the contract's.
 */
async function unverifiedHeaders(context: IWebhookFunctions): Promise<DeliveryHeaders> {
	try {
		return (await signingKeyFor(context, keyScope(context), Date.now()).key).headers;
	} catch {
		return WEBHOOK_HEADERS;
	}
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

/** The body as a JSON object, or the answer already given (400). */
function parseBody(
	context: IWebhookFunctions,
	rawBody: Buffer,
): { body: IDataObject } | { response: IWebhookResponseData } {
	const { name } = context.getNode();
	let body: unknown;
	try {
		const text = rawBody.toString('utf8');
		body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
	} catch (error) {
		context.logger.warn(
			`${name}: delivery refused (400): the body is not JSON (${(error as Error).message})`,
		);
		return {
			response: answer.call(context, 400, { received: false, error: 'The body is not valid JSON' }),
		};
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		context.logger.warn(`${name}: delivery refused (400): the body is JSON but not an object`);
		return {
			response: answer.call(context, 400, {
				received: false,
				error: 'The body must be a JSON object',
			}),
		};
	}
	return { body: body as IDataObject };
}

/**
 * Reads, verifies and parses the delivery. A refusal is already answered (500 without raw body or
 * signing key, 401 for a missing or wrong signature, 400 for a body that is not a JSON object).
 * The signature is checked on every delivery; only the key's read is shared (SIGNING_KEY_TTL_MS).
 */
export async function receiveDelivery(
	this: IWebhookFunctions,
	opts: { verifySignature: boolean; receivedAt: Date },
): Promise<ReceivedDelivery> {
	const rawBody = await rawBodyOf(this);
	if (rawBody === undefined) {
		this.logger.error(
			`${this.getNode().name}: the raw request body is not available, so the webhook signature cannot be checked; the delivery was refused (500) and the service will retry it`,
		);
		return {
			ok: false,
			response: answer.call(this, 500, {
				received: false,
				error: 'The receiver could not read the request body',
			}),
		};
	}
	let headers: DeliveryHeaders;
	if (opts.verifySignature) {
		const checked = await checkSignature(this, rawBody);
		if ('response' in checked) return { ok: false, response: checked.response };
		headers = checked.headers;
	} else {
		headers = await unverifiedHeaders(this);
	}
	const parsed = parseBody(this, rawBody);
	if ('response' in parsed) return { ok: false, response: parsed.response };

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
