/**
 * Stopping an execution stops its requests: the cancel signal n8n gives the execution, and a wait
 * before a retry that ends early when that signal fires.
 */
import { sleep } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { RequestContext } from './types';

/** How often a wait checks whether the execution was stopped: n8n's sleep cannot be aborted. */
const WAIT_STEP_MS = 100;

/** The execution's cancel signal; none where the context has none (loading options). */
export function cancelSignalOf(context: RequestContext): AbortSignal | undefined {
	const getSignal = (context as IExecuteFunctions).getExecutionCancelSignal;
	return typeof getSignal === 'function' ? getSignal.call(context) : undefined;
}

export function isStopped(signal: AbortSignal | undefined): boolean {
	return signal?.aborted === true;
}

/** Waits `ms`, or less when the execution is stopped meanwhile. */
export async function waitUnlessStopped(
	ms: number,
	signal: AbortSignal | undefined,
): Promise<void> {
	const end = Date.now() + ms;
	for (let left = ms; left > 0 && !isStopped(signal); left = end - Date.now()) {
		await sleep(Math.min(left, WAIT_STEP_MS));
	}
}
