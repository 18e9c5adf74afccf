/**
 * One request to the service, attempted until it succeeds, fails for good, or the execution is
 * stopped: 429 is retried for every method, 5xx and network failures for GET and DELETE only.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { RETRY, startCall } from './call';
import type { Call } from './call';
import { CREDENTIAL_BY_AUTH, resolveCredential } from './credential';
import { requestOptions } from './options';
import type { OpenedRequest } from './options';
import { answered, unanswered } from './outcome';
import type { ApiRequest, ApiResponse, AuthMode, RequestContext, StreamedBody } from './types';

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
	const call = startCall.call(this, auth, req, credential);
	for (let attempt = 1; ; attempt++) {
		const response = await send(call, attempt);
		const outcome = response === RETRY ? RETRY : await answered<T>(call, response, attempt);
		if (outcome !== RETRY) return outcome;
	}
}

/** One attempt through n8n, which adds the credential: its answer, or RETRY after no answer. */
async function send(call: Call, attempt: number): Promise<IN8nHttpFullResponse | typeof RETRY> {
	const { context } = call;
	const req = await opened(call.req);
	try {
		return (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_BY_AUTH[call.auth],
			requestOptions(req, call.url, call.timeoutMs, call.signal),
			{ credentialsDecrypted: call.credential.decrypted },
		)) as IN8nHttpFullResponse;
	} catch (error) {
		return await unanswered(call, attempt, error);
	} finally {
		// A body the server did not read to the end (an early answer) is not read any further.
		(req.stream?.body as { destroy?: () => void } | undefined)?.destroy?.();
	}
}

/** The request with its streamed body (if any) opened for this attempt. */
async function opened(req: ApiRequest): Promise<OpenedRequest> {
	const { body } = req;
	if (!isStreamed(body)) return { ...req, body };
	return { ...req, body: undefined, stream: { body: await body.open(), length: body.length } };
}

function isStreamed(body: ApiRequest['body']): body is StreamedBody {
	return typeof (body as StreamedBody | undefined)?.open === 'function';
}
