import type { INodeProperties } from 'n8n-workflow';

import { authenticationProperty, formTokenProperty } from './common';
import * as createSession from './createSession.operation';
import * as deleteAnswers from './deleteAnswers.operation';
import * as getAllAnswers from './getAllAnswers.operation';
import * as getAnswers from './getAnswers.operation';
import * as getBeneficiaries from './getBeneficiaries.operation';
import * as submitForm from './submitForm.operation';

/**
 * The operations of KYB Form (the company's side: its session and the form it fills), by their
 * value, in the order of their names: the router runs them, the build writes their schemas.
 */
export const operations = {
	createSession,
	deleteAnswers,
	getAllAnswers,
	getBeneficiaries,
	getAnswers,
	submitForm,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['kyb'] } },
		options: Object.values(operations).map((operation) => operation.option),
		// Saved workflows leave a default out: Get Questionnaire Answers stays the one they were made with.
		default: 'getAnswers',
	},
	authenticationProperty,
	formTokenProperty,
	...Object.values(operations).flatMap((operation) => operation.description),
];
