import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { kybQuestionnaireParamsSchema } from '../../../shared/contract';
import type { AuthMode } from '../../transport';
import { segment } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';

export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{
			name: 'API Key',
			value: 'apiKey',
			description: 'Your API key and secret from the dashboard (Settings, API Keys)',
		},
		{
			name: 'KYB Form Token',
			value: 'kybFormToken',
			description: 'A token for one KYB form (the tokenString from KYB form token generation)',
		},
	],
	default: 'apiKey',
	displayOptions: { show: { resource: ['kyb'] } },
	description: 'How to sign in to the service for this form',
};

export function authModeOf(this: IExecuteFunctions, itemIndex: number): AuthMode {
	const value = this.getNodeParameter('authentication', itemIndex, 'apiKey') as string;
	return value === 'kybFormToken' ? 'kybFormToken' : 'apiKey';
}

export const companyFields: INodeProperties[] = [
	{
		displayName: 'Company ID',
		name: 'companyId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'The company’s ID from the dashboard',
		description:
			'The ID of the company whose KYB form it is, shown in the dashboard under the company',
	},
	{
		displayName: 'Questionnaire ID',
		name: 'questionnaireId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'The questionnaire’s ID in the company’s KYB form',
		description: 'The ID of the questionnaire in the KYB form',
	},
];

const companyFieldLabels = {
	companyId: { label: 'Company ID', fix: 'Enter the company ID from the dashboard.' },
	questionnaireId: {
		label: 'Questionnaire ID',
		fix: 'Enter the questionnaire ID of the KYB form.',
	},
};

/** The questionnaire an item names (checked before any request) and its answers' path. */
export function questionnaireOf(
	this: IExecuteFunctions,
	itemIndex: number,
): { companyId: string; questionnaireId: string; path: string } {
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
	return {
		...params,
		path: `/kyb/forms/${segment(params.companyId)}/questionnaires/${segment(params.questionnaireId)}/answers/`,
	};
}
