import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import {
	identificationListItemSchema,
	identificationListParamsSchema,
} from '../../../shared/contract';
import { listPages } from '../../helpers/pagination';
import { simplifyItems, simplifyOption } from '../../helpers/simplify';
import { numberFromText, validateInput } from '../../helpers/validation';
import {
	DEFAULT_MAX_PARALLEL,
	DEFAULT_PER_PAGE,
	MAX_PARALLEL_LIMIT,
} from '../bank/listTransactions.operation';

const properties: INodeProperties[] = [
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. customer-12345',
		description:
			'The Client ID the verifications were created with (the Client ID of Create Verification Token, or clientId of a webhook): every verification of this client is listed',
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
	...simplifyOption(
		'Whether to return one flat row per verification (scanRef, clientId, status, suspected) instead of the answer as the service sends it',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Max Parallel Requests',
				name: 'maxParallelRequests',
				type: 'number',
				default: DEFAULT_MAX_PARALLEL,
				typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_LIMIT },
				description:
					'How many pages to download at the same time. Lower it if the service reports too many requests; it is lowered automatically when that happens.',
			},
			{
				displayName: 'Per Page',
				name: 'perPage',
				type: 'number',
				default: DEFAULT_PER_PAGE,
				typeOptions: { minValue: 1 },
				description: 'How many verifications to ask the service for in each request',
			},
		],
	},
];

/** Its entry in the Operation selector. */
export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	description:
		'List every verification of one client (by Client ID): scanRef, status and whether it was suspected, one item each',
	action: 'Get many verifications of a client',
};

const displayOptions = { show: { resource: ['identification'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs, for n8n's schema preview: a verification of the list (Simplify adds clientId). */
export const outputSchema = identificationListItemSchema.extend({
	clientId: z.string().optional(),
});

const paramsSchema = identificationListParamsSchema.extend({
	perPage: z
		.number({ invalid_type_error: 'must be a whole number' })
		.int({ message: 'must be a whole number' })
		.min(1, { message: 'must be at least 1' })
		.optional(),
	limit: z
		.number({ invalid_type_error: 'must be a whole number' })
		.int({ message: 'must be a whole number' })
		.min(1, { message: 'must be at least 1' })
		.optional(),
	maxParallelRequests: z
		.number({ invalid_type_error: 'must be a whole number' })
		.int({ message: 'must be a whole number' })
		.min(1, { message: 'must be at least 1' })
		.max(MAX_PARALLEL_LIMIT, { message: `must be at most ${MAX_PARALLEL_LIMIT}` }),
});

const FIELD_LABELS = {
	clientId: {
		label: 'Client ID',
		fix: 'Enter the Client ID the verifications were created with: without it the service would list the verifications of every client.',
	},
	perPage: { label: 'Per Page', fix: 'Enter a whole number of 1 or more, for example 50.' },
	limit: { label: 'Limit', fix: 'Enter a whole number of 1 or more, or turn on Return All.' },
	maxParallelRequests: {
		label: 'Max Parallel Requests',
		fix: `Enter a whole number from 1 to ${MAX_PARALLEL_LIMIT}; ${DEFAULT_MAX_PARALLEL} is a good default.`,
	},
};

/** What Simplify keeps of a verification, with the Client ID it was listed for. */
const SIMPLIFIED_FIELDS = ['scanRef', 'clientId', 'status', 'suspected'];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const params = validateInput.call(
		this,
		paramsSchema,
		{
			clientId: this.getNodeParameter('clientId', itemIndex, ''),
			// Sent only when set: without it the service's own page size applies.
			perPage: options.perPage === undefined ? undefined : numberFromText(options.perPage),
			limit: returnAll ? undefined : numberFromText(this.getNodeParameter('limit', itemIndex, 50)),
			maxParallelRequests: numberFromText(options.maxParallelRequests ?? DEFAULT_MAX_PARALLEL),
		},
		FIELD_LABELS,
		itemIndex,
	);
	const verifications = await listPages.call(this, {
		path: '/kyc/identifications/',
		itemsName: 'verifications',
		qs: { clientId: params.clientId },
		perPage: params.perPage,
		limit: params.limit,
		maxParallel: params.maxParallelRequests,
		itemIndex,
	});
	const items = verifications.map((verification) => ({ json: verification as IDataObject }));
	if (this.getNodeParameter('simplify', itemIndex, false) !== true) return items;
	const withClient = items.map(({ json }) => ({ json: { ...json, clientId: params.clientId } }));
	return simplifyItems(withClient, SIMPLIFIED_FIELDS);
}
