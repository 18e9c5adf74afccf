import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { poaCheckRequestSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { ACCEPTED_FILE_TYPES_TEXT, detectFileType } from '../../helpers/fileType';
import {
	isPlainBase64,
	jsonBodyWithBase64File,
	jsonBodyWithBase64Text,
	leadingBytes,
} from '../../helpers/jsonBody';
import { isNonEmptyObject } from '../../helpers/response';
import { simplifyItems, simplifyOption } from '../../helpers/simplify';
import { invalidInput, validateInput } from '../../helpers/validation';

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
		required: true,
		default: '',
		placeholder: 'e.g. Jonas Jonaitis',
		hint: 'At most 255 characters',
		description: "The person's full name, compared with the name on the document",
	},
	{
		displayName: 'Provided Address',
		name: 'providedAddress',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Gedimino pr. 1, 01103 Vilnius, Lithuania',
		hint: 'At most 255 characters',
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

const displayOptions = { show: { resource: ['proofOfAddress'], operation: ['createCheck'] } };

export const description = updateDisplayOptions(displayOptions, properties);

const textFieldsSchema = poaCheckRequestSchema.pick({ providedName: true, providedAddress: true });

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const binaryPropertyName = (
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string
	).trim();
	const text = validateInput.call(
		this,
		textFieldsSchema,
		{
			providedName: this.getNodeParameter('providedName', itemIndex, ''),
			providedAddress: this.getNodeParameter('providedAddress', itemIndex, ''),
		},
		{
			providedName: {
				label: 'Provided Name',
				fix: "Enter the person's full name as written on the document, at most 255 characters.",
			},
			providedAddress: {
				label: 'Provided Address',
				fix: "Enter the person's address as written on the document, at most 255 characters.",
			},
		},
		itemIndex,
	);

	// Checked here rather than only by n8n's assertBinaryData, which fails without a readable
	// message where the input has no file at all (e.g. when an AI agent calls the node as a tool).
	if (this.getInputData()[itemIndex]?.binary?.[binaryPropertyName] === undefined) {
		throw invalidInput.call(
			this,
			'Input Binary Field',
			`the input item has no file in the binary field "${binaryPropertyName}"`,
			'Add a step before this one that provides the document as a file (for example Read Files From Disk, a form upload or an e-mail attachment), or enter the name of the binary field that holds it.',
			itemIndex,
		);
	}
	const binary = this.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	const fields = { providedName: text.providedName, providedAddress: text.providedAddress };
	// n8n's default binary mode keeps the file as base64 in the item: use that text as is instead
	// of decoding it and encoding it again (one copy of the file instead of two).
	const inline =
		binary.id === undefined && typeof binary.data === 'string' && isPlainBase64(binary.data);
	const file = inline
		? undefined
		: await this.helpers.getBinaryDataBuffer(itemIndex, binaryPropertyName);
	const detected = detectFileType(file ?? leadingBytes(binary.data));
	if (!detected.accepted) {
		const fileName = binary.fileName ? `"${binary.fileName}" ` : '';
		throw invalidInput.call(
			this,
			'Input Binary Field',
			`the file ${fileName}is a ${detected.name}; accepted types are ${ACCEPTED_FILE_TYPES_TEXT}`,
			`Use a photo or scan of the document as ${ACCEPTED_FILE_TYPES_TEXT}. The type is checked from the file's content, not its name.`,
			itemIndex,
		);
	}

	const sizeBytes = file ? file.length : Buffer.byteLength(binary.data, 'base64');
	const { maxFileSizeMb } = this.getNodeParameter('options', itemIndex, {}) as {
		maxFileSizeMb?: number;
	};
	if (maxFileSizeMb !== undefined && sizeBytes > maxFileSizeMb * 1024 * 1024) {
		const fileName = binary.fileName ? `"${binary.fileName}" ` : '';
		throw invalidInput.call(
			this,
			'Input Binary Field',
			`the file ${fileName}is ${megabytes(sizeBytes)} MB, more than the Max File Size of ${maxFileSizeMb} MB`,
			'Use a smaller scan or photo of the document (for example a lower resolution), or raise Max File Size in the options.',
			itemIndex,
		);
	}

	const body = file
		? jsonBodyWithBase64File(fields, 'file', file)
		: jsonBodyWithBase64Text(fields, 'file', binary.data);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/api/v2/poa-checks/',
		body,
		itemIndex,
	});
	const check = withoutEchoedFile(response.body, sizeBytes);
	if (this.getNodeParameter('simplify', itemIndex, false) === true) {
		return simplifyItems([{ json: check }], SIMPLIFIED_POA_FIELDS);
	}
	return [{ json: check }];
}

function megabytes(bytes: number): string {
	return (bytes / 1024 / 1024).toFixed(1);
}

/**
 * The check as output: the service echoes the uploaded document in `file` (base64); it is left out
 * so that identity documents are not stored again in every execution, and its size given instead.
 */
function withoutEchoedFile(body: unknown, uploadedBytes: number): IDataObject {
	const check: IDataObject = isNonEmptyObject(body) ? { ...body } : {};
	const echoed = typeof check.file === 'string' ? check.file.replace(/\s+/g, '') : '';
	delete check.file;
	// The size of the document as the service echoed it (what it checked), else as uploaded.
	check.fileSizeBytes =
		echoed && isPlainBase64(echoed) ? Buffer.byteLength(echoed, 'base64') : uploadedBytes;
	return check;
}
