import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	GOV_ORDER_STATUSES,
	govOrderedDocumentSchema,
	govOrderedDocumentsParamsSchema,
} from '../../../shared/contract';
import { toItems } from '../../helpers/response';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { GOV_DOCUMENTS_PATH, textOf } from './registry';

/** The provider's words for an order's status, as the Status filter offers them. */
const STATUS_NAMES: Record<(typeof GOV_ORDER_STATUSES)[number], string> = {
	FAILED: 'Failed',
	FINISHED: 'Finished (Delivered)',
	IN_PROGRESS: 'In Progress',
	NOT_ORDERED: 'Not Ordered',
	TIMED_OUT: 'Timed Out',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Ordered After',
				name: 'orderedAfter',
				type: 'dateTime',
				default: '',
				description: 'Only documents ordered after this time',
			},
			{
				displayName: 'Ordered Before',
				name: 'orderedBefore',
				type: 'dateTime',
				default: '',
				description: 'Only documents ordered before this time',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'FINISHED',
				options: Object.entries(STATUS_NAMES)
					.map(([value, name]) => ({ name, value }))
					.sort((a, b) => a.name.localeCompare(b.name)),
				description: 'Only documents whose order has this status',
			},
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'Only documents with this title',
			},
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Get Many Ordered Documents',
	value: 'getOrderedDocuments',
	description:
		'List the registry documents the account ordered (all companies), one item each with its status and, once delivered, its file link; the service lists them all at once',
	action: 'Get many ordered registry documents',
};

const displayOptions = {
	show: { resource: ['kybCompany'], operation: ['getOrderedDocuments'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = govOrderedDocumentSchema;

const LABELS = fieldLabels(properties, {
	status: 'Choose a status from the list.',
	title: 'Enter a title, or remove the filter.',
	orderedAfter: 'Pick a date and time, or remove the filter.',
	orderedBefore: 'Pick a date and time, or remove the filter.',
});

/** A date filter as n8n gives it (ISO text, with or without a zone): UTC ISO text, or undefined. */
function isoOf(value: unknown): unknown {
	const text = textOf(value);
	if (text === '') return undefined;
	const date = new Date(text);
	return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const title = textOf(filters.title);
	const qs = validateInput.call(
		this,
		govOrderedDocumentsParamsSchema,
		{
			status: filters.status,
			// Sent only when set: an empty filter would ask for documents without a title.
			title: title === '' ? undefined : title,
			orderedAfter: isoOf(filters.orderedAfter),
			orderedBefore: isoOf(filters.orderedBefore),
		},
		LABELS,
		itemIndex,
	);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'GET',
		path: GOV_DOCUMENTS_PATH,
		qs: qs as IDataObject,
		itemIndex,
	});
	return Array.isArray(response.body) ? toItems(response.body) : [];
}
