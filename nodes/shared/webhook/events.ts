/**
 * Event kinds of a webhook delivery and the item the trigger emits for it (Wait for Result continues
 * with the same item). The rules follow what the provider publishes (test/fixtures/real-service/):
 *
 * - Kinds: each of the provider's webhooks carries a one-value `<prefix>-Event-Type` header (the
 *   `webhooks:` of its OpenAPI files): six identification kinds, BANK_VERIFICATION, ACCOUNT_CHECK,
 *   BANK_CARD_VERIFICATION_COMPLETED, the KYB kinds (COMPANY_REVIEW, COMPANY_SUBMIT, …), AML
 *   monitoring and others (EVENT_TYPES). The contract's "KYB review result" is COMPANY_REVIEW.
 * - The six identification kinds share one body (`IdentificationWebhook`, kyc OpenAPI): `final` and
 *   `status.overall` (APPROVED, DENIED, SUSPECTED, REVIEWING, EXPIRED, ACTIVE, DELETED, ARCHIVED) are
 *   in every one, and nothing in it names the kind: only the header tells them apart. An expired or
 *   cancelled session has no overall of its own (the docs report a session that expired after
 *   failed attempts as DENIED), so the overall never decides the kind.
 * - `final: false` means a manual review follows (docs, "status handling"); a manual decision is
 *   always final (the contract), so a preliminary body is never a manual decision.
 * - The header is not signed: whoever saw one signed delivery can post its bytes again under any
 *   header. So the signed body decides what its fields show (its product, `final`, `status.overall`),
 *   and the header only picks among the kinds the body allows:
 *   1. The body's product, from its shape: an identification (a boolean `final` or a text
 *      `status.overall`), a bank verification (`accounts` and `riskLevel`), an account check (a
 *      numeric `score` and an integer `status`), a standalone card check (`firstSix` and `lastFour`,
 *      or the contract's `bankCardVerification` object), a company (KYB: `companyName`,
 *      `beneficiaries`, `soleProprietor`, `amlReviewSubjectType`, a form or company id), or none
 *      (the provider's other bodies, e.g. a company submission's `{id, submissionTime, …}`: the
 *      header decides).
 *   2. The header's kind is used when it is of the body's product (any kind when the body shows
 *      none), but never the manual decision for a `final: false` body.
 *   3. Otherwise the body's own kind: the legacy IDENTIFICATION for an identification (it fires for
 *      every outcome), the product's kind for the others, COMPANY_REVIEW for a company, and OTHER for
 *      a body that shows no product: an unknown header value never makes an identification.
 *   Header names are matched case-insensitively and tolerant of `-`, `.`, spaces and brackets, and
 *   the dashboard's spelling (`ID VERIFICATION CANCELED`). A header sent several times names a kind
 *   only when all its values that name one name the same.
 */
import { createHash } from 'crypto';
import type { IDataObject, INodeProperties, IWebhookFunctions } from 'n8n-workflow';
import type { z } from 'zod';

import {
	COMPANY_EVENT_TYPES,
	EVENT_TYPES,
	IDENTIFICATION_EVENT_TYPES,
	decisionWordsSchema,
	describeIssues,
	type identityVerificationEventSchema,
	type verificationEventItemSchema,
	webhookBodySchemas,
	type EventType,
} from '../contract';
import { isPlainObject } from '../isPlainObject';
import { statusDecision } from '../typedFields';

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

/** The products of rule 1; the identification kinds share one body, so they are one product. */
type Product = 'identification' | 'company' | EventType;

/** Kinds a header can name: every kind but OTHER, which stands for a header that names none. */
const NAMEABLE = new Set<string>(EVENT_TYPES.filter((kind) => kind !== 'OTHER'));

/** Other spellings of a kind: the contract's word for the KYB review, the dashboard's names. */
const ALIASES: Record<string, EventType> = {
	KYB_REVIEW_RESULT: 'COMPANY_REVIEW',
	KYB_REVIEW: 'COMPANY_REVIEW',
	IDENTIFICATION_CANCELED: 'IDENTIFICATION_CANCELLED',
};

function normaliseName(value: string): string {
	return value
		.trim()
		.toUpperCase()
		.replace(/[^A-Z0-9]+/g, '_')
		.replace(/^_+|_+$/g, '');
}

/** The known kind a header value names, or `undefined`. */
export function parseEventTypeName(value: unknown): EventType | undefined {
	if (typeof value !== 'string') return undefined;
	let name = normaliseName(value)
		.replace(/_LEGACY$/, '')
		.replace(/_FINISH$/, '_FINISHED')
		.replace(/^ID_VERIFICATION(?=_|$)/, 'IDENTIFICATION');
	name = ALIASES[name] ?? name;
	return NAMEABLE.has(name) ? (name as EventType) : undefined;
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

function isIdentificationShape(body: IDataObject): boolean {
	return typeof body.final === 'boolean' || overallStatusOf(body) !== undefined;
}

/** A standalone card check: the provider's flat body, or the contract's `bankCardVerification`. */
function isCardShape(body: IDataObject): boolean {
	return (
		(hasKey(body, 'firstSix') && hasKey(body, 'lastFour')) ||
		isPlainObject(body.bankCardVerification)
	);
}

/** A company (KYB): the provider's company bodies, or the contract's form and company ids. */
function isCompanyShape(body: IDataObject): boolean {
	return (
		typeof body.companyName === 'string' ||
		Array.isArray(body.beneficiaries) ||
		typeof body.soleProprietor === 'boolean' ||
		typeof body.amlReviewSubjectType === 'string' ||
		typeof body.formId === 'string' ||
		typeof body.companyId === 'string' ||
		(isPlainObject(body.form) && body.form.id !== undefined) ||
		(isPlainObject(body.company) && body.company.id !== undefined)
	);
}

/** Rule 1: the product the body's shape shows, or `undefined` when it shows none. */
function productOfBody(body: IDataObject): Product | undefined {
	if (hasKey(body, 'accounts') && hasKey(body, 'riskLevel')) return 'BANK_VERIFICATION';
	if (typeof body.score === 'number' && Number.isInteger(body.status)) return 'ACCOUNT_CHECK';
	if (isIdentificationShape(body)) return 'identification';
	if (isCardShape(body)) return 'BANK_CARD_VERIFICATION_COMPLETED';
	if (isCompanyShape(body)) return 'company';
	return undefined;
}

function productOfKind(kind: EventType): Product {
	if (IDENTIFICATION_EVENT_TYPES.includes(kind)) return 'identification';
	if (COMPANY_EVENT_TYPES.includes(kind)) return 'company';
	return kind;
}

/** Rule 3: the kind the body shows by itself. */
function kindOfBody(product: Product | undefined): EventType {
	if (product === 'identification') return 'IDENTIFICATION';
	if (product === 'company') return 'COMPANY_REVIEW';
	return product ?? 'OTHER';
}

/** Rule 2: whether the header's kind fits the body. */
function headerFitsBody(kind: EventType, body: IDataObject, product: Product | undefined): boolean {
	if (kind === 'IDENTIFICATION_MANUAL_FINISHED' && body.final === false) return false;
	return product === undefined || productOfKind(kind) === product;
}

/** The values a header was sent with (an array, or one value joined with ", " by Node). */
function headerValues(headerValue: string | string[] | undefined): string[] {
	const values = Array.isArray(headerValue) ? headerValue : [headerValue];
	return values.flatMap((value) => {
		if (typeof value !== 'string' || value.trim() === '') return [];
		return parseEventTypeName(value) ? [value] : value.split(',');
	});
}

/** What the header names: its distinct known kinds, and its first value that names none. */
function readHeader(headerValue: string | string[] | undefined): {
	kinds: EventType[];
	unknown?: string;
} {
	const read = headerValues(headerValue).map((value) => ({
		value: value.trim(),
		kind: parseEventTypeName(value),
	}));
	const kinds = [...new Set(read.flatMap(({ kind }) => kind ?? []))];
	const unknown = read.find(({ value, kind }) => value !== '' && !kind)?.value;
	// Shown to the user as it came, cut to a sane length: the header is anyone's to write.
	return { kinds, unknown: unknown?.slice(0, 100) };
}

/** The event kind of a delivery, by the rules of the module comment. */
function classifyEvent(
	headerValue: string | string[] | undefined,
	body: IDataObject,
): { eventType: EventType; source: EventTypeSource; headerEventType?: string } {
	const product = productOfBody(body);
	const fromBody = kindOfBody(product);
	const header = readHeader(headerValue);
	if (header.kinds.length === 1 && headerFitsBody(header.kinds[0], body, product)) {
		return { eventType: header.kinds[0], source: 'header' };
	}
	// A kind the body overrules (or one of several that disagree), else the unknown value as sent.
	const overruled = header.kinds.find((kind) => kind !== fromBody);
	return { eventType: fromBody, source: 'body', headerEventType: overruled ?? header.unknown };
}

function isIdentificationEvent(eventType: EventType): boolean {
	return IDENTIFICATION_EVENT_TYPES.includes(eventType);
}

/**
 * Whether a signed body is an identification result: an identification body with a decision (its
 * `status.overall`). Decided by the body alone: a body without one never resumes Wait for Result.
 */
export function isIdentificationResult(body: IDataObject): boolean {
	const overall = overallStatusOf(body);
	return overall !== undefined && overall.trim() !== '';
}

/**
 * Whether an event is a preliminary result: its signed body says `final: false` (auto-finished
 * before a manual review, or a resubmission that still needs review), whatever kind the unsigned
 * header names.
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
	const { eventType, source, headerEventType } = classifyEvent(opts.headerEventType, body);
	const event: IdentityVerificationEvent = {
		eventType,
		eventTypeSource: source,
		// An unknown value contradicts nothing; a kind the body overruled does.
		headerMatchesBody: headerEventType === undefined || !parseEventTypeName(headerEventType),
		receivedAt: opts.receivedAt.toISOString(),
		deliveryId: opts.deliveryId,
		body,
	};
	if (headerEventType !== undefined) event.headerEventType = headerEventType;

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

/**
 * The event of an answer read in place of a delivery (Get Result, the Polling Trigger): received
 * now, its id the SHA-256 of the answer's JSON as a delivery's is of its body.
 */
export function answerEvent(
	body: IDataObject,
	headerEventType: string | undefined,
): IdentityVerificationEvent {
	const deliveryId = createHash('sha256').update(JSON.stringify(body)).digest('hex');
	return buildEvent({ headerEventType, body, deliveryId, receivedAt: new Date() });
}

/** The item of version 1.1 (`verificationEventItemSchema`). */
export type VerificationEventItem = z.infer<typeof verificationEventItemSchema>;

/** A body field lifted to the top of the item when it holds non-empty text. */
function textOf(body: IDataObject, key: string): string | undefined {
	const value = body[key];
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Unix seconds (the service's `startTime`, `finishTime`) as ISO 8601; undefined otherwise. */
function isoFromUnixSeconds(value: unknown): string | undefined {
	if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
	const date = new Date(value * 1000);
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * Kinds whose body's `id` is not the company's: a registry document's, a filing report's
 * (kyb.yaml's GovPartnerOrderedDocument and SosReportWebhook).
 */
const ID_IS_NOT_THE_COMPANY: readonly EventType[] = ['GOV_ORDERED_DOCUMENT', 'SOS_REPORT'];

/** The company a KYB event is about: `companyId`, or the company bodies' own `id`. */
function companyIdOf(event: IdentityVerificationEvent): string | undefined {
	if (!COMPANY_EVENT_TYPES.includes(event.eventType)) return undefined;
	const companyId = textOf(event.body, 'companyId');
	if (companyId !== undefined || ID_IS_NOT_THE_COMPANY.includes(event.eventType)) return companyId;
	return textOf(event.body, 'id');
}

/** The decision fields of an identification's `status`, each of a decision's value types. */
type Decision = NonNullable<VerificationEventItem['decision']>;

/**
 * The decision of an identification event: only the fields decisionSchema names from its body's
 * `status`, each kept when it is one of the contract's words or lists of tags, so a field the service
 * adds to the status (a name, an e-mail) never reaches the item. Undefined when there is none.
 */
function decisionOf(event: IdentityVerificationEvent): Decision | undefined {
	if (!isIdentificationEvent(event.eventType)) return undefined;
	return statusDecision(event.body.status) as Decision | undefined;
}

/**
 * How the item keeps a field that holds the service's words (decisionWordsSchema): as sent with
 * personal data, otherwise only when it is of the contract's type (free text could be anyone's data).
 */
function wordKeeper(personalData: boolean) {
	const words = decisionWordsSchema.shape;
	return <T>(value: T, field: keyof typeof words): T | undefined =>
		personalData || words[field].safeParse(value).success ? value : undefined;
}

/**
 * The item of version 1.1: the decision and the references first, readable dates, the decision's
 * reasons (`decision`, the same path with or without personal data), the body (only with
 * `personalData`) and the delivery's technical fields. Without personal data, the statuses and the
 * header keep only the contract's values. Keys that would be empty are left out, so the first
 * screen is the decision.
 */
export function eventItem(
	event: IdentityVerificationEvent,
	options: { personalData: boolean },
): VerificationEventItem {
	const { body } = event;
	const status = body.status;
	const word = wordKeeper(options.personalData);
	const item: VerificationEventItem = {
		eventType: event.eventType,
		overallStatus: word(event.overallStatus, 'overallStatus'),
		approvalStatus: word(textOf(body, 'approvalStatus'), 'approvalStatus'),
		status: word(
			typeof status === 'string' || typeof status === 'number' ? status : undefined,
			'status',
		),
		riskLevel: word(textOf(body, 'riskLevel'), 'riskLevel'),
		final: event.final,
		scanRef: event.scanRef,
		clientId: event.clientId,
		companyId: companyIdOf(event),
		startedAt: isoFromUnixSeconds(body.startTime),
		finishedAt: isoFromUnixSeconds(body.finishTime),
		receivedAt: event.receivedAt,
		decision: decisionOf(event),
		body: options.personalData ? body : undefined,
		delivery: {
			deliveryId: event.deliveryId,
			eventTypeSource: event.eventTypeSource,
			headerMatchesBody: event.headerMatchesBody,
			headerEventType: word(event.headerEventType, 'headerEventType'),
			validationIssues: event.validationIssues,
			sample: event.sample,
		},
	};
	withoutEmpty(item.delivery);
	return withoutEmpty(item);
}

/**
 * Version 1 names the company review KYB_REVIEW_RESULT (the contract's "KYB review result"), as it did
 * before the provider's own kinds were known: saved workflows filter and route on that value.
 */
export const V1_NAMES: Partial<Record<EventType, string>> = { COMPANY_REVIEW: 'KYB_REVIEW_RESULT' };

/**
 * The item a delivery becomes in the trigger and in Wait for Result, in the shape of the node's
 * version: version 1 the event as it was, 1.1 `eventItem` with the node's Personal Data choice.
 */
export function outputItem(
	context: IWebhookFunctions,
	event: IdentityVerificationEvent,
): IDataObject {
	if (context.getNode().typeVersion < 1.1) {
		return { ...event, eventType: V1_NAMES[event.eventType] ?? event.eventType };
	}
	const personalData = keepsPersonalData(context.getNodeParameter('personalData', 'include'));
	return eventItem(event, { personalData });
}

/** The object without its undefined keys (n8n shows an undefined key as an empty field). */
function withoutEmpty<T extends object>(object: T): T {
	for (const [key, value] of Object.entries(object)) {
		if (value === undefined) delete (object as Record<string, unknown>)[key];
	}
	return object;
}

/**
 * The Personal Data choice of version 1.1 of the trigger and of Wait for Result; `what` starts its
 * options' descriptions ("Output" for the trigger, "Continue with" for the wait).
 */
export function personalDataProperty(what: 'Output' | 'Continue with'): INodeProperties {
	return {
		displayName: 'Personal Data',
		name: 'personalData',
		type: 'options',
		default: 'include',
		options: [
			{
				name: 'Include',
				value: 'include',
				description: `${what} the whole delivery (body), with the person’s document data`,
			},
			{
				name: 'Leave Out (Decision Only)',
				value: 'leaveOut',
				description: `${what} the decision only: kind, statuses, references, final flag, dates and the decision’s reasons (under decision, as with Include), each only as one of the service’s values (free text is left out). Names, document numbers, birth dates, addresses and IP addresses are never stored in n8n. The Client ID stays as sent, as workflows route on it: use one that is not an e-mail address.`,
			},
		],
		description:
			'Whether the item (and so every saved execution) keeps the personal data the service sends',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	};
}

/** Whether a node's Personal Data choice keeps the person's data (version 1.1). */
function keepsPersonalData(choice: unknown): boolean {
	return choice !== 'leaveOut';
}
