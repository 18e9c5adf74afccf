/**
 * Personal Data: Leave Out of the trigger (and Wait for Result) and of Get Data, whatever a delivery
 * or an answer holds: the item carries the decision in the provider's words, never free text or an
 * object that could hold a person's data, and both keep a status's decision the same way.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { decisionOnly } from '../../../nodes/IdentityVerification/actions/identification/getData.operation';
import { EVENT_TYPES } from '../../../nodes/shared/contract';
import { buildEvent, eventItem } from '../../../nodes/shared/webhook/events';
import { providerEnumValues } from '../../real-service/provider.cjs';

const WORDS = providerEnumValues();
const word = fc.constantFrom(...WORDS);
/** Any JSON value, often one of the provider's words or a list of them. */
const value = fc.oneof(fc.jsonValue(), word, fc.array(word), fc.array(fc.oneof(word, fc.string())));
const status = fc.oneof(
	value,
	fc.dictionary(
		fc.constantFrom(
			'overall',
			'autoDocument',
			'manualFace',
			'fraudTags',
			'additionalSteps',
			'note',
		),
		value,
	),
);
const body = fc.record(
	{
		final: value,
		scanRef: value,
		clientId: value,
		status,
		approvalStatus: value,
		riskLevel: value,
		accounts: value,
		firstSix: value,
		lastFour: value,
		score: value,
	},
	{ requiredKeys: [] },
);

/** The item a delivery becomes with personal data left out. */
function leftOut(delivery: IDataObject, header: string): Record<string, unknown> {
	const event = buildEvent({
		headerEventType: header,
		body: delivery,
		deliveryId: 'd'.repeat(64),
		receivedAt: new Date(0),
	});
	return eventItem(event, { personalData: false });
}

/** The values of an item down to its leaves, with their paths. */
function leaves(node: unknown, at = ''): Array<[string, unknown]> {
	if (Array.isArray(node)) return node.flatMap((entry) => leaves(entry, `${at}[]`));
	if (node !== null && typeof node === 'object') {
		return Object.entries(node).flatMap(([key, entry]) => leaves(entry, at ? `${at}.${key}` : key));
	}
	return [[at, node]];
}

/** Fields the node writes itself (dates, the delivery's hash and reading) or the references. */
const OWN_OR_REFERENCE =
	/^(scanRef|clientId|companyId|receivedAt|startedAt|finishedAt|delivery\.(deliveryId|eventTypeSource|headerMatchesBody|validationIssues.*))$/;

test('the trigger: every value kept is one of the provider’s words, a kind, a number, true, false or null, apart from the references and what the node writes', () => {
	const header = fc.oneof(fc.constantFrom(...EVENT_TYPES), fc.string());
	fc.assert(
		fc.property(body, header, (delivery, eventType) => {
			const item = leftOut(delivery as IDataObject, eventType);
			expect(item).not.toHaveProperty('body');
			for (const [path, leaf] of leaves(item)) {
				if (OWN_OR_REFERENCE.test(path)) continue;
				const allowed =
					typeof leaf === 'boolean' ||
					typeof leaf === 'number' ||
					leaf === null ||
					WORDS.has(leaf) ||
					(EVENT_TYPES as readonly unknown[]).includes(leaf);
				expect({ path, allowed }).toEqual({ path, allowed: true });
			}
		}),
	);
});

test('Get Data and the trigger keep the same decision of the same status', () => {
	fc.assert(
		fc.property(status, (held) => {
			const delivery = { final: true, scanRef: 's', status: held } as IDataObject;
			const fromTrigger = leftOut(delivery, 'IDENTIFICATION').decision;
			const fromGetData = decisionOnly({ scanRef: 's', status: held } as IDataObject).status;
			// Get Data's `status` may also be the overall status itself: text, or null before one.
			if (typeof fromGetData === 'object' && fromGetData !== null) {
				expect(fromGetData).toEqual(fromTrigger);
			} else {
				expect(fromTrigger).toBeUndefined();
			}
		}),
	);
});
