/** Errors for an answer that is not 2xx: an error status, or a redirect (never followed). */
import type { INode, NodeApiError } from 'n8n-workflow';

import { credentialLabel } from '../authModes';
import type { ApiMethod, AuthMode } from '../types';
import { apiError } from './apiError';
import { excerptOf, parseErrorBody, prunedErrorBody } from './excerpt';
import { httpHint } from './hints';
import type { Redactor } from './redact';
import { serviceMessage } from './serviceWords';
import { cut, quoted, QUOTE_LIMIT } from './wording';

interface HttpFailure {
	status: number;
	body: unknown;
	method: ApiMethod;
	attempts: number;
	auth: AuthMode;
	/** The name the user gave the credential, if n8n gave it. */
	credentialName?: string;
	/** What a 404 means for this request, if it says. */
	notFound?: { message: string; advice: string };
	itemIndex?: number;
}

/** An HTTP answer that is not 2xx, after the retries the transport was allowed to make. */
export function httpError(node: INode, redact: Redactor, failure: HttpFailure): NodeApiError {
	const body = prunedErrorBody(parseErrorBody(failure.body, redact), redact);
	const serviceSaid = serviceMessage(body);
	const said = serviceSaid && cut(serviceSaid, QUOTE_LIMIT);
	const { message, advice } = httpHint({ ...failure, body });
	return apiError(node, redact, {
		message,
		description: (quoted(said) + advice).trim(),
		httpCode: String(failure.status),
		itemIndex: failure.itemIndex,
		data: excerptOf(body),
	});
}

/**
 * A 3xx answer. It is never followed: n8n's request helper would send the credential, and a POST's
 * body, to wherever it points. `target` is the shown Location (origin and path), if any.
 */
export function redirectError(
	node: INode,
	redact: Redactor,
	failure: {
		status: number;
		target?: string;
		auth: AuthMode;
		credentialName?: string;
		itemIndex?: number;
	},
): NodeApiError {
	const { status, target, auth, credentialName, itemIndex } = failure;
	const where = target
		? `to ${target}; redirects are not followed, so the credential and the request were not sent there`
		: 'without an address; redirects are not followed';
	return apiError(node, redact, {
		message: `The service answered with a redirect (HTTP ${status}) ${where}`,
		description: `Check the Base URL in the credential "${credentialLabel(auth, credentialName)}": use the address the service itself gives (https, the right host and path), not one that forwards elsewhere.`,
		httpCode: String(status),
		itemIndex,
	});
}
