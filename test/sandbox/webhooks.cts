/**
 * The webhook sender: signs each body (HMAC-SHA256 over the exact bytes sent), POSTs it to the
 * configured URL, retries on non-2xx, network errors and timeouts, and keeps a delivery log like the
 * dashboard's "Recently sent" with a Resend action.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import {
	DEFAULT_HEADER_PREFIX,
	cleanHeaderPrefix,
	webhookHeaders,
	type EventType,
} from '../../nodes/shared/contract';
import { computeSignature } from '../../nodes/shared/webhook/signature';
import { SANDBOX_EVENT_TYPES, sampleBody } from './bodies.cjs';
import { conflict, notFound } from './http.cjs';
import type { Delivery, SignatureEncoding, WebhookConfig } from './types.cjs';

/** The contract does not show the retry schedule: the sandbox waits 1 s, 5 s, then 30 s (4 attempts in all). */
const DEFAULT_RETRY_DELAYS_MS = [1000, 5000, 30000];
/** The contract's delivery timeout. */
const DEFAULT_TIMEOUT_MS = 10000;
/** The service sends the event-type header with every kind, the legacy IDENTIFICATION included. */
const DEFAULT_OMIT_EVENT_TYPE_HEADER_FOR: string[] = [];
const USER_AGENT = 'IdentityVerificationSandbox-Webhooks/1.0';

/** Signs as the service does (HMAC-SHA256 of the raw body, lowercase hex by default). */
export function sign(
	payload: Buffer | string,
	key: string,
	encoding: SignatureEncoding = 'hexLower',
): string {
	const mac = computeSignature(Buffer.from(payload), key);
	switch (encoding) {
		case 'hexUpper':
			return mac.toString('hex').toUpperCase();
		case 'base64':
			return mac.toString('base64');
		case 'prefixedHex':
			return `sha256=${mac.toString('hex')}`;
		default:
			return mac.toString('hex');
	}
}

/** A webhook request as the service sends it, for load tests that post deliveries themselves. */
export interface WebhookRequest {
	body: string;
	headers: Record<string, string>;
}

/**
 * A fresh identification result (its own scanRef) signed with `key`, as the service would post it
 * with the headers of `headerPrefix`.
 */
export function signedDelivery(key: string, headerPrefix = DEFAULT_HEADER_PREFIX): WebhookRequest {
	const body = JSON.stringify(sampleBody('IDENTIFICATION_AUTO_FINISHED'));
	const names = webhookHeaders(headerPrefix);
	return {
		body,
		headers: {
			'content-type': 'application/json',
			[names.eventType]: 'IDENTIFICATION_AUTO_FINISHED',
			[names.signature]: sign(body, key),
		},
	};
}

/** A usable header prefix, or an error naming what is allowed. */
function headerPrefixOf(value: unknown): string {
	const prefix = cleanHeaderPrefix(value);
	if (prefix === undefined)
		throw new Error('headerPrefix must be a word of letters, digits, - or _ (e.g. Idenfy)');
	return prefix;
}

function assertLoopback(url: string): void {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw new Error(`webhook url is not a URL: ${url}`);
	}
	if (!/^https?:$/.test(parsed.protocol)) throw new Error('webhook url must be http(s)');
	const host = parsed.hostname.replace(/^\[|\]$/g, '');
	if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
		throw new Error(
			`the sandbox only delivers webhooks to loopback addresses, not ${parsed.hostname}`,
		);
	}
}

interface ResolvedConfig {
	url: string;
	urlsByKind: Record<string, string[]>;
	signingKey: string;
	retryDelaysMs: number[];
	timeoutMs: number;
	signatureEncoding: SignatureEncoding;
	omitEventTypeHeaderFor: string[];
	headerPrefix: string;
	sendLegacyIdentification: boolean;
}

/** Each kind's receivers as a list (one address or several). */
function receiversByKind(urls: Record<string, string | string[]>): Record<string, string[]> {
	return Object.fromEntries(
		Object.entries(urls).map(([kind, url]) => [kind, Array.isArray(url) ? url : [url]]),
	);
}

export class WebhookSender {
	readonly log: Delivery[] = [];
	private config?: ResolvedConfig;
	private agent = new Agent({ keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });
	private closed = false;
	/** Bumped by reset(): deliveries started before it stop retrying. */
	private generation = 0;
	private waits = new Set<() => void>();

	private readonly defaultHeaderPrefix: string;

	constructor(
		private readonly defaultSigningKey: string,
		private readonly sample: (eventType: EventType) => unknown,
		headerPrefix: string = DEFAULT_HEADER_PREFIX,
	) {
		this.defaultHeaderPrefix = headerPrefixOf(headerPrefix);
	}

	configure(opts: WebhookConfig): void {
		assertLoopback(opts.url);
		const urlsByKind = receiversByKind(opts.urlsByKind ?? {});
		for (const url of Object.values(urlsByKind).flat()) assertLoopback(url);
		const delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
		if (!Array.isArray(delays) || delays.some((d) => !(Number(d) >= 0)))
			throw new Error('retryDelaysMs must be numbers >= 0');
		this.config = {
			url: opts.url,
			urlsByKind,
			signingKey: opts.signingKey ?? this.config?.signingKey ?? this.defaultSigningKey,
			retryDelaysMs: delays.map(Number),
			timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
			signatureEncoding: opts.signatureEncoding ?? 'hexLower',
			omitEventTypeHeaderFor: opts.omitEventTypeHeaderFor ?? DEFAULT_OMIT_EVENT_TYPE_HEADER_FOR,
			headerPrefix: headerPrefixOf(
				opts.headerPrefix ?? this.config?.headerPrefix ?? this.defaultHeaderPrefix,
			),
			sendLegacyIdentification: opts.sendLegacyIdentification === true,
		};
	}

	/** The header prefix deliveries use now. */
	get headerPrefix(): string {
		return this.rules().headerPrefix;
	}

	/** Whether KYC results also go out as the legacy IDENTIFICATION event. */
	get sendsLegacyIdentification(): boolean {
		return this.rules().sendLegacyIdentification;
	}

	/** Where a kind is sent now (its first own address, else the configured one); undefined when none is. */
	urlOf(kind: string): string | undefined {
		return this.receiversOf(kind)[0];
	}

	/** Every address a kind is sent to now: its own ones, else the configured one. */
	private receiversOf(kind: string): string[] {
		if (!this.config) return [];
		return this.config.urlsByKind[kind] ?? [this.config.url];
	}

	/** The configuration in use (the signing key is not returned). */
	describe(): Omit<ResolvedConfig, 'signingKey'> | null {
		if (!this.config) return null;
		const { signingKey, ...rest } = this.config;
		return rest;
	}

	private requireConfig(): ResolvedConfig {
		if (!this.config)
			throw conflict('Webhooks are not configured: call webhooks.configure({ url }) first.');
		return this.config;
	}

	/** Whether a dashboard webhook URL is configured. */
	get configured(): boolean {
		return this.config !== undefined;
	}

	/**
	 * Signing key, retries and timeout for a delivery: the configured ones, or the defaults for a
	 * token's own callback URL when no dashboard URL is configured.
	 */
	private rules(): ResolvedConfig {
		return (
			this.config ?? {
				url: '',
				urlsByKind: {},
				signingKey: this.defaultSigningKey,
				retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
				timeoutMs: DEFAULT_TIMEOUT_MS,
				signatureEncoding: 'hexLower',
				omitEventTypeHeaderFor: DEFAULT_OMIT_EVENT_TYPE_HEADER_FOR,
				headerPrefix: this.defaultHeaderPrefix,
				sendLegacyIdentification: false,
			}
		);
	}

	/**
	 * `body`: an object (serialised with JSON.stringify), or a string/Buffer sent byte for byte.
	 * `to`: a token's own callback URL instead of the dashboard URL (signed and retried the same way).
	 * Without it, one delivery to each receiver of the kind; the first is returned, all are logged.
	 */
	async send(eventType: EventType, body?: unknown, to?: string): Promise<Delivery> {
		if (!SANDBOX_EVENT_TYPES.includes(eventType))
			throw new Error(
				`unknown event type ${String(eventType)}; one of ${SANDBOX_EVENT_TYPES.join(', ')}`,
			);
		const value = body === undefined || body === null ? this.sample(eventType) : body;
		const payload = Buffer.isBuffer(value)
			? value.toString('utf8')
			: typeof value === 'string'
				? value
				: JSON.stringify(value);
		if (to !== undefined) {
			assertLoopback(to);
			return this.deliver(this.newDelivery(eventType, payload, to, { to }));
		}
		this.requireConfig();
		const deliveries = this.receiversOf(eventType).map((url) =>
			this.deliver(this.newDelivery(eventType, payload, url, {})),
		);
		return (await Promise.all(deliveries))[0];
	}

	async resend(deliveryId: string): Promise<Delivery> {
		const original = this.log.find((d) => d.id === deliveryId);
		if (!original) throw notFound(`No delivery ${deliveryId}.`);
		// To the same receiver if the kind still goes there, else where the kind goes now.
		const receivers = this.receiversOf(original.eventType);
		const url =
			original.target ??
			(receivers.includes(original.url) ? original.url : (receivers[0] ?? original.url));
		return this.deliver(
			this.newDelivery(original.eventType, original.payload, url, {
				to: original.target,
				resendOf: original.id,
			}),
		);
	}

	/** `to`: a token's own callback URL (kept as the delivery's target). */
	private newDelivery(
		eventType: EventType,
		payload: string,
		url: string,
		{ to: target, resendOf }: { to?: string; resendOf?: string },
	): Delivery {
		const config = target === undefined ? this.requireConfig() : this.rules();
		const prefix = config.headerPrefix;
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			'User-Agent': USER_AGENT,
			[`${prefix}-Signature`]: sign(
				Buffer.from(payload, 'utf8'),
				config.signingKey,
				config.signatureEncoding,
			),
		};
		if (!config.omitEventTypeHeaderFor.includes(eventType))
			headers[`${prefix}-Event-Type`] = eventType;
		const delivery: Delivery = {
			id: randomUUID(),
			eventType,
			url,
			...(target !== undefined ? { target } : {}),
			payload,
			headers,
			attempts: [],
			status: 'pending',
			createdAt: Date.now(),
			...(resendOf ? { resendOf } : {}),
		};
		this.log.push(delivery);
		return delivery;
	}

	private async deliver(delivery: Delivery): Promise<Delivery> {
		const config = this.rules();
		const bytes = Buffer.from(delivery.payload, 'utf8');
		const generation = this.generation;
		for (let attempt = 0; ; attempt++) {
			if (this.closed || generation !== this.generation) break;
			const at = Date.now();
			let statusCode = 0;
			let error: string | undefined;
			try {
				const res = await request(delivery.url, {
					method: 'POST',
					headers: delivery.headers,
					body: bytes,
					dispatcher: this.agent,
					signal: AbortSignal.timeout(config.timeoutMs),
				});
				statusCode = res.statusCode;
				await res.body.dump().catch(() => undefined);
			} catch (e) {
				const err = e as Error & { code?: string };
				error =
					err.name === 'TimeoutError' || err.name === 'AbortError'
						? `no answer within ${config.timeoutMs} ms`
						: (err.code ?? err.message);
			}
			delivery.attempts.push({
				at,
				statusCode,
				durationMs: Date.now() - at,
				...(error ? { error } : {}),
			});
			if (statusCode >= 200 && statusCode < 300) {
				delivery.status = 'delivered';
				return delivery;
			}
			if (attempt >= config.retryDelaysMs.length || this.closed || generation !== this.generation)
				break;
			await this.wait(config.retryDelaysMs[attempt]);
		}
		delivery.status = 'failed';
		return delivery;
	}

	private wait(ms: number): Promise<void> {
		if (this.closed) return Promise.resolve();
		return new Promise((resolve) => {
			const done = () => {
				clearTimeout(timer);
				this.waits.delete(done);
				resolve();
			};
			const timer = setTimeout(done, ms);
			timer.unref();
			this.waits.add(done);
		});
	}

	clearLog(): void {
		this.log.length = 0;
	}

	/** Empties the log; pending retries give up. The configuration is kept. */
	reset(): void {
		this.generation += 1;
		for (const done of [...this.waits]) done();
		this.clearLog();
	}

	async close(): Promise<void> {
		this.closed = true;
		for (const done of [...this.waits]) done();
		await this.agent.destroy().catch(() => undefined);
	}
}
