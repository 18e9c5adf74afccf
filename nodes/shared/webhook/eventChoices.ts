/**
 * The trigger's Events option: the event kinds by names a person reads, in the order workflows route
 * on (identification results first, then companies, AML, bank and the rest), the choice of any final
 * identification result, and whether a delivery is of a selected kind. The values are the kinds'
 * own names, so workflows saved with any version keep their selection.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { IDENTIFICATION_EVENT_TYPES, type EventType } from '../contract';
import { isNonFinal, parseEventTypeName, V1_NAMES, type IdentityVerificationEvent } from './events';

/** The choice of every identification result that is final, whatever its kind. */
export const ANY_FINAL_IDENTIFICATION = 'ANY_FINAL_IDENTIFICATION_RESULT';

type Choice = EventType | typeof ANY_FINAL_IDENTIFICATION;

/** Each choice's name and description, in the order the list shows them. */
const CHOICES: Array<[Choice, string, string]> = [
	[
		ANY_FINAL_IDENTIFICATION,
		'Any final identification result',
		'Every final result of a verification, whichever event brings it: approved, denied or suspected by the automated or the manual review, expired, cancelled. Results a reviewer will still decide on are left out.',
	],
	[
		'IDENTIFICATION_AUTO_FINISHED',
		'Identification finished by the automated review',
		'Final is true when no manual review follows; false when a reviewer will decide (that decision then arrives as "Identification decided by a reviewer")',
	],
	[
		'IDENTIFICATION_MANUAL_FINISHED',
		'Identification decided by a reviewer',
		'A reviewer decided on the verification (always final)',
	],
	[
		'IDENTIFICATION_RESUBMITTED',
		'Identification resubmitted',
		'The person completed a requested re-upload (final true or false)',
	],
	[
		'IDENTIFICATION_EXPIRED',
		'Identification expired',
		'The verification link or session expired before the person finished',
	],
	[
		'IDENTIFICATION_CANCELLED',
		'Identification cancelled',
		'The person abandoned the flow, or an API call cancelled it',
	],
	[
		'IDENTIFICATION',
		'Identification, any outcome (legacy)',
		'The older single event for every verification outcome, also preliminary ones',
	],
	[
		'COMPANY_REVIEW',
		'Company reviewed (KYB)',
		'A company verification was reviewed and completed (the KYB review result)',
	],
	[
		'COMPANY_SUBMIT',
		'Company form submitted (KYB)',
		'A company’s KYB form was submitted for review',
	],
	[
		'COMPANY_INFO_REQUEST',
		'Company information requested (KYB)',
		'More company information was requested, or the company’s form link expired',
	],
	[
		'COMPANY_AML_REVIEW',
		'Company AML review (KYB)',
		'The AML status of a company or its beneficiaries was set by a reviewer',
	],
	[
		'COMPANY_EXPIRATION',
		'Company verification expiring (KYB)',
		'A company verification is about to expire, or expired',
	],
	['COMPANY_DELETE', 'Company deleted (KYB)', 'A company was deleted'],
	[
		'GOV_ORDERED_DOCUMENT',
		'Registry document delivered (KYB)',
		'A document ordered from a government registry was delivered',
	],
	[
		'SOS_REPORT',
		'SOS filing report delivered (KYB)',
		'A Secretary of State filing report was delivered',
	],
	[
		'AML_MONITORING',
		'AML monitoring update',
		'A person under AML monitoring was checked, accepted or declined',
	],
	[
		'AML_MONITORING_EXPIRATION',
		'AML monitoring expiring',
		'People under AML monitoring are about to expire, or expired',
	],
	['BANK_VERIFICATION', 'Bank verification', 'A bank account verification completed'],
	[
		'BANK_CARD_VERIFICATION_COMPLETED',
		'Bank card check completed',
		'A standalone card check (without a verification session) completed',
	],
	['ACCOUNT_CHECK', 'Account check', 'An account social-media check completed'],
	[
		'DOCUMENT_EXPIRATION',
		'Identity document expiring',
		'A verified identity document is about to expire, or expired',
	],
	[
		'FACIAL_AUTHENTICATION',
		'Facial authentication',
		'A facial authentication session ended (success, failure or expiry)',
	],
	['AGE_ESTIMATION', 'Age estimation result', 'An age estimation session reached its result'],
	['VIDEO_CALL_FINISHED', 'Video call finished', 'A video call ended'],
	[
		'OTHER',
		'Other (not recognised)',
		'A delivery whose kind this node does not know; its header value is in delivery.headerEventType',
	],
];

/**
 * The sentence n8n's nodes panel shows for a choice. Without it, n8n builds "On <name>" in lower
 * case without punctuation ("On company aml review kyb", change-case's noCase in the editor).
 */
function actionOf(name: string): string {
	const lowerFirst = /^[A-Z][a-z]/.test(name) ? name[0].toLowerCase() + name.slice(1) : name;
	return `On ${lowerFirst}`;
}

/**
 * The options of the Events list: version 1 offers the kinds only, under its own value for the
 * company review (KYB_REVIEW_RESULT); from 1.1 with the choice of any final identification result.
 */
export function eventOptions(version: 1 | 1.1): INodePropertyOptions[] {
	return CHOICES.filter(([choice]) => version >= 1.1 || choice !== ANY_FINAL_IDENTIFICATION).map(
		([choice, name, description]) => ({
			name,
			value: (version < 1.1 && V1_NAMES[choice as EventType]) || choice,
			description,
			action: actionOf(name),
		}),
	);
}

/** The name of each option value (of both versions), for the canvas subtitle. */
export function optionNames(): Record<string, string> {
	const names: Record<string, string> = {};
	for (const option of [...eventOptions(1), ...eventOptions(1.1)]) {
		names[String(option.value)] = option.name;
	}
	return names;
}

/** Whether a selected value names this kind (also a saved value in another spelling). */
function names(value: string, kind: EventType): boolean {
	return value === kind || parseEventTypeName(value) === kind;
}

/** Whether the Events selection lets the event through (empty: every kind). */
export function isSelected(
	selected: string[],
	event: Pick<IdentityVerificationEvent, 'eventType' | 'final'>,
): boolean {
	if (selected.length === 0) return true;
	if (selected.some((value) => names(value, event.eventType))) return true;
	return (
		selected.includes(ANY_FINAL_IDENTIFICATION) &&
		IDENTIFICATION_EVENT_TYPES.includes(event.eventType) &&
		!isNonFinal(event)
	);
}

/**
 * The kind of the sample event for a selection: the first the list shows of those selected (an
 * automated identification result for an empty selection or any final result).
 */
export function sampleKind(selected: string[]): EventType {
	for (const [choice] of CHOICES) {
		if (choice === ANY_FINAL_IDENTIFICATION) {
			if (selected.includes(choice)) break;
		} else if (selected.some((value) => names(value, choice))) return choice;
	}
	return 'IDENTIFICATION_AUTO_FINISHED';
}
