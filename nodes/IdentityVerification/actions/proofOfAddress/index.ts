import type { INodeProperties } from 'n8n-workflow';

import * as createCheck from './createCheck.operation';

export { createCheck };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['proofOfAddress'] } },
		options: [
			{
				name: 'Create Check',
				value: 'createCheck',
				description: 'Check a document (such as a utility bill) against a name and address',
				action: 'Create a proof of address check',
			},
		],
		default: 'createCheck',
	},
	...createCheck.description,
];
