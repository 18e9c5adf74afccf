/**
 * The one place requests to the identity verification service are sent, and what the nodes import.
 * A request's path is joined to the credential's Base URL (its trailing slash kept); n8n's
 * `httpRequestWithAuthentication` adds the credential; the answer's headers have a timeout and its
 * body a read deadline (idle and total); 429 is retried for every method, within a budget per
 * execution, and 5xx, network failures and bodies that stop coming for GET and DELETE only, with
 * exponential backoff, jitter and `Retry-After`. Errors say what to do and never carry a secret
 * (the credential's or the request's own, in any encoding a page may quote them in). Nothing is
 * sent outside the Base URL (redirects are not followed), and stopping the execution stops the
 * requests and their waits.
 *
 * request.ts: the attempts (options, what an answer means, waits, stopping). credential.ts: the
 * credential, where a request may go, the credential tests. body.ts: reading an answer under its
 * read deadline. retry.ts: when to retry, how long to wait. errors.ts: the messages and the status
 * table. redact.ts: secrets out of every error.
 */
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

export { apiRequest } from './request';
export { assertUnderBaseUrl, getBaseUrl, joinUrl, serviceCredentialTests } from './credential';
export { isChunkStream, readJsonBody } from './body';
export { stalledReadOf } from './errors';
export { backoffDelay, parseRetryAfter } from './retry';

export type AuthMode = 'apiKey' | 'kybFormToken';

export type ApiMethod = 'GET' | 'POST' | 'DELETE';

/** Contexts that can send requests with a credential (node execution and option loading). */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

/** One request, as a node describes it: the transport does the rest. */
export interface ApiRequest {
	method: ApiMethod;
	/** Contract path incl. trailing slash, e.g. `/bank/tokens/`; path params already encodeURIComponent'ed. */
	path?: string;
	/** Absolute URL (e.g. a `next` link); refused unless it is under the credential's Base URL (origin and path). */
	url?: string;
	qs?: IDataObject;
	/** A Buffer is pre-serialised JSON bytes and is sent as `application/json`; so is a StreamedBody. */
	body?: IDataObject | Buffer | StreamedBody;
	/** `json` (default): parsed JSON (`null` for an empty body); `binary`: a Buffer; `stream`: a readable stream (the file never held whole in memory); `none`: `undefined`. */
	response?: ResponseKind;
	/** For error context. */
	itemIndex?: number;
	/** Default 3 (so up to 4 attempts); 0 disables retries. */
	maxRetries?: number;
	/** Called before a 429 is waited out and retried (e.g. to lower the number of parallel pages). */
	onRateLimited?: () => void;
	/** How long the answer's headers may take: default 30 000 ms per attempt. */
	timeoutMs?: number;
	/** How long the answer's body may go without a byte: default 30 000 ms. */
	readIdleMs?: number;
	/** How long reading the answer's body may take in all: default 15 minutes. */
	readTotalMs?: number;
	/** Values this request sends that no error may show (e.g. a PDF password), besides the credential's. */
	secrets?: string[];
	/** What a 404 means for this request, instead of the general "nothing with the ID(s) given". */
	notFound?: { message: string; advice: string };
}

/**
 * JSON bytes sent as they are made (a document read from n8n's binary store): never whole in
 * memory. Opened anew for each attempt, as a sent stream cannot be sent again.
 */
export interface StreamedBody {
	/** The exact number of bytes the stream gives, sent as Content-Length. */
	length: number;
	open: () => Promise<AsyncIterable<string | Uint8Array> & { pipe: unknown }>;
}

export type ResponseKind = 'json' | 'binary' | 'none' | 'stream';

export interface ApiResponse<T = unknown> {
	statusCode: number;
	/** Lower-case header names. */
	headers: Record<string, string>;
	body: T;
}
