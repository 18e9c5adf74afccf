/**
 * The one place every request to the service is built and sent: base URL joining that keeps the
 * contract's trailing slashes, authentication through n8n's `httpRequestWithAuthentication`, a
 * timeout, retries (429 for every method; 5xx and network failures for GET/DELETE only) with
 * exponential backoff, full jitter and `Retry-After`, and errors a user can act on that never
 * carry a secret. Nothing is sent outside the credential's Base URL (redirects are not followed),
 * and stopping the execution stops its requests and their waits.
 */
import { NodeOperationError, sleep } from 'n8n-workflow';
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { isPlainHttpToAnotherMachine, PLAIN_HTTP_MESSAGE } from '../../shared/urlGuards';
import {
	cancelledError,
	classifyNetworkError,
	CREDENTIAL_DISPLAY_NAME,
	httpError,
	makeRedactor,
	networkError,
	parseJsonBody,
	redirectError,
	shownUrl,
	unexpectedError,
} from './errors';
import type { Redactor } from './errors';
import {
	isIdempotent,
	isRetryableStatus,
	normaliseMaxRetries,
	retryDelay,
	backoffDelay,
} from './retry';
import type { ApiRequest, ApiResponse, AuthMode } from './types';

export type { ApiRequest, ApiResponse, AuthMode } from './types';
export { backoffDelay, parseRetryAfter } from './retry';

const CREDENTIAL_BY_AUTH: Record<AuthMode, string> = {
	apiKey: 'identityVerificationApi',
	kybFormToken: 'identityVerificationKybFormTokenApi',
};

const DEFAULT_BASE_URL = 'https://ivs.example.com';
const DEFAULT_TIMEOUT_MS = 30_000;

/** Contexts that can send requests with a credential (node execution and option loading). */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

/** Joins the base URL and a contract path: one slash between them, the path's trailing slash kept. */
export function joinUrl(baseUrl: string, path: string): string {
	const base = baseUrl.trim().replace(/\/+$/, '');
	const tail = path.startsWith('/') ? path : `/${path}`;
	return `${base}${tail}`;
}

/**
 * Whether `url` is on the service: the Base URL's origin and, behind a gateway such as
 * `https://gw.example.com/ivs`, under its path too (`/ivs/...`, not `/other/...`).
 */
function isUnderBaseUrl(baseUrl: string, url: string): boolean {
	try {
		const base = new URL(baseUrl);
		const target = new URL(url);
		if (base.origin !== target.origin) return false;
		// '' without a gateway path: every path starts with '/'.
		const prefix = base.pathname.replace(/\/+$/, '');
		return target.pathname === prefix || target.pathname.startsWith(`${prefix}/`);
	} catch {
		return false;
	}
}

/** Refuses a URL (e.g. a pagination link) that would send the credential outside the Base URL. */
export function assertUnderBaseUrl(
	this: RequestContext,
	baseUrl: string,
	url: string,
	itemIndex?: number,
): void {
	if (isUnderBaseUrl(baseUrl, url)) return;
	throw new NodeOperationError(
		this.getNode(),
		`Refused to follow a link to ${shownUrl(url)}: it is not under the service's address (${shownUrl(baseUrl)})`,
		{
			itemIndex,
			description:
				'The service answered with a link outside the Base URL of the credential (another host, or another path on the same host). The credential is only ever sent under the Base URL, so the request was not made.',
		},
	);
}

interface ResolvedCredential {
	baseUrl: string;
	/** `https://host[:port]` of the Base URL: where path-only links go. */
	origin: string;
	redact: Redactor;
	/** Handed to httpRequestWithAuthentication so n8n does not read and decrypt it a second time. */
	decrypted: ICredentialsDecrypted;
}

/**
 * Credentials read during one execution of the node, per credential and item. Reading a credential
 * costs n8n a database read, a decryption and an expression evaluation; without this every request
 * read it twice (here for the Base URL, then again inside httpRequestWithAuthentication), and every
 * page of a paginated list again. Keyed by item so credentials given as expressions still resolve per
 * item, as n8n's getCredentials(type, itemIndex) does. The WeakMap lets the execution context go.
 */
const credentialCache = new WeakMap<object, Map<string, Promise<ResolvedCredential>>>();

async function resolveCredential(
	this: RequestContext,
	auth: AuthMode,
	itemIndex?: number,
): Promise<ResolvedCredential> {
	const perContext = credentialCache.get(this) ?? new Map<string, Promise<ResolvedCredential>>();
	credentialCache.set(this, perContext);
	const key = `${auth}:${itemIndex ?? 0}`;
	let resolved = perContext.get(key);
	if (!resolved) {
		resolved = readCredential.call(this, auth, itemIndex);
		perContext.set(key, resolved);
		// A failed read (e.g. a bad Base URL) is not kept: the next item reads it again.
		resolved.catch(() => perContext.delete(key));
	}
	return await resolved;
}

async function readCredential(
	this: RequestContext,
	auth: AuthMode,
	itemIndex?: number,
): Promise<ResolvedCredential> {
	const credentialName = CREDENTIAL_BY_AUTH[auth];
	const credentials = await this.getCredentials(credentialName, itemIndex ?? 0);
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	const baseUrl = (raw === '' ? DEFAULT_BASE_URL : raw).replace(/\/+$/, '');
	const secrets: string[] = [];
	if (auth === 'apiKey') {
		const key = String(credentials.apiKey ?? '');
		const secret = String(credentials.apiSecret ?? '');
		secrets.push(key, secret, Buffer.from(`${key}:${secret}`).toString('base64'));
	} else {
		secrets.push(String(credentials.formToken ?? ''));
	}
	const redact = makeRedactor(secrets);
	const parsed = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
	if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
		throw new NodeOperationError(
			this.getNode(),
			`The Base URL in the credential "${CREDENTIAL_DISPLAY_NAME[auth]}" is not a web address: "${redact(baseUrl)}"`,
			{
				itemIndex,
				description:
					'Enter the address of the service starting with https://, e.g. https://ivs.example.com',
			},
		);
	}
	if (isPlainHttpToAnotherMachine(parsed)) {
		throw new NodeOperationError(
			this.getNode(),
			`The Base URL in the credential "${CREDENTIAL_DISPLAY_NAME[auth]}" starts with http://, so the request was not sent`,
			{ itemIndex, description: PLAIN_HTTP_MESSAGE },
		);
	}
	return {
		baseUrl,
		origin: parsed.origin,
		redact,
		decrypted: { id: '', name: '', type: credentialName, data: credentials },
	};
}

/**
 * Reads at most 64 KB of an error answer's stream (for the error message) and drops the rest; what
 * was read before the stream broke off.
 */
async function readCapped(body: unknown): Promise<Buffer> {
	const stream = body as AsyncIterable<Buffer> & { destroy?: () => void };
	if (!stream || typeof stream[Symbol.asyncIterator] !== 'function') return Buffer.alloc(0);
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of stream) {
			chunks.push(chunk);
			size += chunk.length;
			if (size >= 65536) break;
		}
	} catch {
		// broken off (dropped, or the execution stopped): the status still says what happened
	}
	stream.destroy?.();
	return Buffer.concat(chunks);
}

/** Closes a streamed body nobody will read (e.g. of a redirect), so its connection is let go. */
function discardStream(body: unknown): void {
	(body as { destroy?: () => void } | undefined)?.destroy?.();
}

/** The credential's base URL without trailing slashes. */
export async function getBaseUrl(this: RequestContext, auth: AuthMode): Promise<string> {
	return (await resolveCredential.call(this, auth)).baseUrl;
}

function normaliseHeaders(headers: unknown): Record<string, string> {
	const result: Record<string, string> = {};
	if (typeof headers !== 'object' || headers === null) return result;
	for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
		if (value === undefined || value === null || typeof value === 'function') continue;
		result[name.toLowerCase()] = Array.isArray(value)
			? value.map(String).join(', ')
			: String(value);
	}
	return result;
}

/** The bytes of a binary answer, without copying them (a Buffer is a Uint8Array too). */
function toBuffer(body: unknown): Buffer {
	if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (typeof body === 'string') return Buffer.from(body);
	return Buffer.alloc(0);
}

/** A 2xx answer's body as the caller asked for it. */
function successBody(kind: NonNullable<ApiRequest['response']>, body: unknown): unknown {
	switch (kind) {
		case 'stream':
			return body;
		case 'binary':
			return toBuffer(body);
		case 'none':
			return undefined;
		default:
			return parseJsonBody(body);
	}
}

/** The execution's cancel signal; none where the context has none (loading options). */
function cancelSignalOf(context: RequestContext): AbortSignal | undefined {
	const getSignal = (context as IExecuteFunctions).getExecutionCancelSignal;
	return typeof getSignal === 'function' ? getSignal.call(context) : undefined;
}

/** How often a wait checks whether the execution was stopped: n8n's sleep cannot be aborted. */
const WAIT_STEP_MS = 100;

/** Waits `ms`, or less when the execution is stopped meanwhile. */
async function waitUnlessStopped(ms: number, signal: AbortSignal | undefined): Promise<void> {
	const end = Date.now() + ms;
	for (let left = ms; left > 0 && signal?.aborted !== true; left = end - Date.now()) {
		await sleep(Math.min(left, WAIT_STEP_MS));
	}
}

/** n8n's request options for one attempt: a fresh copy each time, as n8n may change them. */
function requestOptions(
	req: ApiRequest,
	url: string,
	timeoutMs: number,
	signal: AbortSignal | undefined,
): IHttpRequestOptions {
	const responseKind = req.response ?? 'json';
	const headers: IDataObject = {
		Accept:
			responseKind === 'binary' || responseKind === 'stream'
				? 'application/pdf, application/octet-stream, */*'
				: 'application/json',
	};
	const options: IHttpRequestOptions = {
		method: req.method,
		url,
		headers,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		json: responseKind === 'json',
		// n8n re-sends the credential (and a POST's body) to wherever a redirect points
		disableFollowRedirect: true,
	};
	// Stopping the execution aborts the request under way (older n8n versions do not pass it on).
	if (signal) options.abortSignal = signal;
	if (req.qs && Object.keys(req.qs).length) options.qs = { ...req.qs };
	if (req.body !== undefined) {
		headers['Content-Type'] = 'application/json';
		options.body = Buffer.isBuffer(req.body) ? req.body : { ...req.body };
	}
	if (responseKind === 'binary') options.encoding = 'arraybuffer';
	if (responseKind === 'stream') options.encoding = 'stream';
	return options;
}

/**
 * Sends one request to the service (with retries) and returns status, lower-case headers and body.
 * Throws NodeApiError (HTTP and network failures, a stopped execution) or NodeOperationError (bad
 * Base URL, refused link).
 */
export async function apiRequest<T = unknown>(
	this: RequestContext,
	auth: AuthMode,
	req: ApiRequest,
): Promise<ApiResponse<T>> {
	const { method, itemIndex } = req;
	const { baseUrl, origin, redact, decrypted } = await resolveCredential.call(
		this,
		auth,
		itemIndex,
	);
	let url: string;
	if (req.url !== undefined) {
		url = req.url.startsWith('/') ? `${origin}${req.url}` : req.url;
		assertUnderBaseUrl.call(this, baseUrl, url, itemIndex);
	} else {
		url = joinUrl(baseUrl, req.path ?? '/');
	}
	const responseKind = req.response ?? 'json';
	const maxRetries = normaliseMaxRetries(req.maxRetries);
	const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const credentialName = CREDENTIAL_BY_AUTH[auth];
	const node = this.getNode();
	const signal = cancelSignalOf(this);
	const stopped = () => signal?.aborted === true;
	/** Waits before a retry; false (and no retry) when the execution was stopped. */
	const waitToRetry = async (ms: number) => {
		if (stopped()) return false;
		await waitUnlessStopped(ms, signal);
		if (stopped()) throw cancelledError(node, redact, itemIndex);
		return true;
	};

	for (let attempt = 1; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				credentialName,
				requestOptions(req, url, timeoutMs, signal),
				{ credentialsDecrypted: decrypted },
			)) as IN8nHttpFullResponse;
		} catch (error) {
			if (stopped()) throw cancelledError(node, redact, itemIndex);
			const network = classifyNetworkError(error);
			if (!network) throw unexpectedError(node, redact, error, itemIndex);
			if (
				isIdempotent(method) &&
				attempt <= maxRetries &&
				(await waitToRetry(backoffDelay(attempt)))
			) {
				continue;
			}
			throw networkError(node, redact, {
				...network,
				origin,
				method,
				attempts: attempt,
				timeoutMs,
				itemIndex,
			});
		}

		const status = response.statusCode;
		const responseHeaders = normaliseHeaders(response.headers);
		if (status >= 200 && status < 300) {
			const body = successBody(responseKind, response.body) as T;
			return { statusCode: status, headers: responseHeaders, body };
		}
		if (status >= 300 && status < 400) {
			discardStream(response.body);
			throw redirectError(node, redact, {
				status,
				target: responseHeaders.location && shownUrl(responseHeaders.location, url),
				auth,
				itemIndex,
			});
		}
		if (responseKind === 'stream') response.body = await readCapped(response.body);
		if (isRetryableStatus(status, method) && attempt <= maxRetries) {
			if (status === 429 && !stopped()) req.onRateLimited?.();
			if (await waitToRetry(retryDelay(attempt, responseHeaders['retry-after']))) continue;
		}
		throw httpError(node, redact, {
			status,
			body: response.body,
			method,
			attempts: attempt,
			auth,
			itemIndex,
		});
	}
}
