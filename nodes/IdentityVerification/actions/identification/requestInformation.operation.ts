import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import {
	requestInformationParamsSchema,
	requestInformationResponseSchema,
} from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { isNonEmptyObject, segment } from '../../helpers/response';
import { fieldLabels, numberFromText, validateInput } from '../../helpers/validation';
import { idOf } from '../../helpers/locator';

const properties: INodeProperties[] = [
	{
		displayName: 'Scan Reference',
		name: 'scanRef',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3af8e5b2-5a7c-11ee-8c99-0242ac120002',
		description:
			'The scanRef of the finished verification, from the Create Verification Token response or the webhook. The output’s sessionUrl is the link to send the person to upload again.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Additional Step Upload Required',
				name: 'additionalStepUploadRequired',
				type: 'boolean',
				default: true,
				description:
					'Whether the person must upload the documents of the additional steps again (for example a proof of address)',
			},
			{
				displayName: 'Bank Card Verification',
				name: 'bankCardVerification',
				type: 'boolean',
				default: true,
				description: 'Whether the person is asked to verify a bank card',
			},
			{
				displayName: 'Expected Last Four Card Digits',
				name: 'bankCardExpectedLastFour',
				type: 'string',
				default: '',
				placeholder: 'e.g. 4242',
				description:
					'The last four digits the bank card must have, with Bank Card Verification. Exactly 4 characters.',
			},
			{
				displayName: 'Lifetime (Seconds)',
				name: 'lifetime',
				type: 'number',
				default: 86400,
				hint: 'From 0 to 2,592,000 (30 days); the service’s default is 86,400 (1 day)',
				description: 'How long the link to upload again stays valid, in seconds',
			},
			{
				displayName: 'Questionnaire',
				name: 'questionnaire',
				type: 'string',
				default: '',
				placeholder: 'e.g. onboarding-questionnaire',
				description: 'The key of a questionnaire (from the dashboard) the person must answer',
			},
			{
				displayName: 'Risk Assessment Profile',
				name: 'riskAssessmentProfile',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3c90c3cc-0d44-4b50-8888-8dd25736052a',
				description: 'The ID (a UUID, from the dashboard) of a risk assessment to complete',
			},
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Request Information',
	value: 'requestInformation',
	description:
		'Ask the person to upload documents again for a finished verification (by scanRef); outputs sessionUrl, the link to send them',
	action: 'Request more information for a verification',
};

const displayOptions = {
	show: { resource: ['identification'], operation: ['requestInformation'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs: the re-upload link and token, or (an empty answer) that it was requested. */
export const outputSchema = requestInformationResponseSchema.extend({
	scanRef: z.string(),
	requested: z.boolean().optional(),
});

const FIELD_LABELS = fieldLabels(properties, {
	scanRef: 'Enter the scanRef from the token response or the webhook.',
	lifetime: 'Enter a whole number of seconds from 0 to 2592000 (30 days).',
	questionnaire: 'Enter the questionnaire’s key, or remove it.',
	riskAssessmentProfile:
		'Enter the profile’s ID from the dashboard, a UUID such as 3c90c3cc-0d44-4b50-8888-8dd25736052a.',
	bankCardExpectedLastFour:
		'Enter the last four digits of the card, such as 4242, or remove the option.',
});

/** The options the user added, empty texts left out (as if not added). */
function optionsOf(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const set = Object.entries(options).filter(([, value]) => value !== '' && value !== undefined);
	const body: Record<string, unknown> = Object.fromEntries(set);
	if (body.lifetime !== undefined) body.lifetime = numberFromText(body.lifetime);
	return body as IDataObject;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { scanRef, ...body } = validateInput.call(
		this,
		requestInformationParamsSchema,
		{
			scanRef: idOf.call(this, 'scanRef', itemIndex),
			...optionsOf.call(this, itemIndex),
		},
		FIELD_LABELS,
		itemIndex,
	);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `/kyc/identifications/${segment(scanRef)}/request-information/`,
		// No options, no body: as before the service's options were offered.
		body: Object.keys(body).length > 0 ? body : undefined,
		itemIndex,
	});
	if (isNonEmptyObject(response.body)) return [{ json: { scanRef, ...response.body } }];
	return [{ json: { scanRef, requested: true } }];
}
