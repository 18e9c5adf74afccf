/** Errors from this side of the connection: the execution was stopped, or sending failed in n8n. */
import type { INode, NodeApiError } from 'n8n-workflow';

import { apiError } from './apiError';
import type { Redactor } from './redact';
import { cut, QUOTE_LIMIT } from './wording';

/** The execution was stopped while a request was under way or waiting to be retried. */
export function cancelledError(node: INode, redact: Redactor, itemIndex?: number): NodeApiError {
	return apiError(node, redact, {
		message: 'The execution was stopped, so the request to the service was cancelled',
		description:
			'Nothing is wrong with the credential or the service. A request that had already reached the service (e.g. one creating something) may still have been processed: check in the dashboard before running again.',
		itemIndex,
	});
}

/** Anything else that went wrong while sending (kept short, redacted, without the original object). */
export function unexpectedError(
	node: INode,
	redact: Redactor,
	error: unknown,
	itemIndex?: number,
): NodeApiError {
	const text = redact(error instanceof Error ? error.message : String(error));
	return apiError(node, redact, {
		message: `The request to the service could not be sent: ${cut(text, QUOTE_LIMIT)}`,
		description: 'Check the credential (Base URL, key) and the values entered in the node.',
		itemIndex,
	});
}
