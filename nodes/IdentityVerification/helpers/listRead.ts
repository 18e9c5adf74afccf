/**
 * What every list operation shares (List Transactions and the Get Many operations): Return All and
 * Limit, as n8n's own Get Many operations have them, Max Parallel Requests and Per Page under
 * Options, and reading them, checked before anything is sent, into what `listPages` takes.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { fieldLabels, numberFromText, validateInput } from './validation';

const DEFAULT_PER_PAGE = 50;
const DEFAULT_MAX_PARALLEL = 4;
const MAX_PARALLEL_LIMIT = 16;

/** Return All, and Limit when it is off. */
export const returnAllFields: INodeProperties[] = [
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
];

/** Max Parallel Requests and Per Page, for a list's Options; `items` says what a page holds. */
export function pageOptions(items: string): INodeProperties[] {
	return [
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
			description: `How many ${items} to ask the service for in each request`,
		},
	];
}

const wholeNumber = () =>
	z
		.number({ invalid_type_error: 'must be a whole number' })
		.int({ message: 'must be a whole number' })
		.min(1, { message: 'must be at least 1' });

const readSchema = z.object({
	limit: wholeNumber().optional(),
	perPage: wholeNumber().optional(),
	maxParallelRequests: wholeNumber().max(MAX_PARALLEL_LIMIT, {
		message: `must be at most ${MAX_PARALLEL_LIMIT}`,
	}),
});

const LABELS = fieldLabels([...returnAllFields, ...pageOptions('results')], {
	limit: 'Enter a whole number of 1 or more, or turn on Return All.',
	perPage: 'Enter a whole number of 1 or more, for example 50.',
	maxParallelRequests: `Enter a whole number from 1 to ${MAX_PARALLEL_LIMIT}; ${DEFAULT_MAX_PARALLEL} is a good default.`,
});

/** How much of a list an item asks for: Limit (none with Return All), Per Page, parallel pages. */
export interface ListRead {
	limit?: number;
	/** Sent only when set: without it the service's own page size applies. */
	perPage?: number;
	maxParallel: number;
}

/** The item's Return All, Limit and page options, checked. */
export function listReadOf(this: IExecuteFunctions, itemIndex: number): ListRead {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>;
	const input = {
		limit: returnAll ? undefined : numberFromText(this.getNodeParameter('limit', itemIndex, 50)),
		perPage: options.perPage === undefined ? undefined : numberFromText(options.perPage),
		maxParallelRequests: numberFromText(options.maxParallelRequests ?? DEFAULT_MAX_PARALLEL),
	};
	const read = validateInput.call(this, readSchema, input, LABELS, itemIndex);
	return { limit: read.limit, perPage: read.perPage, maxParallel: read.maxParallelRequests };
}
