import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { apiRequest } from '../../transport';
import { authModeOf, companyFields, questionnaireOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Delete Questionnaire Answers',
	value: 'deleteAnswers',
	description: 'Remove all answers of a questionnaire in a KYB form',
	action: 'Delete questionnaire answers',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['deleteAnswers'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, companyFields);

export const outputSchema = z.object({
	deleted: z.boolean(),
	companyId: z.string(),
	questionnaireId: z.string(),
});

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
