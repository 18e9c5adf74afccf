import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	KYC_DOCUMENT_TYPES,
	verificationTokenChecksSchema,
	verificationTokenRequestSchema,
	verificationTokenResponseSchema,
} from '../../../shared/contract';
import { apiRequest, getBaseUrl, joinUrl } from '../../transport';
import { toItems } from '../../helpers/response';
import { simplifyOption, simplifyItems } from '../../helpers/simplify';
import {
	fieldLabel,
	fieldLabels,
	invalidInput,
	numberFromText,
	validateInput,
	type FieldLabels,
} from '../../helpers/validation';
import { assertServiceCanReach, recordPendingVerification } from './waitBinding';

/** What Simplify keeps of the token answer: what the link, the wait and the routing need. */
const SIMPLIFIED_TOKEN_FIELDS = [
	'authToken',
	'verificationUrl',
	'scanRef',
	'clientId',
	'externalRef',
	'expiryTime',
	'sessionLength',
	'redirectUrl',
	'callbackUrl',
];

/** How the list shows each document type the service names. */
const DOCUMENT_TYPE_NAMES: Record<(typeof KYC_DOCUMENT_TYPES)[number], string> = {
	ID_CARD: 'ID Card',
	PASSPORT: 'Passport',
	RESIDENCE_PERMIT: 'Residence Permit',
	DRIVER_LICENSE: 'Driver License',
	PAN_CARD: 'PAN Card',
	AADHAAR: 'Aadhaar',
	VISA: 'Visa',
	NATIONAL_PASSPORT: 'National Passport',
	PROVISIONAL_DRIVER_LICENSE: 'Provisional Driver License',
	OLD_ID_CARD: 'Old ID Card',
	MILITARY_CARD: 'Military Card',
	ADDRESS_CARD: 'Address Card',
	SMART_ID: 'Smart-ID',
	CLEAR: 'CLEAR',
	ONE_ID: 'One ID',
	BANK_ID_SE: 'BankID (Sweden)',
	BANK_ID_NO: 'BankID (Norway)',
	BANK_ID_CZ: 'Bank iD (Czechia)',
	FTN: 'FTN (Finnish Trust Network)',
	MIT_ID: 'MitID',
	VERIMI: 'Verimi',
	LA_WALLET: 'LA Wallet',
	SAMSUNG_WALLET: 'Samsung Wallet',
	MOJE_ID_CZ: 'MojeID (Czechia)',
	YOTI_ID: 'Yoti ID',
	OTHER: 'Other',
	BORDER_CROSSING: 'Border Crossing',
	ASYLUM: 'Asylum',
	PHOTO_CARD: 'Photo Card',
	PROOF_OF_AGE_CARD: 'Proof of Age Card',
	TRAVEL_CARD: 'Travel Card',
	SOCIAL_SECURITY_CARD: 'Social Security Card',
	VOTER_CARD: 'Voter Card',
	DIPLOMATIC_ID: 'Diplomatic ID',
	WORK_PERMIT: 'Work Permit',
};

const DOCUMENT_TYPE_OPTIONS: INodePropertyOptions[] = KYC_DOCUMENT_TYPES.map((value) => ({
	name: DOCUMENT_TYPE_NAMES[value],
	value,
	description: `Sent as ${value}`,
})).sort((a, b) => a.name.localeCompare(b.name));

/** A boolean check of the token, under Additional Fields. */
const check = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: false,
	description,
});

/** The checks a compliance team sets per case (verificationTokenChecksSchema), among the typed fields. */
const CHECK_FIELDS: INodeProperties[] = [
	check(
		'AML Check',
		'checkAml',
		'Whether to screen the person against sanctions, PEP and adverse media lists once the document is read (the account must have AML checks)',
	),
	check(
		'Automatic AML Monitoring',
		'autoAmlMonitoring',
		'Whether to add the person to the daily AML monitoring after the verification (AML Monitoring lists them)',
	),
	check(
		'Blocklist Check: Document Face',
		'checkDocFaceBlacklist',
		'Whether to compare the face on the document with the faces on the account’s blocklist (a match is SUSPECTED)',
	),
	check(
		'Blocklist Check: Personal Data',
		'checkPersonBlacklist',
		'Whether to compare the document data with the account’s blocklist (a match is SUSPECTED)',
	),
	check(
		'Blocklist Check: Selfie',
		'checkFaceBlacklist',
		'Whether to compare the selfie with the faces on the account’s blocklist (a match is SUSPECTED)',
	),
	{
		displayName: 'Questionnaire',
		name: 'questionnaire',
		type: 'string',
		default: '',
		placeholder: 'e.g. onboarding-questions',
		description: 'The key of a questionnaire of the account the person answers in this session',
	},
	{
		displayName: 'Questionnaire Required',
		name: 'questionnaireRequired',
		type: 'boolean',
		default: true,
		description:
			'Whether the person must answer the questionnaire to finish (the provider’s default)',
	},
	{
		displayName: 'Risk Assessment Profile',
		name: 'riskAssessmentProfile',
		type: 'string',
		default: '',
		placeholder: 'e.g. 3c90c3cc-0d44-4b50-8888-8dd25736052a',
		description:
			'The UUID of the account’s risk assessment profile to score this verification with',
	},
	{
		displayName: 'Theme',
		name: 'theme',
		type: 'string',
		default: '',
		placeholder: 'e.g. 3c90c3cc-0d44-4b50-8888-8dd25736052a',
		description: 'The UUID of one of the account’s verification screen themes',
	},
];

const TYPED_FIELDS: INodeProperties[] = [
	...CHECK_FIELDS,
	{
		displayName: 'Callback URL',
		name: 'callbackUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/kyc-result',
		description:
			'Where the service sends the results of this one verification (signed like every webhook), in addition to the dashboard webhook URL. To continue this workflow with the result, turn on "Send the Result to This Workflow" instead.',
	},
	{
		displayName: 'Country',
		name: 'country',
		type: 'string',
		default: '',
		placeholder: 'e.g. LT',
		description: "Two-letter country code of the person's document (ISO 3166-1 alpha-2)",
	},
	{
		displayName: 'Date of Birth',
		name: 'dateOfBirth',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1990-12-31',
		description: 'The date of birth the person is expected to have, written YYYY-MM-DD',
	},
	{
		displayName: 'Documents',
		name: 'documents',
		type: 'string',
		default: '',
		placeholder: 'e.g. ID_CARD, PASSPORT',
		description:
			'Document types the person may use, separated by commas, as your account names them',
		displayOptions: { show: { '@version': [{ _cnd: { lt: 1.1 } }] } },
	},
	{
		displayName: 'Documents',
		name: 'documents',
		type: 'multiOptions',
		options: DOCUMENT_TYPE_OPTIONS,
		default: [],
		// A type the list does not name (an account may know others) comes through an expression.
		allowArbitraryValues: true,
		description:
			'Document types the person may use. For a type not in the list, use an expression that gives the list, e.g. {{ ["ID_CARD", "MY_TYPE"] }}.',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
	{
		displayName: 'Error URL',
		name: 'errorUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/verification-failed',
		description: 'Where the verification screen sends the person when the verification fails',
	},
	{
		displayName: 'Expiry Time (Seconds)',
		name: 'expiryTime',
		type: 'number',
		default: 3600,
		hint: 'The link stops working this many seconds after this step: 3600 = 1 hour. For a link sent by e-mail allow days, e.g. 604800 (7 days); at most 2592000 (30 days).',
		description:
			'How long the link stays valid, from 0 to 2,592,000 seconds (30 days), counted from when the token is made. When it runs out the verification ends as expired. Without this field the account’s default applies (1 hour unless changed in the dashboard).',
	},
	{
		displayName: 'External Reference',
		name: 'externalRef',
		type: 'string',
		default: '',
		placeholder: 'e.g. order-2024-0042',
		description: 'A second reference of your own (at most 40 characters), returned with the result',
	},
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Jonas',
		description: 'The first name the person is expected to have',
	},
	{
		displayName: 'Language',
		name: 'locale',
		type: 'string',
		default: '',
		placeholder: 'e.g. en',
		description: 'Language of the verification screen, as a language code such as en, de or lt',
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Jonaitis',
		description: 'The last name the person is expected to have',
	},
	{
		displayName: 'Session Length (Seconds)',
		name: 'sessionLength',
		type: 'number',
		default: 600,
		hint: 'Counted from when the person opens the link: 600 = 10 minutes to finish (60 to 3600)',
		description:
			'How long the person has to finish once they open the link, from 60 to 3,600 seconds (1 hour). It does not make the link last longer: that is Expiry Time.',
	},
	{
		displayName: 'Success URL',
		name: 'successUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/thank-you',
		description: 'Where the verification screen sends the person after a successful verification',
	},
	{
		displayName: 'Unverified URL',
		name: 'unverifiedUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/try-again',
		description: 'Where the verification screen sends the person when they leave without finishing',
	},
];

const properties: INodeProperties[] = [
	{
		displayName:
			'Send the person the link in verificationUrl of this step’s output, e.g. {{ $json.verificationUrl }} in an e-mail. It works for the Expiry Time (1 hour unless set). redirectUrl is the service’s page for the same token: the same link unless you set Own Verification Page under Options.',
		name: 'linkNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. customer-12345',
		description:
			'Your own reference for the person being verified (at most 100 characters), such as a customer number. It comes back in the webhook so you can match the result to the person.',
	},
	{
		displayName: 'Send the Result to This Workflow',
		name: 'sendResultToWorkflow',
		type: 'boolean',
		default: false,
		displayOptions: { hide: { '@tool': [true] } },
		description:
			"Whether the service sends this verification's result back to this execution, so that a later Identity Verification step with Wait for Result continues with it. Sets the token's Callback URL to this execution's resume address.",
	},
	{
		displayName: 'Additional Fields',
		name: 'tokenFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		// In the order of their names, as the editor lists a collection's fields.
		options: [...TYPED_FIELDS].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
	{
		displayName: 'Custom Fields',
		name: 'additionalFields',
		type: 'fixedCollection',
		placeholder: 'Add custom field',
		default: {},
		typeOptions: { multipleValues: true },
		description:
			'Other token settings supported by your account that are not under Additional Fields, sent unchanged with the request',
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. tokenType',
						description: 'Name of the setting exactly as the service documents it',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. IDENTIFICATION',
						description:
							'Value of the setting. An expression that returns a number, true/false or an object is sent as that type.',
					},
				],
			},
		],
	},
	...simplifyOption(
		'Whether to return only authToken, verificationUrl, scanRef, clientId, externalRef, expiryTime, sessionLength and, when present, redirectUrl and callbackUrl instead of the whole answer',
	),
	{
		displayName: 'Options',
		name: 'linkOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Own Verification Page',
				name: 'verificationPage',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://example.com/verify',
				description:
					'Only if your account shows the verification on a page of its own (an iFrame or a white-label address): that page’s address. The link in verificationUrl is then this page with ?authToken=… added.',
			},
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Create Verification Token',
	value: 'createVerificationToken',
	description: 'Start an identity verification and get the token for the verification screen',
	action: 'Create a verification token',
};

const displayOptions = {
	show: { resource: ['identification'], operation: ['createVerificationToken'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = verificationTokenResponseSchema;

/** A typed field is named with the collection it is in: `Additional Fields › Callback URL`. */
const { label: typedFieldsLabel } = fieldLabel(properties, 'tokenFields');
const TYPED_FIELD_LABELS: FieldLabels = Object.fromEntries(
	TYPED_FIELDS.map((field) => [
		field.name,
		{ label: `${typedFieldsLabel} › ${field.displayName}` },
	]),
);

/** Display names and fixes of the request fields, for error messages. */
const FIELD_LABELS: FieldLabels = {
	...fieldLabels(properties, {
		clientId:
			'Enter your own reference for the person (at most 100 characters), for example a customer number.',
	}),
	...TYPED_FIELD_LABELS,
	callbackUrl: {
		...TYPED_FIELD_LABELS.callbackUrl,
		fix: 'Enter a full https:// address, or turn on "Send the Result to This Workflow" instead.',
	},
};

/** A list of document types from "ID_CARD, PASSPORT" (or a list an expression gave). */
function documentList(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	return value
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/** A two-letter code in capitals as the service writes it; any other text as it was typed. */
function countryCode(value: string): string {
	const text = value.trim();
	return /^[a-z]{2}$/i.test(text) ? text.toUpperCase() : text;
}

/** The typed fields the user set, with empty text fields left out. */
function typedFields(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const set = this.getNodeParameter('tokenFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	for (const [name, value] of Object.entries(set)) {
		if (value === '' || value === undefined || value === null) continue;
		// Documents picked from the list, none chosen.
		if (Array.isArray(value) && value.length === 0) continue;
		if (name === 'documents') body.documents = documentList(value) as IDataObject[string];
		else if (name === 'expiryTime' || name === 'sessionLength')
			body[name] = numberFromText(value) as IDataObject[string];
		else if (name === 'country' && typeof value === 'string') body.country = countryCode(value);
		else body[name] = value;
	}
	return body;
}

/** The checks among the typed fields the user set. */
function checksOf(body: IDataObject, typed: IDataObject): IDataObject {
	const names = CHECK_FIELDS.map((field) => field.name).filter((name) => name in typed);
	return Object.fromEntries(names.map((name) => [name, body[name]]));
}

/** The free-form Custom Fields; a name that a typed field already covers is refused. */
function customFields(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const entries = this.getNodeParameter('additionalFields.field', itemIndex, []) as Array<{
		name?: string;
		value?: unknown;
	}>;
	const body: IDataObject = {};
	for (const [position, entry] of entries.entries()) {
		const name = (entry.name ?? '').trim();
		if (!name) {
			throw invalidInput.call(
				this,
				'Custom Fields',
				`field ${position + 1} has no name`,
				'Enter the setting name in "Name", or remove the empty field.',
				itemIndex,
			);
		}
		if (name === 'clientId') {
			throw invalidInput.call(
				this,
				'Custom Fields',
				'"clientId" is set by the Client ID field',
				'Remove "clientId" from Custom Fields and use the Client ID field instead.',
				itemIndex,
			);
		}
		body[name] = entry.value as IDataObject[string];
	}
	return body;
}

/**
 * Whether a later, enabled step of this node waits for the result. Without one the execution ends
 * here, and the service would send the result to an execution that no longer waits (n8n answers 409).
 */
function hasLaterWaitStep(this: IExecuteFunctions): boolean {
	const node = this.getNode();
	return this.getChildNodes(node.name, { includeNodeParameters: true }).some(
		(child) =>
			child.type === node.type &&
			!child.disabled &&
			child.parameters?.operation === 'waitForResult',
	);
}

/** This execution's resume address, as n8n's Wait node and send-and-wait operations use it. */
function resumeUrl(this: IExecuteFunctions, itemIndex: number): string {
	return String(this.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
}

/**
 * One execution waits for one result at its one resume address: with several items the results of
 * all but one would be acknowledged and dropped, so several people are refused before any request.
 */
function assertOnePerson(this: IExecuteFunctions, itemIndex: number): void {
	const count = this.getInputData().length;
	if (count <= 1) return;
	throw invalidInput.call(
		this,
		'Send the Result to This Workflow',
		`works for one person per execution, but this step received ${count} items`,
		'Start the workflow once per person (for example one webhook call or form submission per sign-up), or call a sub-workflow per item with Execute Workflow (mode: Run once for each item) that creates the token, sends the link and waits. To create tokens for many people at once, turn this option off and receive the results with the Identity Verification Trigger.',
		itemIndex,
	);
}

/** Shown after a manual run of this step while no Wait for Result follows it. */
const NO_WAIT_STEP_YET =
	'Send the Result to This Workflow: this test run made the token without sending its result to this workflow, because no Identity Verification step with Wait for Result follows this one yet. Add it after the step that sends the link: a run of the whole workflow then waits there for the result.';

/**
 * The checks of "Send the Result to This Workflow", then the callback URL it sets. Without a later
 * Wait for Result the result would go to an execution that has ended: a production run is refused,
 * a manual run (building the workflow step by step) makes the token without it and says why.
 */
async function resultCallbackUrl(
	this: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<string | undefined> {
	assertOnePerson.call(this, itemIndex);
	if (body.callbackUrl !== undefined) {
		throw invalidInput.call(
			this,
			'Send the Result to This Workflow',
			'cannot be combined with a Callback URL',
			'Remove the Callback URL (under Additional Fields or Custom Fields), or turn this option off.',
			itemIndex,
		);
	}
	if (!hasLaterWaitStep.call(this)) {
		if (this.getMode() === 'manual') {
			this.addExecutionHints({ message: NO_WAIT_STEP_YET, location: 'outputPane' });
			return undefined;
		}
		throw invalidInput.call(
			this,
			'Send the Result to This Workflow',
			'needs a later Identity Verification step with the operation Wait for Result',
			'Add Identity Verification → Wait for Result after the step that sends the link, or turn this option off: without it the result would go to an execution that has already ended.',
			itemIndex,
		);
	}
	const url = resumeUrl.call(this, itemIndex);
	assertServiceCanReach.call(this, url, await getBaseUrl.call(this, 'apiKey'), itemIndex);
	return url;
}

/**
 * The link to send the person (`verificationUrl`): the account's own page if set, else the
 * service's `redirectUrl`, else the hosted page the service documents under its address
 * (`/api/v2/redirect?authToken=…`).
 */
function verificationUrl(
	this: IExecuteFunctions,
	answer: IDataObject,
	baseUrl: string,
	itemIndex: number,
): string | undefined {
	const { authToken } = answer;
	if (typeof authToken !== 'string' || authToken === '') return undefined;
	const options = this.getNodeParameter('linkOptions', itemIndex, {}) as IDataObject;
	const ownPage = String(options.verificationPage ?? '').trim();
	if (ownPage !== '') return withAuthToken(ownPage, authToken);
	if (typeof answer.redirectUrl === 'string' && answer.redirectUrl !== '')
		return answer.redirectUrl;
	return withAuthToken(joinUrl(baseUrl, '/api/v2/redirect'), authToken);
}

function withAuthToken(page: string, authToken: string): string {
	return `${page}${page.includes('?') ? '&' : '?'}authToken=${encodeURIComponent(authToken)}`;
}

/** The answer with the link right after the token, where a user looks for it first. */
function withVerificationUrl(answer: IDataObject, url: string | undefined): IDataObject {
	if (url === undefined) return answer;
	const { authToken, ...rest } = answer;
	return { authToken, verificationUrl: url, ...rest };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const typed = typedFields.call(this, itemIndex);
	const body: IDataObject = {
		...customFields.call(this, itemIndex),
		...typed,
		clientId: this.getNodeParameter('clientId', itemIndex, '') as string,
	};
	const sendResult = this.getNodeParameter('sendResultToWorkflow', itemIndex, false) === true;
	const callbackUrl = sendResult ? await resultCallbackUrl.call(this, body, itemIndex) : undefined;
	if (callbackUrl !== undefined) body.callbackUrl = callbackUrl;

	// The checks' types for the typed fields only: a Custom Field of a name is sent as given.
	validateInput.call(
		this,
		verificationTokenChecksSchema,
		checksOf(body, typed),
		FIELD_LABELS,
		itemIndex,
	);
	const request = validateInput.call(
		this,
		verificationTokenRequestSchema,
		body,
		FIELD_LABELS,
		itemIndex,
	);

	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/api/v2/token',
		body: request as IDataObject,
		itemIndex,
	});
	const baseUrl = await getBaseUrl.call(this, 'apiKey');
	const items = toItems(response.body).map((item) => ({
		...item,
		json: withVerificationUrl(item.json, verificationUrl.call(this, item.json, baseUrl, itemIndex)),
	}));
	// Wait for Result is bound to this verification (a missing scanRef is reported there).
	const scanRef = items[0]?.json.scanRef;
	if (callbackUrl !== undefined && typeof scanRef === 'string' && scanRef !== '') {
		recordPendingVerification.call(this, scanRef);
	}
	if (this.getNodeParameter('simplify', itemIndex, false) === true) {
		return simplifyItems(items, SIMPLIFIED_TOKEN_FIELDS);
	}
	return items;
}
