import type { INodeProperties } from 'n8n-workflow';

import * as createCheck from './createCheck.operation';

/**
 * The operations of Proof of Address, by their value: the router runs them, the build writes their
 * schemas.
 */
export const operations = { createCheck };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['proofOfAddress'] } },
		options: Object.values(operations).map((operation) => operation.option),
		default: 'createCheck',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
