/**
 * What List Transactions does to the transactions it read: keep those booked between two dates, and
 * turn each into one flat row. The service's results are not checked one by one (any JSON value can
 * come): both read what they can and never fail on a transaction of another shape.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';

/** A day as the service writes booking dates: `2026-03-14`. */
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Booked From and Booked To, both days included; either may be missing. */
export interface BookedRange {
	from?: string;
	to?: string;
}

/**
 * A date field's value as a day (`2026-03-14`), from what the editor's date picker saves
 * (`2026-03-14T00:00:00`), a date as text, or a Luxon date from an expression (n8n gives it as its
 * ISO text, which starts with its own day). Empty is undefined; anything else is returned as it is
 * for the schema to refuse.
 */
export function dayOf(value: unknown): unknown {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	const day = /^\s*(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(value);
	return day ? day[1] : value;
}

/** Whether a `yyyy-mm-dd` text is a day of the calendar (not 2026-02-30). */
export function isCalendarDay(day: string): boolean {
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
export function keepBookedWithin(transactions: unknown[], range: BookedRange): number {
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
export interface AccountIds {
	verificationId: string;
	accountId: string;
}

/**
 * One flat row per transaction, for a spreadsheet: the amount both as a number (to add up) and as
 * the exact text the service sent (a number cannot hold every 16-digit amount), the direction from
 * its sign, the parties' names. What the transaction lacks is null.
 */
export function simplifyTransaction(transaction: unknown, account: AccountIds): IDataObject {
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
