/**
 * POST /api/v2/status: a verification's status, as the provider's data-retrieval page shows it. The
 * results come from the session's last identification delivery; a session without one is ACTIVE
 * (the person has not finished), REVIEWING (a person reviews it) or EXPIRED.
 */
import { verificationStatusRequestSchema } from '../../../nodes/shared/contract';
import { bodyObject, json, notFound, parseOr400 } from '../http.cjs';
import type { Route } from '../router.cjs';
import type { SandboxCore } from '../core.cjs';
import type { KycSession, KycState } from '../types.cjs';

/** The status of a session that has no result delivery yet. */
const STATUS_WITHOUT_RESULT: Partial<Record<KycState, string>> = {
	IN_PROGRESS: 'ACTIVE',
	REUPLOAD_REQUESTED: 'ACTIVE',
	AWAITING_MANUAL_REVIEW: 'REVIEWING',
	EXPIRED: 'EXPIRED',
};

/** `status` of the session's last delivery that carries one. */
function lastResult(core: SandboxCore, scanRef: string): Record<string, unknown> | undefined {
	for (const delivery of [...core.webhooks.log].reverse()) {
		try {
			const body = JSON.parse(delivery.payload) as { scanRef?: unknown; status?: unknown };
			if (body.scanRef === scanRef && typeof body.status === 'object' && body.status)
				return body.status as Record<string, unknown>;
		} catch {
			// a delivery sent as raw text: not a result
		}
	}
	return undefined;
}

function statusOf(core: SandboxCore, session: KycSession): Record<string, unknown> {
	const result = lastResult(core, session.scanRef) ?? {};
	const waiting = STATUS_WITHOUT_RESULT[session.state];
	return {
		status: waiting ?? result.overall ?? 'ACTIVE',
		scanRef: session.scanRef,
		clientId: session.clientId,
		autoDocument: result.autoDocument ?? null,
		autoFace: result.autoFace ?? null,
		manualDocument: result.manualDocument ?? null,
		manualFace: result.manualFace ?? null,
		fraudTags: result.fraudTags ?? [],
		mismatchTags: result.mismatchTags ?? [],
	};
}

export const statusRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/api/v2/status',
		auth: 'basic',
		handler: (req, core) => {
			const { scanRef } = parseOr400(verificationStatusRequestSchema, bodyObject(req));
			const session = core.kyc.get(scanRef);
			if (!session) throw notFound(`No identification ${scanRef}.`);
			return json(200, statusOf(core, session));
		},
	},
];
