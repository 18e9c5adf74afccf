import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { kybAnswersDetailSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { toItems } from '../../helpers/response';
import { companyIdField } from '../company';
import { authModeOf, formCompanyOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Get All Answers',
	value: 'getAllAnswers',
	description:
		'Get the answers of every questionnaire in a company’s KYB form, each question with its title; one item per questionnaire',
	action: 'Get all answers of a KYB form',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['getAllAnswers'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, [
	companyIdField,
]);

export const outputSchema = kybAnswersDetailSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const company = formCompanyOf.call(this, itemIndex);
	const response = await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'GET',
		path: `${company.path}questionnaires/answers/detail/`,
		itemIndex,
		notFound: company.notFound,
	});
	return toItems(response.body);
}
