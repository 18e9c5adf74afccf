import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as downloadPdf from './downloadPdf.operation';
import * as downloadProfilePdf from './downloadProfilePdf.operation';
import * as getProfile from './getProfile.operation';

/** The operations of AML Check, by their value: the router runs them, the build writes their schemas. */
export const operations = { create, downloadPdf, downloadProfilePdf, getProfile };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['aml'] } },
		options: Object.values(operations).map((operation) => operation.option),
		// Saved workflows leave a default out: Download Profile PDF stays the default they were made with.
		default: 'downloadProfilePdf',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
