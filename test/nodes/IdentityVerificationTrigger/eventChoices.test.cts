/**
 * The trigger's Events option as a user meets it (eventChoices.ts): names a person reads, in the
 * order workflows route on, the sentence n8n's nodes panel shows, the choice of any final
 * identification result, the values workflows saved with version 1 and 1.1 hold, and the sample
 * event of a selected kind (with its body of that kind).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import {
	EVENT_TYPES,
	IDENTIFICATION_EVENT_TYPES,
	webhookBodySchemas,
	type EventType,
} from '../../../nodes/shared/contract';
import {
	ANY_FINAL_IDENTIFICATION,
	isSelected,
	sampleKind,
} from '../../../nodes/shared/webhook/eventChoices';
import { buildEvent } from '../../../nodes/shared/webhook/events';
import { SAMPLE_BODIES } from '../../../nodes/shared/webhook/sample';

const properties = new IdentityVerificationTrigger().description.properties;
const eventsProperties = properties.filter((p) => p.name === 'events');
const at = (version: number): INodeProperties => {
	const found = eventsProperties.find((p) => {
		const condition = (p.displayOptions?.show?.['@version'] as Array<{ _cnd: object }>)[0]._cnd;
		return 'gte' in condition ? version >= 1.1 : version < 1.1;
	});
	if (!found) throw new Error(`no Events property at ${version}`);
	return found;
};
const optionsAt = (version: number) => at(version).options as INodePropertyOptions[];

describe('the Events list a user reads', () => {
	test('names a person reads, identification results first, then companies, AML, bank and the rest', () => {
		expect(optionsAt(1.1).map((o) => [o.name, o.value])).toEqual([
			['Any final identification result', ANY_FINAL_IDENTIFICATION],
			['Identification finished by the automated review', 'IDENTIFICATION_AUTO_FINISHED'],
			['Identification decided by a reviewer', 'IDENTIFICATION_MANUAL_FINISHED'],
			['Identification resubmitted', 'IDENTIFICATION_RESUBMITTED'],
			['Identification expired', 'IDENTIFICATION_EXPIRED'],
			['Identification cancelled', 'IDENTIFICATION_CANCELLED'],
			['Identification, any outcome (legacy)', 'IDENTIFICATION'],
			['Company reviewed (KYB)', 'COMPANY_REVIEW'],
			['Company form submitted (KYB)', 'COMPANY_SUBMIT'],
			['Company information requested (KYB)', 'COMPANY_INFO_REQUEST'],
			['Company AML review (KYB)', 'COMPANY_AML_REVIEW'],
			['Company verification expiring (KYB)', 'COMPANY_EXPIRATION'],
			['Company deleted (KYB)', 'COMPANY_DELETE'],
			['Registry document delivered (KYB)', 'GOV_ORDERED_DOCUMENT'],
			['SOS filing report delivered (KYB)', 'SOS_REPORT'],
			['AML monitoring update', 'AML_MONITORING'],
			['AML monitoring expiring', 'AML_MONITORING_EXPIRATION'],
			['Bank verification', 'BANK_VERIFICATION'],
			['Bank card check completed', 'BANK_CARD_VERIFICATION_COMPLETED'],
			['Account check', 'ACCOUNT_CHECK'],
			['Identity document expiring', 'DOCUMENT_EXPIRATION'],
			['Facial authentication', 'FACIAL_AUTHENTICATION'],
			['Age estimation result', 'AGE_ESTIMATION'],
			['Video call finished', 'VIDEO_CALL_FINISHED'],
			['Other (not recognised)', 'OTHER'],
		]);
	});

	test('n8n’s nodes panel shows each choice as written ("On company AML review (KYB)"), not its lower-cased name', () => {
		// n8n builds "On <name>" through change-case's noCase when an option has no `action`, which
		// printed "On company aml review kyb"; the panel reads the first property named Events.
		expect(eventsProperties[0]).toBe(at(1.1));
		const actions = Object.fromEntries(optionsAt(1.1).map((o) => [o.value, o.action]));
		expect(actions).toMatchObject({
			[ANY_FINAL_IDENTIFICATION]: 'On any final identification result',
			COMPANY_AML_REVIEW: 'On company AML review (KYB)',
			AML_MONITORING: 'On AML monitoring update',
			SOS_REPORT: 'On SOS filing report delivered (KYB)',
			OTHER: 'On other (not recognised)',
		});
		for (const option of [...optionsAt(1), ...optionsAt(1.1)]) {
			expect(option.action).toMatch(/^On [a-zA-Z]/);
			expect(option.description).toEqual(expect.any(String));
		}
	});

	test('every kind once in each version; version 1 keeps its own value for the company review and has no new choice', () => {
		const v1 = (kind: string) => (kind === 'COMPANY_REVIEW' ? 'KYB_REVIEW_RESULT' : kind);
		expect(optionsAt(1).map((o) => o.value)).toEqual(
			optionsAt(1.1)
				.map((o) => String(o.value))
				.filter((value) => value !== ANY_FINAL_IDENTIFICATION)
				.map(v1),
		);
		expect(new Set(optionsAt(1.1).map((o) => o.value))).toEqual(
			new Set([ANY_FINAL_IDENTIFICATION, ...EVENT_TYPES]),
		);
		// Version 1's default stays every kind (a saved node without the parameter gets all).
		expect([...(at(1).default as string[])].sort()).toEqual(EVENT_TYPES.map(v1).sort());
		expect(at(1.1).default).toEqual([]);
	});
});

describe('which deliveries a selection lets through', () => {
	const identification = (eventType: EventType, final?: boolean) => ({ eventType, final });

	test.each(IDENTIFICATION_EVENT_TYPES.map((kind) => [kind]))(
		'any final identification result takes a final %s, not a preliminary one',
		(kind) => {
			const selected = [ANY_FINAL_IDENTIFICATION];
			expect(isSelected(selected, identification(kind, true))).toBe(true);
			expect(isSelected(selected, identification(kind))).toBe(true);
			expect(isSelected(selected, identification(kind, false))).toBe(false);
		},
	);

	test.each([['COMPANY_REVIEW'], ['BANK_VERIFICATION'], ['OTHER'], ['AML_MONITORING']] as const)(
		'any final identification result does not take %s',
		(kind) => {
			expect(isSelected([ANY_FINAL_IDENTIFICATION], { eventType: kind, final: true })).toBe(false);
		},
	);

	test.each([
		['version 1’s KYB_REVIEW_RESULT', ['KYB_REVIEW_RESULT'], 'COMPANY_REVIEW'],
		['1.1’s COMPANY_REVIEW', ['COMPANY_REVIEW'], 'COMPANY_REVIEW'],
		[
			'the identification kinds of a saved example',
			IDENTIFICATION_EVENT_TYPES,
			'IDENTIFICATION_EXPIRED',
		],
		['OTHER', ['OTHER'], 'OTHER'],
		['nothing (every kind)', [], 'VIDEO_CALL_FINISHED'],
	] as const)('a saved selection of %s still lets its kind through', (_what, selected, kind) => {
		expect(isSelected([...selected], { eventType: kind })).toBe(true);
	});

	test('a kind not selected is not let through', () => {
		expect(isSelected(['IDENTIFICATION_EXPIRED'], { eventType: 'IDENTIFICATION_CANCELLED' })).toBe(
			false,
		);
	});
});

describe('the sample event is of a kind the selection lets through', () => {
	const sampleEvent = (kind: EventType) =>
		buildEvent({
			headerEventType: kind === 'OTHER' ? undefined : kind,
			body: SAMPLE_BODIES[kind],
			deliveryId: 'sample',
			receivedAt: new Date(0),
		});

	test.each(EVENT_TYPES.map((kind) => [kind]))(
		'%s: its sample body is read as that kind, matches the contract and passes the filter',
		(kind) => {
			expect(sampleKind([kind])).toBe(kind);
			const event = sampleEvent(kind);
			expect(event).toMatchObject({ eventType: kind, headerMatchesBody: true });
			expect(event.validationIssues).toBeUndefined();
			expect(webhookBodySchemas[kind].safeParse(SAMPLE_BODIES[kind]).success).toBe(true);
			expect(isSelected([kind], event)).toBe(true);
		},
	);

	test.each([
		['nothing selected', [], 'IDENTIFICATION_AUTO_FINISHED'],
		[
			'any final identification result',
			[ANY_FINAL_IDENTIFICATION, 'BANK_VERIFICATION'],
			'IDENTIFICATION_AUTO_FINISHED',
		],
		[
			'bank events only',
			['BANK_CARD_VERIFICATION_COMPLETED', 'BANK_VERIFICATION'],
			'BANK_VERIFICATION',
		],
		['version 1’s company review', ['KYB_REVIEW_RESULT'], 'COMPANY_REVIEW'],
		['an unknown saved value and AML', ['GONE_KIND', 'AML_MONITORING'], 'AML_MONITORING'],
	] as const)('%s: the first selected kind in the list’s order', (_what, selected, kind) => {
		expect(sampleKind([...selected])).toBe(kind);
		expect(isSelected([...selected], sampleEvent(kind))).toBe(true);
	});

	test('the sample of any final identification result is a final one', () => {
		const event = sampleEvent(sampleKind([ANY_FINAL_IDENTIFICATION]));
		expect(event.final).toBe(true);
		expect(isSelected([ANY_FINAL_IDENTIFICATION], event)).toBe(true);
	});

	test('made-up data only: every sample person, company and id says it is a sample', () => {
		const text = JSON.stringify(SAMPLE_BODIES);
		expect(text).not.toMatch(/@/);
		for (const id of text.match(/"(?:scanRef|clientId|id|companyId)":"[^"]*"/g) ?? []) {
			expect(id).toMatch(/sample|00000000-0000-4000-8000/);
		}
	});
});
