/**
 * The KYC session state machine of the contract's "Identification (KYC) events" table. Each step
 * that the table says emits an event sends it through the webhook sender and resolves with the
 * delivery; a step the table does not allow from the session's state throws a 409 HttpError.
 * Where the contract is silent the service's documented behaviour applies: failed attempts send
 * nothing until the session expires, and then it is reported DENIED (EXPIRED means the verification
 * never took place); there is no CANCELLED overall status.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EventType } from '../../nodes/shared/contract';
import { identificationBody } from './bodies.cjs';
import { conflict, errorBody, HttpError, notFound } from './http.cjs';
import type { BlocklistEntry, Delivery, KycSession, KycState, ReportEncoding } from './types.cjs';

/**
 * The delivery of a step asked for by a test or the admin API, which expect one: without a webhook
 * address the step is recorded but nothing is sent, which they are told as before.
 */
export function sent(delivery: Delivery | undefined): Delivery {
	if (!delivery)
		throw conflict('Webhooks are not configured: call webhooks.configure({ url }) first.');
	return delivery;
}

/** A verification token: 40 characters, letters and digits, as the service's. */
function newAuthToken(): string {
	return randomBytes(30).toString('base64url').replace(/[-_]/g, '').slice(0, 40).padEnd(40, '0');
}

/** Sends a signed webhook: to the dashboard URL, or to `to` (a token's own callback URL). */
type Send = (eventType: EventType, body: unknown, to?: string) => Promise<Delivery>;

/** The fraud tag a blocklist sets on a later result (the blocklist setup guide). */
const BLOCKLIST_TAGS: Record<string, string> = {
	SELFIE: 'Face_Blacklisted',
	DOCUMENT: 'Doc_Face_Blacklisted',
	DOCUMENT_INFO: 'Data_Blacklisted',
};

/** The refusal of POST /api/v2/delete, in the body the deletion page publishes (no status given: 400 here). */
function partnerError(message: string): HttpError {
	return new HttpError(
		400,
		errorBody('PARTNER_ERROR', message, { documentation: '', severity: 'NOT_SEVERE' }),
	);
}

/** States in which the person can still use the verification link: its token has not expired. */
const LINK_USABLE: KycState[] = ['IN_PROGRESS', 'REUPLOAD_REQUESTED'];

/** Seconds a link stays usable when the token request sets no Expiry Time (the service's default). */
export const DEFAULT_EXPIRY_TIME = 3600;

/** Longer waits are checked when the session is next read (a timer cannot wait that long). */
const MAX_TIMER_MS = 24 * 60 * 60 * 1000;

/** The token's Expiry Time in milliseconds: its `expiryTime` seconds, else the default. */
function lifetimeMs(seconds: unknown): number {
	return (typeof seconds === 'number' && seconds >= 0 ? seconds : DEFAULT_EXPIRY_TIME) * 1000;
}

export class KycDriver {
	readonly sessions = new Map<string, KycSession>();
	/** How POST /api/v2/generate-pdf answers (the provider documents base64 text). */
	reportEncoding: ReportEncoding = 'base64';
	/** The timers that expire links on time, by scanRef. */
	private readonly expiryTimers = new Map<string, ReturnType<typeof setTimeout>>();

	constructor(
		private readonly send: Send,
		private readonly dashboardConfigured: () => boolean = () => true,
		private readonly sendsLegacyIdentification: () => boolean = () => false,
		/** The configured address results go to, when there is one. */
		private readonly dashboardUrl: () => string | undefined = () => undefined,
	) {}

	reset(): void {
		for (const timer of this.expiryTimers.values()) clearTimeout(timer);
		this.expiryTimers.clear();
		this.sessions.clear();
		this.reportEncoding = 'base64';
	}

	/**
	 * The link expires `ms` from now (the token's Expiry Time, or a re-upload's lifetime): then the
	 * verification is EXPIRED and IDENTIFICATION_EXPIRED is sent, as the service does when nobody
	 * finished it in time. A timer does it on time; a read after the moment does it too.
	 */
	private scheduleExpiry(session: KycSession, ms: number): void {
		session.expiresAt = Date.now() + ms;
		clearTimeout(this.expiryTimers.get(session.scanRef));
		this.expiryTimers.delete(session.scanRef);
		if (ms > MAX_TIMER_MS) return;
		const timer = setTimeout(() => this.expireOnTime(session), ms);
		timer.unref();
		this.expiryTimers.set(session.scanRef, timer);
	}

	/**
	 * The timer's turn: a timer may fire a millisecond before Date.now() reaches the moment, so one
	 * that is early waits out the rest instead of leaving the link open until the next read.
	 */
	private expireOnTime(session: KycSession): void {
		const left = session.expiresAt - Date.now();
		if (LINK_USABLE.includes(session.state) && left > 0) this.scheduleExpiry(session, left);
		else this.expireIfDue(session);
	}

	/** Expires the session when its link's time is over and it is still open. */
	private expireIfDue(session: KycSession): void {
		if (!LINK_USABLE.includes(session.state) || session.expiresAt > Date.now()) return;
		this.expireNow(session).catch(() => undefined);
	}

	createSession(clientId: string, request: Record<string, unknown> = {}): KycSession {
		const session: KycSession = {
			scanRef: randomUUID(),
			clientId,
			authToken: newAuthToken(),
			state: 'IN_PROGRESS',
			createdAt: Date.now(),
			request: { ...request, clientId },
			events: [],
			failedAttempts: 0,
			blocklists: {},
			expiresAt: 0,
		};
		if (typeof request.callbackUrl === 'string') session.callbackUrl = request.callbackUrl;
		this.sessions.set(session.scanRef, session);
		this.scheduleExpiry(session, lifetimeMs(request.expiryTime));
		return session;
	}

	get(scanRef: string): KycSession | undefined {
		const session = this.sessions.get(scanRef);
		if (session) this.expireIfDue(session);
		return session;
	}

	/** The session a verification link's `authToken` opens. */
	byAuthToken(authToken: string): KycSession | undefined {
		const session = [...this.sessions.values()].find((s) => s.authToken === authToken);
		if (session) this.expireIfDue(session);
		return session;
	}

	/** Where a result of the session goes: its Callback URL and the configured address, if any. */
	targetsOf(session: KycSession): string[] {
		const dashboard = this.dashboardUrl();
		return [session.callbackUrl, dashboard].filter((url): url is string => url !== undefined);
	}

	private take(scanRef: string, allowed: KycState[], action: string): KycSession {
		const session = this.get(scanRef);
		if (!session) throw notFound(`No identification ${scanRef}.`);
		if (!allowed.includes(session.state)) {
			throw conflict(
				`Cannot ${action}: the identification is ${session.state} (allowed from ${allowed.join(' or ')}).`,
			);
		}
		return session;
	}

	/** The result's body, kept as the session's last (what status, list and full result answer). */
	private record(
		session: KycSession,
		eventType: EventType,
		result: { final: boolean; overall: string; manual?: boolean; checked?: boolean },
		finishedAt?: number,
	): Record<string, unknown> {
		const body = identificationBody(eventType, {
			scanRef: session.scanRef,
			clientId: session.clientId,
			startedAt: session.createdAt,
			finishedAt,
			...result,
			...this.blocklistCatch(session, result.overall),
		});
		session.lastStatus = body.status as Record<string, unknown>;
		session.lastResult = body;
		return body;
	}

	private async emit(
		session: KycSession,
		eventType: EventType,
		result: { final: boolean; overall: string; manual?: boolean; checked?: boolean },
	) {
		const body = this.record(session, eventType, result);
		const kinds: EventType[] = [eventType];
		// An account subscribed to the legacy event too gets every result twice, the same bytes.
		if (this.sendsLegacyIdentification()) kinds.push('IDENTIFICATION');
		session.events.push(...kinds);
		const deliveries = kinds.flatMap((kind) => this.sendTo(session, kind, body));
		return (await Promise.all(deliveries)).at(0);
	}

	/**
	 * The deliveries of one kind: to the dashboard URL, or for a token with its own callback URL,
	 * there and (when one is configured) to the dashboard URL too, the same bytes, so both carry the
	 * same signature and deliveryId. None when there is neither: the result is only recorded.
	 */
	private sendTo(session: KycSession, kind: EventType, body: unknown): Array<Promise<Delivery>> {
		if (session.callbackUrl === undefined && !this.dashboardConfigured()) return [];
		if (session.callbackUrl === undefined) return [this.send(kind, body)];
		const deliveries = [this.send(kind, body, session.callbackUrl)];
		if (this.dashboardConfigured()) deliveries.push(this.send(kind, body));
		return deliveries;
	}

	/**
	 * An approved result of a client with an earlier verification on a blocklist: SUSPECTED with the
	 * list's fraud tag ("The blocklist check runs automatically once a verification is approved").
	 * The sandbox's photos are the same for everyone, so it matches a face by the client ID.
	 */
	private blocklistCatch(
		session: KycSession,
		overall: string,
	): { overall?: string; fraudTags?: string[] } {
		if (overall !== 'APPROVED') return {};
		const tags = new Set<string>();
		for (const other of this.sessions.values()) {
			if (other === session || other.clientId !== session.clientId) continue;
			for (const source of Object.keys(other.blocklists)) tags.add(BLOCKLIST_TAGS[source]);
		}
		return tags.size ? { overall: 'SUSPECTED', fraudTags: [...tags] } : {};
	}

	/** Whether the service read the session's documents: a result was sent, its data not deleted. */
	hasData(session: KycSession): boolean {
		return session.deletedAt === undefined && typeof session.lastStatus?.autoDocument === 'string';
	}

	/** The verifications of a client (every one without a client ID), newest first. */
	list(clientId: string | null): KycSession[] {
		for (const session of this.sessions.values()) this.expireIfDue(session);
		return [...this.sessions.values()]
			.filter((session) => clientId === null || session.clientId === clientId)
			.reverse();
	}

	private existing(scanRef: string): KycSession {
		const session = this.get(scanRef);
		if (!session) throw notFound(`No identification ${scanRef}.`);
		return session;
	}

	/**
	 * POST /api/v2/delete: the document data, files and photos are gone; refused while the link can
	 * still be used ("Token has not expired yet.", the deletion page) and for data deleted before.
	 */
	deleteData(scanRef: string): KycSession {
		const session = this.existing(scanRef);
		if (session.deletedAt !== undefined)
			throw partnerError('Verification data has already been deleted.');
		if (LINK_USABLE.includes(session.state)) throw partnerError('Token has not expired yet.');
		session.deletedAt = Date.now();
		return session;
	}

	/** POST …/blocklists/{source}/: a finished verification whose data is still there, once per list. */
	addToBlocklist(scanRef: string, source: string, entry: BlocklistEntry): BlocklistEntry {
		const session = this.existing(scanRef);
		if (!this.hasData(session))
			throw conflict('The identification has no photos or document data to add to a blocklist.');
		if (session.blocklists[source])
			throw conflict(`The identification is already on the ${source} blocklist.`);
		session.blocklists[source] = entry;
		return entry;
	}

	/** DELETE …/blocklists/{source}/: 404 when it is not on that list. */
	removeFromBlocklist(scanRef: string, source: string): void {
		const session = this.existing(scanRef);
		if (!session.blocklists[source]) throw notFound();
		delete session.blocklists[source];
	}

	/** Automated review: final true closes the case; final false waits for a manual review. */
	async autoFinish(
		scanRef: string,
		opts: { final: boolean; overall?: string },
	): Promise<Delivery | undefined> {
		const session = this.take(scanRef, ['IN_PROGRESS'], 'finish the automated review');
		const final = Boolean(opts.final);
		session.state = final ? 'FINISHED' : 'AWAITING_MANUAL_REVIEW';
		return this.emit(session, 'IDENTIFICATION_AUTO_FINISHED', {
			final,
			overall: opts.overall ?? (final ? 'APPROVED' : 'SUSPECTED'),
		});
	}

	/**
	 * A verification finished long ago (an account's history: the retention purge's old ones), by
	 * the automated review, five minutes after `startedAt`. Nothing is sent: its webhook was long ago.
	 */
	seedFinished(clientId: string, opts: { startedAt: number; overall?: string }): KycSession {
		const session = this.createSession(clientId);
		session.createdAt = opts.startedAt;
		session.state = 'FINISHED';
		const result = { final: true, overall: opts.overall ?? 'APPROVED' };
		this.record(session, 'IDENTIFICATION_AUTO_FINISHED', result, opts.startedAt + 300_000);
		return session;
	}

	/** The reviewer's decision: always final. */
	async manualFinish(
		scanRef: string,
		opts: { overall?: string } = {},
	): Promise<Delivery | undefined> {
		const session = this.take(scanRef, ['AWAITING_MANUAL_REVIEW'], 'finish the manual review');
		session.state = 'FINISHED';
		return this.emit(session, 'IDENTIFICATION_MANUAL_FINISHED', {
			final: true,
			overall: opts.overall ?? 'APPROVED',
			manual: true,
		});
	}

	/**
	 * POST /kyc/identifications/{scanRef}/request-information/: a new token for the re-upload (the
	 * verification link changes); no webhook fires.
	 */
	requestInformation(scanRef: string, lifetimeSeconds?: number): KycSession {
		const session = this.get(scanRef);
		if (!session) throw notFound(`No identification ${scanRef}.`);
		if (session.state === 'REUPLOAD_REQUESTED')
			throw conflict('Information has already been requested for this identification.');
		if (session.state !== 'FINISHED') {
			throw conflict(
				`Information can only be requested for a finished identification; this one is ${session.state}.`,
			);
		}
		session.state = 'REUPLOAD_REQUESTED';
		session.authToken = newAuthToken();
		session.failedAttempts = 0;
		this.scheduleExpiry(session, lifetimeMs(lifetimeSeconds ?? session.request.expiryTime));
		return session;
	}

	/** The person fails an attempt (a blurry photo, a face mismatch): nothing is sent yet. */
	failAttempt(scanRef: string): KycSession {
		const session = this.take(scanRef, ['IN_PROGRESS', 'REUPLOAD_REQUESTED'], 'fail an attempt');
		session.failedAttempts += 1;
		return session;
	}

	/**
	 * The user completes the re-upload. Without review: RESUBMITTED final true. With review:
	 * RESUBMITTED final false, then (unless `reviewNow` is false) the reviewer's MANUAL_FINISHED.
	 */
	async userResubmits(
		scanRef: string,
		opts: { needsReview: boolean; overall?: string; reviewNow?: boolean },
	): Promise<Array<Delivery | undefined>> {
		const session = this.take(scanRef, ['REUPLOAD_REQUESTED'], 'resubmit');
		if (!opts.needsReview) {
			session.state = 'FINISHED';
			return [
				await this.emit(session, 'IDENTIFICATION_RESUBMITTED', {
					final: true,
					overall: opts.overall ?? 'APPROVED',
				}),
			];
		}
		session.state = 'AWAITING_MANUAL_REVIEW';
		const deliveries = [
			await this.emit(session, 'IDENTIFICATION_RESUBMITTED', {
				final: false,
				overall: 'SUSPECTED',
			}),
		];
		if (opts.reviewNow !== false)
			deliveries.push(await this.manualFinish(scanRef, { overall: opts.overall }));
		return deliveries;
	}

	/**
	 * The flow (or a requested re-upload) was not completed in time, no resubmission event: overall
	 * EXPIRED when nothing was attempted, DENIED after failed attempts.
	 */
	async expire(scanRef: string): Promise<Delivery | undefined> {
		return this.expireNow(this.take(scanRef, ['IN_PROGRESS', 'REUPLOAD_REQUESTED'], 'expire'));
	}

	private async expireNow(session: KycSession): Promise<Delivery | undefined> {
		session.state = 'EXPIRED';
		clearTimeout(this.expiryTimers.get(session.scanRef));
		this.expiryTimers.delete(session.scanRef);
		const attempted = session.failedAttempts > 0;
		return this.emit(session, 'IDENTIFICATION_EXPIRED', {
			final: true,
			overall: attempted ? 'DENIED' : 'EXPIRED',
			checked: attempted,
		});
	}

	/** The user abandons the flow or an API call cancels it: DENIED (the service has no CANCELLED). */
	async cancel(scanRef: string): Promise<Delivery | undefined> {
		const session = this.take(scanRef, ['IN_PROGRESS'], 'cancel');
		session.state = 'CANCELLED';
		return this.emit(session, 'IDENTIFICATION_CANCELLED', {
			final: true,
			overall: 'DENIED',
			checked: session.failedAttempts > 0,
		});
	}
}
