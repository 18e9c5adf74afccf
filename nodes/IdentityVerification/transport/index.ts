/**
 * The one place requests to the service are sent (as nodes-base Airtable's transport/index.ts).
 * A request is attempted until it succeeds, fails for good, or the execution is stopped: 429 is
 * retried for every method, 5xx, network failures and bodies that stop coming only for requests
 * safe to repeat (retry.ts), within the run's time budget. n8n's httpRequestWithAuthentication
 * sends each attempt and adds the credential; redirects are not followed, so the credential goes
 * nowhere but the Base URL. Every answer is read under the bounds of limits.ts, by the reader the
 * request names; errors (errors.ts) never carry a secret. Files: download.ts.
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
import { givenFormToken, requestUrl, resolveCredential } from './credential';
import type { ResolvedCredential } from './credential';
import {
	cancelledError,
	classifyNetworkError,
	httpError,
	makeRedactor,
	networkError,
	readErrorBody,
	redirectError,
	stalledReadError,
	stalledReadOf,
	unexpectedError,
	unreadableAnswerError,
	withRetriesStopped,
} from './errors';
import type { NetworkProblem, Redactor } from './errors';
import { JSON_READERS } from './jsonStream';
import {
	discardStream,
	headersTimeoutOf,
	isRunOver,
	normaliseHeaders,
	readLimitsOf,
	readWholeBody,
	runBudgetOf,
	watchedBody,
} from './limits';
import type { ReadLimits, RunBudget, Stalled } from './limits';
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
	SentAs,
	StreamedBody,
} from './types';

export { assertUnderBaseUrl, getBaseUrl, joinUrl, secretsOf, webAddressOf } from './credential';
export {
	classifyNetworkError,
	cut,
	makeRedactor,
	networkWords,
	QUOTE_LIMIT,
	runOverWords,
} from './errors';
export type { Redactor } from './errors';
export { releasedOnceRead } from './jsonStream';
export {
	DEFAULT_MAX_FILE_MB,
	HEADERS_TIMEOUT_MS,
	isRunOver,
	MAX_JSON_BYTES,
	MAX_PAGES,
	requestOptionsProperty,
	runBudgetOf,
} from './limits';
export type { RunBudget } from './limits';
export { backoffDelay, parseRetryAfter } from './retry';
export type { ApiRequest, Auth, AuthMode, StreamedBody } from './types';

/** Where the attempts go and as whom: the service with a credential, or a file link with none. */
interface Target {
	auth: SentAs;
	/** How messages name the credential. */
	label: string;
	/** `https://host[:port]`: what network errors name. */
	origin: string;
	send(context: RequestContext, options: IHttpRequestOptions): Promise<IN8nHttpFullResponse>;
}

/** What the attempts of one request share. */
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
	runBudget: RunBudget;
	/** A retry was not made because the budget was spent: the failure says so. */
	budgetSpent?: boolean;
	redact: Redactor;
}

/** An attempt that failed and is to be made again: the wait before it is already over. */
const RETRY = Symbol('retry');
type Retry = typeof RETRY;

/** How often a wait checks whether the execution was stopped: n8n's sleep cannot be aborted. */
const WAIT_STEP_MS = 100;

/** How long each execution (its context) has waited for the service's request limit so far. */
const rateLimitWaits = new WeakMap<object, number>();

/** Sends one request to the service (with retries): status, lower-case headers and body. */
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

/** A link the service gave (a file at its storage), with the same attempts and bounds but no credential. */
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
	const getSignal = (context as IExecuteFunctions).getExecutionCancelSignal;
	return {
		context,
		req,
		url,
		target,
		node: context.getNode(),
		// None where the context has none (loading options).
		signal: typeof getSignal === 'function' ? getSignal.call(context) : undefined,
		maxRetries: normaliseMaxRetries(req.maxRetries),
		timeoutMs: headersTimeoutOf(read, req.timeoutMs),
		read,
		runBudget: runBudgetOf(context, req.itemIndex),
		redact,
	};
}

/** One attempt through n8n: its answer, or RETRY after none. A streamed body is opened anew: a sent stream is spent. */
async function sendOnce(
	state: RequestState,
	attempt: number,
): Promise<IN8nHttpFullResponse | Retry> {
	const { body } = state.req;
	const stream = isStreamed(body) ? await body.open() : undefined;
	try {
		return await state.target.send(state.context, requestOptions(state, stream));
	} catch (error) {
		return await handleNoResponse(state, attempt, error);
	} finally {
		// A body the server did not read to the end (an early answer) is not read any further.
		discardStream(stream);
	}
}

function isStreamed(body: ApiRequest['body']): body is StreamedBody {
	return typeof (body as StreamedBody | undefined)?.open === 'function';
}

/** n8n's options for one attempt: a fresh copy each time, as n8n may change what it is given. */
function requestOptions(state: RequestState, stream: unknown): IHttpRequestOptions {
	const { req } = state;
	const file = req.response === 'binary';
	const headers: IDataObject = {
		Accept: file ? 'application/pdf, application/octet-stream, */*' : 'application/json',
	};
	const options: IHttpRequestOptions = {
		method: req.method,
		url: state.url,
		headers,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: state.timeoutMs,
		// Every answer comes as a stream, read under its bounds: n8n's timeout ends with the headers.
		encoding: 'stream',
		json: false,
		// n8n would re-send the credential (and a POST's body) to wherever a redirect points.
		disableFollowRedirect: true,
	};
	// Stopping the execution aborts the request under way (older n8n versions do not pass it on).
	if (state.signal) options.abortSignal = state.signal;
	if (req.qs && Object.keys(req.qs).length) options.qs = { ...req.qs };
	if (req.body !== undefined) headers['Content-Type'] = 'application/json';
	if (stream) {
		// A known length instead of chunked encoding, which some proxies refuse.
		headers['Content-Length'] = String((req.body as StreamedBody).length);
		options.body = stream as IHttpRequestOptions['body'];
	} else if (req.body !== undefined) {
		options.body = Buffer.isBuffer(req.body) ? req.body : { ...(req.body as IDataObject) };
	}
	return options;
}

/** An answer: the result when 2xx, RETRY after waiting out a retryable status, else the error. */
async function handleResponse<T>(
	state: RequestState,
	response: IN8nHttpFullResponse,
	attempt: number,
): Promise<ApiResponse<T> | Retry> {
	const { statusCode: status } = response;
	const headers = normaliseHeaders(response.headers);
	if (status >= 200 && status < 300)
		return await handleSuccess<T>(state, response, headers, attempt);
	if (status >= 300 && status < 400) throw refuseRedirect(state, response, headers.location);
	const body = await readErrorBody(response.body, state.read, stalledError(state, attempt));
	if (await waitToRetryStatus(state, status, attempt, headers['retry-after'])) return RETRY;
	throw failedForGood(
		state,
		httpError(state.node, state.redact, {
			status,
			body,
			method: state.req.method,
			repeatable: isRepeatable(state.req),
			attempts: attempt,
			auth: state.target.auth,
			credentialName: state.target.label,
			notFound: state.req.notFound,
			statusWords: state.req.statusWords,
			itemIndex: state.req.itemIndex,
		}),
	);
}

/**
 * A 2xx answer's body as the caller asked for it: whole, by its reader as it arrives, or left out.
 * A body that breaks off or times out while it is read is retried like an attempt without an answer.
 */
async function handleSuccess<T>(
	state: RequestState,
	response: IN8nHttpFullResponse,
	headers: Record<string, string>,
	attempt: number,
): Promise<ApiResponse<T> | Retry> {
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
		// The answer failed (it broke off, stalled, grew too large), or the reader refused it.
		const errored = (body as { errored?: unknown } | undefined)?.errored;
		if ((errored !== undefined && errored !== null) || stalledReadOf(error) !== undefined) {
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

/** No answer: RETRY when the network failed and repeating is safe, else the error. */
async function handleNoResponse(
	state: RequestState,
	attempt: number,
	error: unknown,
): Promise<Retry> {
	if (isStopped(state)) throw stoppedError(state);
	// A file link's failure without a known code (another protocol) is retried and worded as the others.
	const network =
		classifyNetworkError(error) ?? (isLink(state) ? { problem: 'other' as const } : undefined);
	if (!network) throw unexpectedError(state.node, state.redact, error, state.req.itemIndex);
	if (await retriedAfterBackoff(state, attempt)) return RETRY;
	throw networkFailure(state, attempt, network);
}

/**
 * A body that broke off, timed out or grew too large while it was read: RETRY when repeating is
 * safe (never for one too large: it would be again), else the error.
 */
async function handleBrokenRead(
	state: RequestState,
	attempt: number,
	error: unknown,
): Promise<Retry> {
	const stalled = stalledReadOf(error) !== undefined;
	if (!stalled && (error instanceof NodeApiError || error instanceof NodeOperationError))
		throw error;
	if (isStopped(state)) throw stoppedError(state);
	if (await retriedAfterBackoff(state, attempt)) return RETRY;
	if (stalled) throw failedForGood(state, error as NodeApiError);
	const network = classifyNetworkError(error) ?? { problem: 'reset' as const };
	throw networkFailure(state, attempt, { ...network, duringRead: true });
}

function networkFailure(
	state: RequestState,
	attempt: number,
	network: { problem: NetworkProblem; code?: string; duringRead?: boolean },
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

/** A redirect is not followed; its body is closed so the connection is let go. */
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

/** The error a body read in this attempt ends with when it passes a bound. */
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

/** Whether a failed attempt is tried again after its backoff: safe to repeat, retries and budget left. */
async function retriedAfterBackoff(state: RequestState, attempt: number): Promise<boolean> {
	if (!isRepeatable(state.req) || attempt > state.maxRetries) return false;
	const wait = backoffDelay(attempt);
	return withinRunBudget(state, wait) && (await waitToRetry(state, wait));
}

/** Whether a failed status is retried (after the wait). A 429 is waited out only within the execution's budget for it. */
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
	const spent = rateLimitWaits.get(state.context) ?? 0;
	if (spent + wait > RATE_LIMIT_BUDGET_MS) return false;
	rateLimitWaits.set(state.context, spent + wait);
	if (!isStopped(state)) state.req.onRateLimited?.();
	return await waitToRetry(state, wait);
}

/** Whether a retry after `waitMs` starts within the run's budget; when not, the failure says so. */
function withinRunBudget(state: RequestState, waitMs: number): boolean {
	if (!isRunOver(state.runBudget, waitMs)) return true;
	state.budgetSpent = true;
	return false;
}

/** Waits before a retry: false when already stopped, the cancelled error when stopped during the wait. */
async function waitToRetry(state: RequestState, ms: number): Promise<boolean> {
	if (isStopped(state)) return false;
	const end = Date.now() + ms;
	for (let left = ms; left > 0 && !isStopped(state); left = end - Date.now()) {
		await sleep(Math.min(left, WAIT_STEP_MS));
	}
	if (isStopped(state)) throw stoppedError(state);
	return true;
}

function isStopped(state: RequestState): boolean {
	return state.signal?.aborted === true;
}

function stoppedError(state: RequestState): NodeApiError {
	return cancelledError(state.node, state.redact, state.req.itemIndex);
}
