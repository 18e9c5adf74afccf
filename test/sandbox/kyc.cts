/**
 * The KYC session state machine of the contract's "Identification (KYC) events" table. Each step
 * that the table says emits an event sends it through the webhook sender and resolves with the
 * delivery; a step the table does not allow from the session's state throws a 409 HttpError.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EventType } from '../../nodes/shared/contract';
import { identificationBody } from './bodies.cjs';
import { conflict, notFound } from './http.cjs';
import type { Delivery, KycSession, KycState } from './types.cjs';

/** Sends a signed webhook: to the dashboard URL, or to `to` (a token's own callback URL). */
type Send = (eventType: EventType, body: unknown, to?: string) => Promise<Delivery>;

export class KycDriver {
	readonly sessions = new Map<string, KycSession>();

	constructor(
		private readonly send: Send,
		private readonly dashboardConfigured: () => boolean = () => true,
	) {}

	reset(): void {
		this.sessions.clear();
	}

	createSession(clientId: string, request: Record<string, unknown> = {}): KycSession {
		const session: KycSession = {
			scanRef: randomUUID(),
			clientId,
			authToken: randomBytes(20).toString('base64url'),
			state: 'IN_PROGRESS',
			createdAt: Date.now(),
			request: { ...request, clientId },
			events: [],
		};
		if (typeof request.callbackUrl === 'string') session.callbackUrl = request.callbackUrl;
		this.sessions.set(session.scanRef, session);
		return session;
	}

	get(scanRef: string): KycSession | undefined {
		return this.sessions.get(scanRef);
	}

	private take(scanRef: string, allowed: KycState[], action: string): KycSession {
		const session = this.sessions.get(scanRef);
		if (!session) throw notFound(`No identification ${scanRef}.`);
		if (!allowed.includes(session.state)) {
			throw conflict(
				`Cannot ${action}: the identification is ${session.state} (allowed from ${allowed.join(' or ')}).`,
			);
		}
		return session;
	}

	private async emit(
		session: KycSession,
		eventType: EventType,
		final: boolean,
		overall: string | undefined,
		manual: boolean,
	) {
		session.events.push(eventType);
		const body = identificationBody(eventType, {
			scanRef: session.scanRef,
			clientId: session.clientId,
			final,
			overall,
			manual,
		});
		if (session.callbackUrl === undefined) return this.send(eventType, body);
		// A token with its own callback URL: its results go there and, when one is configured, to the
		// dashboard URL too (the same bytes, so both carry the same signature and deliveryId).
		const deliveries = [this.send(eventType, body, session.callbackUrl)];
		if (this.dashboardConfigured()) deliveries.push(this.send(eventType, body));
		return (await Promise.all(deliveries))[0];
	}

	/** Automated review: final true closes the case; final false waits for a manual review. */
	async autoFinish(scanRef: string, opts: { final: boolean; overall?: string }): Promise<Delivery> {
		const session = this.take(scanRef, ['IN_PROGRESS'], 'finish the automated review');
		const final = Boolean(opts.final);
		session.state = final ? 'FINISHED' : 'AWAITING_MANUAL_REVIEW';
		return this.emit(
			session,
			'IDENTIFICATION_AUTO_FINISHED',
			final,
			opts.overall ?? (final ? 'APPROVED' : 'SUSPECTED'),
			false,
		);
	}

	/** The reviewer's decision: always final. */
	async manualFinish(scanRef: string, opts: { overall?: string } = {}): Promise<Delivery> {
		const session = this.take(scanRef, ['AWAITING_MANUAL_REVIEW'], 'finish the manual review');
		session.state = 'FINISHED';
		return this.emit(
			session,
			'IDENTIFICATION_MANUAL_FINISHED',
			true,
			opts.overall ?? 'APPROVED',
			true,
		);
	}

	/** POST /kyc/identifications/{scanRef}/request-information/: the token is reactivated; no webhook fires. */
	requestInformation(scanRef: string): KycSession {
		const session = this.sessions.get(scanRef);
		if (!session) throw notFound(`No identification ${scanRef}.`);
		if (session.state === 'REUPLOAD_REQUESTED')
			throw conflict('Information has already been requested for this identification.');
		if (session.state !== 'FINISHED') {
			throw conflict(
				`Information can only be requested for a finished identification; this one is ${session.state}.`,
			);
		}
		session.state = 'REUPLOAD_REQUESTED';
		return session;
	}

	/**
	 * The user completes the re-upload. Without review: RESUBMITTED final true. With review:
	 * RESUBMITTED final false, then (unless `reviewNow` is false) the reviewer's MANUAL_FINISHED.
	 */
	async userResubmits(
		scanRef: string,
		opts: { needsReview: boolean; overall?: string; reviewNow?: boolean },
	): Promise<Delivery[]> {
		const session = this.take(scanRef, ['REUPLOAD_REQUESTED'], 'resubmit');
		if (!opts.needsReview) {
			session.state = 'FINISHED';
			return [
				await this.emit(
					session,
					'IDENTIFICATION_RESUBMITTED',
					true,
					opts.overall ?? 'APPROVED',
					false,
				),
			];
		}
		session.state = 'AWAITING_MANUAL_REVIEW';
		const deliveries = [
			await this.emit(session, 'IDENTIFICATION_RESUBMITTED', false, 'SUSPECTED', false),
		];
		if (opts.reviewNow !== false)
			deliveries.push(await this.manualFinish(scanRef, { overall: opts.overall }));
		return deliveries;
	}

	/** The flow (or a requested re-upload) was not completed in time: EXPIRED, no resubmission event. */
	async expire(scanRef: string): Promise<Delivery> {
		const session = this.take(scanRef, ['IN_PROGRESS', 'REUPLOAD_REQUESTED'], 'expire');
		session.state = 'EXPIRED';
		return this.emit(session, 'IDENTIFICATION_EXPIRED', true, 'EXPIRED', false);
	}

	/** The user abandons the flow or an API call cancels it. */
	async cancel(scanRef: string): Promise<Delivery> {
		const session = this.take(scanRef, ['IN_PROGRESS'], 'cancel');
		session.state = 'CANCELLED';
		return this.emit(session, 'IDENTIFICATION_CANCELLED', true, 'CANCELLED', false);
	}
}
