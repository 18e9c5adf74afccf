/**
 * Wait for Result: puts the execution to wait until the service sends the result of the
 * verification created earlier in this execution (with "Send the Result to This Workflow" on, the
 * token's callbackUrl is this execution's resume URL), as n8n's Wait node and its send-and-wait
 * operations do. The resume request is checked exactly like the trigger's deliveries, and only the
 * signed result of the verification fixed when the wait started can resume it.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY, updateDisplayOptions } from 'n8n-workflow';

import { answer } from '../../../shared/webhook/answer';
import { receiveDelivery } from '../../../shared/webhook/delivery';
import type { IdentityVerificationEvent } from '../../../shared/webhook/events';
import {
	isIdentificationResult,
	outputItem,
	personalDataProperty,
} from '../../../shared/webhook/events';
import { takePendingVerifications } from './waitBinding';
import { idOf } from '../../helpers/locator';

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
		placeholder: 'Empty: the verification created earlier in this workflow',
		hint: 'Leave empty when a Create Verification Token step with "Send the Result to This Workflow" on runs before this one: this step waits for that verification',
		description:
			'Only to wait for another verification: its scanRef, read once when the wait starts (for example an expression that reads scanRef from the token step). Results of any other verification are acknowledged and ignored.',
	},
	personalDataProperty('Continue with'),
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

export const option: INodePropertyOptions = {
	name: 'Wait for Result',
	value: 'waitForResult',
	description:
		'Pause the workflow until the result of the verification created in this execution arrives (not available as an AI tool)',
	action: 'Wait for the verification result',
};

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

/** The distinct, non-empty Scan Reference values of the input items (evaluated now, not on resume). */
function scanRefParameters(this: IExecuteFunctions, itemCount: number): string[] {
	const values = new Set<string>();
	for (let itemIndex = 0; itemIndex < Math.max(itemCount, 1); itemIndex++) {
		const value = String(idOf.call(this, 'scanRef', itemIndex) ?? '').trim();
		if (value !== '') values.add(value);
	}
	return [...values];
}

/**
 * The one verification this wait is bound to: Scan Reference if set, else the one created with
 * "Send the Result to This Workflow" in this execution. None, or several, is refused before the
 * execution waits: it would wait forever, or resume with one person's result and drop the others.
 */
function boundScanRef(this: IExecuteFunctions, itemCount: number): string {
	const fromParameter = scanRefParameters.call(this, itemCount);
	const pending = takePendingVerifications.call(this);
	const candidates = fromParameter.length > 0 ? fromParameter : pending;
	if (candidates.length === 1) return candidates[0];
	if (candidates.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Wait for Result: no verification to wait for', {
			description:
				'Turn on "Send the Result to This Workflow" in the Create Verification Token step before this one (its answer must contain a scanRef), or set Scan Reference to the scanRef of the verification, e.g. {{ $(\'Create Verification Token\').item.json.scanRef }}.',
		});
	}
	throw new NodeOperationError(
		this.getNode(),
		`Wait for Result: waits for one verification per execution, but ${candidates.length} were found`,
		{
			description:
				'Start the workflow once per person, or call a sub-workflow per item with Execute Workflow (mode: Run once for each item) that creates the token, sends the link and waits.',
		},
	);
}

/**
 * Runs once for all input items (one execution waits for one result). The scanRef waited for is
 * fixed here and kept with the waiting execution as the step's output for a time limit: n8n resumes
 * a timed-out wait by passing the waiting step's input through, so that input is replaced here by
 * { timedOut: true, scanRef }. A result that arrives replaces it with the event (see `webhook`).
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = this.getNodeParameter('waitOptions', 0, {}) as WaitOptions;
	const waitTill = waitUntil.call(this, options);
	const scanRef = boundScanRef.call(this, items.length);

	const timedOut: INodeExecutionData[] = [
		{ json: { timedOut: true, scanRef }, pairedItem: { item: 0 } },
	];
	this.getExecuteData().data = { main: [timedOut] };

	await this.putExecutionToWait(waitTill);
	return [items];
}

/** The scanRef fixed when the wait started, read from the waiting step's kept input. */
function waitedScanRef(this: IWebhookFunctions): string | undefined {
	try {
		const value = this.evaluateExpression('{{ $json.scanRef }}', 0);
		return typeof value === 'string' && value !== '' ? value : undefined;
	} catch {
		// No kept input: nothing was fixed, so nothing may resume it.
		return undefined;
	}
}

/** Why a signed delivery does not resume this wait, or undefined when it does. */
function notForThisWait(
	this: IWebhookFunctions,
	event: IdentityVerificationEvent,
): string | undefined {
	// The signed body decides, never the unsigned event header.
	if (!isIdentificationResult(event.body)) {
		return 'the delivery is not an identification result';
	}
	const expected = waitedScanRef.call(this);
	if (expected === undefined) return 'this execution is not waiting for a verification';
	if (event.scanRef !== expected) return 'the result is for another verification';
	const options = this.getNodeParameter('waitOptions', {}) as WaitOptions;
	// Only a signed `final: true` is final: a body without it (or with the text "false") may still
	// be followed by the manual review, so it keeps waiting as a `final: false` one does.
	if (options.resultToWaitFor !== 'first' && event.final !== true) {
		return 'not a final result: waiting for the manual review';
	}
	return undefined;
}

/** The resume request: a signed delivery of the service to this execution's resume URL. */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const received = await receiveDelivery.call(this, {
		verifySignature: true,
		receivedAt: new Date(),
	});
	if (!received.ok) return received.response;
	const { event } = received;

	// Acknowledged (2xx, so the service does not retry) without resuming: the execution keeps waiting.
	const waiting = notForThisWait.call(this, event);
	if (waiting !== undefined) return answer.call(this, 200, { received: true, waiting });

	return {
		workflowData: [[{ json: outputItem(this, event), pairedItem: { item: 0 } }]],
		webhookResponse: { received: true },
	};
}
