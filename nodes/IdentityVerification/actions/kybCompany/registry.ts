/**
 * What the registry document operations share: the company as the registry knows it (country,
 * registration number, region), read and checked before anything is sent, and the service's path.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldLabels } from '../../helpers/validation';

/** The service's registry documents (kyb.yaml's GOV Orders). */
export const GOV_DOCUMENTS_PATH = '/api/v2/gov-ordered-documents/';

/** The company in the registry: the fields both Get Available and Order take. */
export const registryCompanyFields: INodeProperties[] = [
	{
		displayName: 'Country',
		name: 'countryCode',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. LT',
		description:
			'The two-letter code of the country whose registry has the company (one of the service’s registry countries, such as LT, GB, DE or US), as KYB Company → Get shows under company.country',
	},
	{
		displayName: 'Registration Number',
		name: 'registrationNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 305123456',
		description:
			'The company’s number in that registry. The provider asks for the external company ID of its registry search; KYB Company → Get shows the number the company entered under company.registrationNumber.',
	},
];

/** Region, inside Additional Fields: the provider's optional `region`. */
const regionField: INodeProperties = {
	displayName: 'Region',
	name: 'region',
	type: 'string',
	default: '',
	placeholder: 'e.g. CA',
	description:
		'The region of the registry, where a country has several (such as a US state); leave empty otherwise',
};

/** Additional Fields with Region. */
export const registryOptions: INodeProperties = {
	displayName: 'Additional Fields',
	name: 'registryFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options: [regionField],
};

/** The labels of the company's fields in messages. */
export const REGISTRY_LABELS = fieldLabels([...registryCompanyFields, registryOptions], {
	countryCode: 'Enter the two-letter code of one of the registry countries, such as LT.',
	registrationNumber: 'Enter the company’s registration number.',
	region: 'Enter the region, or remove the field.',
});

/** Text of a field as typed or mapped (an expression may give a number), trimmed. */
export function textOf(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

/** The item's company in the registry as entered (to be checked): country in upper case, region when set. */
export function registryInputOf(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const more = this.getNodeParameter('registryFields', itemIndex, {}) as IDataObject;
	const region = textOf(more.region);
	return {
		countryCode: textOf(this.getNodeParameter('countryCode', itemIndex, '')).toUpperCase(),
		registrationNumber: textOf(this.getNodeParameter('registrationNumber', itemIndex, '')),
		...(region === '' ? {} : { region }),
	};
}
