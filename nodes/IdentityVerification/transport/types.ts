/** What a node says about one request, and what it gets back (its own module, so no file of the transport imports another in a circle). */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

export type AuthMode = 'apiKey' | 'kybFormToken';

/**
 * How a request authenticates: with a credential, or with a KYB form token given to the node (its
 * Form Token field), sent as the form token credential sends it to the API credential's Base URL.
 */
export type Auth = AuthMode | { formToken: string };

/** As whom a request goes; `link`: to a file link the service gave, with no credential. */
export type SentAs = AuthMode | 'formToken' | 'link';

export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Contexts that can send requests with a credential (node execution, option loading, a poll). */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** An answer's body as n8n hands it over: a Node.js stream (read/unshift let a file's first bytes be looked at). */
export interface AnswerStream extends AsyncIterable<Uint8Array> {
	read(size?: number): Buffer | null;
	unshift(chunk: Buffer): void;
	once(event: string, listener: (...args: unknown[]) => void): unknown;
	removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
	destroy(error?: Error): unknown;
	compose(
		transform: (source: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array>,
	): AnswerStream;
	pipe: unknown;
}

/** What a 2xx answer is: JSON (`null` when empty), a file (a Buffer, or what `read` makes of it), or nothing. */
export type ResponseKind = 'json' | 'binary' | 'none';

/**
 * A JSON answer read as it arrives (jsonStream.ts): a list's page, its `results` parsed one by one
 * (the body is `{ body, results }`), or an upload's answer without the document it echoes in `file`.
 */
export type JsonReader = 'listPage' | 'withoutFileEcho';

/** One request, as a node describes it: the transport does the rest. */
export interface ApiRequest {
	method: ApiMethod;
	/** Contract path incl. trailing slash, e.g. `/bank/tokens/`; path params already encoded. */
	path?: string;
	/** Absolute URL (a `next` link): refused unless it is under the credential's Base URL. */
	url?: string;
	qs?: IDataObject;
	/** A Buffer is JSON bytes already made; a StreamedBody is JSON sent as it is made. */
	body?: IDataObject | Buffer | StreamedBody;
	response?: ResponseKind;
	reader?: JsonReader;
	/** A file's reader, stored while it downloads (download.ts). */
	read?: (body: AnswerStream) => Promise<unknown>;
	/** A POST that only reads (data, files, PDFs): repeated after a failure, as a GET is. */
	repeatable?: boolean;
	/** What the answer is, when messages should name it (`page 3 of the list`). */
	answerName?: string;
	/** For error context; also where the node's Request Options (Timeout) are read. */
	itemIndex?: number;
	/** Default 3 (so up to 4 attempts); 0 disables retries. */
	maxRetries?: number;
	/** Called before a 429 is waited out (e.g. to lower the number of parallel pages). */
	onRateLimited?: () => void;
	/** Bounds (limits.ts): headers, body without a byte, body in all, size. */
	timeoutMs?: number;
	readIdleMs?: number;
	readTotalMs?: number;
	maxBytes?: number;
	/** What an answer over `maxBytes` means here, when another bound than Max File Size set it. */
	tooLarge?: { message: string; advice: string };
	/** Values this request sends that no error may show (a PDF password), besides the credential's. */
	secrets?: string[];
	/** What a 404 means for this request, instead of "nothing with the ID(s) given". */
	notFound?: { message: string; advice: string };
	/** What another status means for this request (a 409 for a state, a 402 for funds), before the table's words. */
	statusWords?: Partial<Record<number, { message: string; advice: string }>>;
}

/** JSON bytes sent as they are made (a document from n8n's binary store), opened anew per attempt. */
export interface StreamedBody {
	/** The exact number of bytes, sent as Content-Length. */
	length: number;
	open: () => Promise<AsyncIterable<string | Uint8Array> & { pipe: unknown }>;
}

/** Which bound ended the read of an answer: no byte for too long, too long in all, too large, nested too deep. */
export type Stall = 'idle' | 'total' | 'size' | 'depth';

export interface ApiResponse<T = unknown> {
	statusCode: number;
	/** Lower-case header names. */
	headers: Record<string, string>;
	body: T;
}
