import type { INodeProperties } from 'n8n-workflow';

import * as createToken from './createToken.operation';
import * as listTransactions from './listTransactions.operation';

export { createToken, listTransactions };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bank'] } },
		options: [
			{
				name: 'Create Token',
				value: 'createToken',
				description: 'Create a token the person uses to connect their bank account',
				action: 'Create a bank token',
			},
			{
				name: 'List Transactions',
				value: 'listTransactions',
				description: 'Get the transactions of a verified bank account, one item per transaction',
				action: 'List bank transactions',
			},
		],
		default: 'createToken',
	},
	...createToken.description,
	...listTransactions.description,
];
