import type { INodeProperties } from 'n8n-workflow';

import * as createToken from './createToken.operation';
import * as listTransactions from './listTransactions.operation';

/** The operations of Bank, by their value: the router runs them, the build writes their schemas. */
export const operations = { createToken, listTransactions };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bank'] } },
		options: Object.values(operations).map((operation) => operation.option),
		default: 'createToken',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
