/**
 * One request to the service, attempted until it succeeds, fails for good, or the execution is
 * stopped: 429 is retried for every method, 5xx, network failures and bodies that stop coming for
 * GET and DELETE only. n8n's httpRequestWithAuthentication sends each attempt and adds the
 * credential; redirects are not followed.
 */
import { sleep } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	NodeApiError,
} from 'n8n-workflow';

import { shownUrl } from '../../shared/urlGuards';
import {
	DEFAULT_READ_IDLE_MS,
	DEFAULT_READ_TOTAL_MS,
	DEFAULT_TIMEOUT_MS,
	discardStream,
	normaliseHeaders,
	readErrorBody,
	readWholeBody,
	watchedBody,
} from './body';
import type { ReadLimits, Stalled } from './body';
import { CREDENTIAL_BY_AUTH, requestUrl, resolveCredential } from './credential';
import type { ResolvedCredential } from './credential';
import {
	cancelledError,
	classifyNetworkError,
	httpError,
	networkError,
	redirectError,
	stalledReadError,
	stalledReadOf,
	unexpectedError,
} from './errors';
import { makeRedactor } from './redact';
import type { Redactor } from './redact';
import {
	backoffDelay,
	isIdempotent,
	isRetryableStatus,
	normaliseMaxRetries,
	RATE_LIMIT_BUDGET_MS,
	rateLimitRetryDelay,
	retryDelay,
} from './retry';
import type {
	ApiRequest,
	ApiResponse,
	AuthMode,
	RequestContext,
	ResponseKind,
	StreamedBody,
} from './index';

/** What the attempts of one request share: where it goes, with which credential, for how long. */
interface RequestState {
	context: RequestContext;
	auth: AuthMode;
	req: ApiRequest;
	url: string;
	credential: ResolvedCredential;
	node: INode;
	signal: AbortSignal | undefined;
	maxRetries: number;
	timeoutMs: number;
	read: ReadLimits;
	/** The credential's secrets and the request's own out of every error. */
	redact: Redactor;
}

/** An attempt that failed and is to be made again: the wait before it is already over. */
const RETRY = Symbol('retry');

/** How often a wait checks whether the execution was stopped: n8n's sleep cannot be aborted. */
const WAIT_STEP_MS = 100;

/** How long each execution (its context) has waited for the service's request limit so far. */
const rateLimitWaits = new WeakMap<object, number>();

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
	const credential = await resolveCredential.call(this, auth, req.itemIndex);
	const state = prepareRequest.call(this, auth, req, credential);
	for (let attempt = 1; ; attempt++) {
		const response = await sendOnce(state, attempt);
		const result = response === RETRY ? RETRY : await handleResponse<T>(state, response, attempt);
		if (result !== RETRY) return result;
	}
}

/** The state of `req`; throws when its link is not under the credential's Base URL. */
function prepareRequest(
	this: RequestContext,
	auth: AuthMode,
	req: ApiRequest,
	credential: ResolvedCredential,
): RequestState {
	const url = requestUrl.call(this, req, credential);
	return {
		context: this,
		auth,
		req,
		url,
		credential,
		node: this.getNode(),
		signal: cancelSignalOf(this),
		maxRetries: normaliseMaxRetries(req.maxRetries),
		timeoutMs: req.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		read: {
			idleMs: req.readIdleMs ?? DEFAULT_READ_IDLE_MS,
			totalMs: req.readTotalMs ?? DEFAULT_READ_TOTAL_MS,
		},
		redact: req.secrets?.length
			? makeRedactor([...credential.secrets, ...req.secrets])
			: credential.redact,
	};
}

// One attempt.

/** A request whose streamed body has been opened for this attempt. */
type AttemptRequest = Omit<ApiRequest, 'body'> & {
	body?: IDataObject | Buffer;
	stream?: { body: Awaited<ReturnType<StreamedBody['open']>>; length: number };
};

/** One attempt through n8n, which adds the credential: its answer, or RETRY after no answer. */
async function sendOnce(
	state: RequestState,
	attempt: number,
): Promise<IN8nHttpFullResponse | typeof RETRY> {
	const { context } = state;
	const req = await openStreamedBody(state.req);
	try {
		return (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_BY_AUTH[state.auth],
			requestOptions(req, state.url, state.timeoutMs, state.signal),
			{ credentialsDecrypted: state.credential.decrypted },
		)) as IN8nHttpFullResponse;
	} catch (error) {
		return await handleNoResponse(state, attempt, error);
	} finally {
		// A body the server did not read to the end (an early answer) is not read any further.
		discardStream(req.stream?.body);
	}
}

/** The request with its streamed body (if any) opened for this attempt: a sent stream is spent. */
async function openStreamedBody(req: ApiRequest): Promise<AttemptRequest> {
	const { body } = req;
	if (!isStreamed(body)) return { ...req, body };
	return { ...req, body: undefined, stream: { body: await body.open(), length: body.length } };
}

function isStreamed(body: ApiRequest['body']): body is StreamedBody {
	return typeof (body as StreamedBody | undefined)?.open === 'function';
}

/** What the answer is asked to be: a file for binary and streamed answers, else JSON. */
function acceptFor(kind: ResponseKind): string {
	return kind === 'binary' || kind === 'stream'
		? 'application/pdf, application/octet-stream, */*'
		: 'application/json';
}

/** n8n's options for one attempt: a fresh copy each time, as n8n may change what it is given. */
function requestOptions(
	req: AttemptRequest,
	url: string,
	timeoutMs: number,
	signal: AbortSignal | undefined,
): IHttpRequestOptions {
	const responseKind = req.response ?? 'json';
	const headers: IDataObject = { Accept: acceptFor(responseKind) };
	const options: IHttpRequestOptions = {
		method: req.method,
		url,
		headers,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		// Every answer comes as a stream: the transport reads it under its read deadline (n8n's
		// timeout ends with the headers, and n8n puts its own cancel signal in place of any other).
		encoding: 'stream',
		json: false,
		// n8n re-sends the credential (and a POST's body) to wherever a redirect points
		disableFollowRedirect: true,
	};
	// Stopping the execution aborts the request under way (older n8n versions do not pass it on).
	if (signal) options.abortSignal = signal;
	if (req.qs && Object.keys(req.qs).length) options.qs = { ...req.qs };
	if (req.body !== undefined || req.stream) headers['Content-Type'] = 'application/json';
	if (req.body !== undefined) options.body = Buffer.isBuffer(req.body) ? req.body : { ...req.body };
	if (req.stream) {
		// A known length instead of chunked encoding, which some proxies refuse.
		headers['Content-Length'] = String(req.stream.length);
		options.body = req.stream.body as unknown as IHttpRequestOptions['body'];
	}
	return options;
}

// What an attempt's answer, or its lack of one, means.

/** An answer: the result when 2xx, RETRY after waiting out a retryable status, else the error. */
async function handleResponse<T>(
	state: RequestState,
	response: IN8nHttpFullResponse,
	attempt: number,
): Promise<ApiResponse<T> | typeof RETRY> {
	const { statusCode: status } = response;
	const headers = normaliseHeaders(response.headers);
	if (status >= 200 && status < 300)
		return await handleSuccess<T>(state, response, headers, attempt);
	if (status >= 300 && status < 400) throw refuseRedirect(state, response, headers.location);
	const kind = state.req.response ?? 'json';
	const body = await readErrorBody(response.body, kind, state.read, stalledError(state, attempt));
	if (await waitToRetryStatus(state, status, attempt, headers['retry-after'])) return RETRY;
	const { method, itemIndex } = state.req;
	const failure = {
		status,
		body,
		method,
		attempts: attempt,
		auth: state.auth,
		credentialName: state.credential.label,
		notFound: state.req.notFound,
		itemIndex,
	};
	throw httpError(state.node, state.redact, failure);
}

/**
 * A 2xx answer with its body as the caller asked for it: read whole (JSON, binary), handed over to
 * be read as it arrives (stream), or left out (none). A body that breaks off or times out while it
 * is read here is retried like an attempt without an answer.
 */
async function handleSuccess<T>(
	state: RequestState,
	response: IN8nHttpFullResponse,
	headers: Record<string, string>,
	attempt: number,
): Promise<ApiResponse<T> | typeof RETRY> {
	const kind = state.req.response ?? 'json';
	const result = (body: unknown) => ({ statusCode: response.statusCode, headers, body: body as T });
	if (kind === 'none') {
		discardStream(response.body);
		return result(undefined);
	}
	const stalled = stalledError(state, attempt);
	if (kind === 'stream') return result(watchedBody(response.body, state.read, stalled));
	try {
		return result(await readWholeBody(response.body, kind, state.read, stalled));
	} catch (error) {
		return await handleBrokenRead(state, attempt, error);
	}
}

/** No answer: RETRY when the network failed and repeating is safe, else the error to throw. */
async function handleNoResponse(
	state: RequestState,
	attempt: number,
	error: unknown,
): Promise<typeof RETRY> {
	const { node, req, credential } = state;
	if (wasStopped(state)) throw stoppedError(state);
	const network = classifyNetworkError(error);
	if (!network) throw unexpectedError(node, state.redact, error, req.itemIndex);
	if (await retriedAfterBackoff(state, attempt)) return RETRY;
	throw networkError(node, state.redact, {
		...network,
		origin: credential.origin,
		method: req.method,
		attempts: attempt,
		timeoutMs: state.timeoutMs,
		itemIndex: req.itemIndex,
	});
}

/** A body that timed out or broke off while read: RETRY when repeating is safe, else the error. */
async function handleBrokenRead(
	state: RequestState,
	attempt: number,
	error: unknown,
): Promise<typeof RETRY> {
	if (stalledReadOf(error) === undefined) return await handleNoResponse(state, attempt, error);
	if (wasStopped(state)) throw stoppedError(state);
	if (await retriedAfterBackoff(state, attempt)) return RETRY;
	throw error;
}

/** Whether a failed attempt is tried again: safe to repeat, retries left, and the wait not stopped. */
async function retriedAfterBackoff(state: RequestState, attempt: number): Promise<boolean> {
	return (
		isIdempotent(state.req.method) &&
		attempt <= state.maxRetries &&
		(await waitToRetry(state, backoffDelay(attempt)))
	);
}

/** A redirect is not followed; its streamed body is closed so the connection is let go. */
function refuseRedirect(
	state: RequestState,
	response: IN8nHttpFullResponse,
	location: string | undefined,
): NodeApiError {
	discardStream(response.body);
	return redirectError(state.node, state.redact, {
		status: response.statusCode,
		target: location && shownUrl(location, state.url),
		auth: state.auth,
		credentialName: state.credential.label,
		itemIndex: state.req.itemIndex,
	});
}

/** The error a body read in this attempt ends with when it times out. */
function stalledError(state: RequestState, attempt: number): Stalled {
	return (stall, ms) =>
		stalledReadError(state.node, state.redact, {
			stall,
			ms,
			method: state.req.method,
			target: shownUrl(state.url),
			attempts: attempt,
			itemIndex: state.req.itemIndex,
		});
}

// Waiting before a retry, and stopping.

/**
 * Whether a failed status is retried (after the wait). A 429 is waited out only within the
 * execution's budget for it, and tells the caller first.
 */
async function waitToRetryStatus(
	state: RequestState,
	status: number,
	attempt: number,
	retryAfter: string | undefined,
): Promise<boolean> {
	if (!isRetryableStatus(status, state.req.method) || attempt > state.maxRetries) return false;
	if (status !== 429) return await waitToRetry(state, retryDelay(attempt, retryAfter));
	const wait = rateLimitRetryDelay(attempt, retryAfter);
	if (!spendRateLimitWait(state, wait)) return false;
	if (!wasStopped(state)) state.req.onRateLimited?.();
	return await waitToRetry(state, wait);
}

/**
 * Takes a wait for the service's request limit from the execution's budget: false, and nothing
 * taken, when the execution would wait more than RATE_LIMIT_BUDGET_MS for it in all.
 */
function spendRateLimitWait(state: RequestState, ms: number): boolean {
	const spent = rateLimitWaits.get(state.context) ?? 0;
	if (spent + ms > RATE_LIMIT_BUDGET_MS) return false;
	rateLimitWaits.set(state.context, spent + ms);
	return true;
}

/**
 * Waits before a retry: false (no retry) when the execution was already stopped, the cancelled
 * error when it is stopped during the wait.
 */
async function waitToRetry(state: RequestState, ms: number): Promise<boolean> {
	if (wasStopped(state)) return false;
	await waitUnlessStopped(ms, state.signal);
	if (wasStopped(state)) throw stoppedError(state);
	return true;
}

/** Waits `ms`, or less when the execution is stopped meanwhile. */
async function waitUnlessStopped(ms: number, signal: AbortSignal | undefined): Promise<void> {
	const end = Date.now() + ms;
	for (let left = ms; left > 0 && !isStopped(signal); left = end - Date.now()) {
		await sleep(Math.min(left, WAIT_STEP_MS));
	}
}

/** The execution's cancel signal; none where the context has none (loading options). */
function cancelSignalOf(context: RequestContext): AbortSignal | undefined {
	const getSignal = (context as IExecuteFunctions).getExecutionCancelSignal;
	return typeof getSignal === 'function' ? getSignal.call(context) : undefined;
}

function isStopped(signal: AbortSignal | undefined): boolean {
	return signal?.aborted === true;
}

function wasStopped(state: RequestState): boolean {
	return isStopped(state.signal);
}

/** The error for an execution stopped while its request was under way or waiting. */
function stoppedError(state: RequestState): NodeApiError {
	return cancelledError(state.node, state.redact, state.req.itemIndex);
}
