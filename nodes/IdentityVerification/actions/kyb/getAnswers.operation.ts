import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { kybQuestionnaireParamsSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { segment, toItems } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';
import { authModeOf, companyFieldLabels, companyFields } from './common';

const displayOptions = { show: { resource: ['kyb'], operation: ['getAnswers'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, companyFields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const params = validateInput.call(
		this,
		kybQuestionnaireParamsSchema,
		{
			companyId: this.getNodeParameter('companyId', itemIndex, ''),
			questionnaireId: this.getNodeParameter('questionnaireId', itemIndex, ''),
		},
		companyFieldLabels,
		itemIndex,
	);
	const response = await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'GET',
		path: `/kyb/forms/${segment(params.companyId)}/questionnaires/${segment(params.questionnaireId)}/answers/`,
		itemIndex,
	});
	return toItems(response.body);
}
