import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { kybCompanyListItemSchema, kybCompanyListParamsSchema } from '../../../shared/contract';
import { listPages } from '../../helpers/pagination';
import { simplifyOption } from '../../helpers/simplify';
import { listReadOf, pageOptions, returnAllFields } from '../../helpers/listRead';
import { validateInput } from '../../helpers/validation';
import { simplifiedCompany } from './simplify';

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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: pageOptions('companies'),
	},
];

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	description:
		'Get the companies that started KYB onboarding, newest first, with their review status; optionally by registration number',
	action: 'Get many KYB companies',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = kybCompanyListItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	// An expression may give the number as a number (`{{ 305123456 }}`): it filters all the same.
	const given = filters.registrationNumber;
	const registrationNumber =
		typeof given === 'string' || typeof given === 'number' ? String(given).trim() : '';
	const qs = validateInput.call(
		this,
		kybCompanyListParamsSchema,
		// Sent only when set: an empty filter would ask for companies without a number.
		{ registrationNumber: registrationNumber === '' ? undefined : registrationNumber },
		{},
		itemIndex,
	);
	const read = listReadOf.call(this, itemIndex);
	const companies = await listPages.call(this, {
		path: '/kyb/companies/',
		itemsName: 'companies',
		qs,
		...read,
		itemIndex,
	});
	const simplify = this.getNodeParameter('simplify', itemIndex, false) === true;
	return companies.map((company) => ({
		json: (simplify ? simplifiedCompany(company) : company) as IDataObject,
	}));
}
