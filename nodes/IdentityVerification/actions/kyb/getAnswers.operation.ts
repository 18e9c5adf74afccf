import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { questionnaireAnswersSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { toItems } from '../../helpers/response';
import { authModeOf, companyFields, questionnaireOf } from './common';

/** Its entry in the Operation selector. */
export const option: INodePropertyOptions = {
	name: 'Get Questionnaire Answers',
	value: 'getAnswers',
	description: 'Get the answers of a questionnaire in a KYB form',
	action: 'Get questionnaire answers',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['getAnswers'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, companyFields);

/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
export const outputSchema = questionnaireAnswersSchema;

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
