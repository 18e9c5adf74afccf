/**
 * Public types of the sandbox, what tests, the demo and the bench program against. Everything here
 * is re-exported from `index.cts`; import from there.
 */
import type { MailMessage } from './mailbox.cjs';
import type { AmlMonitoringRequest, BankTransaction, EventType } from '../../nodes/shared/contract';
import type { CompanyInput, KybCompanyStore } from './routes/kybCompanies.cjs';

/** A KYB company's state in the sandbox. */
type KybCompany = NonNullable<ReturnType<KybCompanyStore['company']>>;

export interface SandboxCredentials {
	apiKey: string;
	apiSecret: string;
	kybFormToken: string;
	signingKey: string;
}

export interface FaultRule {
	/** HTTP method to match (any when omitted). */
	method?: string;
	/** Path prefix to match, e.g. `/bank/` (any when omitted). */
	path?: string;
	/** Query parameters that must all be present with these values, e.g. `{ page: '7' }`. */
	query?: Record<string, string | number>;
	/** Answer with this status instead of handling the request. */
	status?: number;
	/** `Retry-After` value; none unless given (the service documents none, also not on 429). */
	retryAfter?: number | string | null;
	/** Wait this long before answering (or before handling normally when no status/drop is set). */
	latencyMs?: number;
	/** Destroy the socket without an answer. */
	drop?: boolean;
	/** How many matching requests the rule applies to: default 1; Infinity = always. */
	times?: number;
	/** JSON body of a `status` answer (default: the service's `{identifier, message}`). */
	body?: unknown;
	/** A `status` answer's JSON as text, sent as it is: what JSON.stringify cannot write (nested 5,000 deep). */
	jsonText?: string;
}

export interface RequestLogEntry {
	method: string;
	path: string;
	query: Record<string, string>;
	host: string;
	authScheme: 'basic' | 'bearer' | 'none' | 'other';
	authorized: boolean;
	/** Status answered; 0 when the connection was dropped (or while still in flight). */
	status: number;
	at: number;
}

export type PageLinkMode = 'normal' | 'loop' | 'repeat' | 'cross-host' | 'no-count';

export type SignatureEncoding = 'hexLower' | 'hexUpper' | 'base64' | 'prefixedHex';

export interface WebhookConfig {
	url: string;
	/**
	 * Other addresses for some kinds (kind → URL, or several), as the provider's dashboard has one
	 * notification per receiver and kind, so a kind can go to several; the others go to `url`.
	 */
	urlsByKind?: Record<string, string | string[]>;
	signingKey?: string;
	retryDelaysMs?: number[];
	timeoutMs?: number;
	/** Default `hexLower`, as the service documents. */
	signatureEncoding?: SignatureEncoding;
	/** Kinds sent without the event-type header (default none: the service always sends it). */
	omitEventTypeHeaderFor?: string[];
	/**
	 * First word of the header names, `<prefix>-Event-Type` and `<prefix>-Signature`: `Service` (the
	 * contract's, default) or e.g. `Idenfy` (the real service's). Kept when a later call omits it.
	 */
	headerPrefix?: string;
	/**
	 * Also send each KYC result as the legacy IDENTIFICATION event (same bytes, its own delivery), as
	 * an account subscribed to both does. Default false.
	 */
	sendLegacyIdentification?: boolean;
}

interface DeliveryAttempt {
	at: number;
	/** HTTP status of the receiver's answer; 0 = no response (unreachable, reset, timeout). */
	statusCode: number;
	durationMs: number;
	/** Why there was no response (network error or timeout). */
	error?: string;
}

export interface Delivery {
	id: string;
	eventType: EventType;
	url: string;
	/** The exact JSON text sent (the signature is over its UTF-8 bytes). */
	payload: string;
	/** Headers sent with every attempt (signature included). */
	headers: Record<string, string>;
	attempts: DeliveryAttempt[];
	status: 'delivered' | 'failed' | 'pending';
	createdAt: number;
	/** Set on a delivery created by `resend`: the id of the original delivery. */
	resendOf?: string;
	/** Set on a delivery to a token's own `callbackUrl` (not the dashboard URL): that URL. */
	target?: string;
}

export type KycState =
	| 'IN_PROGRESS'
	| 'AWAITING_MANUAL_REVIEW'
	| 'FINISHED'
	| 'REUPLOAD_REQUESTED'
	| 'EXPIRED'
	| 'CANCELLED';

export interface KycSession {
	scanRef: string;
	clientId: string;
	authToken: string;
	state: KycState;
	createdAt: number;
	/** Everything the token request carried (echoed on the token response). */
	request: Record<string, unknown>;
	/** The token's own callback URL: its results go there too (signed, with the same retries). */
	callbackUrl?: string;
	/** Event types sent for this session, in order. */
	events: EventType[];
	/** Attempts the person failed without a result being sent (expiry then reports DENIED). */
	failedAttempts: number;
	/** The `status` block of the last result sent (what POST /api/v2/status reports). */
	lastStatus?: Record<string, unknown>;
	/** The body of its last result delivery, which POST /api/v2/full answers (with final false). */
	lastResult?: Record<string, unknown>;
	/** When its personal data was deleted (POST /api/v2/delete): document data, files and photos. */
	deletedAt?: number;
	/** The blocklists it was added to, by source (SELFIE, DOCUMENT, DOCUMENT_INFO). */
	blocklists: Partial<Record<string, BlocklistEntry>>;
	/** When its link expires (the token's Expiry Time, or a re-upload's lifetime), in ms since 1970. */
	expiresAt: number;
}

/** A blocklist entry as the service answers it (kyc.yaml `IdentificationBlacklistEntry`). */
export type BlocklistEntry = Record<string, unknown> & { reason: string | null; created: string };

/** How the sandbox answers POST /api/v2/generate-pdf: base64 text (as documented) or the PDF's bytes. */
export type ReportEncoding = 'base64' | 'bytes';

/** REJECTED is the contract's word for the service's DENIED. */
export type KybDecision = 'APPROVED' | 'DENIED' | 'REJECTED' | 'ADDITIONAL_INFO_REQUESTED';

export interface Sandbox {
	/** http://127.0.0.1:PORT (no trailing slash). */
	url: string;
	credentials: SandboxCredentials;
	/** The mailbox: its SMTP port (when started with `smtpPort`) and the messages it kept. */
	mailbox: { port(): number | undefined; messages: readonly MailMessage[] };
	faults: {
		add(rule: FaultRule): void;
		clear(): void;
		setLatency(ms: number): void;
		list(): FaultRule[];
	};
	/**
	 * Pads the files made for this ID to exactly `sizeBytes` (until `reset`): a
	 * verification's report PDF and each of its photos (by scanRef), an AML check's, a monitoring's
	 * or a KYB company's PDF (by its ID). For the bench's memory cases.
	 */
	setFileSize(id: string, sizeBytes: number): void;
	/** Every request received on the service paths (admin `/__sandbox/*` calls are not logged). */
	requests: RequestLogEntry[];
	count(filter?: { method?: string; path?: string }): number;
	resetLog(): void;
	bank: {
		/** `transactions`: how many to generate, or the transactions themselves (checked against the contract). */
		seedAccount(opts: {
			transactions: number | BankTransaction[];
			verificationId?: string;
			accountId?: string;
		}): {
			verificationId: string;
			accountId: string;
		};
		setPageLinks(mode: PageLinkMode, crossHostUrl?: string): void;
	};
	aml: {
		seedProfile(opts?: {
			sizeBytes?: number;
			checkId?: string;
			profileId?: string;
			password?: string;
		}): {
			checkId: string;
			profileId: string;
			password: string;
		};
		/**
		 * A monitoring as POST /aml/monitorings/ makes it (the request checked with the contract;
		 * its first screening run), expiring at `expiration` (default: in a year).
		 */
		seedMonitoring(
			request: AmlMonitoringRequest,
			opts?: { expiration?: string },
		): { monitoringId: string; checkId: string; status: string };
		/** The monitoring as GET /aml/monitorings/{id}/ answers it; undefined once deleted. */
		monitoring(monitoringId: string): Record<string, unknown> | undefined;
		/** Its daily screening (ALERT when a profile is found), sent as AML_MONITORING. */
		screenMonitoring(monitoringId: string): Promise<Delivery>;
		/** AML_MONITORING_EXPIRATION with the counts of monitorings expiring within 30 days. */
		sendExpiration(): Promise<Delivery>;
	};
	kyb: {
		seedForm(opts?: {
			formId?: string;
			companyId?: string;
			questionnaireId?: string;
			clientId?: string;
		}): {
			formId: string;
			companyId: string;
			questionnaireId: string;
		};
		isSubmitted(formId: string): boolean;
		/**
		 * The manual review of a submitted form: COMPANY_REVIEW (approved or denied), or
		 * COMPANY_INFO_REQUEST when more information is requested.
		 */
		review(formId: string, decision?: KybDecision): Promise<Delivery>;
		/** The reviewer asks a company for more: COMPANY_INFO_REQUEST, whose token reopens its form. */
		requestInformation(companyId: string): Promise<Delivery>;
		/**
		 * The company opens a session's link (Create Session), fills its form and submits it:
		 * COMPANY_SUBMIT is sent when a webhook URL is configured.
		 */
		submitSession(
			tokenString: string,
			input?: CompanyInput,
		): Promise<{ companyId: string; delivery?: Delivery }>;
		/** A KYB session of a client, as Create Session makes it: its token (the form link's). */
		createSession(clientId: string): string;
		/** A company still filling its form (no webhook); its ID. */
		addCompany(opts?: CompanyInput & { id?: string; clientId?: string }): string;
		/** A company's state (undefined once deleted). */
		company(id: string): KybCompany | undefined;
		/** The IDs of the registry documents ordered, oldest first. */
		govOrders(): string[];
		/** A registry document ordered (as Order Registry Document does); its ID. */
		orderGovDocument(productKey?: string): string;
		/** The registry delivers an ordered document (GOV_ORDERED_DOCUMENT when configured); its answer. */
		deliverGovOrder(id: string): Record<string, unknown>;
	};
	webhooks: {
		configure(opts: WebhookConfig): void;
		/** Where deliveries of a kind go now (a token's Callback URL aside); undefined when unconfigured. */
		urlOf(kind: string): string | undefined;
		send(eventType: EventType, body?: unknown): Promise<Delivery>;
		resend(deliveryId: string): Promise<Delivery>;
		/** Deliveries in the order they were created (oldest first). */
		log: Delivery[];
		/** The default body the sender would use for an event kind. */
		sampleBody(eventType: EventType): unknown;
		/** The header prefix deliveries use now (`Service` unless set). */
		readonly headerPrefix: string;
	};
	kyc: {
		createSession(
			clientId: string,
			request?: Record<string, unknown>,
		): { scanRef: string; authToken: string };
		autoFinish(scanRef: string, opts: { final: boolean; overall?: string }): Promise<Delivery>;
		/** A verification finished long ago (`startedAt`, ms), approved unless `overall` says; nothing sent. */
		seedFinished(
			clientId: string,
			opts: { startedAt: number; overall?: string },
		): { scanRef: string };
		manualFinish(scanRef: string, opts?: { overall?: string }): Promise<Delivery>;
		requestInformation(scanRef: string): void;
		userResubmits(
			scanRef: string,
			opts: { needsReview: boolean; overall?: string; reviewNow?: boolean },
		): Promise<Delivery[]>;
		/** The person fails an attempt: nothing is sent until the session expires (then DENIED). */
		failAttempt(scanRef: string): void;
		expire(scanRef: string): Promise<Delivery>;
		cancel(scanRef: string): Promise<Delivery>;
		get(scanRef: string): KycSession | undefined;
		/** How POST /api/v2/generate-pdf answers from now on (until `reset`): base64 text by default. */
		setReportEncoding(encoding: ReportEncoding): void;
	};
	/** Back to the seeded state: log, faults, latency, page-link mode, file sizes, deliveries, KYB/KYC state. */
	reset(): void;
	close(): Promise<void>;
}
