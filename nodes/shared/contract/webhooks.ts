/**
 * Webhook deliveries: the event kinds, the body schema of each kind, and the headers. Bodies accept
 * unknown extra fields (the service may add fields at any time).
 */
import { z } from 'zod';

import { AML_MONITORING_STATUSES } from './aml';
import { LIMITS, contractIssueSchema } from './common';
import {
	ADDITIONAL_STEP_STATUSES,
	BLOCKLIST_MATCH_TAGS,
	DOCUMENT_CHECK_RESULTS,
	FACE_CHECK_RESULTS,
	FRAUD_TAGS,
	IDENTIFICATION_STATUSES,
	MISMATCH_TAGS,
} from './kyc';

export const RISK_LEVELS = [
	'VERY_LOW',
	'LOW',
	'MEDIUM',
	'HIGH',
	'VERY_HIGH',
	'NOT_CHECKED',
] as const;

export const bankAccountSchema = z
	.object({
		id: z.string(),
		name: z.string().max(LIMITS.bankAccountNameMaxLength).nullish(),
		iban: z.string().max(LIMITS.ibanMaxLength).nullish(),
		currency: z.string().max(LIMITS.currencyMaxLength),
		balancesOverview: z
			.object({ bookedBalance: z.number().nullable(), availableBalance: z.number().nullable() })
			.passthrough()
			.nullable(),
		transactionsCount: z.number().nullable(),
	})
	.passthrough();

export const bankVerificationWebhookSchema = z
	.object({
		id: z.string(),
		country: z.string().nullish(),
		bank: z.string().max(LIMITS.bankNameMaxLength).nullish(),
		accounts: z.array(bankAccountSchema).nullable(),
		riskLevel: z.enum(RISK_LEVELS).nullable(),
	})
	.passthrough();

export const accountCheckWebhookSchema = z
	.object({
		scanRef: z.string().nullable(),
		clientId: z.string().nullish(),
		authToken: z.string().nullish(),
		date: z.string().nullish(),
		status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
		score: z.number(),
		facebookScore: z.number().nullish(),
		gmailScore: z.number().nullish(),
		ipScore: z.number().nullish(),
	})
	.passthrough();

/** The identification body's field list is not shown: only what the contract names is typed. */
export const identificationWebhookSchema = z
	.object({
		final: z.boolean().optional(),
		scanRef: z.string().nullish(),
		clientId: z.string().nullish(),
		status: z.object({ overall: z.string().nullish() }).passthrough().nullish(),
	})
	.passthrough();

/** Bodies the contract does not show: any JSON object (the service may add fields at any time). */
const anyObject = z.object({}).passthrough();

/** The six identification kinds: one body, told apart by the header only. */
const IDENTIFICATION_KINDS = [
	'IDENTIFICATION_AUTO_FINISHED',
	'IDENTIFICATION_MANUAL_FINISHED',
	'IDENTIFICATION_RESUBMITTED',
	'IDENTIFICATION_EXPIRED',
	'IDENTIFICATION_CANCELLED',
	'IDENTIFICATION',
] as const;

/** The business verification (KYB) kinds: one company, its forms, registry documents and reports. */
const COMPANY_KINDS = [
	'COMPANY_REVIEW',
	'COMPANY_SUBMIT',
	'COMPANY_INFO_REQUEST',
	'COMPANY_AML_REVIEW',
	'COMPANY_EXPIRATION',
	'COMPANY_DELETE',
	'GOV_ORDERED_DOCUMENT',
	'SOS_REPORT',
] as const;

/**
 * Every event kind the trigger knows: each `Idenfy-Event-Type` value of the provider's published
 * webhooks (test/fixtures/real-service/), and OTHER for a delivery that names none of them. The
 * contract's "KYB review result" is the provider's COMPANY_REVIEW.
 */
export const EVENT_TYPES = [
	...IDENTIFICATION_KINDS,
	'BANK_VERIFICATION',
	'ACCOUNT_CHECK',
	'BANK_CARD_VERIFICATION_COMPLETED',
	...COMPANY_KINDS,
	'AML_MONITORING',
	'AML_MONITORING_EXPIRATION',
	'DOCUMENT_EXPIRATION',
	'FACIAL_AUTHENTICATION',
	'AGE_ESTIMATION',
	'VIDEO_CALL_FINISHED',
	'OTHER',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const IDENTIFICATION_EVENT_TYPES: readonly EventType[] = IDENTIFICATION_KINDS;
export const COMPANY_EVENT_TYPES: readonly EventType[] = COMPANY_KINDS;

function bodySchemaOf(kind: EventType): z.ZodTypeAny {
	if (IDENTIFICATION_EVENT_TYPES.includes(kind)) return identificationWebhookSchema;
	if (kind === 'BANK_VERIFICATION') return bankVerificationWebhookSchema;
	if (kind === 'ACCOUNT_CHECK') return accountCheckWebhookSchema;
	return anyObject;
}

export const webhookBodySchemas = Object.fromEntries(
	EVENT_TYPES.map((kind) => [kind, bodySchemaOf(kind)]),
) as Record<EventType, z.ZodTypeAny>;

/**
 * The delivery headers are `<prefix>-Event-Type` and `<prefix>-Signature`: the contract writes the
 * neutral prefix `Service`, the real service its own name, `Idenfy` (iDenfy sends `Idenfy-Signature`
 * and `Idenfy-Event-Type`).
 */
export const DEFAULT_HEADER_PREFIX = 'Service';
export const PROVIDER_HEADER_PREFIX = 'Idenfy';

/** A header prefix as typed (spaces and a trailing `-` tolerated), or undefined when unusable. */
export function cleanHeaderPrefix(prefix: unknown): string | undefined {
	const cleaned = typeof prefix === 'string' ? withoutTrailingDashes(prefix.trim()) : '';
	// One quantifier, anchored at both ends: a single pass over the text.
	return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(cleaned) ? cleaned : undefined;
}

/** `text` without its trailing dashes: a loop, as `/-+$/` retries from every dash of a long run. */
function withoutTrailingDashes(text: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === '-') end--;
	return text.slice(0, end);
}

/** The header names of one prefix: in lower case as Node gives them, and as written, for messages. */
export interface WebhookHeaderNames {
	eventType: string;
	signature: string;
	signatureName: string;
}

/** The header names for a prefix (an unusable or empty one is the contract's). */
export function webhookHeaders(prefix?: unknown): WebhookHeaderNames {
	const usable = cleanHeaderPrefix(prefix) ?? DEFAULT_HEADER_PREFIX;
	const lower = usable.toLowerCase();
	return {
		eventType: `${lower}-event-type`,
		signature: `${lower}-signature`,
		signatureName: `${usable}-Signature`,
	};
}

/** The contract's own header names. */
export const WEBHOOK_HEADERS = webhookHeaders(DEFAULT_HEADER_PREFIX);

/**
 * The header sets a delivery may be read under, for the credential's Header Prefix. Empty (the
 * default) reads the contract's and the provider's names, one set per delivery; a prefix narrows it
 * to that one. `Service`, the default before, also reads both: n8n keeps no record of whether it was
 * typed or only shown, and a credential saved with it must accept the real service's deliveries.
 */
export function acceptedHeaderSets(prefix: unknown): WebhookHeaderNames[] {
	const usable = cleanHeaderPrefix(prefix);
	if (usable === undefined || usable.toLowerCase() === DEFAULT_HEADER_PREFIX.toLowerCase()) {
		return [WEBHOOK_HEADERS, webhookHeaders(PROVIDER_HEADER_PREFIX)];
	}
	return [webhookHeaders(usable)];
}

/** A decision field: one of the contract's words, or null until that check has been made. */
const decisionWord = <T extends readonly [string, ...string[]]>(words: T) =>
	z.enum(words).nullable().optional();
/** A decision's list of tags, each one of the contract's. */
const decisionTags = <T extends readonly [string, ...string[]]>(words: T) =>
	z.array(z.enum(words)).nullable().optional();

/** The fraud tags a decision keeps: kyc.yaml's, and the blocklist guide's match tags. */
const DECISION_FRAUD_TAGS = [...FRAUD_TAGS, ...BLOCKLIST_MATCH_TAGS] as const;

/**
 * The decision fields of an identification's `status`: the provider's `IdentificationStatusWebhook`
 * (kyc OpenAPI) and `suspicionReasons` of its published webhook examples, each with its words. The
 * only part of the status an item keeps apart from the body: statuses and tags, never the person's
 * data (a value of another type, free text or an object, is left out).
 */
export const decisionSchema = z.object({
	overall: decisionWord(IDENTIFICATION_STATUSES),
	autoDocument: decisionWord(DOCUMENT_CHECK_RESULTS),
	autoFace: decisionWord(FACE_CHECK_RESULTS),
	manualDocument: decisionWord(DOCUMENT_CHECK_RESULTS),
	manualFace: decisionWord(FACE_CHECK_RESULTS),
	suspicionReasons: decisionTags(DECISION_FRAUD_TAGS),
	mismatchTags: decisionTags(MISMATCH_TAGS),
	fraudTags: decisionTags(DECISION_FRAUD_TAGS),
	additionalSteps: decisionWord(ADDITIONAL_STEP_STATUSES),
});

/**
 * The top-level `status` of the other kinds, as the provider's webhooks type it: a card check
 * (`BankCardVerificationStatusEnum`), AML monitoring, a company's information request
 * (`CompanyInfoRequestStatusEnum`), a registry document or report (`GovDocumentOrderStatusEnum`).
 */
const EVENT_STATUSES = [
	...['NOT_COMPARED', 'MATCH', 'NO_MATCH'],
	...AML_MONITORING_STATUSES,
	...['REQUESTED', 'EXPIRED', 'CANCELED'],
	...['NOT_ORDERED', 'IN_PROGRESS', 'FINISHED', 'FAILED', 'TIMED_OUT'],
] as const;

/**
 * The fields of the item that hold the service's words, with the contract's type of each. With
 * personal data left out a value of another type (free text, an object) is left out: it could be
 * anyone's data. A status the contract does not name yet is left out too (Include shows it).
 */
export const decisionWordsSchema = z.object({
	overallStatus: z.enum(IDENTIFICATION_STATUSES),
	/** kyb.yaml `ApprovalStatusEnum`. */
	approvalStatus: z.enum(['APPROVED', 'DENIED']),
	status: z.union([z.enum(EVENT_STATUSES), accountCheckWebhookSchema.shape.status]),
	riskLevel: z.enum(RISK_LEVELS),
	/** The unsigned header: kept only when it names a kind. */
	headerEventType: z.enum(EVENT_TYPES),
});

/**
 * The item the trigger emits for a delivery (Wait for Result continues with the same item). Defined
 * once: the TypeScript type (`IdentityVerificationEvent`, nodes/shared/webhook/events.ts, where the
 * rules behind each field are) and the output schemas the build writes (gulpfile.js) derive from it.
 */
export const identityVerificationEventSchema = z.object({
	/** The event kind: the header's when it fits the signed body, otherwise the body's. */
	eventType: z.enum(EVENT_TYPES),
	/** Where `eventType` came from. */
	eventTypeSource: z.enum(['header', 'body']),
	/**
	 * False when the (unsigned) event-type header named a kind the signed body rules out (or its
	 * values named different kinds): `eventType` is then the body's kind. True otherwise, also when
	 * no header named a known kind.
	 */
	headerMatchesBody: z.boolean(),
	/** What the header named, when it is not `eventType`: a kind the body overruled, or an unknown one. */
	headerEventType: z.string().optional(),
	/** When n8n received the delivery (ISO 8601). */
	receivedAt: z.string(),
	/** SHA-256 (hex) of the raw body: equal for retries and Resends of the same delivery. */
	deliveryId: z.string(),
	/** The body's `final` flag, whatever the kind (`false`: a preliminary result). */
	final: z.boolean().optional(),
	/** Identification events: the body's `status.overall`. */
	overallStatus: z.string().optional(),
	scanRef: z.string().optional(),
	clientId: z.string().optional(),
	/** The parsed JSON body, unchanged (also fields the contract does not list). */
	body: z.record(z.unknown()),
	/** Present when the body does not match the contract's schema for its kind (it is emitted anyway). */
	validationIssues: z.array(contractIssueSchema).optional(),
	/** Only in the sample event: what it does not show (its signature was not checked). */
	sample: z.string().optional(),
});

/**
 * The item from version 1.1 of the trigger and of Wait for Result: what a workflow routes and
 * reports on first, the decision's reasons at one path whatever the Personal Data choice, dates
 * readable beside the body's raw values, and how the delivery was read grouped under `delivery`.
 * With personal data left out there is no `body`.
 */
export const verificationEventItemSchema = z.object({
	eventType: z.enum(EVENT_TYPES),
	/** Identification events: `status.overall` (APPROVED, DENIED, SUSPECTED, …). */
	overallStatus: z.string().optional(),
	/** A company review's decision (APPROVED, DENIED). */
	approvalStatus: z.string().optional(),
	/** The top-level `status` of other kinds (a card check's MATCH, AML monitoring's ALERT, …). */
	status: z.union([z.string(), z.number()]).optional(),
	/** A bank verification's risk level. */
	riskLevel: z.string().optional(),
	/** `false`: a preliminary result that a manual review will replace. */
	final: z.boolean().optional(),
	scanRef: z.string().optional(),
	clientId: z.string().optional(),
	/** The company of a KYB event. */
	companyId: z.string().optional(),
	/** The body's `startTime` and `finishTime` (Unix seconds) as ISO 8601. */
	startedAt: z.string().optional(),
	finishedAt: z.string().optional(),
	/** When n8n received the delivery (ISO 8601). */
	receivedAt: z.string(),
	/** Identification events: the decision fields of the body's `status` (decisionSchema), in both modes. */
	decision: decisionSchema.optional(),
	/** The parsed JSON body, unchanged; left out with personal data. */
	body: z.record(z.unknown()).optional(),
	delivery: z.object({
		/** SHA-256 (hex) of the raw body: equal for retries and Resends of the same delivery. */
		deliveryId: z.string(),
		eventTypeSource: z.enum(['header', 'body']),
		headerMatchesBody: z.boolean(),
		headerEventType: z.string().optional(),
		validationIssues: z.array(contractIssueSchema).optional(),
		/** Only in the sample event: what it does not show (its signature was not checked). */
		sample: z.string().optional(),
		/** `polling`: the Polling Trigger found it in the service's lists (no delivery was received). */
		source: z.literal('polling').optional(),
	}),
});
