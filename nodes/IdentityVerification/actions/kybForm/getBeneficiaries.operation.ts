import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { kybBeneficiarySchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { toItems } from '../../helpers/response';
import { companyIdField } from '../company';
import { authModeOf, formCompanyOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Get Many Beneficiaries',
	value: 'getBeneficiaries',
	description:
		'Get the owners, directors and representatives a company entered in its KYB form, one item each (name and surname in info)',
	action: 'Get many KYB beneficiaries',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['getBeneficiaries'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, [
	companyIdField,
]);

export const outputSchema = kybBeneficiarySchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const company = formCompanyOf.call(this, itemIndex);
	// The service answers the whole list at once (it is not paged).
	const response = await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'GET',
		path: `${company.path}beneficiaries/`,
		itemIndex,
		notFound: company.notFound,
	});
	return toItems(response.body);
}
