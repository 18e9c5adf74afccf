/** n8n's request options for one attempt, built from the caller's request. */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import type { ApiRequest, ResponseKind, StreamedBody } from './types';

/** A request whose streamed body has been opened for this attempt. */
export type OpenedRequest = Omit<ApiRequest, 'body'> & {
	body?: IDataObject | Buffer;
	stream?: { body: Awaited<ReturnType<StreamedBody['open']>>; length: number };
};

/** What the answer is asked to be: a file for binary and streamed answers, else JSON. */
function acceptFor(kind: ResponseKind): string {
	return kind === 'binary' || kind === 'stream'
		? 'application/pdf, application/octet-stream, */*'
		: 'application/json';
}

/** A fresh copy for each attempt, as n8n may change the options it is given. */
export function requestOptions(
	req: OpenedRequest,
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
