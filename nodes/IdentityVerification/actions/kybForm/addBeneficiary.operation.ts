import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	KYB_BENEFICIARY_TYPES,
	kybBeneficiaryRequestSchema,
	kybBeneficiarySchema,
} from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { fieldLabels, numberFromText, validateInput } from '../../helpers/validation';
import { companyIdField } from '../company';
import { authModeOf, formCompanyOf } from './common';

/** The roles a beneficiary may have, as the provider names them. */
const ROLE_NAMES: Record<(typeof KYB_BENEFICIARY_TYPES)[number], string> = {
	ABO: 'Authorised Beneficial Owner (ABO)',
	CEO: 'CEO (Director)',
	REPRESENTATIVE: 'Representative',
	SHAREHOLDER: 'Shareholder',
	UBO: 'Ultimate Beneficial Owner (UBO)',
};

/** An optional text of the person, under Additional Fields. */
const personDetail = (displayName: string, name: string, description: string) => ({
	displayName,
	name,
	type: 'string' as const,
	default: '',
	description,
});

const properties: INodeProperties[] = [
	companyIdField,
	{
		displayName: 'First Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'The person’s first name (at most 100 characters)',
	},
	{
		displayName: 'Last Name',
		name: 'surname',
		type: 'string',
		required: true,
		default: '',
		description: 'The person’s last name (at most 100 characters)',
	},
	{
		displayName: 'Roles',
		name: 'beneficiaryTypes',
		type: 'multiOptions',
		default: ['UBO'],
		options: Object.entries(ROLE_NAMES)
			.map(([value, name]) => ({ name, value }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		description: 'What the person is to the company; at least one',
	},
	{
		displayName: 'Additional Fields',
		name: 'beneficiaryFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			personDetail('Country of Residence', 'countryOfResidence', 'Two-letter code, such as LT'),
			personDetail('Date of Birth', 'dateOfBirth', 'As YYYY-MM-DD, such as 1985-04-12'),
			personDetail('Email', 'email', 'The person’s e-mail address'),
			{
				displayName: 'Fills the Form',
				name: 'formFiller',
				type: 'boolean',
				default: false,
				description: 'Whether this person is the one who fills the company’s KYB form',
			},
			personDetail('Nationality', 'nationality', 'Two-letter code, such as LT'),
			{
				displayName: 'Ownership (%)',
				name: 'ownershipPercentage',
				type: 'number',
				default: 0,
				typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 2 },
				description: 'The share of the company the person owns, from 0 to 100',
			},
			personDetail(
				'Personal Number',
				'personalNumber',
				'The person’s national identification number (ASCII, at most 50 characters)',
			),
			personDetail(
				'Phone',
				'phone',
				'The person’s phone number in E.164 format, such as +37060000000',
			),
			personDetail(
				'Positions',
				'positions',
				'Up to 3 positions separated by commas, such as director, shareholder',
			),
			personDetail(
				'Residential Address',
				'residentialAddress',
				'In one line (at most 255 characters)',
			),
			personDetail(
				'Scan Reference',
				'scanRef',
				'The scanRef of the person’s finished identity verification, to link it (the service ignores it with a form token)',
			),
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Add Beneficiary',
	value: 'addBeneficiary',
	description:
		'Add a person (owner, director, representative) to a KYB form by its Company ID, e.g. from your CRM, so the company finds them listed',
	action: 'Add a beneficiary to a KYB form',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['addBeneficiary'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = kybBeneficiarySchema;

const LABELS = fieldLabels(properties, {
	name: 'Enter the first name, at most 100 characters.',
	surname: 'Enter the last name, at most 100 characters.',
	beneficiaryTypes: 'Choose at least one role.',
	dateOfBirth: 'Enter the date as YYYY-MM-DD.',
	positions: 'Give at most 3 positions of at most 50 characters, separated by commas.',
	ownershipPercentage: 'Enter a number from 0 to 100.',
	personalNumber: 'Enter the number in ASCII letters and digits, at most 50 characters.',
	nationality: 'Enter a two-letter country code such as LT.',
	countryOfResidence: 'Enter a two-letter country code such as LT.',
	email: 'Enter an e-mail address, or remove the field.',
	phone: undefined,
	residentialAddress: undefined,
	scanRef: undefined,
});

/** Text of a field as typed or mapped, trimmed. */
const textOf = (value: unknown) =>
	typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';

/** The fields of the request's `info` among the Additional Fields. */
const INFO_FIELDS = new Set([
	'countryOfResidence',
	'dateOfBirth',
	'email',
	'nationality',
	'personalNumber',
	'phone',
	'residentialAddress',
	'scanRef',
]);

/** The request of an item: the person in `info`, the roles and the rest beside it, each only when set. */
function beneficiaryOf(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const more = this.getNodeParameter('beneficiaryFields', itemIndex, {}) as IDataObject;
	const info: IDataObject = {
		infoType: 'INDIVIDUAL',
		name: textOf(this.getNodeParameter('name', itemIndex, '')),
		surname: textOf(this.getNodeParameter('surname', itemIndex, '')),
	};
	const request: IDataObject = {
		beneficiaryTypes: this.getNodeParameter('beneficiaryTypes', itemIndex, []) as string[],
		info,
	};
	for (const [name, value] of Object.entries(more)) {
		if (name === 'formFiller') request.formFiller = value;
		else if (name === 'ownershipPercentage')
			request.ownershipPercentage = numberFromText(value) as IDataObject[string];
		else if (textOf(value) === '') continue;
		else if (name === 'positions')
			request.positions = textOf(value)
				.split(',')
				.map((p) => p.trim());
		else if (INFO_FIELDS.has(name)) {
			const text = textOf(value);
			info[name] =
				name === 'nationality' || name === 'countryOfResidence' ? text.toUpperCase() : text;
		}
	}
	return validateInput.call(
		this,
		kybBeneficiaryRequestSchema,
		request,
		LABELS,
		itemIndex,
	) as IDataObject;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { path, notFound } = formCompanyOf.call(this, itemIndex);
	const request = beneficiaryOf.call(this, itemIndex);
	// Not repeated after a failure that may have reached the service: it would add the person twice.
	const response = await apiRequest.call(this, authModeOf.call(this, itemIndex), {
		method: 'POST',
		path: `${path}beneficiaries/`,
		body: request,
		itemIndex,
		notFound,
	});
	return [{ json: (isPlainObject(response.body) ? response.body : {}) as IDataObject }];
}
