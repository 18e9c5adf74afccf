/**
 * The company's details of Create Form and Update Form (kyb.yaml's CompanyInfoRequest): name and
 * country as fields, the rest under Company Details, each sent only when set.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { kybFormRequestSchema } from '../../../shared/contract';
import { fieldLabel, fieldLabels, validateInput } from '../../helpers/validation';

/** An optional text detail and its description. */
const detail = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	description,
});

export const companyDetailFields: INodeProperties[] = [
	{
		displayName: 'Company Name',
		name: 'companyName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. UAB Baltic Widgets',
		description: 'The company’s registered name (at most 200 characters)',
	},
	{
		displayName: 'Country',
		// Not `country`: Bank → Create Token has a list of that name.
		name: 'companyCountry',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. LT',
		description: 'The two-letter code of the country the company is registered in',
	},
	{
		displayName: 'Company Details',
		name: 'companyDetails',
		type: 'collection',
		placeholder: 'Add Detail',
		default: {},
		options: [
			detail(
				'Activity Code',
				'activityCode',
				'The company’s activity code, such as its NACE code (at most 8 characters)',
			),
			detail(
				'Brand Names',
				'brandNames',
				'The names the company trades under, separated by commas (at most 10)',
			),
			detail('City', 'city', 'The city of its registration address (at most 100 characters)'),
			detail('Email', 'email', 'The company’s e-mail address'),
			detail(
				'Operating Address',
				'operatingAddress',
				'Where the company operates, when not its registration address (at most 255 characters)',
			),
			detail('Phone', 'phone', 'The company’s phone number in E.164 format, such as +37060000000'),
			detail(
				'Postal Address',
				'postalAddress',
				'Its registration address in one line (at most 255 characters)',
			),
			detail(
				'Postcode',
				'postcode',
				'The postcode of its registration address (at most 20 characters)',
			),
			detail(
				'Region',
				'region',
				'The region code of its registration, such as a US state (at most 2 characters)',
			),
			detail(
				'Registration Number',
				'registrationNumber',
				'Its number in the company registry (at most 100 characters)',
			),
			detail('Street', 'street', 'The street of its registration address (at most 100 characters)'),
			detail('Tax Number', 'tin', 'Its taxpayer identification number (at most 32 characters)'),
			detail('Type', 'type', 'Its legal form, such as UAB or GmbH (at most 100 characters)'),
			detail('Website', 'website', 'The company’s website, such as https://example.com'),
		],
	},
];

/** Their labels in messages (a nested value is named by its own field). */
const LABELS = {
	country: fieldLabel(
		companyDetailFields,
		'companyCountry',
		'Enter a two-letter country code such as LT.',
	),
	...fieldLabels(companyDetailFields, {
		companyName: 'Enter the company’s name, at most 200 characters.',
		brandNames: 'Give at most 10 names of 1 to 100 characters, separated by commas.',
		email: 'Enter an e-mail address, or remove the detail.',
		website: 'Enter a web address starting with https://, or remove the detail.',
		// The others' rule (a length) says it all.
		...Object.fromEntries(
			[
				'activityCode',
				'city',
				'operatingAddress',
				'phone',
				'postalAddress',
				'postcode',
				'region',
				'registrationNumber',
				'street',
				'tin',
				'type',
			].map((name) => [name, undefined]),
		),
	}),
};

/** Text of a field as typed or mapped (an expression may give a number), trimmed. */
const textOf = (value: unknown) =>
	typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';

/** The item's company details, checked before anything is sent: `{ company }`. */
export function companyRequestOf(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const details = this.getNodeParameter('companyDetails', itemIndex, {}) as IDataObject;
	const company: IDataObject = {
		companyName: textOf(this.getNodeParameter('companyName', itemIndex, '')),
		country: textOf(this.getNodeParameter('companyCountry', itemIndex, '')).toUpperCase(),
	};
	for (const [name, value] of Object.entries(details)) {
		const text = textOf(value);
		if (text === '') continue;
		company[name] = name === 'brandNames' ? text.split(',').map((brand) => brand.trim()) : text;
	}
	return validateInput.call(
		this,
		kybFormRequestSchema,
		{ company },
		LABELS,
		itemIndex,
	) as IDataObject;
}
