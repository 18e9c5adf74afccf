import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	govAvailableDocumentSchema,
	govAvailableDocumentsParamsSchema,
} from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { validateInput } from '../../helpers/validation';
import {
	GOV_DOCUMENTS_PATH,
	REGISTRY_LABELS,
	registryCompanyFields,
	registryInputOf,
	registryOptions,
} from './registry';

export const option: INodePropertyOptions = {
	name: 'Get Available Registry Documents',
	value: 'getAvailableDocuments',
	description:
		'List the official documents a company’s registry offers (extracts, certificates), by country and registration number, one item each with its ID, title, format and price; Order Registry Document orders one',
	action: 'Get the registry documents available for a company',
};

const displayOptions = {
	show: { resource: ['kybCompany'], operation: ['getAvailableDocuments'] },
};

export const description = updateDisplayOptions(displayOptions, [
	...registryCompanyFields,
	registryOptions,
]);

export const outputSchema = govAvailableDocumentSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const qs = validateInput.call(
		this,
		govAvailableDocumentsParamsSchema,
		registryInputOf.call(this, itemIndex),
		REGISTRY_LABELS,
		itemIndex,
	);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'GET',
		path: `${GOV_DOCUMENTS_PATH}available-documents/`,
		qs,
		itemIndex,
		notFound: {
			message: 'Not found (HTTP 404): the registry has no company with this registration number',
			advice:
				'Check the Country and the Registration Number (the number the company has in its registry, without spaces or prefixes).',
		},
	});
	const products = isPlainObject(response.body) ? response.body.products : undefined;
	const list = Array.isArray(products) ? products : [];
	return list.map((product) => ({ json: (isPlainObject(product) ? product : {}) as IDataObject }));
}
