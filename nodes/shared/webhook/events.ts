/**
 * Event kinds of a webhook delivery (docs/service-interface.md, "Webhook deliveries") and the typed
 * output item the trigger emits for it (Wait for Result continues with the same item).
 *
 * The `Service-Event-Type` header is not covered by the signature: whoever has seen one signed
 * delivery can post its bytes again under any header. So the signed body decides everything its
 * fields can show, and the header only chooses among the kinds the body leaves open.
 *
 * 1. The kind the body shows (`inferEventType`):
 *    a. its shape, first rule that matches:
 *       - `accounts` and `riskLevel` keys                                -> BANK_VERIFICATION;
 *       - a numeric `score` and an integer `status`                     -> ACCOUNT_CHECK;
 *       - a `bankCardVerification` object and no verification session   -> BANK_CARD_VERIFICATION_COMPLETED;
 *       - a KYB form or company id (`formId`, `companyId`, `form.id`, `company.id`) and no `scanRef`
 *                                                                        -> KYB_REVIEW_RESULT;
 *       - a verification session (a non-empty `scanRef`, a boolean `final` or a text
 *         `status.overall`) -> IDENTIFICATION_EXPIRED / _CANCELLED when `status.overall` is
 *         EXPIRED / CANCELLED (or CANCELED) and `final` is not false, otherwise the legacy
 *         IDENTIFICATION;
 *    b. an `eventType`, `type` or `event` field naming a known kind replaces the shape's kind when
 *       it is of the same product (the identification kinds are one product) or there is no shape,
 *       and rule 2 allows it;
 *    c. neither: the body shows no product. Its kind is the legacy IDENTIFICATION.
 * 2. The identification kinds a body's own fields allow, named by the header or by the body:
 *    - `final: false` (preliminary, a manual review follows): IDENTIFICATION_AUTO_FINISHED,
 *      IDENTIFICATION_RESUBMITTED or the legacy IDENTIFICATION. A manual decision is always final;
 *      expired and cancelled are outcomes, with no review pending;
 *    - otherwise by `status.overall`: EXPIRED -> IDENTIFICATION_EXPIRED or the legacy kind (it
 *      fires for every outcome); CANCELLED / CANCELED -> IDENTIFICATION_CANCELLED or the legacy
 *      kind; another status (a result) -> IDENTIFICATION_AUTO_FINISHED, _MANUAL_FINISHED,
 *      _RESUBMITTED or the legacy kind; none -> any identification kind.
 * 3. The header's kind is used (`eventTypeSource: 'header'`) when it fits the body: rule 2 allows
 *    it, and it is the kind the body names (1b) if it names one, else of the product the body's
 *    shape shows (1a) if it shows one. Otherwise the body's kind (rule 1) is used, with
 *    `eventTypeSource: 'body'`, `headerMatchesBody: false` and `headerEventType` (what the header
 *    named). Without a header naming a known kind: the body's kind, `headerMatchesBody: true`.
 *    Header names are matched case-insensitively and tolerant of `-`, `.`, spaces and brackets
 *    (`identification auto-finished`, `Kyb Review Result`, `IDENTIFICATION (legacy)`). A header
 *    sent several times (an array, or one value joined with ", " as Node's HTTP server does) names
 *    a kind only when all its values that name one name the same; otherwise it fits nothing.
 *
 * What the header still decides: which identification kind a result is. Auto-finished, manually
 * finished, resubmitted and legacy events share one body, and a final result can be any of them
 * (a preliminary one any but the manual decision), so only the header tells them apart. Where the
 * body is silent it decides the rest: the outcome of a session without an overall status, and
 * the kind of a body that shows no product (a shape this module does not know), which is then
 * checked against that kind's schema (`validationIssues`).
 *
 * A header the body overrules gives the body's kind, never a guess among the kinds it allows: for
 * a preliminary result labelled a manual decision that is the legacy IDENTIFICATION, the one kind
 * that covers every outcome (auto-finished and resubmitted cannot be told apart, and the header
 * was just shown to be wrong). Only Final Results and Wait for Result read `final` from the body.
 */
import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import {
	EVENT_TYPES,
	IDENTIFICATION_EVENT_TYPES,
	describeIssues,
	type identityVerificationEventSchema,
	webhookBodySchemas,
	type EventType,
} from '../contract';
import { isPlainObject } from '../isPlainObject';

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

/**
 * One output item of the trigger (the `json` of the item): the contract's event schema, which the
 * build also writes as the output schema, with the body typed as n8n's JSON object.
 */
export type IdentityVerificationEvent = Omit<
	z.infer<typeof identityVerificationEventSchema>,
	'body'
> & {
	body: IDataObject;
};

/** Where the event kind came from: the header (it fits the body), or the body (rules above). */
type EventTypeSource = IdentityVerificationEvent['eventTypeSource'];

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

/** Whether the body is a verification session: a non-empty `scanRef`, a `final` flag or `status.overall`. */
function hasSession(body: IDataObject): boolean {
	return (
		(typeof body.scanRef === 'string' && body.scanRef !== '') ||
		typeof body.final === 'boolean' ||
		overallStatusOf(body) !== undefined
	);
}

/** The outcome kind `status.overall` names (EXPIRED, CANCELLED), if it names one. */
function outcomeOf(body: IDataObject): EventType | undefined {
	const overall = normaliseName(overallStatusOf(body) ?? '');
	if (overall === 'EXPIRED') return 'IDENTIFICATION_EXPIRED';
	if (overall === 'CANCELLED' || overall === 'CANCELED') return 'IDENTIFICATION_CANCELLED';
	return undefined;
}

const PRELIMINARY_KINDS: readonly EventType[] = [
	'IDENTIFICATION_AUTO_FINISHED',
	'IDENTIFICATION_RESUBMITTED',
	'IDENTIFICATION',
];
const RESULT_KINDS: readonly EventType[] = [...PRELIMINARY_KINDS, 'IDENTIFICATION_MANUAL_FINISHED'];

/** Rule 2: the identification kinds the body's `final` flag and overall status allow. */
function identificationKindsAllowed(body: IDataObject): readonly EventType[] {
	if (body.final === false) return PRELIMINARY_KINDS;
	const outcome = outcomeOf(body);
	if (outcome) return [outcome, 'IDENTIFICATION'];
	return overallStatusOf(body) === undefined ? IDENTIFICATION_EVENT_TYPES : RESULT_KINDS;
}

/** Whether rule 2 allows the kind (it only restricts identification kinds). */
function outcomeAllows(kind: EventType, body: IDataObject): boolean {
	return !isIdentificationEvent(kind) || identificationKindsAllowed(body).includes(kind);
}

/** The product of a kind: the identification kinds share one body, so they are one product. */
function productOf(kind: EventType): EventType {
	return isIdentificationEvent(kind) ? 'IDENTIFICATION' : kind;
}

/** Rule 1a: the kind the body's shape shows, or `undefined` when it shows none. */
function kindOfShape(body: IDataObject): EventType | undefined {
	if (hasKey(body, 'accounts') && hasKey(body, 'riskLevel')) return 'BANK_VERIFICATION';

	if (
		typeof body.score === 'number' &&
		typeof body.status === 'number' &&
		Number.isInteger(body.status)
	) {
		return 'ACCOUNT_CHECK';
	}

	const session = hasSession(body);
	if (isPlainObject(body.bankCardVerification) && !session)
		return 'BANK_CARD_VERIFICATION_COMPLETED';

	const kybId =
		typeof body.formId === 'string' ||
		typeof body.companyId === 'string' ||
		(isPlainObject(body.form) && body.form.id !== undefined) ||
		(isPlainObject(body.company) && body.company.id !== undefined);
	if (kybId && !hasKey(body, 'scanRef')) return 'KYB_REVIEW_RESULT';

	if (!session) return undefined;
	// An outcome has no review pending (rule 2): a final: false session is the legacy kind.
	const outcome = body.final === false ? undefined : outcomeOf(body);
	return outcome ?? 'IDENTIFICATION';
}

/** Rule 1b: a kind the body names itself, when it is of the shape's product and rule 2 allows it. */
function namedKindOf(body: IDataObject, shape: EventType | undefined): EventType | undefined {
	for (const field of ['eventType', 'type', 'event']) {
		const named = parseEventTypeName(body[field]);
		if (!named || !outcomeAllows(named, body)) continue;
		if (!shape || productOf(named) === productOf(shape)) return named;
	}
	return undefined;
}

/** What the body shows of its kind, and whether it names the kind itself (rule 1b). */
interface BodyKind {
	kind: EventType;
	named: boolean;
}

/** Rules 1a and 1b: the body's kind, or `undefined` when it shows no product (1c). */
function kindShownBy(body: IDataObject): BodyKind | undefined {
	const shape = kindOfShape(body);
	const named = namedKindOf(body, shape);
	if (named) return { kind: named, named: true };
	return shape && { kind: shape, named: false };
}

/** Rule 1 of the module comment: the kind the signed body shows, the legacy kind if none. */
export function inferEventType(body: IDataObject): EventType {
	return kindShownBy(body)?.kind ?? 'IDENTIFICATION';
}

/**
 * Whether a signed body is an identification (any identification kind, preliminary or final),
 * decided by the body alone: a body that shows no product is not one.
 */
export function isIdentificationBody(body: IDataObject): boolean {
	const shown = kindShownBy(body);
	return shown !== undefined && isIdentificationEvent(shown.kind);
}

/** Rule 3: whether the header's kind fits what the body shows. */
function headerFitsBody(kind: EventType, body: IDataObject, shown: BodyKind | undefined): boolean {
	if (!outcomeAllows(kind, body)) return false;
	if (!shown) return true;
	return shown.named ? kind === shown.kind : productOf(kind) === productOf(shown.kind);
}

/** The known kinds one header value names: the whole value, or else each part between commas. */
function kindsOfHeaderValue(value: unknown): EventType[] {
	const whole = parseEventTypeName(value);
	if (whole) return [whole];
	if (typeof value !== 'string') return [];
	return value.split(',').flatMap((part) => parseEventTypeName(part) ?? []);
}

/** The distinct known kinds a header names, over all its values. */
function headerKinds(headerValue: string | string[] | undefined): EventType[] {
	const values = Array.isArray(headerValue) ? headerValue : [headerValue];
	return [...new Set(values.flatMap(kindsOfHeaderValue))];
}

/** The event kind of a delivery, by rule 3 of the module comment. */
function classifyEvent(
	headerValue: string | string[] | undefined,
	body: IDataObject,
): { eventType: EventType; source: EventTypeSource; overruledHeader?: EventType } {
	const shown = kindShownBy(body);
	const fromBody = shown?.kind ?? 'IDENTIFICATION';
	const named = headerKinds(headerValue);
	if (named.length === 0) return { eventType: fromBody, source: 'body' };
	if (named.length === 1 && headerFitsBody(named[0], body, shown)) {
		return { eventType: named[0], source: 'header' };
	}
	// The body's own kind always fits, so some value names another: report the first such.
	const overruledHeader = named.find((kind) => kind !== fromBody);
	return { eventType: fromBody, source: 'body', overruledHeader };
}

function isIdentificationEvent(eventType: EventType): boolean {
	return IDENTIFICATION_EVENT_TYPES.includes(eventType);
}

/**
 * Whether an event is a preliminary result: its signed body says `final: false` (auto-finished
 * before a manual review, or a resubmission that still needs review), whatever kind the unsigned
 * header names. Expired and cancelled events are outcomes and count as final (a `final: false` body
 * is never one of them, rule 2).
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
