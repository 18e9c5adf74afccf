import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { authModeOf, companyFields, questionnaireOf } from './common';

const displayOptions = { show: { resource: ['kyb'], operation: ['deleteAnswers'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, companyFields);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const questionnaire = questionnaireOf.call(this, itemIndex);
	await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'DELETE',
		path: questionnaire.path,
		response: 'none',
		itemIndex,
	});
	return [
		{
			json: {
				deleted: true,
				companyId: questionnaire.companyId,
				questionnaireId: questionnaire.questionnaireId,
			},
		},
	];
}
