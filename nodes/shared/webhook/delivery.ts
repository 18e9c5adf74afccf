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
import { bodyHash, signatureHeaderProblem, signatureRefusal, verifySignature } from './signature';

const SIGNING_CREDENTIAL = 'identityVerificationWebhookSigningApi';

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

/**
 * Reads, verifies and parses the delivery. A refusal is already answered (500 without raw body or
 * signing key, 401 for a missing or wrong signature, 400 for a body that is not a JSON object).
 */
export async function receiveDelivery(
	this: IWebhookFunctions,
	opts: { verifySignature: boolean; receivedAt: Date },
): Promise<ReceivedDelivery> {
	const req = this.getRequestObject();
	const node = this.getNode();
	const refuse = (status: number, body: IDataObject): ReceivedDelivery => ({
		ok: false,
		response: answer.call(this, status, body),
	});

	// The signature covers the body bytes exactly as sent. n8n's raw body reader keeps them in
	// `req.rawBody` (read before the node runs; `readRawBody()` reads them if not yet done).
	// Never fall back to re-serialising the parsed body: without the raw bytes, refuse.
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	const rawBody = req.rawBody;
	if (!Buffer.isBuffer(rawBody)) {
		this.logger.error(
			`${node.name}: the raw request body is not available, so the webhook signature cannot be checked; the delivery was refused (500) and the service will retry it`,
		);
		return refuse(500, { received: false, error: 'The receiver could not read the request body' });
	}

	if (opts.verifySignature) {
		// Refuse a header that cannot be a signature before reading the signing key: in n8n each
		// read is a database query, a decryption and a fresh expression isolate.
		const headerProblem = signatureHeaderProblem(req.headers[WEBHOOK_HEADERS.signature]);
		if (headerProblem !== undefined) {
			const error = signatureRefusal(headerProblem);
			this.logger.warn(`${node.name}: delivery refused (401): ${error}`);
			return refuse(401, { received: false, error });
		}
		let signingKey: unknown;
		try {
			const credentials = await this.getCredentials(SIGNING_CREDENTIAL);
			signingKey = credentials.signingSecret;
		} catch (error) {
			this.logger.error(
				`${node.name}: no webhook signing key credential is set, so the delivery was refused (500). Select an "Identity Verification Webhook Signing API" credential on the node. (${(error as Error).message})`,
			);
			return refuse(500, { received: false, error: 'The receiver has no signing key configured' });
		}
		const check = verifySignature(
			rawBody,
			req.headers[WEBHOOK_HEADERS.signature],
			typeof signingKey === 'string' ? signingKey : '',
		);
		if (!check.valid) {
			if (check.reason === 'noKey') {
				this.logger.error(
					`${node.name}: the webhook signing key credential is empty, so the delivery was refused (500). Enter the signing key in the credential.`,
				);
				return refuse(500, {
					received: false,
					error: 'The receiver has no signing key configured',
				});
			}
			const error = signatureRefusal(check.reason);
			this.logger.warn(`${node.name}: delivery refused (401): ${error}`);
			return refuse(401, { received: false, error });
		}
	}

	let body: unknown;
	try {
		const text = rawBody.toString('utf8');
		body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
	} catch (error) {
		this.logger.warn(
			`${node.name}: delivery refused (400): the body is not JSON (${(error as Error).message})`,
		);
		return refuse(400, { received: false, error: 'The body is not valid JSON' });
	}
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		this.logger.warn(`${node.name}: delivery refused (400): the body is JSON but not an object`);
		return refuse(400, { received: false, error: 'The body must be a JSON object' });
	}

	const deliveryId = bodyHash(rawBody);
	const event = buildEvent({
		headerEventType: req.headers[WEBHOOK_HEADERS.eventType],
		body: body as IDataObject,
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
