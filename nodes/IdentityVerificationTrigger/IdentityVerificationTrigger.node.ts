import {
	NodeConnectionTypes,
	type ICredentialsDecrypted,
	type ICredentialTestFunctions,
	type IDataObject,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { EVENT_TYPES, WEBHOOK_HEADERS, type EventType } from '../shared/contract';
import { checkSigningKey } from './credentialTest';
import { dedupeKey, seenBefore } from './dedupe';
import { EVENT_TYPE_NAMES, buildEvent, isNonFinal, type IdentityVerificationEvent } from './events';
import { bodyHash, signatureHeaderProblem, signatureRefusal, verifySignature } from './signature';

export type { IdentityVerificationEvent } from './events';

const SIGNING_CREDENTIAL = 'identityVerificationWebhookSigningApi';

/** The parts of n8n's (express) request the trigger reads. */
interface DeliveryRequest {
	headers: Record<string, string | string[] | undefined>;
	/** The body bytes exactly as received, set by n8n's raw body reader before the node runs. */
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
}

/** The parts of n8n's (express) response the trigger writes. */
interface DeliveryResponse {
	status(code: number): DeliveryResponse;
	json(body: unknown): unknown;
}

interface TriggerOptions {
	ignoreDuplicates?: boolean;
	onlyFinal?: boolean;
	verifySignature?: boolean;
}

/** Answers the delivery without starting a workflow. */
function answer(res: DeliveryResponse, status: number, body: IDataObject): IWebhookResponseData {
	res.status(status).json(body);
	return { noWebhookResponse: true };
}

const eventOptions = EVENT_TYPES.map((value) => ({
	name: EVENT_TYPE_NAMES[value].name,
	value,
	description: EVENT_TYPE_NAMES[value].description,
})).sort((a, b) => a.name.localeCompare(b.name));

export class IdentityVerificationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Identity Verification Trigger',
		name: 'identityVerificationTrigger',
		icon: { light: 'file:identityVerification.svg', dark: 'file:identityVerification.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: `={{ [0, ${EVENT_TYPES.length}].includes(($parameter["events"] || []).length) ? "All events" : $parameter["events"].length === 1 ? $parameter["events"][0] : $parameter["events"].length + " kinds of event" }}`,
		description:
			'Starts the workflow when the identity verification service sends a webhook (KYC results, KYB reviews, AML, bank and account checks)',
		defaults: {
			name: 'Identity Verification Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				// A literal (not SIGNING_CREDENTIAL): the community lint reads it to see the credential is tested.
				name: 'identityVerificationWebhookSigningApi',
				required: true,
				testedBy: 'webhookSigningKeyTest',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// Answer as soon as the execution is registered: the service gives a delivery 10 seconds.
				responseMode: 'onReceived',
				// Empty: n8n then answers with the node's `webhookResponse` ({"received": true}).
				responseData: '',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'Copy the Production URL above into the service dashboard: Settings → Notifications → Webhook URLs (only an Admin can change it). The service only delivers to HTTPS URLs with a valid certificate; self-signed certificates are rejected. The signing key for the credential is configured with your webhook in the dashboard; ask the provider’s support if you cannot find it.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: eventOptions,
				default: [...EVENT_TYPES],
				description:
					'Which deliveries start the workflow. Others are acknowledged (200) and ignored. Leave empty to receive every kind.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Ignore Duplicate Deliveries',
						name: 'ignoreDuplicates',
						type: 'boolean',
						default: true,
						description:
							'Whether to skip a delivery whose exact body already arrived in the last 24 hours (the service retries unanswered deliveries, and the dashboard can resend one). Skipped deliveries are acknowledged (200). Not applied while listening for a test event.',
					},
					{
						displayName: 'Only Final Results',
						name: 'onlyFinal',
						type: 'boolean',
						default: false,
						description:
							'Whether to skip identification results marked as not final (an automated result that a manual review will replace, or a resubmission still under review). Skipped deliveries are acknowledged (200).',
					},
					{
						displayName: 'Verify Signature',
						name: 'verifySignature',
						type: 'boolean',
						default: true,
						description:
							'Whether to reject deliveries whose Service-Signature does not match the signing key (answered 401). Warning: turn this off only for local testing. Without it anyone who knows the URL can start this workflow with made-up verification results.',
					},
				],
			},
		],
	};

	methods = {
		credentialTest: {
			async webhookSigningKeyTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return checkSigningKey(credential.data);
			},
		},
	};

	// The service has no API to register, list or remove webhook URLs: the user pastes the URL into
	// the dashboard (see the notice). So there is nothing to check, create or delete remotely; each
	// method reports success so that n8n activates and deactivates the workflow normally.
	webhookMethods = {
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

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const receivedAt = new Date();
		const req = this.getRequestObject() as unknown as DeliveryRequest;
		const res = this.getResponseObject() as unknown as DeliveryResponse;
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const node = this.getNode();

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
			return answer(res, 500, {
				received: false,
				error: 'The receiver could not read the request body',
			});
		}

		if (options.verifySignature !== false) {
			// Refuse a header that cannot be a signature before reading the signing key: in n8n each
			// read is a database query, a decryption and a fresh expression isolate.
			const headerProblem = signatureHeaderProblem(req.headers[WEBHOOK_HEADERS.signature]);
			if (headerProblem !== undefined) {
				const error = signatureRefusal(headerProblem);
				this.logger.warn(`${node.name}: delivery refused (401): ${error}`);
				return answer(res, 401, { received: false, error });
			}
			let signingKey: unknown;
			try {
				const credentials = await this.getCredentials(SIGNING_CREDENTIAL);
				signingKey = credentials.signingSecret;
			} catch (error) {
				this.logger.error(
					`${node.name}: no webhook signing key credential is set, so the delivery was refused (500). Select an "Identity Verification Webhook Signing API" credential on the node. (${(error as Error).message})`,
				);
				return answer(res, 500, {
					received: false,
					error: 'The receiver has no signing key configured',
				});
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
					return answer(res, 500, {
						received: false,
						error: 'The receiver has no signing key configured',
					});
				}
				const error = signatureRefusal(check.reason);
				this.logger.warn(`${node.name}: delivery refused (401): ${error}`);
				return answer(res, 401, { received: false, error });
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
			return answer(res, 400, { received: false, error: 'The body is not valid JSON' });
		}
		if (typeof body !== 'object' || body === null || Array.isArray(body)) {
			this.logger.warn(`${node.name}: delivery refused (400): the body is JSON but not an object`);
			return answer(res, 400, { received: false, error: 'The body must be a JSON object' });
		}

		const deliveryId = bodyHash(rawBody);
		const event: IdentityVerificationEvent = buildEvent({
			headerEventType: req.headers[WEBHOOK_HEADERS.eventType],
			body: body as IDataObject,
			deliveryId,
			receivedAt,
		});

		const selected = this.getNodeParameter('events', []) as EventType[];
		if (selected.length > 0 && !selected.includes(event.eventType)) {
			return answer(res, 200, {
				received: true,
				ignored: `event kind ${event.eventType} is not selected`,
			});
		}

		if (options.onlyFinal === true && isNonFinal(event)) {
			return answer(res, 200, { received: true, ignored: 'not a final result' });
		}

		if (options.ignoreDuplicates !== false && this.getMode() !== 'manual') {
			const workflow = this.getWorkflow();
			const duplicate = seenBefore({
				scope: `${workflow.id ?? ''}:${node.id ?? node.name}`,
				key: dedupeKey(event.eventType, deliveryId),
				staticData: this.getWorkflowStaticData('node'),
				now: receivedAt.getTime(),
			});
			if (duplicate) {
				return answer(res, 200, { received: true, ignored: 'duplicate delivery' });
			}
		}

		return {
			workflowData: [[{ json: event as unknown as IDataObject }]],
			webhookResponse: { received: true },
		};
	}
}
