/**
 * What the AML PDF reports share (a check's, a profile's, a monitoring's): where the file goes, how
 * large it may be, and the one streamed download of the transport.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { z } from 'zod';

import { downloadFile } from '../../transport';
import { numberFromText, validateInput } from '../../helpers/validation';

/** Default of Max File Size (MB): the transport's own bound for a file. */
const DEFAULT_MAX_FILE_MB = 100;

/** The optional password of a check's or a monitoring's PDF (the provider makes it optional). */
export const optionalPasswordField: INodeProperties = {
	displayName: 'Password',
	name: 'password',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	hint: 'Optional: a password you choose. The service then locks the PDF with it, and anyone who opens the file needs it.',
	description: 'Leave empty for a PDF without a password',
};

export const outputFileFields: INodeProperties[] = [
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the PDF in',
		description:
			'Later nodes (for example Send Email, Slack or Write File to Disk) read the file from this field',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Max File Size (MB)',
				name: 'maxFileSizeMb',
				type: 'number',
				default: DEFAULT_MAX_FILE_MB,
				typeOptions: { minValue: 0.1, numberPrecision: 1 },
				description:
					'Stop the download of a larger file, with an error naming the size, instead of storing it',
			},
		],
	},
];

const maxFileSizeSchema = z.object({
	maxFileSizeMb: z
		.number({ invalid_type_error: 'must be a number of megabytes' })
		.positive({ message: 'must be above 0' })
		.finite({ message: 'must be a number of megabytes' }),
});

/** The PDF of one item: the request, the file's name without extension, the secrets of its body. */
interface PdfRequest {
	path: string;
	body: IDataObject;
	fileName: string;
	secrets: string[];
	/** What a 404 means here (which ID to check). */
	notFound?: { message: string; advice: string };
}

/**
 * Downloads a PDF the service makes into n8n's binary store (the transport's streamed path) and
 * returns the output item: `json` first, then the file's name, type and size.
 */
export async function pdfItem(
	this: IExecuteFunctions,
	itemIndex: number,
	request: PdfRequest,
	json: IDataObject,
) {
	const field =
		(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string).trim() || 'data';
	const { maxFileSizeMb } = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const size = validateInput.call(
		this,
		maxFileSizeSchema,
		{ maxFileSizeMb: numberFromText(maxFileSizeMb ?? DEFAULT_MAX_FILE_MB) },
		{
			maxFileSizeMb: {
				label: 'Max File Size (MB)',
				fix: `Enter a number of megabytes above 0, for example ${DEFAULT_MAX_FILE_MB}.`,
			},
		},
		itemIndex,
	);
	const file = await downloadFile.call(
		this,
		'apiKey',
		{
			method: 'POST',
			path: request.path,
			body: request.body,
			// An error answer may echo the password: no message, stored detail or error item may show it.
			secrets: request.secrets,
			// Making the PDF changes nothing at the service: a failed answer is asked for again.
			repeatable: true,
			itemIndex,
			notFound: request.notFound,
			maxBytes: Math.ceil(size.maxFileSizeMb * 1024 * 1024),
		},
		{ name: request.fileName, accepts: ['pdf'], what: 'PDF file' },
	);
	return {
		json: { ...json, fileName: file.fileName, mimeType: file.mimeType, fileSize: file.fileSize },
		binary: { [field]: file.binary },
	};
}
