import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { questionnaireAnswersSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { toItems } from '../../helpers/response';
import { simplifyOption } from '../../helpers/simplify';
import { authModeOf, companyFields, questionnaireOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Get Questionnaire Answers',
	value: 'getAnswers',
	description: 'Get the answers of a questionnaire in a KYB form',
	action: 'Get questionnaire answers',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['getAnswers'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, [
	...companyFields,
	// Off in the AI tool too: agents already using this operation keep the output they were built on.
	...simplifyOption(
		'Whether to return one row per answer (companyId, questionnaireId, section, question, value) instead of the sections as the service nests them',
		{ onInAiTool: false },
	),
]);

export const outputSchema = questionnaireAnswersSchema;

/**
 * One row per answer, for a spreadsheet: the service nests them as sections › questions › {value}
 * and names neither the company nor the questionnaire. A section that is not an object of
 * questions is one row with an empty question; no answers (the service's empty answer) is no row.
 */
function answerRows(body: unknown, ids: { companyId: string; questionnaireId: string }) {
	const sections = isPlainObject(body) ? body.sections : undefined;
	if (!isPlainObject(sections) && !Array.isArray(sections)) return [];
	return Object.entries(sections).flatMap(([section, questions]) => {
		const answers = isPlainObject(questions) ? Object.entries(questions) : [['', questions]];
		return answers.map(([question, answer]) => ({
			json: {
				...ids,
				section,
				question,
				value: (isPlainObject(answer) && 'value' in answer ? answer.value : answer) ?? null,
			} as IDataObject,
		}));
	});
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { path, companyId, questionnaireId } = questionnaireOf.call(this, itemIndex);
	const response = await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'GET',
		path,
		itemIndex,
	});
	if (this.getNodeParameter('simplify', itemIndex, false) === true) {
		return answerRows(response.body, { companyId, questionnaireId });
	}
	return toItems(response.body);
}
