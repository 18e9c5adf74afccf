/**
 * POST /api/v2/token, POST /kyc/identifications/{scanRef}/request-information/ and
 * POST /api/v2/status, answered as the service answers them where the contract is silent.
 */
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { scanRefSchema, verificationTokenRequestSchema } from '../../../nodes/shared/contract';
import { bodyObject, json, notFound, parseOr400 } from '../http.cjs';
import type { Req } from '../http.cjs';
import type { Route } from '../router.cjs';
import type { KycSession } from '../types.cjs';

/** Seconds; used when the request does not set them (the service's documented defaults). */
const DEFAULT_EXPIRY_TIME = 3600;
const DEFAULT_SESSION_LENGTH = 600;

/** The request-information body is optional; `lifetime` is checked as the service does. */
const requestInformationSchema = z
	.object({ lifetime: z.number().int().min(0).max(2_592_000).optional() })
	.passthrough();

const statusRequestSchema = z.object({ scanRef: scanRefSchema });

/** The hosted verification page of a token, on the address the client used. */
export function redirectUrlOf(req: Req, authToken: string): string {
	return `${req.origin}/api/v2/redirect?authToken=${encodeURIComponent(authToken)}`;
}

/** The 8-digit code for the provider's mobile app, only when asked for. */
function digitString(request: Record<string, unknown>): string | null {
	return request.generateDigitString === true ? String(randomInt(10_000_000, 100_000_000)) : null;
}

/**
 * What POST /api/v2/status reports: the last result's status block, ACTIVE while the person can
 * still use the link, REVIEWING while a person reviews it (manual values empty until reviewed, as
 * the service documents).
 */
function statusOf(session: KycSession): Record<string, unknown> {
	const last = session.lastStatus;
	const active = session.state === 'IN_PROGRESS' || session.state === 'REUPLOAD_REQUESTED';
	const reviewing = session.state === 'AWAITING_MANUAL_REVIEW';
	return {
		status: active || !last ? 'ACTIVE' : reviewing ? 'REVIEWING' : last.overall,
		scanRef: session.scanRef,
		clientId: session.clientId,
		autoDocument: active ? null : (last?.autoDocument ?? null),
		autoFace: active ? null : (last?.autoFace ?? null),
		manualDocument: active ? null : (last?.manualDocument ?? null),
		manualFace: active ? null : (last?.manualFace ?? null),
		fraudTags: active ? [] : (last?.fraudTags ?? []),
		mismatchTags: active ? [] : (last?.mismatchTags ?? []),
	};
}

export const kycRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/api/v2/token',
		auth: 'basic',
		handler: (req, core) => {
			const body = parseOr400(verificationTokenRequestSchema, bodyObject(req));
			const session = core.kyc.createSession(body.clientId, body);
			return json(201, {
				message: 'Token created successfully',
				...body,
				expiryTime: typeof body.expiryTime === 'number' ? body.expiryTime : DEFAULT_EXPIRY_TIME,
				sessionLength:
					typeof body.sessionLength === 'number' ? body.sessionLength : DEFAULT_SESSION_LENGTH,
				tokenType: typeof body.tokenType === 'string' ? body.tokenType : 'IDENTIFICATION',
				authToken: session.authToken,
				scanRef: session.scanRef,
				clientId: session.clientId,
				redirectUrl: redirectUrlOf(req, session.authToken),
				digitString: digitString(body),
			});
		},
	},
	{
		method: 'POST',
		pattern: '/kyc/identifications/:scanRef/request-information/',
		auth: 'basic',
		handler: (req, core) => {
			parseOr400(requestInformationSchema, bodyObject(req));
			const session = core.kyc.requestInformation(req.params.scanRef);
			return json(200, {
				sessionUrl: redirectUrlOf(req, session.authToken),
				tokenString: session.authToken,
			});
		},
	},
	{
		method: 'POST',
		pattern: '/api/v2/status',
		auth: 'basic',
		handler: (req, core) => {
			const { scanRef } = parseOr400(statusRequestSchema, bodyObject(req));
			const session = core.kyc.get(scanRef);
			if (!session) throw notFound(`No identification ${scanRef}.`);
			return json(200, statusOf(session));
		},
	},
];
