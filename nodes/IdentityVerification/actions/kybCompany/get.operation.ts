import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { kybCompanyDetailSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { simplifyOption } from '../../helpers/simplify';
import { COMPANY_NOT_FOUND, companyIdField } from '../company';
import { companyOf } from './common';
import { simplifiedCompany } from './simplify';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	description:
		'Get a company’s KYB record: registry data, review status and decision, beneficiaries, answers and checks',
	action: 'Get a KYB company',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, [
	companyIdField,
	...simplifyOption(
		'Whether to return only the main fields (id, companyName, registrationNumber, country, status, approvalStatus, denyReason, submissionTime, beneficiaries) instead of the whole record',
	),
]);

export const outputSchema = kybCompanyDetailSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { path } = companyOf.call(this, itemIndex);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'GET',
		path,
		itemIndex,
		notFound: COMPANY_NOT_FOUND,
	});
	const simplify = this.getNodeParameter('simplify', itemIndex, false) === true;
	const company = (response.body ?? {}) as IDataObject;
	return [{ json: simplify ? simplifiedCompany(company) : company }];
}
