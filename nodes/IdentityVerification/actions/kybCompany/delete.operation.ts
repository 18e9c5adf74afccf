import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { apiRequest } from '../../transport';
import { COMPANY_NOT_FOUND, companyIdField, companyOf } from './common';

/** Its entry in the Operation selector. */
export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	description:
		'Delete a company and its KYB session from the service for good (its data, answers and documents)',
	action: 'Delete a KYB company',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['delete'] } };

export const description = updateDisplayOptions(displayOptions, [
	{
		...companyIdField,
		hint: 'Deleting cannot be undone. The service sends a Company Deleted event if it is set up.',
	},
]);

/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
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
		notFound: COMPANY_NOT_FOUND,
	});
	return [{ json: { deleted: true, companyId } }];
}
