import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { toItems } from '../../helpers/response';
import { authModeOf, companyFields, questionnaireOf } from './common';

const displayOptions = { show: { resource: ['kyb'], operation: ['getAnswers'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, companyFields);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const questionnaire = questionnaireOf.call(this, itemIndex);
	const response = await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'GET',
		path: questionnaire.path,
		itemIndex,
	});
	return toItems(response.body);
}
