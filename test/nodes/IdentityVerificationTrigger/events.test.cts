/**
 * events.ts on its own: event names as the service and its dashboard write them, the body's product
 * one condition at a time, which header kinds the signed body overrules, isIdentificationResult,
 * which fields buildEvent lifts to the top of the item. The Events option is in eventChoices.test.cts. The HTTP tests show
 * the same kinds end to end with whole bodies; the real-service corpus tests run the provider's own
 * examples; these pin every condition.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	buildEvent,
	isIdentificationResult,
	isNonFinal,
	parseEventTypeName,
} from '../../../nodes/shared/webhook/events';
import {
	COMPANY_EVENT_TYPES,
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

/** The kind the body shows by itself (no header). */
const bodyKind = (body: IDataObject) => event(body).eventType;

const result = { final: true, scanRef: 'r-1', status: { overall: 'APPROVED' } };
const preliminary = { final: false, scanRef: 'p-1', status: { overall: 'SUSPECTED' } };
const company = { id: 'c-1', companyName: 'Acme UAB', clientId: 'x', beneficiaries: [] };

describe('event names', () => {
	test.each([
		['BANK_VERIFICATION', 'BANK_VERIFICATION'],
		['bank-verification', 'BANK_VERIFICATION'],
		['Identification Expired', 'IDENTIFICATION_EXPIRED'],
		['identification_cancelled', 'IDENTIFICATION_CANCELLED'],
		['IDENTIFICATION-CANCELED', 'IDENTIFICATION_CANCELLED'],
		['identification (legacy)', 'IDENTIFICATION'],
		// The dashboard's names of the same events.
		['ID VERIFICATION CANCELED', 'IDENTIFICATION_CANCELLED'],
		['ID VERIFICATION MANUAL FINISHED', 'IDENTIFICATION_MANUAL_FINISHED'],
		['ID VERIFICATION AUTO FINISH', 'IDENTIFICATION_AUTO_FINISHED'],
		['ID VERIFICATION RESUBMITTED', 'IDENTIFICATION_RESUBMITTED'],
		// The contract's KYB review result is the provider's company review.
		['KYB_REVIEW', 'COMPANY_REVIEW'],
		['KYB review result', 'COMPANY_REVIEW'],
		['COMPANY_REVIEW', 'COMPANY_REVIEW'],
		['company-aml-review', 'COMPANY_AML_REVIEW'],
		['AML_MONITORING_EXPIRATION', 'AML_MONITORING_EXPIRATION'],
		['bank card verification completed', 'BANK_CARD_VERIFICATION_COMPLETED'],
	])('%j names %s', (value, kind) => {
		expect(parseEventTypeName(value)).toBe(kind);
	});

	test.each([['IDENTIFICATION_STARTED'], [''], ['BANK'], ['OTHER'], ['COMPANY'], [42], [null]])(
		'%j names no known kind',
		(value) => {
			expect(parseEventTypeName(value)).toBeUndefined();
		},
	);

	test('every kind but OTHER is named by its own value', () => {
		for (const kind of EVENT_TYPES.filter((k) => k !== 'OTHER')) {
			expect(parseEventTypeName(kind)).toBe(kind);
		}
	});
});

describe("the body's own kind, one condition at a time", () => {
	test.each<[string, IDataObject, EventType]>([
		// accounts AND riskLevel
		['accounts and riskLevel', { accounts: [], riskLevel: null }, 'BANK_VERIFICATION'],
		['accounts without riskLevel', { accounts: [], scanRef: 's' }, 'OTHER'],
		['riskLevel without accounts', { riskLevel: 'LOW', scanRef: 's' }, 'OTHER'],
		// a numeric score AND an integer status
		['score and an integer status', { score: 0.5, status: 2 }, 'ACCOUNT_CHECK'],
		['an account check with a scanRef', { score: 0.5, status: 2, scanRef: 'abc' }, 'ACCOUNT_CHECK'],
		['score and a fractional status', { score: 0.5, status: 2.5 }, 'OTHER'],
		['an integer status without score', { status: 2 }, 'OTHER'],
		['score as text', { score: '0.5', status: 2 }, 'OTHER'],
		// an identification: a final flag or an overall status
		['a final flag', { final: true }, 'IDENTIFICATION'],
		['final: false', { final: false }, 'IDENTIFICATION'],
		['an overall status', { status: { overall: 'DENIED' } }, 'IDENTIFICATION'],
		['an overall status that is not text', { status: { overall: 5 } }, 'OTHER'],
		['a final flag as text', { final: 'true', scanRef: 's' }, 'OTHER'],
		['a scanRef alone (no decision shown)', { scanRef: 's-1' }, 'OTHER'],
		[
			'overall EXPIRED: the kind is the header’s',
			{ status: { overall: 'EXPIRED' } },
			'IDENTIFICATION',
		],
		// a card check
		['a card check alone', { bankCardVerification: {} }, 'BANK_CARD_VERIFICATION_COMPLETED'],
		[
			"the provider's flat card check",
			{ id: 'x', status: 'MATCH', firstSix: '424242', lastFour: '4242', nameMatch: true },
			'BANK_CARD_VERIFICATION_COMPLETED',
		],
		['lastFour without firstSix', { id: 'x', lastFour: '4242' }, 'OTHER'],
		['a card check inside a session', { bankCardVerification: {}, final: true }, 'IDENTIFICATION'],
		// a company (KYB)
		['a company name', { id: 'c', companyName: 'Acme' }, 'COMPANY_REVIEW'],
		['beneficiaries', { id: 'c', beneficiaries: [] }, 'COMPANY_REVIEW'],
		['soleProprietor', { id: 'c', soleProprietor: false }, 'COMPANY_REVIEW'],
		['an AML review subject', { id: 'c', amlReviewSubjectType: 'BENEFICIARY' }, 'COMPANY_REVIEW'],
		[
			'a company submission (id and time only: no product shown)',
			{ id: 'c', submissionTime: null },
			'OTHER',
		],
		['a formId', { formId: 'f-1' }, 'COMPANY_REVIEW'],
		['a companyId', { companyId: 'c-1' }, 'COMPANY_REVIEW'],
		['a form with an id', { form: { id: 7 } }, 'COMPANY_REVIEW'],
		['a company with an id', { company: { id: 'c-1' } }, 'COMPANY_REVIEW'],
		['a form without an id', { form: {} }, 'OTHER'],
		['a companyId that is not text', { companyId: 7 }, 'OTHER'],
		[
			'a verification linked to a company is an identification',
			{ companyId: 'c-1', beneficiaryId: 'b-1', ...result },
			'IDENTIFICATION',
		],
		// nothing
		['an empty body', {}, 'OTHER'],
		['a body that names its kind in a field (never read)', { type: 'BANK_VERIFICATION' }, 'OTHER'],
	])('%s', (_what, body, kind) => {
		expect(bodyKind(body)).toBe(kind);
	});

	test('a body that shows nothing and has no header is OTHER, never an identification', () => {
		expect(event({ hello: 'world' })).toMatchObject({
			eventType: 'OTHER',
			eventTypeSource: 'body',
			headerMatchesBody: true,
			receivedAt: '1970-01-01T00:00:00.000Z',
		});
	});

	test('non-final means a body with final === false, whatever the kind', () => {
		expect(isNonFinal({ final: false })).toBe(true);
		expect(isNonFinal({ final: true })).toBe(false);
		expect(isNonFinal({ final: undefined })).toBe(false);
	});
});

describe('the header picks among the kinds the signed body allows', () => {
	test.each(IDENTIFICATION_EVENT_TYPES)(
		'a final result may be %s: the header decides',
		(header) => {
			expect(event(result, header)).toMatchObject(kept(header));
		},
	);

	test.each(IDENTIFICATION_EVENT_TYPES.filter((k) => k !== 'IDENTIFICATION_MANUAL_FINISHED'))(
		'a preliminary result may be %s: the header decides',
		(header) => {
			expect(event(preliminary, header)).toMatchObject({ ...kept(header), final: false });
		},
	);

	test('a preliminary result is never a manual decision: the legacy kind, flagged', () => {
		for (const header of ['IDENTIFICATION_MANUAL_FINISHED', 'id verification manual finished']) {
			expect(event(preliminary, header)).toMatchObject({
				...overruled('IDENTIFICATION', 'IDENTIFICATION_MANUAL_FINISHED'),
				final: false,
			});
		}
	});

	test.each(['DENIED', 'EXPIRED', 'SUSPECTED', 'ACTIVE'])(
		'an expired session is IDENTIFICATION_EXPIRED whatever its overall status (%s)',
		(overall) => {
			const body = { final: true, scanRef: 'e-1', status: { overall } };
			expect(event(body, 'IDENTIFICATION_EXPIRED')).toMatchObject({
				...kept('IDENTIFICATION_EXPIRED'),
				overallStatus: overall,
			});
		},
	);

	test.each(['DENIED', 'EXPIRED', 'ACTIVE', 'APPROVED'])(
		'a cancelled session is IDENTIFICATION_CANCELLED whatever its overall status (%s)',
		(overall) => {
			const body = { final: true, scanRef: 'c-1', status: { overall } };
			expect(event(body, 'IDENTIFICATION_CANCELLED')).toMatchObject(
				kept('IDENTIFICATION_CANCELLED'),
			);
		},
	);

	test.each(COMPANY_EVENT_TYPES)('a company body under %s is that KYB kind', (header) => {
		expect(event(company, header)).toMatchObject(kept(header));
		expect(event(company, header).overallStatus).toBeUndefined();
	});

	test.each(COMPANY_EVENT_TYPES)(
		'a company body is never an identification: under an identification header it stays a company (%s)',
		() => {
			for (const header of IDENTIFICATION_EVENT_TYPES) {
				expect(event(company, header)).toMatchObject(overruled('COMPANY_REVIEW', header));
			}
		},
	);

	const otherProducts: EventType[] = [
		'BANK_VERIFICATION',
		'ACCOUNT_CHECK',
		'BANK_CARD_VERIFICATION_COMPLETED',
		'COMPANY_REVIEW',
	];
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

	describe.each<[string, IDataObject]>([
		['a final result', result],
		['a preliminary result', preliminary],
		['a session with a card check inside', { ...result, bankCardVerification: {} }],
	])('%s', (_what, body) => {
		test.each([...otherProducts, 'COMPANY_SUBMIT', 'AML_MONITORING'] as EventType[])(
			'labelled %s is still an identification, flagged',
			(header) => {
				expect(event(body, header)).toMatchObject(overruled('IDENTIFICATION', header));
			},
		);
	});

	test('a body that shows no product leaves the kind to the header, checked against the contract', () => {
		const item = event({ hello: 'world' }, 'ACCOUNT_CHECK');
		expect(item).toMatchObject(kept('ACCOUNT_CHECK'));
		expect(item.validationIssues?.map((i) => i.path)).toEqual(
			expect.arrayContaining(['status', 'score']),
		);
		expect(event({ scanRef: 's' }, 'IDENTIFICATION_EXPIRED')).toMatchObject(
			kept('IDENTIFICATION_EXPIRED'),
		);
		expect(event({ scanRef: 's', status: 'COMPLETED' }, 'AGE_ESTIMATION')).toMatchObject(
			kept('AGE_ESTIMATION'),
		);
	});

	test('an unknown header value never makes an identification: OTHER, with the value as sent', () => {
		for (const body of [company, { hello: 'world' }, {}]) {
			const item = event(body, 'SOMETHING_NEW_IN_2027');
			expect(item.eventType).not.toMatch(/^IDENTIFICATION/);
			expect(item).toMatchObject({
				eventTypeSource: 'body',
				headerMatchesBody: true,
				headerEventType: 'SOMETHING_NEW_IN_2027',
			});
		}
		expect(event({ hello: 'world' }, 'SOMETHING_NEW_IN_2027').eventType).toBe('OTHER');
		expect(event({}, 'x'.repeat(500)).headerEventType).toHaveLength(100);
		// A blank piece of a joined header is no value: the one that names no kind is shown, trimmed.
		expect(event({ hello: 'world' }, ' , SOMETHING_NEW_IN_2027 ').headerEventType).toBe(
			'SOMETHING_NEW_IN_2027',
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

	test('whatever the header: a final: false event is never a manual decision, and a body that shows a product keeps it', () => {
		const headers: Array<string | string[] | undefined> = [
			undefined,
			'SOMETHING_NEW',
			...EVENT_TYPES,
			[...EVENT_TYPES],
		];
		const shown = Object.values(BODIES)
			.map((body) => body as IDataObject)
			.filter((body) => bodyKind(body) !== 'OTHER');
		const bodies = [...shown, ...shown.map((body) => ({ ...body, final: false }) as IDataObject)];
		const product = (kind: EventType) =>
			IDENTIFICATION_EVENT_TYPES.includes(kind)
				? 'identification'
				: COMPANY_EVENT_TYPES.includes(kind)
					? 'company'
					: kind;
		const broken: string[] = [];
		for (const body of bodies) {
			for (const header of headers) {
				const item = event(body, header);
				const what = `${JSON.stringify(header)} on ${JSON.stringify(body)}: ${item.eventType}`;
				if (item.final === false && item.eventType === 'IDENTIFICATION_MANUAL_FINISHED') {
					broken.push(`final: false as ${what}`);
				}
				if (product(item.eventType) !== product(bodyKind(body))) {
					broken.push(`another product: ${what}`);
				}
				if (!item.headerMatchesBody && item.headerEventType === undefined) {
					broken.push(`headerMatchesBody false without headerEventType: ${what}`);
				}
			}
		}
		expect(broken).toEqual([]);
	});
});

describe('isIdentificationResult: a decision, shown by the signed body alone', () => {
	test.each<[string, IDataObject]>([
		...IDENTIFICATION_EVENT_TYPES.map((kind): [string, IDataObject] => [
			`the ${kind} fixture`,
			BODIES[kind] as IDataObject,
		]),
		['a preliminary result', preliminary],
		['an overall status without a final flag', { status: { overall: 'DENIED' } }],
		['a session with a card check inside', { ...result, bankCardVerification: {} }],
	])('%s is a result', (_what, body) => {
		expect(isIdentificationResult(body)).toBe(true);
	});

	test.each<[string, IDataObject]>([
		['a body with only a scanRef', { scanRef: 'W1' }],
		['a final flag without an overall status', { final: true, scanRef: 'W1' }],
		['an empty overall status', { final: true, scanRef: 'W1', status: { overall: ' ' } }],
		['an overall status that is not text', { final: true, status: { overall: 1 } }],
		['a bank verification', BODIES.BANK_VERIFICATION as IDataObject],
		['an account check with a scanRef', { ...BODIES.ACCOUNT_CHECK, scanRef: 's-1' } as IDataObject],
		['a card check', BODIES.BANK_CARD_VERIFICATION_COMPLETED as IDataObject],
		['a company', company],
		['an age estimation with a scanRef and a status', BODIES.AGE_ESTIMATION as IDataObject],
		['an empty body', {}],
	])('%s is not', (_what, body) => {
		expect(isIdentificationResult(body)).toBe(false);
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
		expect(kyb.eventType).toBe('IDENTIFICATION');
		const review = event({ formId: 'f-1', status: 'APPROVED' }, 'COMPANY_REVIEW');
		expect(review.eventType).toBe('COMPANY_REVIEW');
		expect(Object.keys(review)).not.toContain('overallStatus');
	});
});
