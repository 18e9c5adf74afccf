/**
 * Every error is built here, from plain, sanitised values: never from n8n's or axios' error objects
 * (they carry the request options, incl. the Authorization header and the `auth` username/password),
 * so nothing secret can reach the UI, logs or `cause`.
 */
import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import type { Redactor } from './redact';

export interface ErrorParts {
	message: string;
	description: string;
	/** The answer's status, if there was an answer. */
	httpCode?: string;
	itemIndex?: number;
	/** Kept in the error's details (e.g. the excerpt of an error answer). */
	data?: unknown;
}

/** A NodeApiError whose message, description and details are redacted. */
export function apiError(node: INode, redact: Redactor, parts: ErrorParts): NodeApiError {
	const { httpCode, itemIndex, data } = parts;
	const message = redact(parts.message);
	const description = redact(parts.description);
	const errorResponse: JsonObject = { message };
	if (httpCode) errorResponse.httpCode = httpCode;
	const error = new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode,
		itemIndex,
	});
	// NodeApiError may swap a message containing a network error code for a generic text
	error.message = message;
	error.description = description;
	if (data !== undefined) {
		try {
			error.context.data = JSON.parse(redact(JSON.stringify(data))) as JsonObject;
		} catch {
			// the body could not be represented as JSON: leave it out
		}
	}
	return error;
}
