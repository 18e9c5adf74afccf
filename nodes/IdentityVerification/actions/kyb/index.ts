import type { INodeProperties } from 'n8n-workflow';

import { authenticationProperty } from './common';
import * as deleteAnswers from './deleteAnswers.operation';
import * as getAnswers from './getAnswers.operation';
import * as submitForm from './submitForm.operation';

export { deleteAnswers, getAnswers, submitForm };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['kyb'] } },
		options: [
			{
				name: 'Delete Questionnaire Answers',
				value: 'deleteAnswers',
				description: 'Remove all answers of a questionnaire in a KYB form',
				action: 'Delete questionnaire answers',
			},
			{
				name: 'Get Questionnaire Answers',
				value: 'getAnswers',
				description: 'Get the answers of a questionnaire in a KYB form',
				action: 'Get questionnaire answers',
			},
			{
				name: 'Submit Form',
				value: 'submitForm',
				description: 'Send a filled KYB form for review',
				action: 'Submit a KYB form',
			},
		],
		default: 'getAnswers',
	},
	authenticationProperty,
	...getAnswers.description,
	...deleteAnswers.description,
	...submitForm.description,
];
