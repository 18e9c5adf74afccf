import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import {
	BANK_COUNTRIES,
	bankTokenRequestSchema,
	bankTokenSchema,
	bankVerificationLink,
	LIMITS,
} from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { toItems } from '../../helpers/response';
import { fieldLabels, numberFromText, validateInput } from '../../helpers/validation';

const COUNTRY_NAMES: Record<(typeof BANK_COUNTRIES)[number], string> = {
	AT: 'Austria',
	BE: 'Belgium',
	BG: 'Bulgaria',
	HR: 'Croatia',
	CY: 'Cyprus',
	DK: 'Denmark',
	EE: 'Estonia',
	FI: 'Finland',
	FR: 'France',
	DE: 'Germany',
	GR: 'Greece',
	HU: 'Hungary',
	IS: 'Iceland',
	IE: 'Ireland',
	IT: 'Italy',
	LV: 'Latvia',
	LT: 'Lithuania',
	LU: 'Luxembourg',
	MT: 'Malta',
	NL: 'Netherlands',
	NO: 'Norway',
	PL: 'Poland',
	PT: 'Portugal',
	RO: 'Romania',
	SK: 'Slovakia',
	SI: 'Slovenia',
	ES: 'Spain',
	SE: 'Sweden',
};

const countryOptions = [
	{ name: 'Any (Person Chooses)', value: 'any' },
	...BANK_COUNTRIES.map((code) => ({ name: `${COUNTRY_NAMES[code]} (${code})`, value: code })).sort(
		(a, b) => a.name.localeCompare(b.name),
	),
];

const properties: INodeProperties[] = [
	{
		displayName: 'Lifetime (Seconds)',
		name: 'lifetime',
		type: 'number',
		default: 3600,
		hint: '0 to 2,592,000 seconds (30 days). 3600 is one hour.',
		description: 'How long the person can use the token to connect their bank account',
	},
	{
		displayName: 'Country',
		name: 'country',
		type: 'options',
		default: 'any',
		options: countryOptions,
		description:
			'Country of the bank, so the person only sees banks of that country. Choose Any to let the person pick.',
	},
	{
		displayName: 'Bank',
		name: 'bank',
		type: 'string',
		default: '',
		placeholder: 'e.g. SWEDBANK_LT',
		hint: 'Optional, at most 32 characters. Leave empty to let the person pick their bank.',
		description: 'Identifier of one bank to preselect',
	},
	{
		displayName: 'Access to Accounts',
		name: 'accounts',
		type: 'boolean',
		default: false,
		description: 'Whether the token may read the list of bank accounts (names, IBANs, currencies)',
	},
	{
		displayName: 'Access to Balances',
		name: 'balances',
		type: 'boolean',
		default: false,
		description: 'Whether the token may read account balances',
	},
	{
		displayName: 'Access to Transactions',
		name: 'transactions',
		type: 'boolean',
		default: false,
		description:
			'Whether the token may read account transactions (needed for List Transactions later)',
	},
];

export const option: INodePropertyOptions = {
	name: 'Create Token',
	value: 'createToken',
	description:
		'Create a token the person uses to connect their bank account; outputs verificationUrl, the link to send them',
	action: 'Create a bank token',
};

const displayOptions = { show: { resource: ['bank'], operation: ['createToken'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = bankTokenSchema.extend({ verificationUrl: z.string().optional() });

/** The fields a wrong value is named by in a message, with how to fix it. */
const FIELD_LABELS = fieldLabels(properties, {
	lifetime:
		'Enter a whole number of seconds from 0 to 2,592,000 (30 days), for example 3600 for one hour.',
	country: `Choose a country from the list, or use one of these codes in an expression: ${BANK_COUNTRIES.join(', ')}.`,
	bank: 'Shorten the bank identifier to at most 32 characters, or leave it empty.',
	accounts: 'Set Access to Accounts to true or false.',
	balances: 'Set Access to Balances to true or false.',
	transactions: 'Set Access to Transactions to true or false.',
});

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const country = this.getNodeParameter('country', itemIndex, 'any') as string | null;
	const bank = this.getNodeParameter('bank', itemIndex, '') as string | null;
	const input = {
		lifetime: numberFromText(
			this.getNodeParameter('lifetime', itemIndex, LIMITS.bankTokenLifetime.default),
		),
		country: country === 'any' || country === '' || country === undefined ? null : country,
		bank: bank === '' || bank === undefined ? null : bank,
		access: {
			accounts: this.getNodeParameter('accounts', itemIndex, false),
			balances: this.getNodeParameter('balances', itemIndex, false),
			transactions: this.getNodeParameter('transactions', itemIndex, false),
		},
	};
	const request = validateInput.call(this, bankTokenRequestSchema, input, FIELD_LABELS, itemIndex);

	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/bank/tokens/',
		body: request as unknown as IDataObject,
		itemIndex,
	});
	return toItems(withLink(response.body));
}

/** The answer with the link to send the person first (a link in the answer itself wins). */
function withLink(answer: unknown): unknown {
	if (!isPlainObject(answer) || typeof answer.tokenString !== 'string' || answer.tokenString === '')
		return answer;
	return { verificationUrl: bankVerificationLink(answer.tokenString), ...answer };
}
