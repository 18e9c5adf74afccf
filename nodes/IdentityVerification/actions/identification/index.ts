import type { INodeProperties } from 'n8n-workflow';

import * as addToBlocklist from './addToBlocklist.operation';
import * as createVerificationToken from './createVerificationToken.operation';
import * as deletePersonalData from './deletePersonalData.operation';
import * as downloadFiles from './downloadFiles.operation';
import * as downloadReportPdf from './downloadReportPdf.operation';
import * as getData from './getData.operation';
import * as getAll from './getAll.operation';
import * as getStatus from './getStatus.operation';
import * as removeFromBlocklist from './removeFromBlocklist.operation';
import * as requestInformation from './requestInformation.operation';
import * as waitForResult from './waitForResult.operation';

/**
 * The operations of Identification the router runs, one item at a time, by their value. Wait for
 * Result is not one of them: it runs once for all items and pauses the execution, so the node calls
 * it directly; it has no output schema (it continues with the trigger's event).
 */
export const operations = {
	addToBlocklist,
	createVerificationToken,
	deletePersonalData,
	downloadFiles,
	downloadReportPdf,
	getData,
	getAll,
	getStatus,
	removeFromBlocklist,
	requestInformation,
};

const OPTIONS = [
	...Object.values(operations).map((operation) => operation.option),
	waitForResult.option,
];

const selector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: OPTIONS,
	default: 'createVerificationToken',
};

export const description: INodeProperties[] = [
	// Two declarations of the selector, told apart by n8n's `@tool` display option: the AI tool
	// variant does not offer Wait for Result (a tool call cannot pause the workflow and wait).
	{
		...selector,
		displayOptions: { show: { resource: ['identification'], '@tool': [false] } },
	},
	{
		...selector,
		options: OPTIONS.filter((option) => option !== waitForResult.option),
		displayOptions: { show: { resource: ['identification'], '@tool': [true] } },
	},
	...Object.values(operations).flatMap((operation) => operation.description),
	...waitForResult.description,
];
