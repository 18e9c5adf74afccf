/**
 * events.ts on its own: event names as the service may write them, the event-kind rules one
 * condition at a time (each rule's body just inside and just outside it), which header kinds the
 * signed body overrules, isIdentificationBody, which fields buildEvent lifts to the top of the item,
 * and the Events option. The HTTP tests show the same kinds end to end with whole bodies; these pin
 * every condition.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	buildEvent,
	inferEventType,
	isIdentificationBody,
	isNonFinal,
	parseEventTypeName,
} from '../../../nodes/shared/webhook/events';
import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import {
	EVENT_TYPES,
	IDENTIFICATION_EVENT_TYPES,
	type EventType,
} from '../../../nodes/shared/contract';
import { BODIES } from './fixtures.cjs';

const event = (body: IDataObject, headerEventType?: string | string[]) =>
	buildEvent({ headerEventType, body, deliveryId: 'd-1', receivedAt: new Date(0) });

/** The kind fields of an event whose header the body overruled. */
const overruled = (eventType: EventType, headerEventType: EventType) => ({
	eventType,
	eventTypeSource: 'body',
	headerMatchesBody: false,
	headerEventType,
});

/** The kind fields of an event whose header was kept. */
const kept = (eventType: EventType) => ({
	eventType,
	eventTypeSource: 'header',
	headerMatchesBody: true,
});

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
		// 1b: a kind named in eventType, type or event (no shape)
		['an event field', { event: 'BANK_VERIFICATION' }, 'BANK_VERIFICATION'],
		['a type field', { type: 'ACCOUNT_CHECK' }, 'ACCOUNT_CHECK'],
		// 1a: accounts AND riskLevel
		['accounts and riskLevel', { accounts: [], riskLevel: null }, 'BANK_VERIFICATION'],
		['accounts without riskLevel', { accounts: [], scanRef: 's' }, 'IDENTIFICATION'],
		['riskLevel without accounts', { riskLevel: 'LOW', scanRef: 's' }, 'IDENTIFICATION'],
		// 1a: a numeric score AND an integer status
		['score and an integer status', { score: 0.5, status: 2 }, 'ACCOUNT_CHECK'],
		['score and a fractional status', { score: 0.5, status: 2.5 }, 'IDENTIFICATION'],
		['an integer status without score', { status: 2 }, 'IDENTIFICATION'],
		['score as text', { score: '0.5', status: 2 }, 'IDENTIFICATION'],
		['status as text', { score: 0.5, status: '2' }, 'IDENTIFICATION'],
		// 1a: a card check without a verification session
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
		// 1a: a KYB form or company id, and no scanRef
		['a formId', { formId: 'f-1' }, 'KYB_REVIEW_RESULT'],
		['a companyId', { companyId: 'c-1' }, 'KYB_REVIEW_RESULT'],
		['a form with an id', { form: { id: 7 } }, 'KYB_REVIEW_RESULT'],
		['a company with an id', { company: { id: 'c-1' } }, 'KYB_REVIEW_RESULT'],
		['a form without an id', { form: {} }, 'IDENTIFICATION'],
		['a company without an id', { company: {} }, 'IDENTIFICATION'],
		['a formId that is not text', { formId: 7 }, 'IDENTIFICATION'],
		['a companyId that is not text', { companyId: 7 }, 'IDENTIFICATION'],
		// 1a: expired and cancelled sessions (never final: false, rule 2)
		['overall EXPIRED', { status: { overall: 'EXPIRED' } }, 'IDENTIFICATION_EXPIRED'],
		['overall CANCELLED', { status: { overall: 'CANCELLED' } }, 'IDENTIFICATION_CANCELLED'],
		['overall CANCELED', { status: { overall: 'canceled' } }, 'IDENTIFICATION_CANCELLED'],
		['an overall status that is not text', { status: { overall: 5 } }, 'IDENTIFICATION'],
		[
			'EXPIRED with final: false',
			{ final: false, status: { overall: 'EXPIRED' } },
			'IDENTIFICATION',
		],
		[
			'CANCELLED with final: false',
			{ final: false, status: { overall: 'CANCELLED' } },
			'IDENTIFICATION',
		],
		// 1b, ruled out by the body: a named kind must fit its final flag (rule 2) and its product
		[
			'a named manual decision with final: false',
			{ type: 'IDENTIFICATION_MANUAL_FINISHED', final: false, scanRef: 's' },
			'IDENTIFICATION',
		],
		[
			'a named bank verification with a session',
			{ type: 'BANK_VERIFICATION', final: true, scanRef: 's' },
			'IDENTIFICATION',
		],
		[
			'a named identification with accounts and riskLevel',
			{ type: 'IDENTIFICATION', accounts: [], riskLevel: 'LOW' },
			'BANK_VERIFICATION',
		],
		[
			'a named kind of the same product as the shape',
			{ event: 'identification-resubmitted', final: true, scanRef: 's' },
			'IDENTIFICATION_RESUBMITTED',
		],
	])('%s', (_what, body, kind) => {
		expect(inferEventType(body)).toBe(kind);
	});
});

describe('the signed body outranks the unsigned header', () => {
	const result = { final: true, scanRef: 'r-1', status: { overall: 'APPROVED' } };
	const preliminary = { final: false, scanRef: 'p-1', status: { overall: 'SUSPECTED' } };
	const expired = { final: true, scanRef: 'e-1', status: { overall: 'EXPIRED' } };
	const otherProducts: EventType[] = [
		'BANK_VERIFICATION',
		'ACCOUNT_CHECK',
		'BANK_CARD_VERIFICATION_COMPLETED',
		'KYB_REVIEW_RESULT',
	];

	test.each<[string, EventType]>([
		['IDENTIFICATION_MANUAL_FINISHED', 'IDENTIFICATION_MANUAL_FINISHED'],
		['identification manual-finished', 'IDENTIFICATION_MANUAL_FINISHED'],
		['IDENTIFICATION_EXPIRED', 'IDENTIFICATION_EXPIRED'],
		['Identification.Cancelled', 'IDENTIFICATION_CANCELLED'],
	])(
		'a final: false body labelled %j is the legacy identification event, flagged',
		(header, named) => {
			expect(event(preliminary, header)).toMatchObject({
				...overruled('IDENTIFICATION', named),
				final: false,
			});
		},
	);

	test.each<EventType>([
		'IDENTIFICATION_AUTO_FINISHED',
		'IDENTIFICATION_RESUBMITTED',
		'IDENTIFICATION',
	])('a final: false body may be %s: the header decides', (header) => {
		expect(event(preliminary, header)).toMatchObject(kept(header));
	});

	test.each<EventType>([
		'IDENTIFICATION_AUTO_FINISHED',
		'IDENTIFICATION_MANUAL_FINISHED',
		'IDENTIFICATION_RESUBMITTED',
		'IDENTIFICATION',
	])('a final result may be %s: the header decides', (header) => {
		expect(event(result, header)).toMatchObject(kept(header));
	});

	test.each<EventType>(['IDENTIFICATION_EXPIRED', 'IDENTIFICATION_CANCELLED'])(
		'a result whose overall status says otherwise is not %s; without an overall status the header decides',
		(header) => {
			expect(event(result, header)).toMatchObject(overruled('IDENTIFICATION', header));
			expect(event({ scanRef: 'r-2', status: {} }, header)).toMatchObject(kept(header));
			expect(event({ ...result, final: undefined }, header)).toMatchObject(
				overruled('IDENTIFICATION', header),
			);
		},
	);

	test.each<EventType>([
		'IDENTIFICATION_AUTO_FINISHED',
		'IDENTIFICATION_MANUAL_FINISHED',
		'IDENTIFICATION_RESUBMITTED',
		'IDENTIFICATION_CANCELLED',
	])('an expired session labelled %s is the expiry, flagged', (header) => {
		expect(event(expired, header)).toMatchObject(overruled('IDENTIFICATION_EXPIRED', header));
	});

	test('an expired or cancelled session may be the legacy event, which fires for every outcome', () => {
		expect(event(expired, 'IDENTIFICATION')).toMatchObject(kept('IDENTIFICATION'));
		expect(event(BODIES.IDENTIFICATION_CANCELLED as IDataObject, 'IDENTIFICATION')).toMatchObject(
			kept('IDENTIFICATION'),
		);
	});

	describe.each(otherProducts)('a %s body', (product) => {
		test.each(IDENTIFICATION_EVENT_TYPES)(
			'labelled %s is still that product, flagged',
			(header) => {
				expect(event(BODIES[product] as IDataObject, header)).toMatchObject(
					overruled(product, header),
				);
			},
		);
	});

	describe.each<[string, IDataObject, EventType]>([
		['a final result', result, 'IDENTIFICATION'],
		['a preliminary result', preliminary, 'IDENTIFICATION'],
		['an expired session', expired, 'IDENTIFICATION_EXPIRED'],
		['a body with only a scanRef', { scanRef: 's-1' }, 'IDENTIFICATION'],
		[
			'a body with a card check inside its session',
			{ ...result, bankCardVerification: { status: 'APPROVED' } },
			'IDENTIFICATION',
		],
	])('%s', (_what, body, kind) => {
		test.each(otherProducts)('labelled %s is still an identification, flagged', (header) => {
			expect(event(body, header)).toMatchObject(overruled(kind, header));
		});
	});

	test('a kind the body names itself outranks the header', () => {
		const named = { ...result, type: 'IDENTIFICATION_AUTO_FINISHED' };
		expect(event(named, 'IDENTIFICATION_MANUAL_FINISHED')).toMatchObject(
			overruled('IDENTIFICATION_AUTO_FINISHED', 'IDENTIFICATION_MANUAL_FINISHED'),
		);
		expect(event(named, 'identification auto finished')).toMatchObject(
			kept('IDENTIFICATION_AUTO_FINISHED'),
		);
	});

	test('a body that shows no product leaves the product to the header, checked against the contract', () => {
		const item = event({ hello: 'world' }, 'ACCOUNT_CHECK');
		expect(item).toMatchObject(kept('ACCOUNT_CHECK'));
		expect(item.validationIssues?.map((i) => i.path)).toEqual(
			expect.arrayContaining(['status', 'score']),
		);
		expect(event({ hello: 'world' }, 'IDENTIFICATION_MANUAL_FINISHED')).toMatchObject(
			kept('IDENTIFICATION_MANUAL_FINISHED'),
		);
	});

	test('a header repeated with different kinds names none the body can confirm: the body kind, flagged', () => {
		const values = ['IDENTIFICATION_MANUAL_FINISHED', 'IDENTIFICATION_AUTO_FINISHED'];
		const flagged = overruled('IDENTIFICATION', 'IDENTIFICATION_MANUAL_FINISHED');
		expect(event(result, values)).toMatchObject(flagged);
		// n8n (Node's HTTP server) joins a repeated header into one value with ", ".
		expect(event(result, values.join(', '))).toMatchObject(flagged);
		// The first value that is not the body's kind is reported, not the one that agrees.
		expect(event(result, ['IDENTIFICATION', 'IDENTIFICATION_AUTO_FINISHED'])).toMatchObject(
			overruled('IDENTIFICATION', 'IDENTIFICATION_AUTO_FINISHED'),
		);
	});

	test('a header repeated with one kind (spelled any way) is that kind; values naming no kind are left out', () => {
		const auto = kept('IDENTIFICATION_AUTO_FINISHED');
		expect(
			event(result, ['IDENTIFICATION_AUTO_FINISHED', 'identification-auto-finished']),
		).toMatchObject(auto);
		expect(
			event(result, 'IDENTIFICATION_AUTO_FINISHED, IDENTIFICATION_AUTO_FINISHED'),
		).toMatchObject(auto);
		expect(event(result, 'IDENTIFICATION_AUTO_FINISHED, SOMETHING_NEW')).toMatchObject(auto);
		// A comma inside one tolerant spelling is still that one name.
		expect(event(result, 'Identification, Auto Finished')).toMatchObject(auto);
	});

	test('whatever the header, a final: false event is never a manual decision, expiry or cancellation, and the product is the body’s', () => {
		const headers: Array<string | string[] | undefined> = [
			undefined,
			'SOMETHING_NEW',
			...EVENT_TYPES,
			[...EVENT_TYPES],
		];
		// Every body here shows its product (only a body that shows none leaves it to the header).
		const bodies: IDataObject[] = [
			...Object.values(BODIES).map((body) => body as IDataObject),
			...Object.values(BODIES).map((body) => ({ ...body, final: false }) as IDataObject),
			{ ...expired, final: false },
			{ ...preliminary, type: 'IDENTIFICATION_MANUAL_FINISHED' },
		];
		const product = (kind: EventType) =>
			IDENTIFICATION_EVENT_TYPES.includes(kind) ? 'IDENTIFICATION' : kind;
		const neverPreliminary = [
			'IDENTIFICATION_MANUAL_FINISHED',
			'IDENTIFICATION_EXPIRED',
			'IDENTIFICATION_CANCELLED',
		];
		const broken: string[] = [];
		for (const body of bodies) {
			for (const header of headers) {
				const item = event(body, header);
				const what = `${JSON.stringify(header)} on ${JSON.stringify(body)}: ${item.eventType}`;
				if (item.final === false && neverPreliminary.includes(item.eventType)) {
					broken.push(`final: false as ${what}`);
				}
				if (product(item.eventType) !== product(inferEventType(body))) {
					broken.push(`another product: ${what}`);
				}
				if (item.headerMatchesBody !== (item.headerEventType === undefined)) {
					broken.push(`headerMatchesBody without headerEventType: ${what}`);
				}
			}
		}
		expect(broken).toEqual([]);
	});
});

describe('isIdentificationBody: decided by the signed body alone', () => {
	test.each<[string, IDataObject]>([
		...IDENTIFICATION_EVENT_TYPES.map((kind): [string, IDataObject] => [
			`the ${kind} fixture`,
			BODIES[kind] as IDataObject,
		]),
		['a preliminary result', { final: false, scanRef: 's-1' }],
		['a body with only a scanRef', { scanRef: 's-1' }],
		['a body with only a final flag', { final: true }],
		['a body with only an overall status', { status: { overall: 'APPROVED' } }],
		['a body naming an identification kind', { type: 'IDENTIFICATION_EXPIRED' }],
		['a session with a card check inside', { scanRef: 's-1', bankCardVerification: {} }],
	])('%s is an identification', (_what, body) => {
		expect(isIdentificationBody(body)).toBe(true);
	});

	test.each<[string, IDataObject]>([
		['a bank verification', BODIES.BANK_VERIFICATION as IDataObject],
		['an account check with a scanRef', { ...BODIES.ACCOUNT_CHECK, scanRef: 's-1' } as IDataObject],
		['a card check', BODIES.BANK_CARD_VERIFICATION_COMPLETED as IDataObject],
		['a KYB review', BODIES.KYB_REVIEW_RESULT as IDataObject],
		['a body that shows nothing', { hello: 'world' }],
		['an empty body', {}],
		['a body naming a bank verification', { type: 'BANK_VERIFICATION' }],
	])('%s is not', (_what, body) => {
		expect(isIdentificationBody(body)).toBe(false);
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
