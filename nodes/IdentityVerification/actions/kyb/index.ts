import type { INodeProperties } from 'n8n-workflow';

import { authenticationProperty } from './common';
import * as deleteAnswers from './deleteAnswers.operation';
import * as getAnswers from './getAnswers.operation';
import * as submitForm from './submitForm.operation';

/** The operations of KYB, by their value: the router runs them, the build writes their schemas. */
export const operations = { deleteAnswers, getAnswers, submitForm };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['kyb'] } },
		options: Object.values(operations).map((operation) => operation.option),
		default: 'getAnswers',
	},
	authenticationProperty,
	...Object.values(operations).flatMap((operation) => operation.description),
];
