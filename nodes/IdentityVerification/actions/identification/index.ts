import type { INodeProperties } from 'n8n-workflow';

import * as createVerificationToken from './createVerificationToken.operation';
import * as requestInformation from './requestInformation.operation';

export { createVerificationToken, requestInformation };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['identification'] } },
		options: [
			{
				name: 'Create Verification Token',
				value: 'createVerificationToken',
				description: 'Start an identity verification and get the token for the verification screen',
				action: 'Create a verification token',
			},
			{
				name: 'Request Information',
				value: 'requestInformation',
				description: 'Ask the person to upload documents again for a finished verification',
				action: 'Request more information for a verification',
			},
		],
		default: 'createVerificationToken',
	},
	...createVerificationToken.description,
	...requestInformation.description,
];
