import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { poaCheckRequestSchema, poaCheckSchema } from '../../../shared/contract';
import { apiRequest, MAX_JSON_BYTES, releasedOnceRead } from '../../transport';
import { ACCEPTED_FILE_TYPES_TEXT, detectFileType } from '../../transport/download';
import type { StreamedBody } from '../../transport';
import {
	isPlainBase64,
	jsonBodyLength,
	jsonBodyWithBase64File,
	jsonBodyWithBase64Text,
	jsonPiecesWithBase64,
	leadingBytes,
} from '../../helpers/jsonBody';
import { isNonEmptyObject } from '../../helpers/response';
import { simplifyItems, simplifyOption } from '../../helpers/simplify';
import { fieldLabels, invalidInput, validateInput } from '../../helpers/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field containing the document (for example a utility bill or bank statement) as JPEG, PNG, WEBP, HEIC, HEIF or PDF',
		description:
			'Name of the binary field that holds the file, as shown in the Binary tab of the previous node (for example after Read Files From Disk or a form upload)',
	},
	{
		displayName: 'Provided Name',
		name: 'providedName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Jonas Jonaitis',
		hint: 'Optional, at most 255 characters. Without it the name is not compared.',
		description: "The person's full name, compared with the name on the document",
	},
	{
		displayName: 'Provided Address',
		name: 'providedAddress',
		type: 'string',
		default: '',
		placeholder: 'e.g. Gedimino pr. 1, 01103 Vilnius, Lithuania',
		hint: 'Optional, at most 255 characters. Without it the address is not compared.',
		description: "The person's address, compared with the address on the document",
	},
	...simplifyOption(
		'Whether to return only the fields a workflow routes on (id, overallStatus, nameMatch, addressMatch, dateValid, isScreenshot, documentType, country, issueDate) instead of the whole answer',
	),
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
				default: 10,
				typeOptions: { minValue: 0.1, numberPrecision: 1 },
				description:
					'Refuse a document larger than this before it is uploaded, with an error naming the file and its size',
			},
		],
	},
];

/** What Simplify keeps of the POA check: the verdict, the three checks and what the document is. */
const SIMPLIFIED_POA_FIELDS = [
	'id',
	'overallStatus',
	'nameMatch',
	'addressMatch',
	'dateValid',
	'isScreenshot',
	'documentType',
	'country',
	'issueDate',
];

export const option: INodePropertyOptions = {
	name: 'Create Check',
	value: 'createCheck',
	description: 'Check a document (such as a utility bill) against a name and address',
	action: 'Create a proof of address check',
};

const displayOptions = { show: { resource: ['proofOfAddress'], operation: ['createCheck'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema): the echoed
 * document is never output, the uploaded one's size is (see execute).
 */
export const outputSchema = poaCheckSchema
	.omit({ file: true })
	.extend({ fileSizeBytes: z.number() });

const textFieldsSchema = poaCheckRequestSchema.pick({ providedName: true, providedAddress: true });

const TEXT_FIELD_LABELS = fieldLabels(properties, {
	providedName:
		"Enter the person's full name as written on the document, at most 255 characters, or leave it empty.",
	providedAddress:
		"Enter the person's address as written on the document, at most 255 characters, or leave it empty.",
});

/** The Provided Name and Provided Address of an item, checked; an empty one is not sent. */
function textFields(this: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const given: Record<string, unknown> = {};
	for (const name of ['providedName', 'providedAddress']) {
		const value = this.getNodeParameter(name, itemIndex, '');
		if (typeof value !== 'string' || value.trim() !== '') given[name] = value;
	}
	// Only the given keys come back (zod adds no missing optional key), each as trimmed text.
	return validateInput.call(this, textFieldsSchema, given, TEXT_FIELD_LABELS, itemIndex) as Record<
		string,
		string
	>;
}

/** Bytes read per step from a stored file (a multiple of 3: whole base64 groups per chunk). */
const FILE_CHUNK_BYTES = 3 * 64 * 1024;

/**
 * Where the item's document is, in the form that costs least to send: its base64 text as n8n keeps
 * it in the item (copied once into the body, never decoded), the id of the stored file (streamed
 * into the body: never whole in memory), or, for anything else, its bytes.
 */
interface Document {
	propertyName: string;
	sizeBytes: number;
	base64?: string;
	storedId?: string;
	file?: Buffer;
}

/**
 * The item's document, checked before anything is sent: no file, a type the service does not take,
 * over Max File Size.
 */
async function documentOf(this: IExecuteFunctions, itemIndex: number): Promise<Document> {
	const propertyName = (
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string
	).trim();
	// Checked here rather than only by n8n's assertBinaryData, which fails without a readable
	// message where the input has no file at all (e.g. when an AI agent calls the node as a tool).
	if (this.getInputData()[itemIndex]?.binary?.[propertyName] === undefined) {
		throw invalidInput.call(
			this,
			'Input Binary Field',
			`the input item has no file in the binary field "${propertyName}"`,
			'Add a step before this one that provides the document as a file (for example Read Files From Disk, a form upload or an e-mail attachment), or enter the name of the binary field that holds it.',
			itemIndex,
		);
	}
	const binary = this.helpers.assertBinaryData(itemIndex, propertyName);
	const document = await locate.call(this, itemIndex, propertyName, binary);
	const fileName = binary.fileName ? `"${binary.fileName}" ` : '';
	const detected = detectFileType(await leadingBytesOf.call(this, document));
	if (!detected.accepted) {
		throw invalidInput.call(
			this,
			'Input Binary Field',
			`the file ${fileName}is a ${detected.name}; accepted types are ${ACCEPTED_FILE_TYPES_TEXT}`,
			`Use a photo or scan of the document as ${ACCEPTED_FILE_TYPES_TEXT}. The type is checked from the file's content, not its name.`,
			itemIndex,
		);
	}
	const { maxFileSizeMb } = this.getNodeParameter('options', itemIndex, {}) as {
		maxFileSizeMb?: number;
	};
	if (maxFileSizeMb !== undefined && document.sizeBytes > maxFileSizeMb * 1024 * 1024) {
		throw invalidInput.call(
			this,
			'Input Binary Field',
			`the file ${fileName}is ${megabytes(document.sizeBytes)} MB, more than the Max File Size of ${maxFileSizeMb} MB`,
			'Use a smaller scan or photo of the document (for example a lower resolution), or raise Max File Size in the options.',
			itemIndex,
		);
	}
	return document;
}

async function locate(
	this: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	binary: IBinaryData,
): Promise<Document> {
	if (binary.id === undefined && typeof binary.data === 'string' && isPlainBase64(binary.data)) {
		const sizeBytes = Buffer.byteLength(binary.data, 'base64');
		return { propertyName, sizeBytes, base64: binary.data };
	}
	if (binary.id !== undefined) {
		const { fileSize } = await this.helpers.getBinaryMetadata(binary.id);
		return { propertyName, sizeBytes: fileSize, storedId: binary.id };
	}
	const file = await this.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return { propertyName, sizeBytes: file.length, file };
}

/** The first bytes of the document, enough to recognise its type. */
async function leadingBytesOf(this: IExecuteFunctions, document: Document): Promise<Uint8Array> {
	if (document.file) return document.file;
	if (document.base64 !== undefined) return leadingBytes(document.base64);
	const stream = await this.helpers.getBinaryStream(document.storedId ?? '', 512);
	// Leaving the loop early closes the stream.
	for await (const chunk of stream) return chunk as Uint8Array;
	return new Uint8Array(0);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { body, sizeBytes } = await requestBody.call(this, itemIndex);
	const check = await createdCheck.call(this, itemIndex, body, sizeBytes);
	if (this.getNodeParameter('simplify', itemIndex, false) === true) {
		return simplifyItems([{ json: check }], SIMPLIFIED_POA_FIELDS);
	}
	return [{ json: check }];
}

/**
 * The request's JSON body with the document in it, and the document's size. The document's own
 * bytes are not kept past this: only the body is held while the check is sent and answered.
 */
async function requestBody(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<{ body: Buffer | StreamedBody; sizeBytes: number }> {
	const fields = textFields.call(this, itemIndex);
	const document = await documentOf.call(this, itemIndex);
	const body =
		document.storedId !== undefined
			? streamedBody.call(this, fields, document.storedId, document.sizeBytes)
			: document.base64 !== undefined
				? jsonBodyWithBase64Text(fields, 'file', document.base64)
				: jsonBodyWithBase64File(fields, 'file', document.file ?? Buffer.alloc(0));
	return { body, sizeBytes: document.sizeBytes };
}

/**
 * The body of a stored file: read from n8n's binary store while it is sent, for each attempt. Each
 * chunk's memory is given back once it is encoded: n8n's stores (disk, S3, database) read the file
 * afresh for every stream, so nothing else holds it, and a chunk left to the garbage collector
 * would keep up to the whole file until a collection.
 */
function streamedBody(
	this: IExecuteFunctions,
	fields: Record<string, string>,
	storedId: string,
	sizeBytes: number,
): StreamedBody {
	return {
		length: jsonBodyLength(fields, 'file', sizeBytes),
		open: async () => {
			const file = await this.helpers.getBinaryStream(storedId, FILE_CHUNK_BYTES);
			return file.compose(async function* (chunks: AsyncIterable<Uint8Array>) {
				yield* jsonPiecesWithBase64(fields, 'file', releasedOnceRead(chunks), sizeBytes);
			});
		},
	};
}

function megabytes(bytes: number): string {
	return (bytes / 1024 / 1024).toFixed(1);
}

/**
 * Sends the check and reads the answer as it arrives. The service echoes the uploaded document in
 * `file` (base64, as large as the upload and a third more): it is skipped, never held, so that
 * identity documents are neither kept in memory nor stored again in every execution; the output
 * has the uploaded document's size, `fileSizeBytes`, instead.
 */
async function createdCheck(
	this: IExecuteFunctions,
	itemIndex: number,
	body: Buffer | StreamedBody,
	uploadedBytes: number,
): Promise<IDataObject> {
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/api/v2/poa-checks/',
		body,
		itemIndex,
		// The echoed document (base64) makes the answer larger than the upload by a third.
		maxBytes: MAX_JSON_BYTES + Math.ceil((uploadedBytes * 4) / 3),
		reader: 'withoutFileEcho',
	});
	const check: IDataObject = isNonEmptyObject(response.body) ? response.body : {};
	check.fileSizeBytes = uploadedBytes;
	return check;
}
