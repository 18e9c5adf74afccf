import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { kybFormSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { companyIdField } from '../company';
import { authModeOf, formCompanyOf } from './common';
import { companyDetailFields, companyRequestOf } from './companyDetails';

export const option: INodePropertyOptions = {
	name: 'Update Form',
	value: 'updateForm',
	description:
		'Set the company details of a KYB form that is still being filled, by its Company ID (name, country and the details given; the others stay), e.g. from your CRM',
	action: 'Update the company details of a KYB form',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['updateForm'] } };

export const description = updateDisplayOptions(displayOptions, [
	companyIdField,
	...companyDetailFields,
]);

export const outputSchema = kybFormSchema.extend({ companyId: z.string() });

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { companyId, path, notFound } = formCompanyOf.call(this, itemIndex);
	const request = companyRequestOf.call(this, itemIndex);
	// A PATCH sets the same details again when repeated: a lost answer is asked for again.
	const response = await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'PATCH',
		path,
		body: request,
		repeatable: true,
		itemIndex,
		notFound,
	});
	const answer = isPlainObject(response.body) ? (response.body as IDataObject) : {};
	return [{ json: { companyId, ...answer } }];
}
