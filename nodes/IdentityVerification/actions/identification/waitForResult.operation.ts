/**
 * Wait for Result: puts the execution to wait until the service sends the result of the
 * verification created earlier in this execution (with "Send the Result to This Workflow" on, the
 * token's callbackUrl is this execution's resume URL), as n8n's Wait node and its send-and-wait
 * operations do. The resume request is checked exactly like the trigger's deliveries.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY, updateDisplayOptions } from 'n8n-workflow';

import { answer, receiveDelivery } from '../../../IdentityVerificationTrigger/delivery';
import { isIdentificationEvent, isNonFinal } from '../../../IdentityVerificationTrigger/events';

const UNIT_SECONDS = { seconds: 1, minutes: 60, hours: 3600, days: 86400 } as const;
type Unit = keyof typeof UNIT_SECONDS;

interface WaitOptions {
	resultToWaitFor?: 'final' | 'first';
	limitWaitTime?: { values?: { resumeAmount?: number; resumeUnit?: Unit } };
}

const properties: INodeProperties[] = [
	{
		displayName:
			'Place this step after the step that sends the verification link. The workflow pauses here until the service sends the result of the verification created with "Send the Result to This Workflow" turned on, and continues with the same event the trigger emits. Not offered as an AI tool: it pauses the workflow.',
		name: 'waitNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Scan Reference',
		name: 'scanRef',
		type: 'string',
		default: '',
		placeholder: "e.g. {{ $('Create Verification Token').item.json.scanRef }}",
		description:
			'The scanRef from Create Verification Token. When set, results of any other verification are acknowledged and ignored, and a time limit outputs it.',
	},
	{
		displayName: 'Options',
		name: 'waitOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Limit Wait Time',
				name: 'limitWaitTime',
				type: 'fixedCollection',
				default: { values: { resumeAmount: 1, resumeUnit: 'days' } },
				description:
					'Whether to stop waiting after a time. The step then outputs { timedOut: true, scanRef }.',
				options: [
					{
						displayName: 'Values',
						name: 'values',
						values: [
							{
								displayName: 'Amount',
								name: 'resumeAmount',
								type: 'number',
								typeOptions: { minValue: 0, numberPrecision: 2 },
								default: 1,
								description: 'How long to wait for the result',
							},
							{
								displayName: 'Unit',
								name: 'resumeUnit',
								type: 'options',
								options: [
									{ name: 'Seconds', value: 'seconds' },
									{ name: 'Minutes', value: 'minutes' },
									{ name: 'Hours', value: 'hours' },
									{ name: 'Days', value: 'days' },
								],
								default: 'days',
							},
						],
					},
				],
			},
			{
				displayName: 'Result to Wait For',
				name: 'resultToWaitFor',
				type: 'options',
				default: 'final',
				description:
					'Whether to continue only with the final result, or already with a preliminary automated one',
				options: [
					{
						name: 'Final Result Only',
						value: 'final',
						description:
							'An automated result that a manual review will replace is acknowledged, and the workflow keeps waiting for the review',
					},
					{
						name: 'First Result',
						value: 'first',
						description: 'Continue with the first result, even a preliminary one (final: false)',
					},
				],
			},
		],
	},
];

const displayOptions = {
	show: { resource: ['identification'], operation: ['waitForResult'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** When the wait ends without a result, or WAIT_INDEFINITELY without a time limit. */
function waitUntil(this: IExecuteFunctions, options: WaitOptions): Date {
	const limit = options.limitWaitTime?.values;
	if (!limit) return WAIT_INDEFINITELY;
	const amount = Number(limit.resumeAmount ?? 0);
	const unit = limit.resumeUnit ?? 'days';
	if (!Number.isFinite(amount) || amount < 0 || !(unit in UNIT_SECONDS)) {
		throw new NodeOperationError(this.getNode(), 'Limit Wait Time: must be 0 or more', {
			description: 'Enter how long to wait for the result, for example 1 day.',
		});
	}
	return new Date(Date.now() + amount * UNIT_SECONDS[unit] * 1000);
}

/**
 * Runs once for all input items (one execution waits for one result). The step's output when the
 * time limit ends the wait: n8n resumes a timed-out wait by passing the waiting step's input
 * through, so that input is replaced here by { timedOut: true, scanRef }. A result that arrives
 * replaces it with the event (see `webhook`).
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = this.getNodeParameter('waitOptions', 0, {}) as WaitOptions;
	const scanRef = String(this.getNodeParameter('scanRef', 0, '') ?? '').trim();
	const waitTill = waitUntil.call(this, options);

	const timedOut: INodeExecutionData[] = [
		{ json: { timedOut: true, scanRef: scanRef || null }, pairedItem: { item: 0 } },
	];
	this.getExecuteData().data = { main: [timedOut] };

	await this.putExecutionToWait(waitTill);
	return [items];
}

/** The resume request: a signed delivery of the service to this execution's resume URL. */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const received = await receiveDelivery.call(this, {
		verifySignature: true,
		receivedAt: new Date(),
	});
	if (!received.ok) return received.response;
	const { event } = received;
	const options = this.getNodeParameter('waitOptions', {}) as WaitOptions;
	const scanRef = String(this.getNodeParameter('scanRef', '') ?? '').trim();

	// Acknowledged (2xx, so the service does not retry) without resuming: the execution keeps waiting.
	if (!isIdentificationEvent(event.eventType)) {
		return answer.call(this, 200, {
			received: true,
			waiting: `event kind ${event.eventType} is not an identification result`,
		});
	}
	if (scanRef && event.scanRef !== scanRef) {
		return answer.call(this, 200, {
			received: true,
			waiting: 'the result is for another verification',
		});
	}
	if (options.resultToWaitFor !== 'first' && isNonFinal(event)) {
		return answer.call(this, 200, {
			received: true,
			waiting: 'not a final result: waiting for the manual review',
		});
	}

	return {
		workflowData: [[{ json: event as unknown as IDataObject, pairedItem: { item: 0 } }]],
		webhookResponse: { received: true },
	};
}
