/**
 * What a node says about one request, and what it gets back. Its own module, so that the entry
 * point (index.ts) only re-exports and the transport's files never import each other in a circle.
 */
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

export type AuthMode = 'apiKey' | 'kybFormToken';

/**
 * A KYB form token the node was given instead of a credential (the Form Token field, e.g. Create
 * Session's tokenString): sent as the KYB form token credential sends it, to the API credential's
 * Base URL, so a company's form needs no credential of its own.
 */
interface GivenFormToken {
	formToken: string;
}

/** How a request authenticates: with one of the credentials, or with a form token given to the node. */
export type Auth = AuthMode | GivenFormToken;

/**
 * As whom a request goes: with one of the credentials, with a given form token (`formToken`), or
 * (`link`) to a file link with none.
 */
export type SentAs = AuthMode | 'formToken' | 'link';

export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Contexts that can send requests with a credential (node execution and option loading). */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

/**
 * An answer's body as a reader gets it: n8n's Node.js stream, read chunk by chunk (or with
 * read/unshift, to look at a file's first bytes and put them back).
 */
export interface AnswerStream extends AsyncIterable<Uint8Array> {
	read(size?: number): Buffer | null;
	unshift(chunk: Buffer): void;
	once(event: string, listener: (...args: unknown[]) => void): unknown;
	removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
	destroy(error?: Error): unknown;
	/** Node's Readable.compose: the stream passed through an async generator (a decoder). */
	compose(
		transform: (source: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array>,
	): AnswerStream;
	pipe: unknown;
}

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
	/** `json` (default): JSON (`null` for an empty body); `binary`: a file (a Buffer); `none`: `undefined`. */
	response?: ResponseKind;
	/**
	 * Reads a 2xx JSON answer as it arrives instead of whole (readers.ts): a list's page, its results
	 * one by one (`listPage`: the body is `{ body, results }`), or an upload's answer without the
	 * document it echoes (`withoutFileEcho`). Under the same deadlines and size bound; an answer that
	 * breaks off while it is read is retried like one that never came.
	 */
	reader?: JsonReader;
	/** The transport's own reader of a file, stored while it downloads (download.ts). */
	read?: (body: AnswerStream) => Promise<unknown>;
	/**
	 * A POST that only reads (the service reads data, files and PDFs by POST): repeated after a
	 * server error, a lost connection or a stalled answer, as a GET is.
	 */
	repeatable?: boolean;
	/** What the answer is, when messages should name it (e.g. `page 3 of the list`). */
	answerName?: string;
	/** For error context; also where the node's Request Options (Timeout) are read. */
	itemIndex?: number;
	/** Default 3 (so up to 4 attempts); 0 disables retries. */
	maxRetries?: number;
	/** Called before a 429 is waited out and retried (e.g. to lower the number of parallel pages). */
	onRateLimited?: () => void;
	/** How long the answer's headers may take (limits.ts): default 30 s, or less with a shorter Timeout. */
	timeoutMs?: number;
	/** How long the answer's body may go without a byte (limits.ts). */
	readIdleMs?: number;
	/** How long reading the answer's body may take in all: default the node's Timeout (limits.ts). */
	readTotalMs?: number;
	/** The most bytes the answer may have: default limits.ts's for JSON, Max File Size for a file. */
	maxBytes?: number;
	/** What an answer over `maxBytes` means here, when another bound set it (not Max File Size). */
	tooLarge?: { message: string; advice: string };
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

export type ResponseKind = 'json' | 'binary' | 'none';

/** A JSON answer's reader as it arrives (readers.ts). */
export type JsonReader = 'listPage' | 'withoutFileEcho';

/**
 * Which bound ended the read of an answer. `idle`: nothing arrived for too long; `total`: the whole
 * body took too long; `size`: too large; `depth`: its JSON is nested too deep.
 */
export type Stall = 'idle' | 'total' | 'size' | 'depth';

export interface ApiResponse<T = unknown> {
	statusCode: number;
	/** Lower-case header names. */
	headers: Record<string, string>;
	body: T;
}
