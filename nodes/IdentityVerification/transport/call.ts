/**
 * What every attempt of one request shares (where it goes, with which credential, how often and how
 * long it may try), the wait between two attempts, which stopping the execution ends, and how much
 * of its execution's time for the service's request limit is left.
 */
import type { INode, NodeApiError } from 'n8n-workflow';

import { cancelSignalOf, isStopped, waitUnlessStopped } from './cancel';
import { requestUrl } from './credential';
import type { ResolvedCredential } from './credential';
import { cancelledError } from './errors';
import { makeRedactor } from './redact';
import type { Redactor } from './redact';
import { DEFAULT_READ_IDLE_MS, DEFAULT_READ_TOTAL_MS, DEFAULT_TIMEOUT_MS } from './body';
import type { ReadLimits } from './body';
import { normaliseMaxRetries, RATE_LIMIT_BUDGET_MS } from './retry';
import type { ApiRequest, AuthMode, RequestContext } from './types';

export interface Call {
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
export const RETRY = Symbol('retry');

/** How long each execution (its context) has waited for the service's request limit so far. */
const rateLimitWaits = new WeakMap<object, number>();

/** The call of `req`; throws when its link is not under the credential's Base URL. */
export function startCall(
	this: RequestContext,
	auth: AuthMode,
	req: ApiRequest,
	credential: ResolvedCredential,
): Call {
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

export function wasStopped(call: Call): boolean {
	return isStopped(call.signal);
}

/** The error for an execution stopped while its request was under way or waiting. */
export function stoppedError(call: Call): NodeApiError {
	return cancelledError(call.node, call.redact, call.req.itemIndex);
}

/**
 * Waits before a retry: false (no retry) when the execution was already stopped, the cancelled
 * error when it is stopped during the wait.
 */
export async function waitToRetry(call: Call, ms: number): Promise<boolean> {
	if (wasStopped(call)) return false;
	await waitUnlessStopped(ms, call.signal);
	if (wasStopped(call)) throw stoppedError(call);
	return true;
}

/**
 * Takes a wait for the service's request limit from the execution's budget: false, and nothing
 * taken, when the execution would wait more than RATE_LIMIT_BUDGET_MS for it in all.
 */
export function spendRateLimitWait(call: Call, ms: number): boolean {
	const spent = rateLimitWaits.get(call.context) ?? 0;
	if (spent + ms > RATE_LIMIT_BUDGET_MS) return false;
	rateLimitWaits.set(call.context, spent + ms);
	return true;
}
