/**
 * Binding Wait for Result to the verification created in the same execution. Create Verification
 * Token with "Send the Result to This Workflow" records the scanRef the service answered in the
 * execution's flow context (kept with the execution while it waits, in every n8n mode); Wait for
 * Result takes it when it starts waiting, so a signed result of any other verification that reaches
 * the same resume address cannot resume the execution.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { isLoopbackHost, shownUrl } from '../../../shared/urlGuards';
import { invalidInput } from '../../helpers/validation';

const PENDING_KEY = 'identityVerificationPendingScanRefs';

function pendingList(this: IExecuteFunctions): string[] {
	const flow = this.getContext('flow');
	const stored = flow[PENDING_KEY];
	return Array.isArray(stored) ? stored.filter((entry) => typeof entry === 'string') : [];
}

/** Records a verification whose result is sent to this execution's resume address. */
export function recordPendingVerification(this: IExecuteFunctions, scanRef: string): void {
	this.getContext('flow')[PENDING_KEY] = [...pendingList.call(this), scanRef];
}

/**
 * The verifications recorded so far and not yet taken by a Wait for Result step; taking them
 * empties the list, so a loop of token → wait binds each wait to its own token.
 */
export function takePendingVerifications(this: IExecuteFunctions): string[] {
	const pending = pendingList.call(this);
	this.getContext('flow')[PENDING_KEY] = [];
	return pending;
}

/**
 * Refuses a resume address the service cannot deliver to: it only sends results to public
 * https:// addresses, so a plain http:// or loopback address would leave the execution waiting
 * forever without a word. A service on this machine (the local sandbox) may use any address.
 */
export function assertServiceCanReach(
	this: IExecuteFunctions,
	resumeUrl: string,
	baseUrl: string,
	itemIndex: number,
): void {
	if (URL.canParse(baseUrl) && isLoopbackHost(new URL(baseUrl).hostname)) return;
	const resume = URL.canParse(resumeUrl) ? new URL(resumeUrl) : undefined;
	if (resume && resume.protocol === 'https:' && !isLoopbackHost(resume.hostname)) return;
	throw invalidInput.call(
		this,
		'Send the Result to This Workflow',
		`the service cannot send the result to n8n's resume address ${shownUrl(resumeUrl)}`,
		"The service only delivers results to public https:// addresses. Set n8n's WEBHOOK_URL environment variable to the public https:// address of this n8n (for example https://n8n.example.com/) and restart n8n, or turn this option off and receive results with the Identity Verification Trigger.",
		itemIndex,
	);
}
