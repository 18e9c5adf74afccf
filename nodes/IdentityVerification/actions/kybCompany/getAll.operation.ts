import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { kybCompanyListItemSchema, kybCompanyListParamsSchema } from '../../../shared/contract';
import { listPages } from '../../helpers/pagination';
import { simplifyOption } from '../../helpers/simplify';
import { numberFromText, validateInput } from '../../helpers/validation';
import { simplifiedCompany } from './simplify';

/** Pages read at the same time (as List Transactions' default); lowered on a 429. */
const MAX_PARALLEL = 4;

const properties: INodeProperties[] = [
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
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Registration Number',
				name: 'registrationNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. 305123456',
				description:
					'Only companies with this registration number (as the company entered it), for example to find an earlier onboarding',
			},
		],
	},
	...simplifyOption(
		'Whether to return one flat row per company (id, companyName, registrationNumber, country, status, approvalStatus, submissionTime) instead of the service’s nested answer',
	),
];

/** Its entry in the Operation selector. */
export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	description:
		'Get the companies that started KYB onboarding, newest first, with their review status; optionally by registration number',
	action: 'Get many KYB companies',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
export const outputSchema = kybCompanyListItemSchema;

const paramsSchema = kybCompanyListParamsSchema.extend({
	limit: z
		.number({ invalid_type_error: 'must be a whole number' })
		.int({ message: 'must be a whole number' })
		.min(1, { message: 'must be at least 1' })
		.optional(),
});

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const registrationNumber =
		typeof filters.registrationNumber === 'string' ? filters.registrationNumber.trim() : '';
	const { limit, ...qs } = validateInput.call(
		this,
		paramsSchema,
		{
			// Sent only when set: an empty filter would ask for companies without a number.
			registrationNumber: registrationNumber === '' ? undefined : registrationNumber,
			limit: returnAll ? undefined : numberFromText(this.getNodeParameter('limit', itemIndex, 50)),
		},
		{ limit: { label: 'Limit', fix: 'Enter a whole number of 1 or more, or turn on Return All.' } },
		itemIndex,
	);
	const companies = await listPages.call(this, {
		path: '/kyb/companies/',
		itemsName: 'companies',
		qs,
		limit,
		maxParallel: MAX_PARALLEL,
		itemIndex,
	});
	const simplify = this.getNodeParameter('simplify', itemIndex, false) === true;
	return companies.map((company) => ({
		json: (simplify ? simplifiedCompany(company) : company) as IDataObject,
	}));
}
