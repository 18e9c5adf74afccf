import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	amlMonitoringListItemSchema,
	amlMonitoringListQuerySchema,
} from '../../../shared/contract';
import { listPages } from '../../helpers/pagination';
import { listReadOf, pageOptions, returnAllFields } from '../../helpers/listRead';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { monitoringItem, SETTINGS_LABELS, tagsOf } from './common';

const properties: INodeProperties[] = [
	...returnAllFields,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Country',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'e.g. LT',
				description: 'Only monitorings of this country: a two-letter code',
			},
			{
				displayName: 'Expired',
				name: 'isExpired',
				type: 'boolean',
				default: true,
				description:
					'Whether to list only expired monitorings (on) or only those not expired yet (off)',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'Only monitorings of a person or company with this name',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Active', value: 'ACTIVE', description: 'Screened every day, nothing new found' },
					{ name: 'Alert', value: 'ALERT', description: 'A new match waits for a review' },
					{ name: 'Pending', value: 'PENDING', description: 'The first screening is not done yet' },
					{ name: 'Stopped', value: 'STOPPED', description: 'Not screened until started again' },
				],
				default: 'ALERT',
				description: 'Only monitorings with this status',
			},
			{
				displayName: 'Tags',
				name: 'tags',
				type: 'string',
				default: '',
				placeholder: 'e.g. vip',
				description: 'Only monitorings with these tags, separated by commas',
			},
			{
				displayName: 'Type',
				name: 'userType',
				type: 'options',
				options: [
					{ name: 'Company', value: 'COMPANY' },
					{ name: 'Person', value: 'PERSON' },
				],
				default: 'PERSON',
				description: 'Only monitorings of persons, or only of companies',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Sort By',
				name: 'orderBy',
				type: 'options',
				options: [
					{ name: 'Created, Newest First', value: '-created' },
					{ name: 'Created, Oldest First', value: 'created' },
					{ name: 'Expiry, Latest First', value: '-expiration' },
					{ name: 'Expiry, Soonest First', value: 'expiration' },
				],
				default: 'expiration',
				description: 'The order of the monitorings (the service’s own order unless set)',
			},
			...pageOptions('monitorings'),
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	description:
		'Get many AML monitorings, filtered by status (for example ALERT), type, name, country, tags or expiry',
	action: 'Get many AML monitorings',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = amlMonitoringListItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const query = validateInput.call(
		this,
		amlMonitoringListQuerySchema,
		queryOf.call(this, itemIndex),
		fieldLabels(properties, {
			country: 'Enter a two-letter country code such as LT.',
			tags: SETTINGS_LABELS.tags.fix,
		}),
		itemIndex,
	);
	const read = listReadOf.call(this, itemIndex);
	const qs: IDataObject = { ...query };
	if (query.tags) qs.tags = query.tags.join(',');
	if (query.isExpired !== undefined) qs.isExpired = String(query.isExpired);
	const monitorings = await listPages.call(this, {
		path: '/aml/monitorings/',
		itemsName: 'monitorings',
		qs,
		...read,
		itemIndex,
	});
	return monitorings.map((monitoring) => ({ json: monitoringItem(monitoring) }));
}

/** The filters and sort order of an item, as the list's query carries them; empty ones left out. */
function queryOf(this: IExecuteFunctions, itemIndex: number): Record<string, unknown> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const query: Record<string, unknown> = { ...filters, orderBy: options.orderBy };
	if (typeof filters.country === 'string') query.country = filters.country.trim().toUpperCase();
	if (filters.tags !== undefined) query.tags = tagsOf(filters.tags);
	for (const [name, value] of Object.entries(query)) {
		const empty = Array.isArray(value) ? value.length === 0 : value === '' || value === undefined;
		if (empty) delete query[name];
	}
	return query;
}
