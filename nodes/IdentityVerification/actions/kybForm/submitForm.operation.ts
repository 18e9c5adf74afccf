import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { kybFormParamsSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { isNonEmptyObject, segment } from '../../helpers/response';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { authModeOf } from './common';
import { idOf } from '../../helpers/locator';

const properties: INodeProperties[] = [
	{
		displayName: 'Form ID',
		name: 'formId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'The ID of the company’s KYB form',
		description:
			'The ID of the filled KYB form to submit for review. After submitting, the form can no longer be edited unless the reviewer asks for more information.',
	},
];

export const option: INodePropertyOptions = {
	name: 'Submit Form',
	value: 'submitForm',
	description: 'Send a filled KYB form for review',
	action: 'Submit a KYB form',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['submitForm'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = z.object({ id: z.string().optional() }).passthrough();

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const params = validateInput.call(
		this,
		kybFormParamsSchema,
		{ formId: idOf.call(this, 'formId', itemIndex) },
		fieldLabels(properties, { formId: 'Enter the ID of the KYB form to submit.' }),
		itemIndex,
	);
	const response = await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'POST',
		path: `/kyb/forms/${segment(params.formId)}/submit/`,
		itemIndex,
	});
	if (isNonEmptyObject(response.body)) return [{ json: response.body }];
	return [{ json: { submitted: true, formId: params.formId } }];
}
