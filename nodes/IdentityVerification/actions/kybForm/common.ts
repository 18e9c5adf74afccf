import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { kybFormTokenSchema, kybQuestionnaireParamsSchema } from '../../../shared/contract';
import type { Auth } from '../../transport';
import { segment } from '../../helpers/response';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { COMPANY_NOT_FOUND, companyIdOf } from '../company';
import { idOf } from '../../helpers/locator';

/** How a KYB form operation signs in; Create Session always uses the API key. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{
			name: 'API Key',
			value: 'apiKey',
			description:
				'Your API key and secret (the Identity Verification API credential): works for every company',
		},
		{
			name: 'Form Token',
			value: 'formToken',
			description:
				'One company’s form token, such as the tokenString of Create Session: no credential per company',
		},
		{
			// The value of the saved workflows that chose the form token credential.
			name: 'Form Token Credential',
			value: 'kybFormToken',
			description:
				'A saved Identity Verification KYB Form Token API credential with one company’s token',
		},
	],
	default: 'apiKey',
	displayOptions: { show: { resource: ['kyb'] }, hide: { operation: ['createSession'] } },
	description: 'How to sign in to the service for this company’s form',
};

/** The Form Token field: a company's token given by the workflow, sent instead of the API key. */
export const formTokenProperty: INodeProperties = {
	displayName: 'Form Token',
	name: 'formToken',
	type: 'string',
	typeOptions: { password: true },
	required: true,
	default: '',
	hint: 'The tokenString that Create Session outputs, as an expression such as {{ $json.tokenString }}',
	description:
		'The company’s form token. It is sent instead of your API key, to the Base URL of the Identity Verification API credential, and works for that company only and until its session ends.',
	displayOptions: {
		show: { resource: ['kyb'], authentication: ['formToken'] },
		hide: { operation: ['createSession'] },
	},
};

/** As whom an item's form request goes: the API key, the form token credential, or the given token. */
export function authModeOf(this: IExecuteFunctions, itemIndex: number): Auth {
	const value = this.getNodeParameter('authentication', itemIndex, 'apiKey') as string;
	if (value === 'kybFormToken') return 'kybFormToken';
	if (value !== 'formToken') return 'apiKey';
	return validateInput.call(
		this,
		kybFormTokenSchema,
		{ formToken: this.getNodeParameter('formToken', itemIndex, '') },
		fieldLabels([formTokenProperty], {
			formToken:
				'Map the tokenString of Create Session into the field, or set Authentication to API Key.',
		}),
		itemIndex,
	);
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

const companyFieldLabels = fieldLabels(companyFields, {
	companyId: 'Enter the company ID from the dashboard.',
	questionnaireId: 'Enter the questionnaire ID of the KYB form.',
});

/** The questionnaire an item names (checked before any request) and its answers' path. */
export function questionnaireOf(
	this: IExecuteFunctions,
	itemIndex: number,
): { companyId: string; questionnaireId: string; path: string } {
	const params = validateInput.call(
		this,
		kybQuestionnaireParamsSchema,
		{
			companyId: idOf.call(this, 'companyId', itemIndex),
			questionnaireId: idOf.call(this, 'questionnaireId', itemIndex),
		},
		companyFieldLabels,
		itemIndex,
	);
	return {
		...params,
		path: `/kyb/forms/${segment(params.companyId)}/questionnaires/${segment(params.questionnaireId)}/answers/`,
	};
}

/** The company an item names (checked before any request): its ID and its form's path. */
export function formCompanyOf(
	this: IExecuteFunctions,
	itemIndex: number,
): { companyId: string; path: string; notFound: typeof COMPANY_NOT_FOUND } {
	const companyId = companyIdOf.call(this, itemIndex);
	return { companyId, path: `/kyb/forms/${segment(companyId)}/`, notFound: COMPANY_NOT_FOUND };
}
