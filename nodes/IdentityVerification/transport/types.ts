import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

export type AuthMode = 'apiKey' | 'kybFormToken';

export type ApiMethod = 'GET' | 'POST' | 'DELETE';

/** Contexts that can send requests with a credential (node execution and option loading). */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

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
