import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import {
	KYB_LOCALES,
	kybFormLink,
	kybSessionRequestSchema,
	kybSessionSchema,
} from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { fieldLabels, numberFromText, splitList, validateInput } from '../../helpers/validation';

/** The form's languages by name, for the Language list. */
const LANGUAGES: Record<(typeof KYB_LOCALES)[number], string> = {
	bg: 'Bulgarian',
	cs: 'Czech',
	de: 'German',
	en: 'English',
	es: 'Spanish',
	et: 'Estonian',
	fr: 'French',
	hu: 'Hungarian',
	it: 'Italian',
	ja: 'Japanese',
	lt: 'Lithuanian',
	lv: 'Latvian',
	nl: 'Dutch',
	pl: 'Polish',
	pt: 'Portuguese',
	ro: 'Romanian',
	ru: 'Russian',
};

const properties: INodeProperties[] = [
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. deal-12345',
		hint: 'Your own ID for the company, such as its CRM deal or account ID (at most 100 characters)',
		description:
			'Comes back with every event about the company (Company Submitted, Reviewed, …), so later steps can find it in your systems',
	},
	{
		displayName: 'Additional Fields',
		name: 'sessionFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'External Reference',
				name: 'externalRef',
				type: 'string',
				default: '',
				placeholder: 'e.g. order-2024-0042',
				description: 'Any reference of yours, at most 40 characters; it comes back with the events',
			},
			{
				displayName: 'Flow ID',
				name: 'flow',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3c90c3cc-0d44-4b50-8888-8dd25736052a',
				description:
					'The ID (a UUID) of a KYB flow set up in the dashboard; without it the account’s default is used',
			},
			{
				displayName: 'Language',
				name: 'locale',
				type: 'options',
				options: Object.entries(LANGUAGES)
					.map(([value, name]) => ({ name, value }))
					.sort((a, b) => a.name.localeCompare(b.name)),
				default: 'en',
				description:
					'The language the form opens in; without it the service picks one from the company’s IP address',
			},
			{
				displayName: 'Lifetime (Seconds)',
				name: 'lifetime',
				type: 'number',
				// The service's own default (KYB_LIMITS.sessionLifetime.default): n8n's lint reads a literal.
				default: 3600,
				hint: 'From 0 to 2,592,000 (30 days); the service’s default is 3,600 (1 hour)',
				description:
					'How long the link and its form token work. Give the company enough time to gather its documents.',
			},
			{
				displayName: 'Linked Verifications',
				name: 'scanRefs',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3af8e5b2-5a7c-11ee-8c99-0242ac120002',
				description:
					'Scan references of identity verifications (KYC) that belong to this company, separated by commas',
			},
			{
				displayName: 'Questionnaire Key',
				name: 'questionnaire',
				type: 'string',
				default: '',
				placeholder: 'e.g. kyb-onboarding',
				description:
					'The key of the questionnaire the company answers; without it the account’s default. Ignored when a Flow ID is set.',
			},
			{
				displayName: 'Questionnaire Required',
				name: 'questionnaireRequired',
				type: 'boolean',
				default: true,
				description: 'Whether the company must answer a questionnaire in its form',
			},
			{
				displayName: 'Tags',
				name: 'tags',
				type: 'string',
				default: '',
				placeholder: 'e.g. crm, priority',
				description:
					'Up to 5 tags for the company in the dashboard, separated by commas, each at most 32 characters',
			},
			{
				displayName: 'Theme ID',
				name: 'theme',
				type: 'string',
				default: '',
				placeholder: 'e.g. 3c90c3cc-0d44-4b50-8888-8dd25736052a',
				description: 'The ID (a UUID) of a form theme set up in the dashboard',
			},
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Create Session',
	value: 'createSession',
	description:
		'Start a company’s KYB onboarding: outputs formUrl, the link to send the company, and its form token',
	action: 'Create a KYB session',
};

const displayOptions = { show: { resource: ['kyb'], operation: ['createSession'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = kybSessionSchema.extend({ formUrl: z.string() });

const FIELD_LABELS = fieldLabels(properties, {
	clientId: 'Enter your own ID for the company, 1 to 100 characters.',
	lifetime: 'Enter a whole number of seconds from 0 to 2592000 (30 days), for example 3600.',
	externalRef: 'Shorten it to at most 40 characters.',
	locale: 'Choose a language from the list.',
	flow: 'Copy the flow’s ID (a UUID) from the dashboard.',
	theme: 'Copy the theme’s ID (a UUID) from the dashboard.',
	questionnaire: 'Enter the questionnaire’s key, or remove the field.',
	tags: 'Enter at most 5 tags separated by commas, each at most 32 characters.',
	scanRefs: 'Enter scan references separated by commas, each at most 40 characters.',
});

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = validateInput.call(
		this,
		kybSessionRequestSchema,
		sessionRequestOf.call(this, itemIndex),
		FIELD_LABELS,
		itemIndex,
	);
	// Not repeated after a failure that may have reached the service: each session is a new one.
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/kyb/tokens/',
		body: request,
		itemIndex,
	});
	return [{ json: sessionItem.call(this, response.body, itemIndex) }];
}

/** The request of an item before it is checked: fields left empty are not sent. */
function sessionRequestOf(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = this.getNodeParameter('sessionFields', itemIndex, {}) as IDataObject;
	const request: IDataObject = {
		tokenType: 'FORM',
		clientId: this.getNodeParameter('clientId', itemIndex, ''),
	};
	for (const name of ['externalRef', 'locale', 'flow', 'theme', 'questionnaire'] as const) {
		const value = typeof fields[name] === 'string' ? (fields[name] as string).trim() : fields[name];
		if (value !== undefined && value !== '') request[name] = value;
	}
	if (fields.lifetime !== undefined) request.lifetime = numberFromText(fields.lifetime) as number;
	if (fields.questionnaireRequired !== undefined)
		request.questionnaireRequired = fields.questionnaireRequired;
	for (const name of ['tags', 'scanRefs'] as const) {
		const list = listOf(fields[name]);
		if (list !== undefined) request[name] = list as string[];
	}
	return request;
}

/** A comma-separated field (or a list from an expression) as a list; empty is none. */
function listOf(value: unknown): unknown {
	if (Array.isArray(value))
		return value.map((entry) => (typeof entry === 'string' ? entry.trim() : entry));
	if (typeof value !== 'string') return value;
	const entries = splitList(value);
	return entries.length === 0 ? undefined : entries;
}

/** The session as an item: the link to send first, then the answer as the service sent it. */
function sessionItem(this: IExecuteFunctions, body: unknown, itemIndex: number): IDataObject {
	const session = isPlainObject(body) ? (body as IDataObject) : {};
	if (typeof session.tokenString !== 'string' || session.tokenString === '') {
		throw new NodeOperationError(
			this.getNode(),
			'The service made the session, but its answer has no tokenString',
			{
				itemIndex,
				description:
					'Without it there is no link for the company. Run the node again; if this keeps happening, contact the provider’s support.',
			},
		);
	}
	return { formUrl: kybFormLink(session.tokenString), ...session };
}
