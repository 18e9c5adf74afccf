/**
 * Every rule of the contract (docs/service-interface.md) as enforced by nodes/shared/contract/: each
 * limit with a value just inside and just outside it; response schemas keep unknown fields.
 */
import type { z } from 'zod';

import {
	accountCheckWebhookSchema,
	amlProfilePdfParamsSchema,
	amountSchema,
	BANK_COUNTRIES,
	bankAccountSchema,
	bankCountrySchema,
	bankTokenRequestSchema,
	bankTokenSchema,
	bankTransactionSchema,
	bankVerificationWebhookSchema,
	identificationWebhookSchema,
	partySchema,
	poaCheckRequestSchema,
	poaCheckSchema,
	questionnaireAnswersSchema,
	RISK_LEVELS,
	transactionPageSchema,
	uuidSchema,
	verificationTokenResponseSchema,
} from '../../nodes/shared/contract';

const ok = (schema: z.ZodTypeAny, value: unknown) =>
	expect(schema.safeParse(value).success).toBe(true);
const bad = (schema: z.ZodTypeAny, value: unknown) =>
	expect(schema.safeParse(value).success).toBe(false);
const chars = (n: number) => 'x'.repeat(n);

const UUID = '5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10';

describe('bank token request', () => {
	test('lifetime: 0 and 2592000 are accepted, -1 and 2592001 are rejected', () => {
		bad(bankTokenRequestSchema, { lifetime: -1 });
		ok(bankTokenRequestSchema, { lifetime: 0 });
		ok(bankTokenRequestSchema, { lifetime: 2592000 });
		bad(bankTokenRequestSchema, { lifetime: 2592001 });
	});

	test('lifetime defaults to 3600 and must be whole seconds', () => {
		expect(bankTokenRequestSchema.parse({}).lifetime).toBe(3600);
		bad(bankTokenRequestSchema, { lifetime: 1.5 });
		bad(bankTokenRequestSchema, { lifetime: '3600' });
	});

	test('no field is required; access booleans default to false', () => {
		expect(bankTokenRequestSchema.parse({})).toEqual({
			lifetime: 3600,
			access: { accounts: false, balances: false, transactions: false },
		});
	});

	test('bank: 32 characters are accepted, 33 rejected; null allowed', () => {
		ok(bankTokenRequestSchema, { bank: chars(32) });
		bad(bankTokenRequestSchema, { bank: chars(33) });
		ok(bankTokenRequestSchema, { bank: null });
	});

	test.each(BANK_COUNTRIES.map((c) => [c]))('bank country %s is accepted', (country) => {
		ok(bankTokenRequestSchema, { country });
		ok(bankCountrySchema, country);
	});

	test('the bank country list has the 28 codes of the contract', () => {
		expect(new Set(BANK_COUNTRIES).size).toBe(28);
		expect([...BANK_COUNTRIES].sort()).toEqual(
			'AT BE BG HR CY DK EE FI FR DE GR HU IS IE IT LV LT LU MT NL NO PL PT RO SK SI ES SE'
				.split(' ')
				.sort(),
		);
	});

	test('a country outside the 28 bank countries is rejected (US, GB, CH, XK, lower case)', () => {
		for (const country of ['US', 'GB', 'CH', 'XK', 'de', 'DEU', ''])
			bad(bankTokenRequestSchema, { country });
	});
});

describe('amount pattern ^-?\\d{0,14}(?:\\.\\d{0,2})?$', () => {
	const amount = (value: string) => ({ amount: value, currency: 'EUR' });
	test('14 integer digits are accepted, 15 rejected', () => {
		ok(amountSchema, amount('12345678901234'));
		bad(amountSchema, amount('123456789012345'));
	});
	test('2 decimals are accepted, 3 rejected', () => {
		ok(amountSchema, amount('1.12'));
		ok(amountSchema, amount('12345678901234.99'));
		bad(amountSchema, amount('1.123'));
	});
	test('one leading minus is accepted; two, a plus or a trailing minus are not', () => {
		ok(amountSchema, amount('-967.35'));
		ok(amountSchema, amount('-12345678901234.00'));
		bad(amountSchema, amount('--1'));
		bad(amountSchema, amount('+1'));
		bad(amountSchema, amount('1-'));
	});
	test('an empty integer part is accepted (the pattern allows \\d{0,14})', () => {
		ok(amountSchema, amount('.5'));
		ok(amountSchema, amount('-.50'));
	});
	test('commas, spaces, exponents and letters are rejected', () => {
		for (const value of ['1,00', '1 000', '1e3', 'abc', '1.2.3']) bad(amountSchema, amount(value));
	});
	test('the amount must be a string', () => {
		bad(amountSchema, { amount: 12.5, currency: 'EUR' });
	});
	test('currency: 3 characters are accepted, 4 rejected', () => {
		ok(amountSchema, amount('1'));
		ok(amountSchema, { amount: '1', currency: 'EUR' });
		bad(amountSchema, { amount: '1', currency: 'EURO' });
	});
});

describe('bank transaction, party and account', () => {
	test('party fullName: 128 characters accepted, 129 rejected, null allowed', () => {
		ok(partySchema, { fullName: chars(128) });
		bad(partySchema, { fullName: chars(129) });
		ok(partySchema, { fullName: null });
	});

	test('a transaction needs creditor, debtor and transactionAmount', () => {
		const tx = {
			creditor: { fullName: 'A' },
			debtor: { fullName: 'B' },
			transactionAmount: { amount: '1.00', currency: 'EUR' },
		};
		ok(bankTransactionSchema, tx);
		ok(bankTransactionSchema, { ...tx, bookingDate: null, transactionDate: '2026-10-30' });
		bad(bankTransactionSchema, { ...tx, creditor: undefined });
		bad(bankTransactionSchema, { ...tx, transactionAmount: undefined });
		bad(bankTransactionSchema, { ...tx, debtor: { fullName: chars(129) } });
	});

	const account = {
		id: UUID,
		currency: 'EUR',
		balancesOverview: { bookedBalance: 1.5, availableBalance: null },
		transactionsCount: 3,
	};
	test.each([
		['iban', '34 characters accepted, 35 rejected', chars(34), chars(35)],
		['name', '128 accepted, 129 rejected', chars(128), chars(129)],
		['currency', '3 accepted, 4 rejected', 'EUR', 'EURO'],
	])('bank account %s: %s', (field, _limits, accepted, rejected) => {
		ok(bankAccountSchema, { ...account, [field]: accepted });
		bad(bankAccountSchema, { ...account, [field]: rejected });
	});
});

describe('AML profile PDF', () => {
	test("password '' is rejected, 'x' accepted", () => {
		bad(amlProfilePdfParamsSchema, { checkId: UUID, profileId: 'prof-001', password: '' });
		ok(amlProfilePdfParamsSchema, { checkId: UUID, profileId: 'prof-001', password: 'x' });
	});
	test('password is required', () => {
		bad(amlProfilePdfParamsSchema, { checkId: UUID, profileId: 'prof-001' });
	});
	test('the AML check id must be a UUID', () => {
		bad(amlProfilePdfParamsSchema, { checkId: 'check-1', profileId: 'prof-001', password: 'x' });
	});
});

describe('UUID', () => {
	test('a UUID is accepted; other text is rejected', () => {
		ok(uuidSchema, UUID);
		ok(uuidSchema, '00000000-0000-4000-8000-000000000000');
		bad(uuidSchema, '5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a1');
		bad(uuidSchema, '5f0b6f5e8f4a4b8e9a512f1f1f9c2a10x');
		bad(uuidSchema, 'not-a-uuid');
		bad(uuidSchema, '');
	});
});

describe('proof of address request', () => {
	const poa = {
		file: 'JVBERi0xLjQK',
		providedName: 'Jonas Jonaitis',
		providedAddress: 'Gedimino pr. 1',
	};
	test.each(['providedName', 'providedAddress'])(
		'%s: 255 characters accepted, 256 rejected',
		(field) => {
			ok(poaCheckRequestSchema, { ...poa, [field]: chars(255) });
			bad(poaCheckRequestSchema, { ...poa, [field]: chars(256) });
		},
	);
	test('the file must not be empty; name and address are optional, as for the service', () => {
		bad(poaCheckRequestSchema, { ...poa, file: '' });
		ok(poaCheckRequestSchema, { file: poa.file });
		ok(poaCheckRequestSchema, { ...poa, providedName: undefined });
	});
});

describe('webhook bodies', () => {
	const accountCheck = { scanRef: 'scan-1', status: 1, score: 0.5 };
	test.each([1, 2, 3, 4, 5])('account check status %i is accepted', (status) => {
		ok(accountCheckWebhookSchema, { ...accountCheck, status });
	});
	test('account check status 0 and 6 are rejected', () => {
		bad(accountCheckWebhookSchema, { ...accountCheck, status: 0 });
		bad(accountCheckWebhookSchema, { ...accountCheck, status: 6 });
		bad(accountCheckWebhookSchema, { ...accountCheck, status: '1' });
	});
	test('account check score is required', () => {
		bad(accountCheckWebhookSchema, { scanRef: 'scan-1', status: 1 });
	});

	const bankVerification = { id: UUID, accounts: [], riskLevel: 'LOW' };
	test.each(RISK_LEVELS.map((r) => [r]))('risk level %s is accepted', (riskLevel) => {
		ok(bankVerificationWebhookSchema, { ...bankVerification, riskLevel });
	});
	test('an unknown risk level is rejected; null is allowed', () => {
		bad(bankVerificationWebhookSchema, { ...bankVerification, riskLevel: 'EXTREME' });
		bad(bankVerificationWebhookSchema, { ...bankVerification, riskLevel: 'low' });
		ok(bankVerificationWebhookSchema, { ...bankVerification, riskLevel: null });
	});
	test('bank verification bank: 32 accepted, 33 rejected', () => {
		ok(bankVerificationWebhookSchema, { ...bankVerification, bank: chars(32) });
		bad(bankVerificationWebhookSchema, { ...bankVerification, bank: chars(33) });
	});
	test('accounts is required (null allowed)', () => {
		ok(bankVerificationWebhookSchema, { ...bankVerification, accounts: null });
		bad(bankVerificationWebhookSchema, { id: UUID, riskLevel: 'LOW' });
	});
});

describe('response schemas accept unknown extra fields', () => {
	const cases: Array<[string, z.ZodTypeAny, Record<string, unknown>]> = [
		[
			'bank token',
			bankTokenSchema,
			{
				tokenString: 't',
				expiration: '2026-11-22T20:00:00Z',
				isValid: true,
				access: { accounts: true, extra: 1 },
			},
		],
		[
			'transaction page',
			transactionPageSchema,
			{ count: 0, next: null, previous: null, results: [] },
		],
		[
			'bank transaction',
			bankTransactionSchema,
			{ creditor: {}, debtor: {}, transactionAmount: { amount: '1', currency: 'EUR' } },
		],
		['POA check', poaCheckSchema, { id: UUID, overallStatus: 'MATCH' }],
		[
			'bank verification webhook',
			bankVerificationWebhookSchema,
			{ id: UUID, accounts: null, riskLevel: null },
		],
		['account check webhook', accountCheckWebhookSchema, { scanRef: null, status: 2, score: 1 }],
		['identification webhook', identificationWebhookSchema, { final: true, scanRef: 's' }],
		['questionnaire answers', questionnaireAnswersSchema, { sections: {} }],
		['verification token', verificationTokenResponseSchema, { authToken: 'a' }],
	];
	test.each(cases)('%s keeps an unknown field', (_name, schema, value) => {
		const parsed = schema.parse({ ...value, addedLater: { nested: true } }) as Record<
			string,
			unknown
		>;
		expect(parsed.addedLater).toEqual({ nested: true });
	});
});
