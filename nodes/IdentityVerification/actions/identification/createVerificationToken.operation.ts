import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { verificationTokenRequestSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { toItems } from '../../helpers/response';
import { invalidInput, validateInput } from '../../helpers/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. customer-12345',
		description:
			'Your own reference for the person being verified, such as a customer number. It comes back in the webhook so you can match the result to the person.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'fixedCollection',
		placeholder: 'Add Field',
		default: {},
		typeOptions: { multipleValues: true },
		description:
			'Other token settings supported by your account (for example a language or a redirect address), sent unchanged with the request',
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. locale',
						description: 'Name of the setting exactly as the service documents it',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. en',
						description:
							'Value of the setting. An expression that returns a number, true/false or an object is sent as that type.',
					},
				],
			},
		],
	},
];

const displayOptions = {
	show: { resource: ['identification'], operation: ['createVerificationToken'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const clientId = this.getNodeParameter('clientId', itemIndex, '') as string;
	const additional = this.getNodeParameter('additionalFields.field', itemIndex, []) as Array<{
		name?: string;
		value?: unknown;
	}>;

	const body: IDataObject = {};
	for (const [position, entry] of additional.entries()) {
		const name = (entry.name ?? '').trim();
		if (!name) {
			throw invalidInput.call(
				this,
				'Additional Fields',
				`field ${position + 1} has no name`,
				'Enter the setting name in "Name", or remove the empty field.',
				itemIndex,
			);
		}
		if (name === 'clientId') {
			throw invalidInput.call(
				this,
				'Additional Fields',
				'"clientId" is set by the Client ID field',
				'Remove "clientId" from Additional Fields and use the Client ID field instead.',
				itemIndex,
			);
		}
		body[name] = entry.value as IDataObject[string];
	}
	body.clientId = clientId;

	const request = validateInput.call(
		this,
		verificationTokenRequestSchema,
		body,
		{
			clientId: {
				label: 'Client ID',
				fix: 'Enter your own reference for the person, for example a customer number.',
			},
		},
		itemIndex,
	);

	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/api/v2/token',
		body: request as IDataObject,
		itemIndex,
	});
	return toItems(response.body);
}
