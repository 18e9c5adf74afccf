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
	LIMITS,
	bankTransactionSchema,
	listTransactionsParamsSchema,
} from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { listPages } from '../../helpers/pagination';
import { segment } from '../../helpers/response';
import { simplifyOption } from '../../helpers/simplify';
import { listReadOf, pageOptions, returnAllFields } from '../../helpers/listRead';
import { dayOfText, fieldLabels, validateInput } from '../../helpers/validation';
import { idOf } from '../../helpers/locator';

const properties: INodeProperties[] = [
	{
		displayName: 'Verification ID',
		name: 'verificationId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'The ID of the bank verification (a UUID)',
		description: 'The ID of the bank verification, from the Bank Verification webhook (field "ID")',
	},
	{
		displayName: 'Account ID',
		name: 'accountId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'The ID of an account in that verification (a UUID)',
		description:
			'The ID of one bank account, from the "accounts" list of the Bank Verification webhook',
	},
	...returnAllFields,
	// Off in the AI tool too: agents already using this operation keep the output they were built on.
	...simplifyOption(
		'Whether to return one flat row per transaction (bookingDate, transactionDate, direction, amount, amountText, currency, creditorName, debtorName, verificationId, accountId) instead of the whole answer',
		{ onInAiTool: false },
	),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		hint: 'The service has no date filter: every transaction of the account is read and those outside the dates are left out (Limit counts what is left)',
		options: [
			{
				displayName: 'Booked From',
				name: 'bookedFrom',
				type: 'dateTime',
				default: '',
				description:
					'Only transactions booked on this day or later. The time is ignored. Transactions without a booking date (not booked yet) are left out.',
			},
			{
				displayName: 'Booked To',
				name: 'bookedTo',
				type: 'dateTime',
				default: '',
				description:
					'Only transactions booked on this day or earlier. The time is ignored. Transactions without a booking date (not booked yet) are left out.',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...pageOptions('transactions')],
	},
];

export const option: INodePropertyOptions = {
	name: 'List Transactions',
	value: 'listTransactions',
	description: 'Get the transactions of a verified bank account, one item per transaction',
	action: 'List bank transactions',
};

const displayOptions = { show: { resource: ['bank'], operation: ['listTransactions'] } };

/** The service looks up the account within the verification: a 404 can come from either ID. */
const TRANSACTIONS_NOT_FOUND = {
	message:
		'Not found (HTTP 404): the service has no account with this Account ID in the bank verification with this Verification ID',
	advice:
		'The service checks both IDs together. Check the Verification ID (the "id" of the Bank Verification webhook) and the Account ID (the "id" of one of its "accounts"): both must come from the same webhook, and from the account of this credential (sandbox and production keys see different data).',
};

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = bankTransactionSchema;

/** A day as the service writes booking dates: `2026-03-14`. */
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A day of Booked From or Booked To (its value made a day by dayOf first). */
const bookedDay = z
	.string({ invalid_type_error: 'must be a date such as 2026-03-14' })
	.regex(DAY_PATTERN, { message: 'must be a date such as 2026-03-14' })
	.refine(isCalendarDay, { message: 'is not a day of the calendar' })
	.optional();

const paramsSchema = listTransactionsParamsSchema
	.extend({
		bookedFrom: bookedDay,
		bookedTo: bookedDay,
	})
	.refine(
		(params) => !params.bookedFrom || !params.bookedTo || params.bookedFrom <= params.bookedTo,
		{
			message: 'must not be after Booked To',
			path: ['bookedFrom'],
		},
	);

/** The fields a wrong value is named by in a message, with how to fix it. */
const FIELD_LABELS = fieldLabels(properties, {
	verificationId: 'Enter the bank verification ID from the Bank Verification webhook.',
	accountId: 'Enter the ID of one account from the Bank Verification webhook.',
	bookedFrom:
		"Pick a day that is not after Booked To, or enter one as text such as 2026-03-14 (in an expression, for example {{ $today.minus({ days: 1 }).toFormat('yyyy-MM-dd') }}).",
	bookedTo:
		"Pick a day, or enter one as text such as 2026-03-14 (in an expression, for example {{ $today.minus({ days: 1 }).toFormat('yyyy-MM-dd') }}).",
});

/** The item's account and dates, read and checked before anything is sent. */
function paramsOf(this: IExecuteFunctions, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as {
		bookedFrom?: unknown;
		bookedTo?: unknown;
	};
	const input = {
		verificationId: idOf.call(this, 'verificationId', itemIndex),
		accountId: idOf.call(this, 'accountId', itemIndex),
		bookedFrom: dayOf(filters.bookedFrom),
		bookedTo: dayOf(filters.bookedTo),
	};
	return validateInput.call(this, paramsSchema, input, FIELD_LABELS, itemIndex);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const params = paramsOf.call(this, itemIndex);
	const read = listReadOf.call(this, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, false) === true;
	const range = { from: params.bookedFrom, to: params.bookedTo };
	const filtered = range.from !== undefined || range.to !== undefined;
	const transactions = await listPages.call(this, {
		path: `/bank/verifications/${segment(params.verificationId)}/accounts/${segment(params.accountId)}/transactions/`,
		itemsName: 'transactions',
		...read,
		// The dates are applied here, not by the service: Limit counts what they leave, after all pages.
		limit: filtered ? undefined : read.limit,
		itemIndex,
		notFound: TRANSACTIONS_NOT_FOUND,
	});
	if (filtered) {
		const undated = keepBookedWithin(transactions, range);
		if (read.limit !== undefined) transactions.splice(read.limit);
		if (undated > 0) reportUndated.call(this, undated);
	}
	const account = { verificationId: params.verificationId, accountId: params.accountId };
	return transactions.map((transaction) => ({
		json: (simplify ? simplifyTransaction(transaction, account) : transaction) as IDataObject,
	}));
}

/** Transactions without a booking date belong to no day: said above the output, not dropped silently. */
function reportUndated(this: IExecuteFunctions, undated: number): void {
	const message =
		undated === 1
			? '1 transaction without a booking date (not booked yet) was left out by Booked From / Booked To: once booked, it is returned for its day of booking.'
			: `${undated} transactions without a booking date (not booked yet) were left out by Booked From / Booked To: once booked, they are returned for their day of booking.`;
	this.addExecutionHints({
		message,
		location: 'outputPane',
	});
}

// What List Transactions does to the transactions it read: keep those booked between two dates, and
// turn each into one flat row. The service's results are not checked one by one (any JSON value can
// come): both read what they can and never fail on a transaction of another shape.

/** Booked From and Booked To, both days included; either may be missing. */
interface BookedRange {
	from?: string;
	to?: string;
}

/**
 * A date field's value as a day (`2026-03-14`), from what the editor's date picker saves
 * (`2026-03-14T00:00:00`), a date as text, or a Luxon date from an expression (n8n gives it as its
 * ISO text, which starts with its own day). Empty is undefined; anything else is returned as it is
 * for the schema to refuse.
 */
function dayOf(value: unknown): unknown {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	return dayOfText(value) ?? value;
}

/** Whether a `yyyy-mm-dd` text is a day of the calendar (not 2026-02-30). */
function isCalendarDay(day: string): boolean {
	if (!DAY_PATTERN.test(day)) return false;
	const date = new Date(`${day}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** The day a transaction was booked, or undefined when it has none the node can read. */
function bookingDayOf(transaction: unknown): string | undefined {
	if (!isPlainObject(transaction) || typeof transaction.bookingDate !== 'string') return undefined;
	const day = transaction.bookingDate.slice(0, 10);
	return DAY_PATTERN.test(day) ? day : undefined;
}

/**
 * Keeps, in place and in order, the transactions booked within the range (the array is the read's
 * own: no second array of a whole account). Returns how many were left out because they have no
 * booking date (not booked yet): they belong to no day.
 */
function keepBookedWithin(transactions: unknown[], range: BookedRange): number {
	let kept = 0;
	let undated = 0;
	for (const transaction of transactions) {
		const day = bookingDayOf(transaction);
		if (day === undefined) undated++;
		else if ((!range.from || day >= range.from) && (!range.to || day <= range.to)) {
			transactions[kept++] = transaction;
		}
	}
	transactions.length = kept;
	return undated;
}

/** The account a row belongs to, as the node was asked for it. */
interface AccountIds {
	verificationId: string;
	accountId: string;
}

/**
 * One flat row per transaction, for a spreadsheet: the amount both as a number (to add up) and as
 * the exact text the service sent (a number cannot hold every 16-digit amount), the direction from
 * its sign, the parties' names. What the transaction lacks is null.
 */
function simplifyTransaction(transaction: unknown, account: AccountIds): IDataObject {
	const fields = isPlainObject(transaction) ? transaction : {};
	const money = isPlainObject(fields.transactionAmount) ? fields.transactionAmount : {};
	const amountText = amountTextOf(money.amount);
	const amount = amountOf(amountText);
	return {
		bookingDate: textOrNull(fields.bookingDate),
		transactionDate: textOrNull(fields.transactionDate),
		direction: amount === null ? null : amount < 0 ? 'out' : 'in',
		amount,
		amountText,
		currency: textOrNull(money.currency),
		creditorName: nameOf(fields.creditor),
		debtorName: nameOf(fields.debtor),
		verificationId: account.verificationId,
		accountId: account.accountId,
	};
}

function textOrNull(value: unknown): string | null {
	return typeof value === 'string' ? value : null;
}

function nameOf(party: unknown): string | null {
	return isPlainObject(party) ? textOrNull(party.fullName) : null;
}

/** The amount as sent: the contract's decimal text (a number some services send, as its text). */
function amountTextOf(value: unknown): string | null {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return null;
}

/**
 * The amount as a number, when its text is a decimal of the contract with at least one digit (the
 * contract's pattern also lets "", "-" and "." through: they are no amount). Minus zero is zero.
 */
function amountOf(text: string | null): number | null {
	if (text === null || !LIMITS.amountPattern.test(text) || !/\d/.test(text)) return null;
	const amount = Number(text);
	return amount === 0 ? 0 : amount;
}
