import type { INodeProperties } from 'n8n-workflow';

import * as downloadProfilePdf from './downloadProfilePdf.operation';

export { downloadProfilePdf };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['aml'] } },
		options: [
			{
				name: 'Download Profile PDF',
				value: 'downloadProfilePdf',
				description: 'Download the PDF report of one profile found by an AML check',
				action: 'Download an AML profile PDF',
			},
		],
		default: 'downloadProfilePdf',
	},
	...downloadProfilePdf.description,
];
