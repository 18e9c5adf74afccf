import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as createVerificationToken from './createVerificationToken.operation';
import * as getStatus from './getStatus.operation';
import * as requestInformation from './requestInformation.operation';
import * as waitForResult from './waitForResult.operation';

// Wait for Result is not in this list: it runs once for all items and pauses the execution, so
// the node calls it directly instead of through the per-item router.
export { createVerificationToken, getStatus, requestInformation };

const OPERATIONS: INodePropertyOptions[] = [
	{
		name: 'Create Verification Token',
		value: 'createVerificationToken',
		description: 'Start an identity verification and get the token for the verification screen',
		action: 'Create a verification token',
	},
	{
		name: 'Get Status',
		value: 'getStatus',
		description:
			'Re-check one verification whose webhook was missed (not for polling: the provider asks not to)',
		action: 'Get the status of a verification',
	},
	{
		name: 'Request Information',
		value: 'requestInformation',
		description: 'Ask the person to upload documents again for a finished verification',
		action: 'Request more information for a verification',
	},
	{
		name: 'Wait for Result',
		value: 'waitForResult',
		description:
			'Pause the workflow until the result of the verification created in this execution arrives (not available as an AI tool)',
		action: 'Wait for the verification result',
	},
];

const operation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: OPERATIONS,
	default: 'createVerificationToken',
};

export const description: INodeProperties[] = [
	// Two declarations of the selector, told apart by n8n's `@tool` display option: the AI tool
	// variant does not offer Wait for Result (a tool call cannot pause the workflow and wait).
	{
		...operation,
		displayOptions: { show: { resource: ['identification'], '@tool': [false] } },
	},
	{
		...operation,
		options: OPERATIONS.filter((option) => option.value !== 'waitForResult'),
		displayOptions: { show: { resource: ['identification'], '@tool': [true] } },
	},
	...createVerificationToken.description,
	...getStatus.description,
	...requestInformation.description,
	...waitForResult.description,
];
