/**
 * Webhook deliveries: the event kinds, the body schema of each kind, and the headers. Bodies accept
 * unknown extra fields (the service may add fields at any time).
 */
import { z } from 'zod';

import { LIMITS } from './common';

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

const cardCheckWebhookSchema = z.object({}).passthrough();
const kybReviewWebhookSchema = z.object({}).passthrough();

/** Every event kind the trigger knows. The header value of identification events is not shown. */
export const EVENT_TYPES = [
	'BANK_VERIFICATION',
	'ACCOUNT_CHECK',
	'IDENTIFICATION_AUTO_FINISHED',
	'IDENTIFICATION_MANUAL_FINISHED',
	'IDENTIFICATION_RESUBMITTED',
	'IDENTIFICATION_EXPIRED',
	'IDENTIFICATION_CANCELLED',
	'IDENTIFICATION',
	'BANK_CARD_VERIFICATION_COMPLETED',
	'KYB_REVIEW_RESULT',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const IDENTIFICATION_EVENT_TYPES: readonly EventType[] = [
	'IDENTIFICATION_AUTO_FINISHED',
	'IDENTIFICATION_MANUAL_FINISHED',
	'IDENTIFICATION_RESUBMITTED',
	'IDENTIFICATION_EXPIRED',
	'IDENTIFICATION_CANCELLED',
	'IDENTIFICATION',
];

export const webhookBodySchemas: Record<EventType, z.ZodTypeAny> = {
	BANK_VERIFICATION: bankVerificationWebhookSchema,
	ACCOUNT_CHECK: accountCheckWebhookSchema,
	IDENTIFICATION_AUTO_FINISHED: identificationWebhookSchema,
	IDENTIFICATION_MANUAL_FINISHED: identificationWebhookSchema,
	IDENTIFICATION_RESUBMITTED: identificationWebhookSchema,
	IDENTIFICATION_EXPIRED: identificationWebhookSchema,
	IDENTIFICATION_CANCELLED: identificationWebhookSchema,
	IDENTIFICATION: identificationWebhookSchema,
	BANK_CARD_VERIFICATION_COMPLETED: cardCheckWebhookSchema,
	KYB_REVIEW_RESULT: kybReviewWebhookSchema,
};

export const WEBHOOK_HEADERS = {
	eventType: 'service-event-type',
	signature: 'service-signature',
} as const;
