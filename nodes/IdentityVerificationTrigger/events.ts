/**
 * Event kinds of a webhook delivery (docs/service-interface.md, "Webhook deliveries") and the typed
 * output item the trigger emits for it.
 *
 * Where the kind comes from, in this order:
 *
 * 1. The `Service-Event-Type` header, when it names a known kind. Matching is case-insensitive and
 *    tolerant of `-`, `.`, spaces and brackets (`identification auto-finished`, `Kyb Review Result`,
 *    `IDENTIFICATION (legacy)` all match). The header is not covered by the signature, so the
 *    signed body outranks it: when the body fails the header kind's schema but fits the kind its
 *    own fields show (rules below), that kind is used and the event says `headerMatchesBody: false`
 *    (`headerEventType` keeps what the header said).
 * 2. Otherwise (the contract does not show the header value of identification events; a header
 *    with an unknown value is treated the same way) the kind is inferred from the body, first rule
 *    that matches wins:
 *    a. an explicit `eventType`, `type` or `event` string field in the body naming a known kind;
 *    b. `accounts` and `riskLevel` keys                                   -> BANK_VERIFICATION;
 *    c. a numeric `score` and an integer `status`                        -> ACCOUNT_CHECK;
 *    d. a `bankCardVerification` object and no verification session
 *       (no `scanRef`, `final` or `status.overall`)                       -> BANK_CARD_VERIFICATION_COMPLETED;
 *    e. a KYB form or company id (`formId`, `companyId`, `form.id`, `company.id`) and no `scanRef`
 *                                                                         -> KYB_REVIEW_RESULT;
 *    f. an identification body (`final`, `status.overall` or `scanRef`) whose overall status is
 *       EXPIRED -> IDENTIFICATION_EXPIRED; CANCELLED/CANCELED -> IDENTIFICATION_CANCELLED;
 *    g. anything else -> the legacy IDENTIFICATION event ("fires for all verification outcomes in a
 *       single event"): an auto-finished, manually finished and resubmitted result cannot be told
 *       apart from the body alone, and the legacy kind is the one that covers all of them.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	EVENT_TYPES,
	IDENTIFICATION_EVENT_TYPES,
	describeIssues,
	webhookBodySchemas,
	type ContractIssue,
	type EventType,
} from '../shared/contract';
import { isPlainObject } from '../shared/isPlainObject';

/** Friendly names of the event kinds, in the order the Events option lists them. */
export const EVENT_TYPE_NAMES: Record<EventType, { name: string; description: string }> = {
	IDENTIFICATION_AUTO_FINISHED: {
		name: 'Identification Auto-Finished',
		description:
			'Automated review finished. Final is true when no manual review follows, false when a manual decision will follow.',
	},
	IDENTIFICATION_MANUAL_FINISHED: {
		name: 'Identification Manually Finished',
		description: 'A reviewer decided on the verification (always final)',
	},
	IDENTIFICATION_RESUBMITTED: {
		name: 'Identification Resubmitted',
		description: 'The user completed a requested re-upload (final true or false)',
	},
	IDENTIFICATION_EXPIRED: {
		name: 'Identification Expired',
		description: 'The verification token or session expired before the user finished',
	},
	IDENTIFICATION_CANCELLED: {
		name: 'Identification Cancelled',
		description: 'The user abandoned the flow or an API call cancelled it',
	},
	IDENTIFICATION: {
		name: 'Identification (Legacy)',
		description:
			'One event for every verification outcome; the individual events above are recommended',
	},
	BANK_VERIFICATION: {
		name: 'Bank Verification',
		description: 'A bank verification completed',
	},
	BANK_CARD_VERIFICATION_COMPLETED: {
		name: 'Bank Card Verification Completed',
		description: 'A standalone card check (without a verification session) completed',
	},
	ACCOUNT_CHECK: {
		name: 'Account Check',
		description: 'An account social-media check completed',
	},
	KYB_REVIEW_RESULT: {
		name: 'KYB Review Result',
		description: 'A submitted KYB form was reviewed by a human',
	},
};

/** How the event kind was found: from the header, or inferred from the body (rules above). */
type EventTypeSource = 'header' | 'body';

/** One output item of the trigger (the `json` of the item). */
export interface IdentityVerificationEvent {
	/** The event kind (header or inferred from the body). */
	eventType: EventType;
	/** Where `eventType` came from. */
	eventTypeSource: EventTypeSource;
	/**
	 * False when the (unsigned) `Service-Event-Type` header named a kind the signed body does not
	 * fit while it fits another one: `eventType` is then the body's kind. True otherwise.
	 */
	headerMatchesBody: boolean;
	/** The kind the header named, when it was overruled by the body. */
	headerEventType?: EventType;
	/** When n8n received the delivery (ISO 8601). */
	receivedAt: string;
	/** SHA-256 (hex) of the raw body: equal for retries and Resends of the same delivery. */
	deliveryId: string;
	/** The body's `final` flag, whatever the kind (`false`: a preliminary result). */
	final?: boolean;
	/** Identification events: the body's `status.overall`. */
	overallStatus?: string;
	scanRef?: string;
	clientId?: string;
	/** The parsed JSON body, unchanged (also fields the contract does not list). */
	body: IDataObject;
	/** Present when the body does not match the contract's schema for this kind (it is emitted anyway). */
	validationIssues?: ContractIssue[];
}

const KNOWN = new Set<string>(EVENT_TYPES);

function normaliseName(value: string): string {
	return value
		.trim()
		.toUpperCase()
		.replace(/[^A-Z0-9]+/g, '_')
		.replace(/^_+|_+$/g, '');
}

/** The known kind a header or body value names, or `undefined`. */
export function parseEventTypeName(value: unknown): EventType | undefined {
	if (typeof value !== 'string') return undefined;
	let name = normaliseName(value);
	if (name.endsWith('_LEGACY')) name = name.slice(0, -'_LEGACY'.length);
	if (name === 'IDENTIFICATION_CANCELED') name = 'IDENTIFICATION_CANCELLED';
	if (name === 'KYB_REVIEW') name = 'KYB_REVIEW_RESULT';
	return KNOWN.has(name) ? (name as EventType) : undefined;
}

function hasKey(body: IDataObject, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(body, key);
}

/** The overall status of an identification body (`status.overall`), if it has one. */
function overallStatusOf(body: IDataObject): string | undefined {
	const status = body.status;
	if (isPlainObject(status) && typeof status.overall === 'string') return status.overall;
	return undefined;
}

/** Rules 2a–2g of the module comment. */
export function inferEventType(body: IDataObject): EventType {
	for (const field of ['eventType', 'type', 'event']) {
		const named = parseEventTypeName(body[field]);
		if (named) return named;
	}

	if (hasKey(body, 'accounts') && hasKey(body, 'riskLevel')) return 'BANK_VERIFICATION';

	if (
		typeof body.score === 'number' &&
		typeof body.status === 'number' &&
		Number.isInteger(body.status)
	) {
		return 'ACCOUNT_CHECK';
	}

	const overall = overallStatusOf(body);
	const hasSession =
		(typeof body.scanRef === 'string' && body.scanRef !== '') ||
		typeof body.final === 'boolean' ||
		overall !== undefined;

	if (isPlainObject(body.bankCardVerification) && !hasSession)
		return 'BANK_CARD_VERIFICATION_COMPLETED';

	const kybId =
		typeof body.formId === 'string' ||
		typeof body.companyId === 'string' ||
		(isPlainObject(body.form) && body.form.id !== undefined) ||
		(isPlainObject(body.company) && body.company.id !== undefined);
	if (kybId && !hasKey(body, 'scanRef')) return 'KYB_REVIEW_RESULT';

	const normalisedOverall = overall === undefined ? '' : normaliseName(overall);
	if (normalisedOverall === 'EXPIRED') return 'IDENTIFICATION_EXPIRED';
	if (normalisedOverall === 'CANCELLED' || normalisedOverall === 'CANCELED')
		return 'IDENTIFICATION_CANCELLED';

	return 'IDENTIFICATION';
}

function fitsSchema(eventType: EventType, body: IDataObject): boolean {
	return webhookBodySchemas[eventType].safeParse(body).success;
}

/**
 * The event kind of a delivery: the header when it names a known kind, otherwise the body. When
 * the body fails the header kind's schema but fits the kind inferred from it, the body wins.
 */
function classifyEvent(
	headerValue: string | string[] | undefined,
	body: IDataObject,
): { eventType: EventType; source: EventTypeSource; overruledHeader?: EventType } {
	const header = Array.isArray(headerValue) ? headerValue[0] : headerValue;
	const fromHeader = parseEventTypeName(header);
	const fromBody = inferEventType(body);
	if (!fromHeader) return { eventType: fromBody, source: 'body' };
	if (fromBody !== fromHeader && !fitsSchema(fromHeader, body) && fitsSchema(fromBody, body)) {
		return { eventType: fromBody, source: 'body', overruledHeader: fromHeader };
	}
	return { eventType: fromHeader, source: 'header' };
}

export function isIdentificationEvent(eventType: EventType): boolean {
	return IDENTIFICATION_EVENT_TYPES.includes(eventType);
}

/**
 * Whether an event is a preliminary result: its signed body says `final: false` (auto-finished
 * before a manual review, or a resubmission that still needs review), whatever kind the unsigned
 * header names. Expired and cancelled events carry no `final` flag and are outcomes, so they count
 * as final.
 */
export function isNonFinal(event: Pick<IdentityVerificationEvent, 'final'>): boolean {
	return event.final === false;
}

/**
 * Builds the output item of a delivery: the kind, the parsed body checked against the contract's
 * schema for that kind (issues are reported, never fatal: the service may add or change fields),
 * and the identification fields lifted to the top.
 */
export function buildEvent(opts: {
	headerEventType: string | string[] | undefined;
	body: IDataObject;
	deliveryId: string;
	receivedAt: Date;
}): IdentityVerificationEvent {
	const { body } = opts;
	const { eventType, source, overruledHeader } = classifyEvent(opts.headerEventType, body);
	const event: IdentityVerificationEvent = {
		eventType,
		eventTypeSource: source,
		headerMatchesBody: overruledHeader === undefined,
		receivedAt: opts.receivedAt.toISOString(),
		deliveryId: opts.deliveryId,
		body,
	};
	if (overruledHeader) event.headerEventType = overruledHeader;

	if (typeof body.final === 'boolean') event.final = body.final;
	if (isIdentificationEvent(eventType)) {
		const overall = overallStatusOf(body);
		if (overall !== undefined) event.overallStatus = overall;
	}
	if (typeof body.scanRef === 'string') event.scanRef = body.scanRef;
	if (typeof body.clientId === 'string') event.clientId = body.clientId;

	const parsed = webhookBodySchemas[eventType].safeParse(body);
	if (!parsed.success) event.validationIssues = describeIssues(parsed.error);

	return event;
}
