import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { scanRefRequestSchema, verificationStatusSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { isNonEmptyObject } from '../../helpers/response';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { idOf } from '../../helpers/locator';

const properties: INodeProperties[] = [
	{
		displayName:
			'For re-checking one verification whose webhook was missed. The provider asks not to poll this status (it may restrict access that does): results come by webhook, to the Identity Verification Trigger or Wait for Result.',
		name: 'getStatusNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Scan Reference',
		name: 'scanRef',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3af8e5b2-5a7c-11ee-8c99-0242ac120002',
		description:
			'The scanRef of the verification, from the Create Verification Token response or a webhook',
	},
];

export const option: INodePropertyOptions = {
	name: 'Get Status',
	value: 'getStatus',
	description:
		'Re-check one verification whose webhook was missed (not for polling: the provider asks not to)',
	action: 'Get the status of a verification',
};

const displayOptions = {
	show: { resource: ['identification'], operation: ['getStatus'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = verificationStatusSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { scanRef } = validateInput.call(
		this,
		scanRefRequestSchema,
		{ scanRef: idOf.call(this, 'scanRef', itemIndex) },
		fieldLabels(properties, {
			scanRef: 'Enter the scanRef from the token response or a webhook.',
		}),
		itemIndex,
	);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/api/v2/status',
		body: { scanRef },
		// Only reads: a failed answer is asked for again.
		repeatable: true,
		itemIndex,
	});
	if (isNonEmptyObject(response.body)) return [{ json: response.body }];
	return [{ json: { scanRef } }];
}
