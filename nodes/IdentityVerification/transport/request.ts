/**
 * One request to the service, attempted until it succeeds, fails for good, or the execution is
 * stopped: 429 is retried for every method, 5xx, network failures and bodies that stop coming for
 * requests that are safe to repeat (GET, DELETE, and the POSTs that only read), while the node
 * run's time budget lasts (limits.ts: it ends the retries of every request of the run). n8n's
 * httpRequestWithAuthentication sends each attempt and adds the credential; redirects are not
 * followed. Every answer is read under the bounds of limits.ts, by the transport or, for a
 * streamed answer, by the request's own reader.
 */
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
} from 'n8n-workflow';

import { shownUrl } from '../../shared/urlGuards';
import { discardStream, normaliseHeaders, readErrorBody, readWholeBody, watchedBody } from './body';
import type { Stalled } from './body';
import { givenFormToken, requestUrl, resolveCredential } from './credential';
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
	unreadableAnswerError,
	withRetriesStopped,
} from './errors';
import { headersTimeoutOf, isRunOver, readLimitsOf, runBudgetOf } from './limits';
import type { ReadLimits, RunBudget } from './limits';
import { JSON_READERS } from './readers';
import { makeRedactor } from './redact';
import type { Redactor } from './redact';
import {
	backoffDelay,
	isRepeatable,
	isRetryableStatus,
	normaliseMaxRetries,
	RATE_LIMIT_BUDGET_MS,
	rateLimitRetryDelay,
	retryDelay,
} from './retry';
import type {
	AnswerStream,
	ApiRequest,
	ApiResponse,
	Auth,
	RequestContext,
	ResponseKind,
	SentAs,
	StreamedBody,
} from './types';

/**
 * Where the attempts of a request go and as whom: the service with a credential (n8n adds it), or
 * a link the service gave (a file at its storage), with no credential at all.
 */
interface Target {
	/** Which credential the status hints speak of, a given form token, or `link`. */
	auth: SentAs;
	/** How messages name the credential. */
	label: string;
	/** `https://host[:port]`: where path-only links go, and what network errors name. */
	origin: string;
	send(context: RequestContext, options: IHttpRequestOptions): Promise<IN8nHttpFullResponse>;
}

/** What the attempts of one request share: where it goes, as whom, for how long. */
interface RequestState {
	context: RequestContext;
	req: ApiRequest;
	url: string;
	target: Target;
	node: INode;
	signal: AbortSignal | undefined;
	maxRetries: number;
	/** How long an attempt's headers may take. */
	timeoutMs: number;
	read: ReadLimits;
	/** The node run's time budget: no retry starts once it is spent. */
	runBudget: RunBudget;
	/** A retry was not made because the budget was spent: the failure says so. */
	budgetSpent?: boolean;
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
	auth: Auth,
	req: ApiRequest,
): Promise<ApiResponse<T>> {
	const credential =
		typeof auth === 'string'
			? await resolveCredential.call(this, auth, req.itemIndex)
			: await givenFormToken.call(this, auth.formToken, req.itemIndex);
	const url = requestUrl.call(this, req, credential);
	const redact = req.secrets?.length
		? makeRedactor([...credential.secrets, ...req.secrets])
		: credential.redact;
	const sentAs = typeof auth === 'string' ? auth : 'formToken';
	return await attempts<T>(stateOf(this, req, url, withCredential(sentAs, credential), redact));
}

/**
 * Fetches a link the service gave (a file at its storage) with the same attempts and bounds, but
 * no credential: n8n's plain request helper sends it. The caller checks the link first.
 */
export async function linkRequest<T = unknown>(
	this: RequestContext,
	url: string,
	req: Omit<ApiRequest, 'method' | 'path' | 'url'>,
): Promise<ApiResponse<T>> {
	const target: Target = {
		auth: 'link',
		label: 'the file link',
		origin: new URL(url).origin,
		send: async (context, options) =>
			(await context.helpers.httpRequest(options)) as IN8nHttpFullResponse,
	};
	const redact = makeRedactor(req.secrets ?? []);
	return await attempts<T>(stateOf(this, { ...req, method: 'GET' }, url, target, redact));
}

/** Sends as the credential says; n8n does not read and decrypt it a second time. */
function withCredential(auth: Exclude<SentAs, 'link'>, credential: ResolvedCredential): Target {
	return {
		auth,
		label: credential.label,
		origin: credential.origin,
		send: async (context, options) =>
			(await context.helpers.httpRequestWithAuthentication.call(
				context,
				credential.decrypted.type,
				options,
				{ credentialsDecrypted: credential.decrypted },
			)) as IN8nHttpFullResponse,
	};
}

/** The attempts, until one gives the answer, one fails for good, or the execution is stopped. */
async function attempts<T>(state: RequestState): Promise<ApiResponse<T>> {
	for (let attempt = 1; ; attempt++) {
		const response = await sendOnce(state, attempt);
		const result = response === RETRY ? RETRY : await handleResponse<T>(state, response, attempt);
		if (result !== RETRY) return result;
	}
}

function stateOf(
	context: RequestContext,
	req: ApiRequest,
	url: string,
	target: Target,
	redact: Redactor,
): RequestState {
	const read = readLimitsOf(context, req, req.response ?? 'json');
	return {
		context,
		req,
		url,
		target,
		node: context.getNode(),
		signal: cancelSignalOf(context),
		maxRetries: normaliseMaxRetries(req.maxRetries),
		timeoutMs: headersTimeoutOf(read, req.timeoutMs),
		read,
		runBudget: runBudgetOf(context, req.itemIndex),
		redact,
	};
}

// One attempt.

/** A request whose streamed body has been opened for this attempt. */
type AttemptRequest = Omit<ApiRequest, 'body'> & {
	body?: IDataObject | Buffer;
	stream?: { body: Awaited<ReturnType<StreamedBody['open']>>; length: number };
};

/** One attempt through n8n: its answer, or RETRY after no answer. */
async function sendOnce(
	state: RequestState,
	attempt: number,
): Promise<IN8nHttpFullResponse | typeof RETRY> {
	const req = await openStreamedBody(state.req);
	try {
		const options = requestOptions(req, state.url, state.timeoutMs, state.signal);
		return await state.target.send(state.context, options);
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
	return kind === 'binary' ? 'application/pdf, application/octet-stream, */*' : 'application/json';
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
	const body = await readErrorBody(response.body, state.read, stalledError(state, attempt));
	if (await waitToRetryStatus(state, status, attempt, headers['retry-after'])) return RETRY;
	const { method, itemIndex } = state.req;
	const failure = {
		status,
		body,
		method,
		repeatable: isRepeatable(state.req),
		attempts: attempt,
		auth: state.target.auth,
		credentialName: state.target.label,
		notFound: state.req.notFound,
		itemIndex,
	};
	throw failedForGood(state, httpError(state.node, state.redact, failure));
}

/**
 * A 2xx answer with its body as the caller asked for it: read whole (JSON, binary), read by its
 * reader as it arrives (a list's page, an upload's answer, a file being stored), or left out (none). A body that breaks off or times out
 * while it is read is retried like an attempt without an answer.
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
	if (Number(headers['content-length']) > state.read.maxBytes) {
		discardStream(response.body);
		throw stalled('size', state.read.maxBytes);
	}
	const read = state.req.read ?? (state.req.reader && JSON_READERS[state.req.reader]);
	if (!read) {
		try {
			return result(await readWholeBody(response.body, kind, state.read, stalled));
		} catch (error) {
			return await handleBrokenRead(state, attempt, error);
		}
	}
	const body = watchedBody(response.body, state.read, stalled) as AnswerStream;
	try {
		return result(await read(body));
	} catch (error) {
		// The answer failed its reader (it broke off, stalled, grew too large), or the reader failed.
		if (streamFailed(body) || stalledReadOf(error) !== undefined) {
			return await handleBrokenRead(state, attempt, error);
		}
		throw readerFailed(state, error);
	} finally {
		body.destroy?.();
	}
}

/** The reader's own verdict on the answer (it is no PDF, say) as it is; anything else worded. */
function readerFailed(state: RequestState, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return unreadableAnswerError(state.node, state.redact, error, state.req.itemIndex);
}

/** Whether a stream ended with an error (n8n's answer broke off, or a bound ended it). */
function streamFailed(body: unknown): boolean {
	const errored = (body as { errored?: unknown } | undefined)?.errored;
	return errored !== undefined && errored !== null;
}

/** No answer: RETRY when the network failed and repeating is safe, else the error to throw. */
async function handleNoResponse(
	state: RequestState,
	attempt: number,
	error: unknown,
): Promise<typeof RETRY> {
	const { node, req } = state;
	if (wasStopped(state)) throw stoppedError(state);
	// A file link's failure without a known code (an answer in another protocol) is one more
	// failure without an answer, retried and worded as the others (errors.ts, LINK_NO_ANSWER).
	const network =
		classifyNetworkError(error) ?? (isLink(state) ? { problem: 'other' as const } : undefined);
	if (!network) throw unexpectedError(node, state.redact, error, req.itemIndex);
	if (await retriedAfterBackoff(state, attempt)) return RETRY;
	throw networkFailure(state, attempt, network);
}

/**
 * A body that broke off, timed out or grew too large while it was read: RETRY when repeating is
 * safe (never for one too large: it would be again), else the error. What the reader decided
 * about the answer itself (it is no PDF, say) is its error, as it is.
 */
async function handleBrokenRead(
	state: RequestState,
	attempt: number,
	error: unknown,
): Promise<typeof RETRY> {
	const stalled = stalledReadOf(error) !== undefined;
	if (!stalled && (error instanceof NodeApiError || error instanceof NodeOperationError))
		throw error;
	if (wasStopped(state)) throw stoppedError(state);
	if (await retriedAfterBackoff(state, attempt)) return RETRY;
	if (stalled) throw failedForGood(state, error as NodeApiError);
	const network = classifyNetworkError(error) ?? { problem: 'reset' as const };
	throw networkFailure(state, attempt, { ...network, duringRead: true });
}

/** The error for a request that got no whole answer, after its attempts. */
function networkFailure(
	state: RequestState,
	attempt: number,
	network: ReturnType<typeof classifyNetworkError> & object & { duringRead?: boolean },
): NodeApiError {
	const error = networkError(state.node, state.redact, {
		...network,
		origin: state.target.origin,
		method: state.req.method,
		repeatable: isRepeatable(state.req),
		answerName: state.req.answerName,
		attempts: attempt,
		timeoutMs: state.timeoutMs,
		itemIndex: state.req.itemIndex,
		link: isLink(state),
	});
	return failedForGood(state, error);
}

/** The failure of the last attempt; when the run's budget stopped the retries, it says so. */
function failedForGood(state: RequestState, error: NodeApiError): NodeApiError {
	return state.budgetSpent ? withRetriesStopped(error, state.runBudget) : error;
}

function isLink(state: RequestState): boolean {
	return state.target.auth === 'link';
}

/**
 * Whether a failed attempt is tried again: safe to repeat, retries left, the run's budget not
 * spent by the wait, and the wait not stopped.
 */
async function retriedAfterBackoff(state: RequestState, attempt: number): Promise<boolean> {
	if (!isRepeatable(state.req) || attempt > state.maxRetries) return false;
	const wait = backoffDelay(attempt);
	return withinRunBudget(state, wait) && (await waitToRetry(state, wait));
}

/** Whether a retry after `waitMs` starts within the run's budget; when not, the failure says so. */
function withinRunBudget(state: RequestState, waitMs: number): boolean {
	if (!isRunOver(state.runBudget, waitMs)) return true;
	state.budgetSpent = true;
	return false;
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
		// The service wrote it: shown only when it cannot quote a secret.
		target: location && state.redact.quote(shownUrl(location, state.url)),
		auth: state.target.auth,
		credentialName: state.target.label,
		itemIndex: state.req.itemIndex,
	});
}

/** The error a body read in this attempt ends with when it times out. */
function stalledError(state: RequestState, attempt: number): Stalled {
	return (stall, limit) =>
		stalledReadError(state.node, state.redact, {
			stall,
			limit,
			file: state.req.response === 'binary',
			answerName: state.req.answerName,
			method: state.req.method,
			repeatable: isRepeatable(state.req),
			target: shownUrl(state.url),
			attempts: attempt,
			itemIndex: state.req.itemIndex,
			tooLarge: state.req.tooLarge,
		});
}

// Waiting before a retry, and stopping.

/**
 * Whether a failed status is retried (after the wait), within the run's budget. A 429 is waited
 * out only within the execution's budget for it, and tells the caller first.
 */
async function waitToRetryStatus(
	state: RequestState,
	status: number,
	attempt: number,
	retryAfter: string | undefined,
): Promise<boolean> {
	if (!isRetryableStatus(status, state.req) || attempt > state.maxRetries) return false;
	const wait =
		status === 429 ? rateLimitRetryDelay(attempt, retryAfter) : retryDelay(attempt, retryAfter);
	if (!withinRunBudget(state, wait)) return false;
	if (status !== 429) return await waitToRetry(state, wait);
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
