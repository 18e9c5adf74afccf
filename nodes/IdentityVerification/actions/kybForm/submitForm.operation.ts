import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { kybFormParamsSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import type { Auth } from '../../transport';
import { isNonEmptyObject, segment } from '../../helpers/response';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { authModeOf } from './common';
import { idOf, LOCATOR_VERSION } from '../../helpers/locator';

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
	const { formId, auth } = await formOf.call(this, itemIndex);
	const response = await apiRequest.call(this, auth, {
		method: 'POST',
		path: `/kyb/forms/${segment(formId)}/submit/`,
		itemIndex,
	});
	if (isNonEmptyObject(response.body)) return [{ json: response.body }];
	return [{ json: { submitted: true, formId } }];
}

/**
 * The form an item submits, and as whom. From version 2 a Form ID left empty with a form token is
 * that token's form; otherwise the Form ID is checked first, as in version 1.
 */
async function formOf(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<{ formId: string; auth: Auth }> {
	const given = idOf.call(this, 'formId', itemIndex);
	if (this.getNode().typeVersion >= LOCATOR_VERSION && String(given ?? '').trim() === '') {
		const auth = authModeOf.call(this, itemIndex);
		if (auth !== 'apiKey') return { formId: await tokenFormId.call(this, auth, itemIndex), auth };
	}
	const { formId } = validateInput.call(
		this,
		kybFormParamsSchema,
		{ formId: given },
		fieldLabels(properties, { formId: 'Enter the ID of the KYB form to submit.' }),
		itemIndex,
	);
	return { formId, auth: authModeOf.call(this, itemIndex) };
}

/**
 * The form of a form token: the service lists it for the token alone, "one or zero items" (kyb.yaml
 * `kybFormsList`). None yet means the company has not started its form.
 */
async function tokenFormId(
	this: IExecuteFunctions,
	auth: Auth,
	itemIndex: number,
): Promise<string> {
	const response = await apiRequest.call(this, auth, {
		method: 'GET',
		path: '/kyb/forms/',
		itemIndex,
	});
	const [form] = Array.isArray(response.body) ? response.body.filter(isPlainObject) : [];
	if (typeof form?.id === 'string' && form.id !== '') return form.id;
	throw new NodeOperationError(this.getNode(), 'Form ID: the form token has no form yet', {
		itemIndex,
		description:
			'The service makes the form when the company opens the link of its session and fills it in. Submit it after that (the trigger’s Company Submitted event says when the company submitted it itself), or enter the Form ID.',
	});
}
