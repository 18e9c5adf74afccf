import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { govDocumentOrderRequestSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { fieldLabels, validateInput } from '../../helpers/validation';
import {
	GOV_DOCUMENTS_PATH,
	REGISTRY_LABELS,
	registryCompanyFields,
	registryInputOf,
	registryOptions,
	textOf,
} from './registry';

const properties: INodeProperties[] = [
	...registryCompanyFields,
	{
		displayName: 'Company Name',
		name: 'companyName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. UAB Baltic Widgets',
		description: 'The company’s name, as the registry has it (at most 200 characters)',
	},
	{
		displayName: 'Product Key',
		name: 'productKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. REGISTER_EXTRACT',
		description:
			'Which document to order: the ID of one that Get Available Registry Documents lists. The ordered document keeps it as its productKey.',
	},
	registryOptions,
];

export const option: INodePropertyOptions = {
	name: 'Order Registry Document',
	value: 'orderDocument',
	description:
		'Order an official document from a company’s registry (paid: the price Get Available Registry Documents shows); it arrives later, with a Registry document delivered event, and Get Ordered Document downloads it',
	action: 'Order a registry document for a company',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['orderDocument'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = govDocumentOrderRequestSchema.extend({ ordered: z.boolean() });

const LABELS = {
	...REGISTRY_LABELS,
	...fieldLabels(properties, {
		companyName: 'Enter the company’s name, at most 200 characters.',
		productKey: 'Map the id of a document Get Available Registry Documents lists.',
	}),
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = validateInput.call(
		this,
		govDocumentOrderRequestSchema,
		{
			...registryInputOf.call(this, itemIndex),
			companyName: textOf(this.getNodeParameter('companyName', itemIndex, '')),
			productKey: textOf(this.getNodeParameter('productKey', itemIndex, '')),
		},
		LABELS,
		itemIndex,
	);
	// Not repeated after a failure that may have reached the service: each order is paid for.
	await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `${GOV_DOCUMENTS_PATH}document-order/`,
		body: request as IDataObject,
		response: 'none',
		itemIndex,
	});
	return [{ json: { ordered: true, ...request } }];
}
