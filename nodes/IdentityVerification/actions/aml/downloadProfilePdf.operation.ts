import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { amlProfilePdfParamsSchema } from '../../../shared/contract';
import { downloadFile } from '../../transport';
import { segment } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Check ID',
		name: 'checkId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3b1f8c2e-6d4a-4f0b-8e21-7a9c5d3e1f42',
		description:
			'The ID of the AML check (a UUID), shown in the dashboard and in the AML check response',
	},
	{
		displayName: 'Profile ID',
		name: 'profileId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. prof-001',
		description:
			'The ID of the matched profile in the check, from the search results of the AML check (resourceId)',
	},
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description: 'Password that protects the PDF report; you will need it to open the file',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the PDF in',
		description:
			'Later nodes (for example Send Email or Write File to Disk) read the file from this field',
	},
];

/** Its entry in the Operation selector. */
export const option: INodePropertyOptions = {
	name: 'Download Profile PDF',
	value: 'downloadProfilePdf',
	description: 'Download the PDF report of one profile found by an AML check',
	action: 'Download an AML profile PDF',
};

const displayOptions = { show: { resource: ['aml'], operation: ['downloadProfilePdf'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
export const outputSchema = z.object({
	checkId: z.string(),
	profileId: z.string(),
	fileName: z.string(),
	mimeType: z.string(),
	fileSize: z.number(),
});

const FIELD_LABELS = {
	checkId: {
		label: 'Check ID',
		fix: 'Enter the AML check ID, a UUID such as 3b1f8c2e-6d4a-4f0b-8e21-7a9c5d3e1f42.',
	},
	profileId: {
		label: 'Profile ID',
		fix: 'Enter the profile ID (resourceId) from the AML check results.',
	},
	password: {
		label: 'Password',
		fix: 'Enter a password of at least 1 character to protect the PDF.',
	},
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const params = validateInput.call(
		this,
		amlProfilePdfParamsSchema,
		{
			checkId: this.getNodeParameter('checkId', itemIndex, ''),
			profileId: this.getNodeParameter('profileId', itemIndex, ''),
			password: this.getNodeParameter('password', itemIndex, ''),
		},
		FIELD_LABELS,
		itemIndex,
	);
	const binaryPropertyName =
		(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string).trim() || 'data';

	const fileName = `aml-${params.checkId}-${params.profileId}`;
	const file = await downloadFile.call(
		this,
		'apiKey',
		{
			method: 'POST',
			path: `/aml/checks/${segment(params.checkId)}/profiles/${segment(params.profileId)}/pdf/`,
			body: { password: params.password },
			// An error answer may echo it: no message, stored detail or error item may show it.
			secrets: [params.password],
			// Making the PDF changes nothing at the service: a failed answer is asked for again.
			repeatable: true,
			itemIndex,
		},
		{ name: fileName, accepts: ['pdf'], what: 'PDF file' },
	);
	return [
		{
			json: {
				checkId: params.checkId,
				profileId: params.profileId,
				fileName: file.fileName,
				mimeType: file.mimeType,
				fileSize: file.fileSize,
			},
			binary: { [binaryPropertyName]: file.binary },
		},
	];
}
