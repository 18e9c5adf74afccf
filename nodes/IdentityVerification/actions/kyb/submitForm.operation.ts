import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { kybFormParamsSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { isNonEmptyObject, segment } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';
import { authModeOf } from './common';

const properties: INodeProperties[] = [
	{
		displayName: 'Form ID',
		name: 'formId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. form-001',
		description:
			'The ID of the filled KYB form to submit for review. After submitting, the form can no longer be edited unless the reviewer asks for more information.',
	},
];

const displayOptions = { show: { resource: ['kyb'], operation: ['submitForm'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const params = validateInput.call(
		this,
		kybFormParamsSchema,
		{ formId: this.getNodeParameter('formId', itemIndex, '') },
		{ formId: { label: 'Form ID', fix: 'Enter the ID of the KYB form to submit.' } },
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
