import type {
	IBinaryData,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

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
		placeholder: 'The ID of your AML check (a UUID)',
		description:
			'The ID of the AML check (a UUID), shown in the dashboard and in the AML check response',
	},
	{
		displayName: 'Profile ID',
		name: 'profileId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'The resourceId of a profile the check found',
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
		hint: 'A password you choose: the service locks the PDF with it, and anyone who opens the file needs it',
		description:
			'Make one up (at least 1 character). The PDF report comes locked with this password; keep it with the file, for example in your password manager.',
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

/** Bytes a base64 text decodes to (without decoding it). */
function base64Bytes(text: string): number {
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	return Math.floor((text.length * 3) / 4) - padding;
}

/**
 * The size in bytes of the file n8n stored. n8n 2.x reports it (`bytes`). n8n 1.x does not: its
 * stored binary data carries only a rounded text ("1.16 kB"), so there the size is read from what
 * it stored: the metadata of a file it stored by id (filesystem, S3, database), or the length of
 * data it keeps inline (base64, its default mode). Undefined when n8n tells neither.
 */
async function storedSize(
	this: IExecuteFunctions,
	binaryData: IBinaryData,
): Promise<number | undefined> {
	if (typeof binaryData.bytes === 'number') return binaryData.bytes;
	if (binaryData.id) {
		if (typeof this.helpers.getBinaryMetadata !== 'function') return undefined;
		const metadata = await this.helpers.getBinaryMetadata(binaryData.id);
		return Number.isSafeInteger(metadata?.fileSize) ? metadata.fileSize : undefined;
	}
	return typeof binaryData.data === 'string' && binaryData.data !== ''
		? base64Bytes(binaryData.data)
		: undefined;
}

/** The answer's stream, as far as this operation reads it itself. */
type PdfStream = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0] & {
	read(size?: number): Buffer | null;
	unshift(chunk: Buffer): void;
	once(event: string, listener: (...args: unknown[]) => void): void;
	removeListener(event: string, listener: (...args: unknown[]) => void): void;
	destroy(): void;
};

const FIELD_LABELS = {
	checkId: {
		label: 'Check ID',
		fix: 'Enter the AML check ID, the UUID the dashboard and the AML check answer show.',
	},
	profileId: {
		label: 'Profile ID',
		fix: 'Enter the profile ID (resourceId) from the AML check results.',
	},
	password: {
		label: 'Password',
		fix: 'Choose a password (at least 1 character): the service locks the PDF with it.',
	},
};

/**
 * The first bytes of the stream (at least 5 unless it ends sooner), left in it: what was read is
 * put back in the same turn as the last read, before the stream could end, so the whole file
 * still reads from its start. The stream may give its chunks as they came (the transport watches
 * it chunk by chunk), so a trickling service's signature may take several.
 */
async function peekHead(stream: PdfStream): Promise<Buffer> {
	return await new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const tryRead = () => {
			while (size < 5) {
				const chunk = stream.read();
				if (chunk === null) return void stream.once('readable', tryRead);
				chunks.push(chunk);
				size += chunk.length;
			}
			stream.unshift(Buffer.concat(chunks));
			done();
		};
		// The stream ended before 5 bytes: nothing to put back, it is no PDF.
		const onEnd = () => done();
		const onError = (error: unknown) => {
			stream.removeListener('end', onEnd);
			stream.removeListener('readable', tryRead);
			reject(error as Error);
		};
		const done = () => {
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
			stream.removeListener('readable', tryRead);
			resolve(Buffer.concat(chunks));
		};
		stream.once('end', onEnd);
		stream.once('error', onError);
		tryRead();
	});
}

/** Refuses an answer that is not a PDF (e.g. an HTML page of a proxy), naming what it was. */
function assertPdf(this: IExecuteFunctions, head: Buffer, stream: PdfStream, itemIndex: number) {
	if (head.toString('latin1', 0, 5) === '%PDF-') return;
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

/**
 * The stored file's size. A compliance report must never pass on as complete when it may not be:
 * no size, or fewer bytes than had arrived before the hand-over, fails the item.
 */
async function checkedSize(
	this: IExecuteFunctions,
	binaryData: IBinaryData,
	arrived: number,
	itemIndex: number,
): Promise<number> {
	const n8nLine =
		typeof binaryData.bytes === 'number'
			? 'this n8n'
			: 'n8n 1.x (it stores files without a byte count)';
	const fileSize = await storedSize.call(this, binaryData);
	if (fileSize === undefined) {
		throw new NodeOperationError(this.getNode(), 'n8n stored the PDF but reported no size for it', {
			itemIndex,
			description: `Whether the file is complete cannot be checked on ${n8nLine}. Update n8n to 2.x (it reports the size of every file it stores) and run it again.`,
		});
	}
	if (fileSize < arrived) {
		throw new NodeOperationError(
			this.getNode(),
			`n8n stored an incomplete PDF (${fileSize} bytes)`,
			{
				itemIndex,
				description: `At least ${arrived} bytes arrived from the service, but ${n8nLine} kept ${fileSize}. Update n8n to 2.x and run it again.`,
			},
		);
	}
	return fileSize;
}

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

	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `/aml/checks/${segment(params.checkId)}/profiles/${segment(params.profileId)}/pdf/`,
		body: { password: params.password },
		// An error answer may echo it: no message, stored detail or error item may show it.
		secrets: [params.password],
		response: 'stream',
		itemIndex,
	});
	const stream = response.body as PdfStream;
	const head = await peekHead(stream);
	assertPdf.call(this, head, stream, itemIndex);

	const fileName = `aml-${params.checkId}-${params.profileId}.pdf`.replace(/[^\w.-]/g, '_');
	const binaryData = await this.helpers.prepareBinaryData(stream, fileName, 'application/pdf');
	const fileSize = await checkedSize.call(this, binaryData, head.length, itemIndex);
	return [
		{
			json: {
				checkId: params.checkId,
				profileId: params.profileId,
				fileName,
				mimeType: 'application/pdf',
				fileSize,
			},
			binary: { [binaryPropertyName]: binaryData },
		},
	];
}
