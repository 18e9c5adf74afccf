import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { apiRequest } from '../../transport';
import { COMPANY_NOT_FOUND, companyIdField } from '../company';
import { companyOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	description:
		'Delete a company and its KYB session from the service for good by its Company ID (its data, answers and documents); outputs deleted: true',
	action: 'Delete a KYB company',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['delete'] } };

export const description = updateDisplayOptions(displayOptions, [
	{
		...companyIdField,
		hint: 'Deleting cannot be undone. The service sends a Company Deleted event if it is set up.',
	},
]);

/**
 * A DELETE is repeated after a lost answer: the company may be gone by the repeat, so a 404 says
 * it may have been deleted already.
 */
const NOT_FOUND = {
	message:
		'Not found (HTTP 404): the service has no company with this Company ID; it may have been deleted already',
	advice: `${COMPANY_NOT_FOUND.advice} Get Many shows whether the company is still listed.`,
};

export const outputSchema = z.object({ deleted: z.boolean(), companyId: z.string() });

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { companyId, path } = companyOf.call(this, itemIndex);
	await apiRequest.call(this, 'apiKey', {
		method: 'DELETE',
		path,
		response: 'none',
		itemIndex,
		notFound: NOT_FOUND,
	});
	return [{ json: { deleted: true, companyId } }];
}
