import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { govOrderedDocumentParamsSchema, govOrderedDocumentSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { linkItem, outputFileFields } from '../../helpers/fileDownload';
import { idOf } from '../../helpers/locator';
import { fileItemSchema } from '../../helpers/fileItem';
import { segment } from '../../helpers/response';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { GOV_DOCUMENTS_PATH } from './registry';

const properties: INodeProperties[] = [
	{
		displayName: 'Document ID',
		name: 'documentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3c90c3cc-0d44-4b50-8888-8dd25736052a',
		description:
			'The ID of the ordered document: from the Registry document delivered event, or from Get Many Ordered Documents',
	},
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: true,
		description:
			'Whether to download the document into a binary field once the service links it (a delivered order); before that the item has its status only',
	},
	...outputFileFields.map((field) => ({
		...field,
		displayOptions: { show: { download: [true] } },
	})),
];

export const option: INodePropertyOptions = {
	name: 'Get Ordered Document',
	value: 'getOrderedDocument',
	description:
		'Get one ordered registry document by its ID, with its status, and download its file once delivered (answers Registry document delivered)',
	action: 'Get an ordered registry document',
};

const displayOptions = {
	show: { resource: ['kybCompany'], operation: ['getOrderedDocument'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = govOrderedDocumentSchema.merge(fileItemSchema.partial());

const LABELS = fieldLabels(properties, {
	documentId:
		'Map the id of the Registry document delivered event, or of Get Many Ordered Documents.',
});

/** The formats a registry sends its documents in that a download keeps (by their first bytes). */
const ACCEPTED = ['pdf', 'jpeg', 'png'];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { documentId } = validateInput.call(
		this,
		govOrderedDocumentParamsSchema,
		{ documentId: idOf.call(this, 'documentId', itemIndex) },
		LABELS,
		itemIndex,
	);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'GET',
		path: `${GOV_DOCUMENTS_PATH}${segment(documentId)}/`,
		itemIndex,
		notFound: {
			message: 'Not found (HTTP 404): the service has no ordered document with this Document ID',
			advice:
				'Use the id of a Registry document delivered event or one Get Many Ordered Documents lists; sandbox and production keys see different orders.',
		},
	});
	const json: IDataObject = isPlainObject(response.body) ? response.body : {};
	const link = typeof json.file === 'string' ? json.file.trim() : '';
	if (this.getNodeParameter('download', itemIndex, true) !== true || link === '') return [{ json }];
	const name = `registry-document-${documentId}`;
	return [
		await linkItem.call(
			this,
			itemIndex,
			link,
			{ name, accepts: ACCEPTED, what: 'registry document' },
			json,
		),
	];
}
