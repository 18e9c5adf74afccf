import type { INodeProperties } from 'n8n-workflow';

import * as downloadProfilePdf from './downloadProfilePdf.operation';

/** The operations of AML, by their value: the router runs them, the build writes their schemas. */
export const operations = { downloadProfilePdf };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['aml'] } },
		options: Object.values(operations).map((operation) => operation.option),
		default: 'downloadProfilePdf',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
