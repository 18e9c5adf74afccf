import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { EVENT_TYPES, type EventType } from '../shared/contract';
import { claimDelivery, dedupeKey, formerDedupeKeys } from '../shared/webhook/dedupe';
import {
	answer,
	receiveDelivery,
	signingKeyCredentialTest,
	webhookLifecycle,
} from '../shared/webhook/delivery';
import { EVENT_TYPE_NAMES, isNonFinal, parseEventTypeName } from '../shared/webhook/events';

export type { IdentityVerificationEvent } from '../shared/webhook/events';

interface TriggerOptions {
	ignoreDuplicates?: boolean;
	onlyFinal?: boolean;
	verifySignature?: boolean;
}

/**
 * Version 1 names the company review KYB_REVIEW_RESULT (the contract's "KYB review result"), as it did
 * before the provider's own kinds were known: saved workflows filter and route on that value.
 */
const V1_NAMES: Partial<Record<EventType, string>> = { COMPANY_REVIEW: 'KYB_REVIEW_RESULT' };

const eventOptions = EVENT_TYPES.map((kind) => ({
	name: EVENT_TYPE_NAMES[kind].name,
	value: V1_NAMES[kind] ?? kind,
	description: EVENT_TYPE_NAMES[kind].description,
})).sort((a, b) => a.name.localeCompare(b.name));

/** Whether the Events option lets the kind through (empty: every kind). */
function isSelected(selected: string[], kind: EventType): boolean {
	return (
		selected.length === 0 ||
		selected.some((value) => value === kind || parseEventTypeName(value) === kind)
	);
}

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
				default: [...eventOptions.map((option) => option.value)],
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
							'Whether to skip a delivery whose exact body already started this workflow in the last 24 hours, whatever its event header (the service retries unanswered deliveries, and the dashboard can resend one). Skipped deliveries are acknowledged (200). Not applied while listening for a test event.',
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
							'Whether to reject deliveries whose signature header does not match the signing key (answered 401). Warning: turn this off only for local testing. Without it anyone who knows the URL can start this workflow with made-up verification results.',
					},
				],
			},
		],
	};

	methods = { credentialTest: signingKeyCredentialTest };

	webhookMethods = webhookLifecycle;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const receivedAt = new Date();
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const node = this.getNode();

		const received = await receiveDelivery.call(this, {
			verifySignature: options.verifySignature !== false,
			receivedAt,
		});
		if (!received.ok) return received.response;
		const { event, deliveryId } = received;

		const selected = this.getNodeParameter('events', []) as string[];
		if (!isSelected(selected, event.eventType)) {
			return answer.call(this, 200, {
				received: true,
				ignored: `event kind ${event.eventType} is not selected`,
			});
		}

		if (options.onlyFinal === true && isNonFinal(event)) {
			return answer.call(this, 200, { received: true, ignored: 'not a final result' });
		}

		// Claimed only after the filters: an ignored copy is not remembered, so a copy under a kind
		// the user selected still runs. The key is the signed body's alone, never the header's kind.
		if (options.ignoreDuplicates !== false && this.getMode() !== 'manual') {
			const workflow = this.getWorkflow();
			const claim = await claimDelivery({
				scope: `${workflow.id ?? ''}:${node.id ?? node.name}`,
				key: dedupeKey(deliveryId),
				formerKeys: formerDedupeKeys(deliveryId),
				staticData: this.getWorkflowStaticData('node'),
				now: receivedAt.getTime(),
			});
			if (claim.kind === 'duplicate') {
				return answer.call(this, 200, { received: true, ignored: 'duplicate delivery' });
			}
			if (claim.kind === 'inFlight') {
				// Not 2xx: the service sends it again later, when the first copy has an outcome.
				return answer.call(this, 409, {
					received: false,
					error: 'The same delivery is still being started; send it again later',
				});
			}
			// n8n answers 2xx only once the execution exists: then the delivery counts as seen.
			// An error answer (n8n could not start it) or a dropped connection lets a retry run.
			const res = this.getResponseObject();
			res.once('finish', () => claim.settle(res.statusCode >= 200 && res.statusCode < 300));
			res.once('close', () => claim.settle(false));
		}

		const json = { ...event, eventType: V1_NAMES[event.eventType] ?? event.eventType };
		return {
			workflowData: [[{ json: json as unknown as IDataObject }]],
			webhookResponse: { received: true },
		};
	}
}
