/**
 * Who is screened: a person or a company, as AML Check → Create and AML Monitoring → Create both
 * ask for them (the provider's `clientId`, `userType` and `input`).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dayOfText, fieldLabel, type FieldLabels } from '../../helpers/validation';

const PERSON = { show: { userType: ['PERSON'] } };
const COMPANY = { show: { userType: ['COMPANY'] } };

export const subjectFields: INodeProperties[] = [
	{
		displayName: 'Type',
		name: 'userType',
		type: 'options',
		options: [
			{ name: 'Person', value: 'PERSON', description: 'A customer, director, owner or payee' },
			{ name: 'Company', value: 'COMPANY', description: 'A business customer or counterparty' },
		],
		default: 'PERSON',
		description: 'Whether to screen a person or a company',
	},
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. customer-12345',
		hint: 'Your own ID for this person or company (at most 100 characters), such as the ID in your CRM. The service requires one: for a prospect not in your systems yet, use what identifies them to you, such as their email address.',
		description: 'Shown with the result in the dashboard, so you can find who it was about',
	},
	{
		displayName: 'Full Name',
		name: 'fullName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Jonas Jonaitis',
		description: 'The name the lists are searched for, at most 200 characters',
		displayOptions: PERSON,
	},
	{
		displayName: 'Company Name',
		name: 'companyName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Baltic Widgets UAB',
		description: 'The company name the lists are searched for, at most 200 characters',
		displayOptions: COMPANY,
	},
	{
		displayName: 'Additional Fields',
		name: 'personFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'What else you know of the person: it tells a namesake from the person',
		displayOptions: PERSON,
		options: [
			{
				displayName: 'Date of Birth',
				name: 'dateOfBirth',
				type: 'dateTime',
				default: '',
				description: 'Pick the day, or enter it as text such as 1985-04-12. The time is ignored.',
			},
			{
				displayName: 'Nationality',
				name: 'nationality',
				type: 'string',
				default: '',
				placeholder: 'e.g. LT',
				description: 'The two-letter country code of the nationality (ISO 3166-1 alpha-2)',
			},
			{
				displayName: 'Sex',
				name: 'sex',
				type: 'options',
				options: [
					{ name: 'Female', value: 'FEMALE' },
					{ name: 'Male', value: 'MALE' },
				],
				default: 'FEMALE',
				description: 'The sex on the identity document; leave this field out when it is neither',
			},
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'companyFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'What else you know of the company',
		displayOptions: COMPANY,
		options: [
			{
				displayName: 'Country',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'e.g. LT',
				description: 'The two-letter code of the country of registration (ISO 3166-1 alpha-2)',
			},
		],
	},
];

/** The labels of the subject's fields, by their path in the request under `prefix` (`amlCheck.`). */
export function subjectLabels(prefix = ''): FieldLabels {
	const code = 'Enter a two-letter country code such as LT, or leave the field out.';
	const label = (name: string, fix: string) => fieldLabel(subjectFields, name, fix);
	return {
		[`${prefix}clientId`]: label(
			'clientId',
			'Enter your own ID for this person or company, 1 to 100 characters.',
		),
		[`${prefix}input.fullName`]: label('fullName', 'Enter the full name, 1 to 200 characters.'),
		[`${prefix}input.companyName`]: label(
			'companyName',
			'Enter the company name, 1 to 200 characters.',
		),
		[`${prefix}input.nationality`]: label('nationality', code),
		[`${prefix}input.country`]: label('country', code),
		[`${prefix}input.dateOfBirth`]: label(
			'dateOfBirth',
			'Pick a day, or enter one as text such as 1985-04-12.',
		),
		[`${prefix}input.sex`]: label(
			'sex',
			'Choose Female or Male (in an expression: FEMALE or MALE), or leave the field out.',
		),
	};
}

/** The subject of an item as the request carries it, before it is checked. */
export function subjectOf(this: IExecuteFunctions, itemIndex: number): Record<string, unknown> {
	const userType = this.getNodeParameter('userType', itemIndex, 'PERSON') as string;
	const clientId = this.getNodeParameter('clientId', itemIndex, '') as string;
	if (userType === 'COMPANY') {
		const details = this.getNodeParameter('companyFields', itemIndex, {}) as IDataObject;
		const input = {
			companyName: this.getNodeParameter('companyName', itemIndex, ''),
			...withoutEmpty({ country: countryCode(details.country) }),
		};
		return { clientId, userType, input };
	}
	const details = this.getNodeParameter('personFields', itemIndex, {}) as IDataObject;
	const input = {
		fullName: this.getNodeParameter('fullName', itemIndex, ''),
		...withoutEmpty({
			nationality: countryCode(details.nationality),
			dateOfBirth: dayOf(details.dateOfBirth),
			sex: sexOf(details.sex),
		}),
	};
	return { clientId, userType, input };
}

/** Optional fields left empty are not sent (the service takes a missing field as not known). */
function withoutEmpty(fields: Record<string, unknown>): Record<string, unknown> {
	const kept: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(fields)) {
		if (value !== undefined && value !== null && value !== '') kept[name] = value;
	}
	return kept;
}

/** A country code as the service writes it (`lt` is `LT`); anything else for the schema to judge. */
function countryCode(value: unknown): unknown {
	return typeof value === 'string' ? value.trim().toUpperCase() : value;
}

/**
 * A date field's value as a day (`1985-04-12`), from what the date picker saves
 * (`1985-04-12T00:00:00`), a date as text, or a date from an expression (n8n gives its ISO text).
 */
export function dayOf(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	return dayOfText(value) ?? value.trim();
}

/**
 * Sex as the provider's schema writes it (MALE, FEMALE). Its migration guide writes M and F: from an
 * expression they are taken for the same; O (other) the schema has no value for.
 */
function sexOf(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const upper = value.trim().toUpperCase();
	return { M: 'MALE', F: 'FEMALE' }[upper] ?? upper;
}
