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

const displayOptions = { show: { resource: ['aml'], operation: ['downloadProfilePdf'] } };

export const description = updateDisplayOptions(displayOptions, properties);

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
		{
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
		},
		itemIndex,
	);
	const binaryPropertyName =
		(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string).trim() || 'data';

	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `/aml/checks/${segment(params.checkId)}/profiles/${segment(params.profileId)}/pdf/`,
		body: { password: params.password },
		response: 'stream',
		itemIndex,
	});
	const stream = response.body as Parameters<typeof this.helpers.prepareBinaryData>[0] & {
		read(size?: number): Buffer | null;
		unshift(chunk: Buffer): void;
		once(event: string, listener: (...args: unknown[]) => void): void;
		removeListener(event: string, listener: (...args: unknown[]) => void): void;
		destroy(): void;
		readableEnded: boolean;
	};
	const head = await new Promise<Buffer>((resolve, reject) => {
		const tryRead = () => {
			const chunk = stream.read(5) ?? (stream.readableEnded ? stream.read() : null);
			if (chunk !== null) return done(chunk);
			stream.once('readable', tryRead);
		};
		const onEnd = () => done(stream.read() ?? Buffer.alloc(0));
		const onError = (error: unknown) => {
			stream.removeListener('end', onEnd);
			reject(error as Error);
		};
		const done = (chunk: Buffer) => {
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
			resolve(chunk);
		};
		stream.once('end', onEnd);
		stream.once('error', onError);
		tryRead();
	});
	if (head.toString('latin1', 0, 5) !== '%PDF-') {
		stream.destroy();
		throw new NodeOperationError(
			this.getNode(),
			`The service did not return a PDF file (received a ${detectFileType(head).name})`,
			{
				itemIndex,
				description:
					'Check that the Check ID and Profile ID belong together and try again. If it keeps happening, report it to the service provider.',
			},
		);
	}
	stream.unshift(head);

	const fileName = `aml-${params.checkId}-${params.profileId}.pdf`.replace(/[^\w.-]/g, '_');
	const binaryData = await this.helpers.prepareBinaryData(stream, fileName, 'application/pdf');
	return [
		{
			json: {
				checkId: params.checkId,
				profileId: params.profileId,
				fileName,
				mimeType: 'application/pdf',
				fileSize: binaryData.bytes ?? 0,
			},
			binary: { [binaryPropertyName]: binaryData },
		},
	];
}
