/**
 * What the operations that download a file share: where the file goes, how large it may be (Max
 * File Size, and Max Total Size for several; checked before anything is sent), the optional
 * password of a PDF, and a PDF the service makes, through the transport's one streamed path into
 * n8n's binary store.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { DEFAULT_MAX_FILE_MB } from '../transport';
import { downloadFile, downloadLink } from '../transport/download';
import type { FileToStore } from '../transport/download';
import type { ApiRequest } from '../transport';
import { numberFromText, validateInput } from './validation';

/** Max File Size (MB), inside a download's Options. */
export const maxFileSizeOption: INodeProperties = {
	displayName: 'Max File Size (MB)',
	name: 'maxFileSizeMb',
	type: 'number',
	default: DEFAULT_MAX_FILE_MB,
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	description:
		'Stop the download of a larger file, with an error naming the size, instead of storing it',
};

/** The most an item's files may have together unless Max Total Size says otherwise (MB). */
const DEFAULT_MAX_TOTAL_MB = 500;

/** Max Total Size (MB), for an operation that downloads several files per item. */
export const maxTotalSizeOption: INodeProperties = {
	displayName: 'Max Total Size (MB)',
	name: 'maxTotalSizeMb',
	type: 'number',
	default: DEFAULT_MAX_TOTAL_MB,
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	description:
		"Stop before the item's files together would pass this size, with an error naming it. A verification's photos and videos are usually a few to tens of MB.",
};

/** Put Output File in Field; `description` names the nodes that would read the file next. */
export function outputFileField(description: string): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the PDF in',
		description,
	};
}

/** The optional password of a PDF the service locks (the provider makes it optional). */
export const optionalPasswordField: INodeProperties = {
	displayName: 'Password',
	name: 'password',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	hint: 'Optional: a password you choose. The service then locks the PDF with it, and anyone who opens the file needs it.',
	description: 'Leave empty for a PDF without a password',
};

/** The item's Password; none when empty (the provider's schema makes it optional). */
export function optionalPasswordOf(this: IExecuteFunctions, itemIndex: number): unknown {
	const password = this.getNodeParameter('password', itemIndex, '');
	return password === '' ? undefined : password;
}

export const PASSWORD_LABEL = {
	label: optionalPasswordField.displayName,
	fix: 'Enter the password as text, or leave it empty for a PDF without one.',
};

/** Where the PDF goes, and Max File Size under Options. */
export const outputFileFields: INodeProperties[] = [
	outputFileField(
		'Later nodes (for example Send Email, Slack or Write File to Disk) read the file from this field',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [maxFileSizeOption],
	},
];

/** The item's output field, `data` when left empty. */
function outputFieldOf(this: IExecuteFunctions, itemIndex: number): string {
	return (
		(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string).trim() || 'data'
	);
}

const megabytesSchema = z
	.number({ invalid_type_error: 'must be a number of megabytes' })
	.positive({ message: 'must be above 0' })
	.finite({ message: 'must be a number of megabytes' });

/** A size option of the item's Options, in bytes, checked: the error names the option. */
function megabytesOptionOf(
	this: IExecuteFunctions,
	option: INodeProperties,
	itemIndex: number,
): number {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fallback = option.default as number;
	const { [option.name]: megabytes } = validateInput.call(
		this,
		z.object({ [option.name]: megabytesSchema }),
		{ [option.name]: numberFromText(options[option.name] ?? fallback) },
		{
			[option.name]: {
				label: option.displayName,
				fix: `Enter a number of megabytes above 0, for example ${fallback}.`,
			},
		},
		itemIndex,
	) as Record<string, number>;
	return Math.ceil(megabytes * 1024 * 1024);
}

/** The item's Max File Size in bytes, checked. */
export function maxFileBytesOf(this: IExecuteFunctions, itemIndex: number): number {
	return megabytesOptionOf.call(this, maxFileSizeOption, itemIndex);
}

/** The item's Max Total Size in bytes, checked. */
export function maxTotalBytesOf(this: IExecuteFunctions, itemIndex: number): number {
	return megabytesOptionOf.call(this, maxTotalSizeOption, itemIndex);
}

/** The PDF of one item: the request, and the file's name without extension. */
export interface PdfRequest {
	path: string;
	body: IDataObject;
	fileName: string;
	/** What a 404 means here (which ID to check). */
	notFound?: ApiRequest['notFound'];
	/** What the file is called in messages (`PDF file` unless set). */
	what?: string;
	/** The service may answer with the file as base64 text (decoded as it arrives). */
	base64?: boolean;
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
	const field = outputFieldOf.call(this, itemIndex);
	const file = await downloadFile.call(
		this,
		'apiKey',
		{
			method: 'POST',
			path: request.path,
			body: request.body,
			// An error answer may echo the password: no message, stored detail or error item may show it.
			secrets: typeof request.body.password === 'string' ? [request.body.password] : [],
			// Making the PDF changes nothing at the service: a failed answer is asked for again.
			repeatable: true,
			itemIndex,
			notFound: request.notFound,
			maxBytes: maxFileBytesOf.call(this, itemIndex),
		},
		{
			name: request.fileName,
			accepts: ['pdf'],
			what: request.what ?? 'PDF file',
			base64: request.base64,
		},
	);
	return {
		json: { ...json, fileName: file.fileName, mimeType: file.mimeType, fileSize: file.fileSize },
		binary: { [field]: file.binary },
	};
}

/**
 * Downloads a file at a link the service gave (no credential goes with it) into the item's output
 * field, under Max File Size, and returns the output item as pdfItem does.
 */
export async function linkItem(
	this: IExecuteFunctions,
	itemIndex: number,
	link: string,
	file: FileToStore,
	json: IDataObject,
) {
	const field = outputFieldOf.call(this, itemIndex);
	const downloaded = await downloadLink.call(this, link, file, {
		itemIndex,
		maxBytes: maxFileBytesOf.call(this, itemIndex),
	});
	return {
		json: {
			...json,
			fileName: downloaded.fileName,
			mimeType: downloaded.mimeType,
			fileSize: downloaded.fileSize,
		},
		binary: { [field]: downloaded.binary },
	};
}
