import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { amlProfilePdfParamsSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { detectFileType } from '../../helpers/fileType';
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
		description: 'The ID of the AML check (a UUID), shown in the dashboard and in the AML check response',
	},
	{
		displayName: 'Profile ID',
		name: 'profileId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. prof-001',
		description: 'The ID of the matched profile in the check, from the search results of the AML check (resourceId)',
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
		description: 'Later nodes (for example Send Email or Write File to Disk) read the file from this field',
	},
];

const displayOptions = { show: { resource: ['aml'], operation: ['downloadProfilePdf'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const params = validateInput.call(
		this,
		amlProfilePdfParamsSchema,
		{
			checkId: this.getNodeParameter('checkId', itemIndex, ''),
			profileId: this.getNodeParameter('profileId', itemIndex, ''),
			password: this.getNodeParameter('password', itemIndex, ''),
		},
		{
			checkId: {
				label: 'Check ID',
				fix: 'Enter the AML check ID, a UUID such as 3b1f8c2e-6d4a-4f0b-8e21-7a9c5d3e1f42.',
			},
			profileId: { label: 'Profile ID', fix: 'Enter the profile ID (resourceId) from the AML check results.' },
			password: { label: 'Password', fix: 'Enter a password of at least 1 character to protect the PDF.' },
		},
		itemIndex,
	);
	const binaryPropertyName =
		(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string).trim() || 'data';

	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `/aml/checks/${segment(params.checkId)}/profiles/${segment(params.profileId)}/pdf/`,
		body: { password: params.password },
		response: 'binary',
		itemIndex,
	});
	const pdf = response.body as Buffer;
	if (!Buffer.isBuffer(pdf) || pdf.length < 5 || pdf.toString('latin1', 0, 5) !== '%PDF-') {
		const detected = Buffer.isBuffer(pdf) ? detectFileType(pdf).name : 'no file';
		throw new NodeOperationError(this.getNode(), `The service did not return a PDF file (received a ${detected})`, {
			itemIndex,
			description:
				'Check that the Check ID and Profile ID belong together and try again. If it keeps happening, report it to the service provider.',
		});
	}

	// Characters that are not safe in a file name (/, \, :, spaces...) become _ in the file name only.
	const fileName = `aml-${params.checkId}-${params.profileId}.pdf`.replace(/[^\w.-]/g, '_');
	const fileSize = pdf.length;
	const binaryData = await this.helpers.prepareBinaryData(pdf, fileName, 'application/pdf');
	return [
		{
			json: { checkId: params.checkId, profileId: params.profileId, fileName, mimeType: 'application/pdf', fileSize },
			binary: { [binaryPropertyName]: binaryData },
		},
	];
}
