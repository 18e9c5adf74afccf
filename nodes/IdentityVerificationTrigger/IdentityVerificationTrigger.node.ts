import {
	NodeConnectionTypes,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { NODE_DESCRIPTION } from '../shared/nodeDescription';
import { claimDeliveredResult } from '../shared/resultRecord';
import { claimInWorkflow } from '../shared/webhook/dedupe';
import { answer } from '../shared/webhook/answer';
import {
	receiveDelivery,
	signingKeyCredentialTest,
	webhookLifecycle,
} from '../shared/webhook/delivery';
import {
	ANY_FINAL_IDENTIFICATION,
	eventOptions,
	isSelected,
	optionNames,
	sampleKind,
} from '../shared/webhook/eventChoices';
import {
	buildEvent,
	isNonFinal,
	outputItem,
	personalDataProperty,
	type IdentityVerificationEvent,
} from '../shared/webhook/events';
import { SAMPLE_BODIES, SAMPLE_NOTE } from '../shared/webhook/sample';

export type { IdentityVerificationEvent } from '../shared/webhook/events';

interface TriggerOptions {
	ignoreDuplicates?: boolean;
	onlyFinal?: boolean;
	verifySignature?: boolean;
}

const V1_EVENT_OPTIONS = eventOptions(1);

/**
 * The canvas subtitle: "All events" (none selected, or version 1's default of every kind), the
 * name of the one selected, or how many are.
 */
const SUBTITLE = `={{ (($parameter["events"] || []).length === 0 || ($parameter["events"].length === ${V1_EVENT_OPTIONS.length} && !$parameter["events"].includes("${ANY_FINAL_IDENTIFICATION}"))) ? "All events" : $parameter["events"].length === 1 ? (${JSON.stringify(optionNames())}[$parameter["events"][0]] || $parameter["events"][0]) : $parameter["events"].length + " kinds of event" }}`;

const until11 = { '@version': [{ _cnd: { lt: 1.1 } }] };
const from11 = { '@version': [{ _cnd: { gte: 1.1 } }] };

const properties: INodeProperties[] = [
	{
		displayName:
			'To receive results: 1. Copy the Production URL (under Webhook URLs above). 2. In the service’s dashboard (Settings → Notifications), create a notification for each kind of event you need, paste the URL as its receiver and set the same signing key on each; enter that key in this node’s credential. 3. Publish (activate) the workflow: the service only reaches a published workflow over HTTPS. To try it first: click "Execute step" (n8n 1.x: "Listen for test event"); a delivery to the Test URL that the node refuses (wrong signing key, no signature it can read) ends the test with the reason. Opening the Test URL in your browser starts the workflow with a made-up sample of a kind you selected: it checks neither the signing key nor the header prefix.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	// 1.1 first: n8n's nodes panel lists the choices of the first property named Events.
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: eventOptions(1.1),
		default: [],
		description:
			'Which deliveries start the workflow. Others are acknowledged (200) and ignored. Leave empty to receive every kind, also kinds the service adds later.',
		displayOptions: { show: from11 },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: V1_EVENT_OPTIONS,
		default: [...V1_EVENT_OPTIONS.map((option) => option.value)],
		description:
			'Which deliveries start the workflow. Others are acknowledged (200) and ignored. Leave empty to receive every kind.',
		displayOptions: { show: until11 },
	},
	personalDataProperty('Output'),
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
					'Whether to skip a delivery whose exact body already started this workflow in the last 24 hours, whatever its event header (the service retries unanswered deliveries, and the dashboard can resend one), and a verification result a Polling Trigger of this workflow already started it for. Skipped deliveries are acknowledged (200). Not applied while listening for a test event.',
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
];

/** Why a received delivery does not start the workflow (answered 200), or undefined. */
function ignoredBecause(
	context: IWebhookFunctions,
	event: IdentityVerificationEvent,
	options: TriggerOptions,
): string | undefined {
	if (!isSelected(context.getNodeParameter('events', []) as string[], event)) {
		return `event kind ${event.eventType} is not selected`;
	}
	if (options.onlyFinal === true && isNonFinal(event)) return 'not a final result';
	return undefined;
}

/**
 * A GET to the Test URL while the workflow listens for a test event: the sample delivery of a kind
 * the Events option selects starts it, saying that nothing was checked. Never in production, where
 * only the service's signed POST deliveries start the workflow.
 */
function sampleDelivery(context: IWebhookFunctions): IWebhookResponseData {
	if (context.getMode() !== 'manual') {
		return answer.call(context, 405, {
			received: false,
			error:
				'Deliveries are POST requests. A sample event is sent only while the workflow listens for a test event.',
		});
	}
	const kind = sampleKind(context.getNodeParameter('events', []) as string[]);
	const event = buildEvent({
		// OTHER stands for a header that names no kind: its sample has none.
		headerEventType: kind === 'OTHER' ? undefined : kind,
		body: SAMPLE_BODIES[kind],
		deliveryId: 'sample',
		receivedAt: new Date(),
	});
	event.sample = SAMPLE_NOTE;
	return {
		workflowData: [[{ json: outputItem(context, event) }]],
		webhookResponse: { received: true, sample: true, note: SAMPLE_NOTE },
	};
}

export class IdentityVerificationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Identity Verification Trigger',
		name: 'identityVerificationTrigger',
		icon: { light: 'file:identityVerification.svg', dark: 'file:identityVerification.dark.svg' },
		group: ['trigger'],
		// 1.1: the item leads with the decision (eventItem), the Personal Data choice, the provider's names.
		version: [1, 1.1],
		subtitle: SUBTITLE,
		description: NODE_DESCRIPTION,
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
			{
				// The same address opened in a browser while testing: the sample event (see sampleDelivery).
				name: 'default',
				httpMethod: 'GET',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
				ndvHideUrl: true,
				ndvHideMethod: true,
			},
		],
		properties,
		// webhook() evaluates no expression beyond reading its (static by default) parameters: the node
		// feature proposed to n8n (docs/upstream/) that lets it skip n8n's expression isolate per
		// delivery as n8n's Webhook node does. Not version 1: n8n parses a version-1 body through it.
		features: { webhookEvaluatesNoExpressions: from11 },
	};

	methods = { credentialTest: signingKeyCredentialTest };

	webhookMethods = webhookLifecycle;

	/** receive → check → filter → claim → emit. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		if (this.getRequestObject().method === 'GET') return sampleDelivery(this);
		const receivedAt = new Date();
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const received = await receiveDelivery.call(this, {
			verifySignature: options.verifySignature !== false,
			receivedAt,
		});
		if (!received.ok) return received.response;
		const { event, deliveryId } = received;

		const ignored = ignoredBecause(this, event, options);
		if (ignored) return answer.call(this, 200, { received: true, ignored });

		// Claimed only after the filters: an ignored copy is not remembered, so a copy under a kind
		// the user selected still runs. The key is the signed body's alone, never the header's kind.
		const ignoreDuplicates = options.ignoreDuplicates !== false;
		if (ignoreDuplicates && this.getMode() !== 'manual') {
			const claim = await claimInWorkflow(this, deliveryId, receivedAt.getTime());
			if (claim === 'duplicate') {
				return answer.call(this, 200, { received: true, ignored: 'duplicate delivery' });
			}
			if (claim === 'inFlight') {
				// Not 2xx: the service sends it again later, when the first copy has an outcome.
				return answer.call(this, 409, {
					received: false,
					error: 'The same delivery is still being started; send it again later',
				});
			}
		}
		// The result's record is shared with a Polling Trigger of the same workflow: recorded even
		// with duplicates allowed, so the poll does not start the workflow for it again.
		if (this.getMode() !== 'manual') {
			const result = claimDeliveredResult(this, event, receivedAt.getTime());
			if (result === 'seen' && ignoreDuplicates) {
				return answer.call(this, 200, { received: true, ignored: 'result already started' });
			}
		}

		return {
			workflowData: [[{ json: outputItem(this, event) }]],
			webhookResponse: { received: true },
		};
	}
}
