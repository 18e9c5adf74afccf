import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { kybFormSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { authModeOf } from './common';
import { companyDetailFields, companyRequestOf } from './companyDetails';

export const option: INodePropertyOptions = {
	name: 'Create Form',
	value: 'createForm',
	description:
		'Start a session’s KYB form with the company’s details from your CRM (name, country, registration number, addresses, …), so the company finds them filled; signs in with the session’s form token, and outputs the form with its ID (the Company ID)',
	action: 'Create a KYB form with the company details',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['createForm'] } };

export const description = updateDisplayOptions(displayOptions, [
	{
		displayName:
			'The service makes a form only for a form token (Authentication: Form Token, with the tokenString of Create Session). A session has one form: Update Form changes it later.',
		name: 'createFormNotice',
		type: 'notice',
		default: '',
	},
	...companyDetailFields,
]);

export const outputSchema = kybFormSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const auth = authModeOf.call(this, itemIndex);
	if (auth === 'apiKey') {
		// The provider's POST /kyb/forms/ takes only a form token: the token says whose form it is.
		throw new NodeOperationError(this.getNode(), 'Create Form needs the session’s form token', {
			itemIndex,
			description:
				'Set Authentication to Form Token and map the tokenString of Create Session, or use a KYB Form Token credential.',
		});
	}
	const request = companyRequestOf.call(this, itemIndex);
	// Not repeated after a failure that may have reached the service: a session has one form.
	const response = await apiRequest.call(this, auth, {
		method: 'POST',
		path: '/kyb/forms/',
		body: request,
		itemIndex,
	});
	return [{ json: (isPlainObject(response.body) ? response.body : {}) as IDataObject }];
}
