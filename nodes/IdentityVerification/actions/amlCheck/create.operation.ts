import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	AML_COMPANY_DATASETS,
	AML_LIMITS,
	AML_PEP_TIERS,
	AML_PERSON_DATASETS,
	amlCheckItemSchema,
	amlCheckRequestSchema,
} from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { fieldLabel, numberFromText, validateInput } from '../../helpers/validation';
import { LOCATOR_VERSION, locatorVersions, textVersions } from '../../helpers/locator';
import { dayOf, subjectFields, subjectLabels, subjectOf } from './subject';

/** The provider's datasets, by value: a name a person reads, and what the list holds. */
const DATASETS: Record<string, { name: string; description: string }> = {
	PEP_CURRENT: { name: 'PEP: Current', description: 'Politically exposed persons in office now' },
	PEP_FORMER: {
		name: 'PEP: Former',
		description: 'Politically exposed persons formerly in office',
	},
	PEP_LINKED: {
		name: 'PEP: Linked',
		description: 'Relatives and close associates of politically exposed persons',
	},
	SAN_CURRENT: { name: 'Sanctions: Current', description: 'Sanctioned now' },
	SAN_FORMER: { name: 'Sanctions: Former', description: 'Sanctioned in the past' },
	INS: { name: 'Insolvency', description: 'Insolvency and bankruptcy records' },
	RRE: { name: 'Reputational Risk', description: 'Reputational risk exposure (adverse media)' },
	DD: { name: 'Disqualified Directors', description: 'Persons barred from being a director' },
	POI: { name: 'Profiles of Interest', description: 'Persons or companies of interest' },
	REL: { name: 'Regulatory Enforcement', description: 'Regulatory enforcement lists' },
	SOE_CURRENT: { name: 'State-Owned: Current', description: 'State-owned enterprises now' },
	SOE_FORMER: { name: 'State-Owned: Former', description: 'Formerly state-owned enterprises' },
};

const datasetOptions = (values: readonly string[]) =>
	values
		.map((value) => ({ ...DATASETS[value], value }))
		.sort((a, b) => a.name.localeCompare(b.name));

const datasetsField = (name: string, values: readonly string[], userType: string) => ({
	displayName: 'Datasets',
	name,
	type: 'multiOptions' as const,
	options: datasetOptions(values),
	default: [...values],
	description: 'The lists to search; all of them unless you choose fewer',
	displayOptions: { show: { userType: [userType] } },
});

/** The choices of Date of Birth Matching (aml.yaml `DateOfBirthMatchingEnum`), with what each misses. */
const DATE_OF_BIRTH_MATCHING = [
	{
		name: 'Exact Day',
		value: 'EXACT',
		description:
			'Only profiles born on that day: misses a profile the lists give only a year of birth for, or whose day is mistyped',
	},
	{
		name: 'Same Year',
		value: 'SAME_YEAR',
		description: 'Profiles born in that year: misses one whose year the lists give one off',
	},
	...['One', 'Two', 'Three', 'Four', 'Five'].map((words, index) => ({
		name: `Within ${index + 1} Year${index === 0 ? '' : 's'}`,
		value: `WITHIN_${words.toUpperCase()}_YEAR${index === 0 ? '' : 'S'}`,
		description: `Profiles born up to ${index + 1} year${index === 0 ? '' : 's'} before or after: misses little, but brings more namesakes to review`,
	})),
];

/** Version 2 shows what decides a person's hits on the node's face: the day of birth and its matching. */
const dateOfBirthFields: INodeProperties[] = [
	{
		displayName: 'Date of Birth',
		name: 'dateOfBirth',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1985-04-12',
		description:
			'The day of birth as YYYY-MM-DD: it tells a namesake from the person. Leave empty when not known.',
		displayOptions: { show: { userType: ['PERSON'], ...locatorVersions } },
	},
	{
		displayName: 'Date of Birth Matching',
		name: 'dateOfBirthMatching',
		type: 'options',
		options: DATE_OF_BIRTH_MATCHING,
		default: 'EXACT',
		hint: 'Exact Day misses a profile the lists know only the year of birth of; a wider choice finds it, with more namesakes',
		description: 'With a Date of Birth: how close a profile’s date of birth must be',
		displayOptions: { show: { userType: ['PERSON'], ...locatorVersions } },
	},
];

/**
 * Who is screened; from version 2 the Date of Birth beside the name, not under Additional Fields
 * (where versions 1 and 1.1 keep it).
 */
const checkSubjectFields: INodeProperties[] = subjectFields.flatMap((field) => {
	if (field.name === 'fullName') return [field, ...dateOfBirthFields];
	if (field.name !== 'personFields') return [field];
	const options = (field.options as INodeProperties[]).map((option) =>
		option.name === 'dateOfBirth'
			? { ...option, displayOptions: { show: { ...textVersions } } }
			: option,
	);
	return [{ ...field, options }];
});

const properties: INodeProperties[] = [
	...checkSubjectFields,
	{
		displayName: 'Match Threshold',
		name: 'threshold',
		type: 'number',
		// The service's own default (AML_LIMITS.threshold.default): n8n's lint reads a literal here.
		default: 85,
		hint: 'From 75 (loose: more hits, more namesakes) to 100 (exact names only); the service’s default is 85',
		description: 'How closely a name must match a profile on a list for the profile to be a hit',
	},
	datasetsField('personDatasets', AML_PERSON_DATASETS, 'PERSON'),
	datasetsField('companyDatasets', AML_COMPANY_DATASETS, 'COMPANY'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Date of Birth Matching',
				name: 'dateOfBirthMatching',
				type: 'options',
				options: [
					{ name: 'Exact Day', value: 'EXACT' },
					{ name: 'Same Year', value: 'SAME_YEAR' },
					{ name: 'Within 1 Year', value: 'WITHIN_ONE_YEAR' },
					{ name: 'Within 2 Years', value: 'WITHIN_TWO_YEARS' },
					{ name: 'Within 3 Years', value: 'WITHIN_THREE_YEARS' },
					{ name: 'Within 4 Years', value: 'WITHIN_FOUR_YEARS' },
					{ name: 'Within 5 Years', value: 'WITHIN_FIVE_YEARS' },
				],
				default: 'EXACT',
				description:
					'With a Date of Birth: how close a profile’s date of birth must be (the service’s default is the exact day)',
				displayOptions: { show: { '/userType': ['PERSON'], ...textVersions } },
			},
			{
				displayName: 'PEP Tiers',
				name: 'pepTiers',
				type: 'multiOptions',
				options: AML_PEP_TIERS.map((value, index) => ({
					name: `Tier ${index + 1}`,
					value,
					description: ['Senior roles', 'Middle-ranking roles', 'Junior officials'][index],
				})),
				default: [],
				description: 'The PEP tiers to search (all unless you choose some)',
				displayOptions: { show: { '/userType': ['PERSON'] } },
			},
			{
				displayName: 'Sanction Bodies',
				name: 'sanctionBodies',
				type: 'string',
				default: '',
				placeholder: 'e.g. 1, 40',
				description:
					'The IDs (1 to 80) of the sanctioning bodies to search, separated by commas; empty searches every body',
			},
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	description:
		'Screen a person or a company against sanctions, PEP and adverse media lists; outputs the result and its hits',
	action: 'Create an AML check',
};

const displayOptions = { show: { resource: ['aml'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = amlCheckItemSchema;

const FIELD_LABELS = {
	...subjectLabels(),
	'filter.threshold': fieldLabel(
		properties,
		'threshold',
		'Enter a whole number from 75 to 100; 85 is the service’s default.',
	),
	// The person's and the company's Datasets fields have the same name.
	'filter.datasets': fieldLabel(
		properties,
		'personDatasets',
		'Choose at least one dataset to search.',
	),
	'filter.sanctionBodies': fieldLabel(
		properties,
		'sanctionBodies',
		'Enter sanctioning body IDs from 1 to 80 separated by commas, or leave the field empty.',
	),
	'filter.dateOfBirthMatching': fieldLabel(
		properties,
		'dateOfBirthMatching',
		'Choose one of the options.',
	),
	'filter.pepTiers': fieldLabel(properties, 'pepTiers', 'Choose tiers from the list.'),
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const subject = subjectOf.call(this, itemIndex);
	if (onFace(this)) withDateOfBirth.call(this, subject, itemIndex);
	const request = validateInput.call(
		this,
		amlCheckRequestSchema,
		{ ...subject, filter: filterOf.call(this, itemIndex, subject.userType) },
		FIELD_LABELS,
		itemIndex,
	);
	// Not repeated after a failure that may have reached the service: each check is a new one.
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/aml/checks/',
		body: request,
		itemIndex,
	});
	return [{ json: checkItem(response.body) }];
}

/** The filter of an item as the request carries it, before it is checked. */
function filterOf(
	this: IExecuteFunctions,
	itemIndex: number,
	userType: unknown,
): Record<string, unknown> {
	const person = userType !== 'COMPANY';
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const filter: Record<string, unknown> = {
		threshold: numberFromText(
			this.getNodeParameter('threshold', itemIndex, AML_LIMITS.threshold.default),
		),
		datasets: this.getNodeParameter(person ? 'personDatasets' : 'companyDatasets', itemIndex, []),
	};
	const bodies = sanctionBodiesOf(options.sanctionBodies);
	if (bodies !== undefined) filter.sanctionBodies = bodies;
	const matching = onFace(this)
		? this.getNodeParameter('dateOfBirthMatching', itemIndex, '')
		: options.dateOfBirthMatching;
	if (person && matching) filter.dateOfBirthMatching = matching;
	if (person && Array.isArray(options.pepTiers) && options.pepTiers.length > 0)
		filter.pepTiers = options.pepTiers;
	return filter;
}

/** Whether the node's version shows the Date of Birth and its matching on its face (2 on). */
const onFace = (context: IExecuteFunctions) => context.getNode().typeVersion >= LOCATOR_VERSION;

/** A person's Date of Birth from the node's face into the request's input, when given. */
function withDateOfBirth(
	this: IExecuteFunctions,
	subject: Record<string, unknown>,
	itemIndex: number,
): void {
	if (subject.userType === 'COMPANY' || !isPlainObject(subject.input)) return;
	const day = dayOf(this.getNodeParameter('dateOfBirth', itemIndex, ''));
	if (day !== '' && day !== null && day !== undefined) subject.input.dateOfBirth = day;
}

/** Sanction Bodies as numbers: `1, 40` (or a list from an expression); empty is none. */
function sanctionBodiesOf(value: unknown): unknown {
	if (Array.isArray(value)) return value.length > 0 ? value.map(numberFromText) : undefined;
	if (typeof value === 'number') return [value];
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	return value.split(',').map((part) => numberFromText(part.trim()));
}

/**
 * The check as an item: the overall result and the number of hits first, the check's ID by the
 * name the next steps read (`checkId`), then the answer as the service sent it, hits included.
 */
function checkItem(body: unknown): IDataObject {
	const check: IDataObject = isPlainObject(body) ? (body as IDataObject) : {};
	const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
	return {
		overallStatus: check.overallStatus ?? null,
		hitCount: count(check.amlCheck),
		adverseMediaCount: count(check.adverseMedia),
		checkId: check.id,
		...check,
	};
}
