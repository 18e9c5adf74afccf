import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { scanRefSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { isNonEmptyObject, segment } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Scan Reference',
		name: 'scanRef',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3af8e5b2-5a7c-11ee-8c99-0242ac120002',
		description:
			'The scanRef of the finished verification, from the Create Verification Token response or the webhook. The person gets an e-mail with a link to upload again.',
	},
];

/** Its entry in the Operation selector. */
export const option: INodePropertyOptions = {
	name: 'Request Information',
	value: 'requestInformation',
	description: 'Ask the person to upload documents again for a finished verification',
	action: 'Request more information for a verification',
};

const displayOptions = {
	show: { resource: ['identification'], operation: ['requestInformation'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
export const outputSchema = z.object({ scanRef: z.string() }).passthrough();

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const scanRef = validateInput.call(
		this,
		scanRefSchema,
		this.getNodeParameter('scanRef', itemIndex, ''),
		{
			'': {
				label: 'Scan Reference',
				fix: 'Enter the scanRef from the token response or the webhook.',
			},
		},
		itemIndex,
	);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `/kyc/identifications/${segment(scanRef)}/request-information/`,
		itemIndex,
	});
	if (isNonEmptyObject(response.body)) return [{ json: response.body }];
	return [{ json: { scanRef, requested: true } }];
}
