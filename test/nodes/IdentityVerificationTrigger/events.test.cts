/**
 * events.ts on its own: event names as the service may write them, the event-kind rules one
 * condition at a time (each rule's body just inside and just outside it), which fields buildEvent
 * lifts to the top of the item, and the Events option. The HTTP tests show the same kinds end to
 * end with whole bodies; these pin every condition.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	buildEvent,
	inferEventType,
	isNonFinal,
	parseEventTypeName,
} from '../../../nodes/IdentityVerificationTrigger/events';
import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import { EVENT_TYPES } from '../../../nodes/shared/contract';
import { BODIES } from './fixtures.cjs';

const event = (body: IDataObject, headerEventType?: string) =>
	buildEvent({ headerEventType, body, deliveryId: 'd-1', receivedAt: new Date(0) });

describe('event kinds', () => {
	test.each([
		['BANK_VERIFICATION', 'BANK_VERIFICATION'],
		['bank-verification', 'BANK_VERIFICATION'],
		['Identification Expired', 'IDENTIFICATION_EXPIRED'],
		['identification_cancelled', 'IDENTIFICATION_CANCELLED'],
		['IDENTIFICATION-CANCELED', 'IDENTIFICATION_CANCELLED'],
		['identification (legacy)', 'IDENTIFICATION'],
		['KYB_REVIEW', 'KYB_REVIEW_RESULT'],
		['bank card verification completed', 'BANK_CARD_VERIFICATION_COMPLETED'],
	])('%j names %s', (value, kind) => {
		expect(parseEventTypeName(value)).toBe(kind);
	});

	test.each([['IDENTIFICATION_STARTED'], [''], ['BANK'], [42], [null]])(
		'%j names no known kind',
		(value) => {
			expect(parseEventTypeName(value)).toBeUndefined();
		},
	);

	test('an account check is not mistaken for an identification although it has a scanRef', () => {
		expect(inferEventType({ ...BODIES.ACCOUNT_CHECK, scanRef: 'abc' } as IDataObject)).toBe(
			'ACCOUNT_CHECK',
		);
	});

	test('a KYB body with a scanRef key is not a KYB review', () => {
		expect(
			inferEventType({ companyId: 'c-1', scanRef: 's-1', status: { overall: 'APPROVED' } }),
		).toBe('IDENTIFICATION');
	});

	test('an explicit body type that names no known kind is ignored', () => {
		expect(inferEventType({ type: 'SOMETHING', ...BODIES.BANK_VERIFICATION } as IDataObject)).toBe(
			'BANK_VERIFICATION',
		);
	});

	test('anything unrecognisable falls back to the legacy identification event', () => {
		const event = buildEvent({
			headerEventType: undefined,
			body: { hello: 'world' },
			deliveryId: 'd',
			receivedAt: new Date(0),
		});
		expect(event).toMatchObject({
			eventType: 'IDENTIFICATION',
			eventTypeSource: 'body',
			receivedAt: '1970-01-01T00:00:00.000Z',
		});
		expect(event.validationIssues).toBeUndefined();
	});

	test('non-final means a body with final === false, whatever the kind; outcomes without the flag are final', () => {
		expect(isNonFinal({ final: false })).toBe(true);
		expect(isNonFinal({ final: true })).toBe(false);
		expect(isNonFinal({ final: undefined })).toBe(false);
	});
});

describe('inferEventType, one condition at a time', () => {
	test.each<[string, IDataObject, string]>([
		// 2a: an explicit kind in eventType, type or event
		['an event field', { event: 'BANK_VERIFICATION' }, 'BANK_VERIFICATION'],
		['a type field', { type: 'ACCOUNT_CHECK' }, 'ACCOUNT_CHECK'],
		// 2b: accounts AND riskLevel
		['accounts and riskLevel', { accounts: [], riskLevel: null }, 'BANK_VERIFICATION'],
		['accounts without riskLevel', { accounts: [], scanRef: 's' }, 'IDENTIFICATION'],
		['riskLevel without accounts', { riskLevel: 'LOW', scanRef: 's' }, 'IDENTIFICATION'],
		// 2c: a numeric score AND an integer status
		['score and an integer status', { score: 0.5, status: 2 }, 'ACCOUNT_CHECK'],
		['score and a fractional status', { score: 0.5, status: 2.5 }, 'IDENTIFICATION'],
		['an integer status without score', { status: 2 }, 'IDENTIFICATION'],
		['score as text', { score: '0.5', status: 2 }, 'IDENTIFICATION'],
		['status as text', { score: 0.5, status: '2' }, 'IDENTIFICATION'],
		// 2d: a card check without a verification session
		['a card check alone', { bankCardVerification: {} }, 'BANK_CARD_VERIFICATION_COMPLETED'],
		[
			'a card check with an empty scanRef',
			{ bankCardVerification: {}, scanRef: '' },
			'BANK_CARD_VERIFICATION_COMPLETED',
		],
		['a card check with a scanRef', { bankCardVerification: {}, scanRef: 's' }, 'IDENTIFICATION'],
		['a card check with final', { bankCardVerification: {}, final: true }, 'IDENTIFICATION'],
		[
			'a card check with an overall status',
			{ bankCardVerification: {}, status: { overall: 'APPROVED' } },
			'IDENTIFICATION',
		],
		// 2e: a KYB form or company id, and no scanRef
		['a formId', { formId: 'f-1' }, 'KYB_REVIEW_RESULT'],
		['a companyId', { companyId: 'c-1' }, 'KYB_REVIEW_RESULT'],
		['a form with an id', { form: { id: 7 } }, 'KYB_REVIEW_RESULT'],
		['a company with an id', { company: { id: 'c-1' } }, 'KYB_REVIEW_RESULT'],
		['a form without an id', { form: {} }, 'IDENTIFICATION'],
		['a company without an id', { company: {} }, 'IDENTIFICATION'],
		['a formId that is not text', { formId: 7 }, 'IDENTIFICATION'],
		['a companyId that is not text', { companyId: 7 }, 'IDENTIFICATION'],
		// 2f: expired and cancelled sessions
		['overall EXPIRED', { status: { overall: 'EXPIRED' } }, 'IDENTIFICATION_EXPIRED'],
		['overall CANCELLED', { status: { overall: 'CANCELLED' } }, 'IDENTIFICATION_CANCELLED'],
		['overall CANCELED', { status: { overall: 'canceled' } }, 'IDENTIFICATION_CANCELLED'],
		['an overall status that is not text', { status: { overall: 5 } }, 'IDENTIFICATION'],
	])('%s', (_what, body, kind) => {
		expect(inferEventType(body)).toBe(kind);
	});
});

describe('buildEvent: the fields lifted to the top', () => {
	test('final, overall status, scanRef and clientId are lifted when they have their type', () => {
		expect(
			event({ final: false, scanRef: 's-1', clientId: 'c-1', status: { overall: 'REVIEWING' } }),
		).toMatchObject({ final: false, scanRef: 's-1', clientId: 'c-1', overallStatus: 'REVIEWING' });
	});

	test('fields of another type are left in the body only', () => {
		const item = event({ final: 'false', scanRef: 5, clientId: 7, status: { overall: 5 } });
		for (const field of ['final', 'scanRef', 'clientId', 'overallStatus']) {
			expect(Object.keys(item)).not.toContain(field);
		}
		expect(item.body.scanRef).toBe(5);
	});

	test('no overall status key when the identification body has none', () => {
		expect(Object.keys(event({ scanRef: 's-1', final: true }))).not.toContain('overallStatus');
	});

	test('the overall status is lifted for identification events only', () => {
		const kyb = event({ formId: 'f-1', status: { overall: 'APPROVED' } });
		expect(kyb.eventType).toBe('KYB_REVIEW_RESULT');
		expect(Object.keys(kyb)).not.toContain('overallStatus');
	});
});

describe('the Events option', () => {
	test('lists every kind once, sorted by name, each with a name and a description', () => {
		const property = new IdentityVerificationTrigger().description.properties.find(
			(p) => p.name === 'events',
		);
		const options = (property?.options ?? []) as Array<{
			name: string;
			value: string;
			description?: string;
		}>;
		expect(options.map((o) => o.value).sort()).toEqual([...EVENT_TYPES].sort());
		const names = options.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(options.find((o) => o.value === 'IDENTIFICATION')).toMatchObject({
			name: 'Identification (Legacy)',
			description: expect.stringMatching(/every verification outcome/),
		});
		for (const option of options) {
			expect(option.name).not.toBe('');
			expect(option.description).toEqual(expect.any(String));
		}
	});
});
