/**
 * Deterministic bank transactions: (accountId, index) -> one transaction matching the contract's
 * `bankTransactionSchema`. Nothing is stored, so an account with 100,000 transactions costs nothing
 * until a page is asked for, and every page is the same on every run of a day (the dates move with
 * today: NEWEST below).
 */
import type { BankTransaction } from '../../nodes/shared/contract';

/** FNV-1a, 32 bit. */
function hash32(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1). */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const ACCOUNT_OWNER = 'Jonas Jonaitis';

const COUNTERPARTIES = [
	'Žemaitė Petraitienė',
	'UAB „Šviesos tinklai“',
	'Müller & Söhne GmbH',
	'Ana María Núñez',
	'Ørsted Energi A/S',
	'Łukasz Wiśniewski',
	'AB Lietuvos geležinkeliai',
	'Café Crème SARL',
	'Vilniaus vandenys',
	'Maxima LT, UAB',
	'Bolt Operations OÜ',
	'Spotify AB',
	'Jānis Bērziņš',
	'Ελένη Παπαδοπούλου',
	'Nordea Bank Abp',
	"O'Connor & Partners Ltd",
];

/** A counterparty name of exactly 128 characters (the contract's maximum). */
const LONG_NAME = (
	'Tarptautinė prekybos, logistikos ir konsultacijų bendrovė „Baltijos jūros krantų paslaugos“ ' +
	'ir partneriai, uždaroji akcinė bendrovė'
)
	.slice(0, 128)
	.padEnd(128, '.');

const OTHER_CURRENCIES = ['USD', 'GBP', 'PLN', 'SEK', 'CHF'];

const DAY = 86400000;
/**
 * Newest booking date: today (UTC) when this module is loaded; transaction 0 is the newest, later
 * indices go back in time, 7 a day. Relative to today so that yesterday has bookings wherever the
 * workflow's time zone is (UTC-12 to UTC+14: the nightly bank example pulls "yesterday"); fixed for
 * the process, so the sandbox and a test comparing with `transactionsRange` see the same dates.
 */
const NEWEST = Math.floor(Date.now() / DAY) * DAY;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function formatAmount(cents: number): string {
	const sign = cents < 0 ? '-' : '';
	const abs = Math.abs(cents);
	const whole = Math.floor(abs / 100);
	const fraction = abs % 100;
	return `${sign}${whole}.${String(fraction).padStart(2, '0')}`;
}

function transactionAt(accountId: string, index: number): BankTransaction {
	const random = prng(hash32(accountId) ^ Math.imul(index + 1, 0x9e3779b1));
	const currency =
		random() < 0.8 ? 'EUR' : OTHER_CURRENCIES[Math.floor(random() * OTHER_CURRENCIES.length)];
	const outgoing = random() < 0.6;
	const cents = Math.floor(random() * random() * 250000) + 1;
	let amount: string;
	if (index % 97 === 96)
		amount = outgoing ? '-99999999999999.99' : '99999999999999.99'; // 14 integer digits
	else amount = formatAmount(outgoing ? -cents : cents);
	let counterparty: string | null = COUNTERPARTIES[Math.floor(random() * COUNTERPARTIES.length)];
	if (index % 50 === 49) counterparty = LONG_NAME;
	if (index % 41 === 40) counterparty = null;
	const owner = { fullName: ACCOUNT_OWNER };
	const other = { fullName: counterparty };
	const booking = NEWEST - Math.floor(index / 7) * DAY;
	return {
		creditor: outgoing ? other : owner,
		debtor: outgoing ? owner : other,
		bookingDate: isoDate(booking),
		transactionDate: index % 13 === 12 ? null : isoDate(booking - Math.floor(random() * 3) * DAY),
		transactionAmount: { amount, currency },
	};
}

/** Transactions [from, to) of an account. */
export function transactionsRange(accountId: string, from: number, to: number): BankTransaction[] {
	const out: BankTransaction[] = [];
	for (let i = from; i < to; i++) out.push(transactionAt(accountId, i));
	return out;
}
