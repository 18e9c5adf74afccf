/**
 * What the user is told when a request fails: an error answer (the status table), no answer, a
 * stopped execution, an answer that stopped arriving. Every error is built by `apiError` from
 * plain values passed through the redactor, never from n8n's or axios' error objects: those carry
 * the request options, incl. the Authorization header and the `auth` username/password.
 */
import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { isPlainObject } from '../../shared/isPlainObject';
import { JsonTooDeepError, MAX_JSON_DEPTH } from '../../shared/jsonDepth';
import { DEFAULT_BASE_URL } from '../../shared/urlGuards';
import {
	discardStream,
	ERROR_BODY_BYTES,
	parseJsonBody,
	readCapped,
	RUN_BUDGET_TIMEOUTS,
	watchedChunks,
} from './limits';
import type { ReadLimits, RunBudget, Stalled } from './limits';
import type { ApiMethod, SentAs, Stall } from './types';

interface ErrorParts {
	message: string;
	description: string;
	/** The answer's status, if there was an answer. */
	httpCode?: string;
	itemIndex?: number;
	/** Kept in the error's details (e.g. the excerpt of an error answer). */
	data?: unknown;
}

/** A NodeApiError whose message, description and details are redacted. */
function apiError(node: INode, redact: Redactor, parts: ErrorParts): NodeApiError {
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

// Secrets out of every text an error carries: each secret as it is, and its base64. These cover the
// two echoes a real service or proxy makes (the tests have both):
// - the Authorization header it got, `Basic <base64 of key:secret>` (the credential passes that
//   base64 as a secret; the base64 forms also find the key or the secret inside other base64);
// - a JSON error answer quoting a value it was sent (a key, a token, the AML PDF password), which
//   reads as it is once parsed; a password under 4 characters leaves the quoting text out whole.

/** Replaces every secret in a text (the node's own words with values put into them). */
export interface Redactor {
	(text: string): string;
	/** A text the service wrote, fit to quote; undefined when it holds a secret too short to replace. */
	quote(text: string): string | undefined;
}

const REDACTED = '[redacted]';
/**
 * A shorter secret is replaced only where it is a whole text (e.g. a value of an error answer):
 * replacing every `abc` in a message would mangle it, and show where the secret was.
 */
const MIN_SECRET_LENGTH = 4;
/** A shorter base64 form (of a 4-character secret at an alignment) may be an ordinary word. */
const MIN_BASE64_LENGTH = 6;

/**
 * The base64 of a secret wherever it sits in encoded bytes: for each of the three alignments, the
 * characters that depend on the secret's bits alone, in the standard and the URL-safe alphabet.
 */
export function base64Forms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const forms: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		const first = Math.ceil((8 * offset) / 6);
		const end = Math.floor((8 * (offset + bytes.length)) / 6);
		const core = encoded.slice(first, end);
		forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return forms;
}

/** The text with every occurrence of the patterns replaced, overlapping ones as one. */
function replaced(text: string, patterns: string[]): string {
	const hidden = new Uint8Array(text.length);
	let found = false;
	for (const pattern of patterns) {
		for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) {
			hidden.fill(1, at, at + pattern.length);
			found = true;
		}
	}
	if (!found) return text;
	let result = '';
	for (let at = 0; at < text.length; at++) {
		if (!hidden[at]) result += text[at];
		else if (at === 0 || !hidden[at - 1]) result += REDACTED;
	}
	return result;
}

export function makeRedactor(secrets: string[]): Redactor {
	const values = secrets.filter((s) => typeof s === 'string' && s !== '');
	const long = values.filter((s) => s.length >= MIN_SECRET_LENGTH);
	const short = values.filter((s) => s.length < MIN_SECRET_LENGTH);
	const base64 = long.flatMap(base64Forms).filter((form) => form.length >= MIN_BASE64_LENGTH);
	const patterns = [...long, ...base64];
	const redact = (text: string) => (short.includes(text) ? REDACTED : replaced(text, patterns));
	const quote = (text: string) =>
		short.some((secret) => text.includes(secret)) ? undefined : replaced(text, patterns);
	return Object.assign(redact, { quote });
}

// An answer that is not 2xx. The status table below words it: by status, then by status class,
// each entry a small function giving the message and the advice after the service's own words.

interface HttpFailure {
	status: number;
	body: unknown;
	method: ApiMethod;
	/** The request may be sent again (GET, DELETE, a POST that only reads): it was retried. */
	repeatable: boolean;
	attempts: number;
	auth: SentAs;
	/** The name the user gave the credential, if n8n gave it. */
	credentialName?: string;
	/** What a 404, or another status, means for this request, if it says. */
	notFound?: { message: string; advice: string };
	statusWords?: Partial<Record<number, { message: string; advice: string }>>;
	itemIndex?: number;
}

/** What an error answer longer than ERROR_BODY_BYTES is read as: nothing of it is quoted. */
const TOO_LONG = Symbol('error answer too long');

/**
 * What is read of an error answer: its first 64 KB as bytes, parsed once by httpError. A longer one
 * is TOO_LONG and not quoted at all: the start of an echoed document is no message.
 */
export async function readErrorBody(
	body: unknown,
	limits: ReadLimits,
	stalled: Stalled,
): Promise<unknown> {
	const read = await readCapped(watchedChunks(body, limits, stalled), ERROR_BODY_BYTES);
	discardStream(body);
	return read.complete ? read.body : TOO_LONG;
}

/** An HTTP answer that is not 2xx, after the retries the transport was allowed to make. */
export function httpError(node: INode, redact: Redactor, failure: HttpFailure): NodeApiError {
	const tooLong = failure.body === TOO_LONG;
	const body = tooLong ? undefined : prunedErrorBody(parseErrorBody(failure.body, redact), redact);
	const serviceSaid = serviceMessage(body);
	const said = serviceSaid && cut(serviceSaid, QUOTE_LIMIT);
	const { message, advice, quotesService } = httpHint({ ...failure, body });
	const notShown = tooLong
		? ' (The service’s error answer was longer than 64 KB and is not shown.)'
		: '';
	return apiError(node, redact, {
		message,
		description: ((quotesService ? '' : quoted(said)) + advice + notShown).trim(),
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
		auth: SentAs;
		credentialName?: string;
		itemIndex?: number;
	},
): NodeApiError {
	const { status, target, auth, credentialName, itemIndex } = failure;
	if (auth === 'link') return linkRedirectError(node, redact, failure);
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

/** A file link that redirects: never followed, wherever it points. */
function linkRedirectError(
	node: INode,
	redact: Redactor,
	failure: { status: number; target?: string; itemIndex?: number },
): NodeApiError {
	return apiError(node, redact, {
		message: `The file link answered with a redirect (HTTP ${failure.status}), which is not followed`,
		description: `A file is downloaded only from the address the service gave${failure.target ? `, not from ${failure.target}` : ''}. Run the node again; if it keeps happening, report it to the service provider.`,
		httpCode: String(failure.status),
		itemIndex: failure.itemIndex,
	});
}

/** What a hint may depend on: the failure, with its error answer pruned and redacted. */
type HintInput = Omit<HttpFailure, 'itemIndex'>;

interface Hint {
	message: string;
	/** What to do, after the quote of the service's own words. */
	advice: string;
	/** The message already carries the service's own words: they are not quoted again. */
	quotesService?: boolean;
}

type HintRule = (input: HintInput) => Hint;

const DASHBOARD_KEYS_HINT = 'the dashboard (Settings → API Keys → Create)';

function triesText(attempts: number): string {
	return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

/** ` after N attempts` when the request was tried more than once. */
function afterTries(attempts: number): string {
	return attempts === 1 ? '' : ` after ${triesText(attempts)}`;
}

function credentialName({ auth, credentialName: ownName }: HintInput): string {
	return `"${credentialLabel(auth, ownName)}"`;
}

/**
 * 400 and 422: the fields the service named, if it named any; else its own words, which name the
 * field in the service's standard error body (`{"identifier": "BAD_VALUE", "message": "Field …"}`).
 */
const rejectedFields: HintRule = ({ status, body }) => {
	const fields = cut(fieldErrors(body).join('; '), QUOTE_LIMIT);
	const said = serviceMessage(body);
	if (!fields && said) {
		return {
			message: `The service rejected the request (HTTP ${status}): ${cut(said, QUOTE_LIMIT)}`,
			advice: 'Fix the value it names in the node and run again.',
			quotesService: true,
		};
	}
	if (!fields) {
		return {
			message: `The service rejected the request (HTTP ${status})`,
			advice: 'Check the values entered in the node and run again.',
		};
	}
	return {
		message: `The service rejected the request (HTTP ${status}): ${fields}`,
		advice: sentence(`Fix these fields in the node and run again: ${fields}`),
	};
};

/** The ways a request authenticates with the service (a file link has its own hints). */
type ServiceAuth = Exclude<SentAs, 'link'>;

const UNAUTHORISED: Record<ServiceAuth, HintRule> = {
	apiKey: (input) => ({
		message: `The service did not accept the API key and API secret (HTTP 401)`,
		advice: `Open the credential ${credentialName(input)} and paste the API Key and API Secret again from ${DASHBOARD_KEYS_HINT}. Sandbox and production keys are different; check the key has not been deleted.`,
	}),
	kybFormToken: (input) => ({
		message: `The service did not accept the KYB form token (HTTP 401)`,
		advice: `The token in the credential ${credentialName(input)} is wrong or has expired: generate a new KYB form token and paste its tokenString, or use the Identity Verification API credential instead.`,
	}),
	formToken: () => ({
		message: `The service did not accept the token in the Form Token field (HTTP 401)`,
		advice:
			'The form token is wrong or has expired (it lasts as long as the Lifetime of the Create Session that made it: 1 hour unless set). Run Create Session again and use its new tokenString, or set Authentication to API Key.',
	}),
};

const FORBIDDEN_ADVICE: Record<ServiceAuth, string> = {
	apiKey: `The API key was recognised but is not allowed to do this. Check the key's permissions in ${DASHBOARD_KEYS_HINT}, or ask the provider's support to enable this product for your account.`,
	kybFormToken:
		'A KYB form token only works for the form it was generated for: check the Company ID / Form ID, or use the Identity Verification API credential.',
	formToken:
		'A form token only works for the company whose session made it: check the Company ID, or set Authentication to API Key.',
};

/** 5xx: a request that may have been processed is not repeated; the others were retried. */
const serverProblem: HintRule = ({ status, repeatable, attempts }) =>
	!repeatable
		? {
				message: `The service had an internal problem (HTTP ${status})`,
				advice:
					'The request was sent once and not repeated, because the service may already have processed it. Check in the dashboard whether it went through before running again.',
			}
		: {
				message: `The service had an internal problem (HTTP ${status})${attempts === 1 ? '' : ` on all ${triesText(attempts)}`}`,
				advice:
					'This is on the service side. Try again later; if it keeps happening, contact the provider’s support with the time of this run.',
			};

const otherStatus: HintRule = ({ status }) => ({
	message: `The service rejected the request (HTTP ${status})`,
	advice: 'Check the values entered in the node and the Base URL of the credential.',
});

const STATUS_HINTS: Partial<Record<number, HintRule>> = {
	400: rejectedFields,
	401: (input) => UNAUTHORISED[input.auth as ServiceAuth](input),
	403: ({ auth }) => ({
		message: `The service refused access to this resource (HTTP 403)`,
		advice: FORBIDDEN_ADVICE[auth as ServiceAuth],
	}),
	404: ({ notFound }) =>
		notFound ?? {
			message: `Not found (HTTP 404): the service has nothing with the ID(s) given`,
			advice:
				'Check the IDs entered in the node (they must belong to the account of this credential: sandbox and production keys see different data). Also check that the Base URL in the credential has no extra path such as /api/v2.',
		},
	// The service's words say which state it is in.
	409: () => ({
		message: `The service refused this step in the current state (HTTP 409)`,
		advice:
			'What the node acts on is not in a state that allows this step yet (the service’s words say which). Check its status with the matching Get operation, and run again once it has changed.',
	}),
	422: rejectedFields,
	429: ({ attempts }) => ({
		message: `The service's request limit was reached (HTTP 429): it still refused after ${triesText(attempts)}`,
		advice:
			'The service allows a set number of requests per hour (10,000 by default). Send fewer: in a list (List Transactions or a Get Many) lower Max Parallel Requests or use Limit instead of Return All, process fewer items per run, or run the workflow (or its schedule) later. To have n8n run the node again by itself, turn on Retry On Fail in the node’s Settings.',
	}),
};

/** The statuses the table does not name, by class: server problems, and everything else. */
function byClass(status: number): HintRule {
	return status >= 500 ? serverProblem : otherStatus;
}

/**
 * A file link the service gave (its storage, not the service): refused when it expired (the
 * storage answers 400 or 403 then), gone when the file was deleted.
 */
const LINK_HINTS: Partial<Record<number, HintRule>> = {
	400: ({ status }) => linkExpired(status),
	401: ({ status }) => linkExpired(status),
	403: ({ status }) => linkExpired(status),
	404: () => ({
		message: 'The file is no longer at the link the service gave (HTTP 404)',
		advice:
			'The verification’s files may have been deleted (for example by Delete Personal Data). Get Data shows what the service still keeps.',
	}),
};

function linkExpired(status: number): Hint {
	return {
		message: `The file link was refused (HTTP ${status}): it has expired or is no longer valid`,
		advice:
			'The service’s file links are valid for a short time (about an hour). Run the node again: it asks the service for fresh links and downloads the files at once.',
		quotesService: true,
	};
}

function httpHint(input: HintInput): Hint {
	const table = input.auth === 'link' ? LINK_HINTS : STATUS_HINTS;
	const own = input.auth === 'link' ? undefined : input.statusWords?.[input.status];
	return own ?? (table[input.status] ?? byClass(input.status))(input);
}

// No answer at all: what kind of failure it was, read from the error codes on its chain, and
// what the user is told for each kind.

export type NetworkProblem = 'refused' | 'dns' | 'timeout' | 'reset' | 'tls' | 'other';

/** The kind of one error on the chain, by its Node.js / axios code or its message; in this order. */
function problemOf(code: string | undefined, message: string): NetworkProblem | undefined {
	if (code === 'ECONNREFUSED') return 'refused';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout of \d+ms exceeded/i.test(message))
		return 'timeout';
	if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(message)) return 'reset';
	if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN') return 'refused';
	if (code && /CERT|SSL|TLS/i.test(code)) return 'tls';
	if (code === 'ERR_NETWORK' || code === 'ERR_BAD_RESPONSE') return 'other';
	return undefined;
}

/**
 * The error's Node.js / axios code: `code`, or `httpCode` where n8n 1.x keeps it (its request
 * errors drop the `cause` and carry e.g. `httpCode: 'ECONNRESET'`); a status number is no code.
 */
function codeOf(record: Record<string, unknown>): string | undefined {
	if (typeof record.code === 'string') return record.code;
	if (typeof record.httpCode === 'string' && !/^\d+$/.test(record.httpCode)) return record.httpCode;
	return undefined;
}

/** Classifies a failure without a response by the first error on its `cause` chain that says. */
export function classifyNetworkError(
	error: unknown,
): { problem: NetworkProblem; code?: string } | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (typeof current === 'object' && current !== null && !seen.has(current)) {
		seen.add(current);
		const record = current as Record<string, unknown>;
		const code = codeOf(record);
		const problem = problemOf(code, typeof record.message === 'string' ? record.message : '');
		if (problem) return { problem, code };
		current = record.cause;
	}
	return undefined;
}

interface NetworkFailure {
	problem: NetworkProblem;
	code?: string;
	origin: string;
	method: ApiMethod;
	repeatable: boolean;
	attempts: number;
	timeoutMs: number;
	itemIndex?: number;
	/** The answer had begun to arrive: the connection broke while its body was read. */
	duringRead?: boolean;
	/** What the answer is, when the request names it (`page 3 of the list`). */
	answerName?: string;
	/** A file link the service gave, not the service: one wording for all (`LINK_NO_ANSWER`). */
	link?: boolean;
}

/** What a message may say: the failure, how often it was tried, whether a POST may have landed. */
type NetworkWords = NetworkFailure & { tries: string; notRepeated: string };

type NetworkHint = (words: NetworkWords) => { message: string; description: string };

const NETWORK_HINTS: Record<NetworkProblem, NetworkHint> = {
	refused: ({ origin, tries }) => ({
		message: `Could not connect to the service at ${origin}${tries}`,
		description:
			'Nothing accepted the connection. Check the Base URL in the credential (host name and port) and that the service is reachable from n8n.',
	}),
	dns: ({ origin, tries }) => ({
		message: `The host of the Base URL could not be found (${origin})${tries}`,
		description: `Check the spelling of the Base URL in the credential, e.g. ${DEFAULT_BASE_URL}.`,
	}),
	timeout: ({ timeoutMs, tries, notRepeated }) => ({
		message: `The service did not answer within ${formatDuration(timeoutMs)}${tries}`,
		description: 'The service may be slow or unreachable right now. Try again later.' + notRepeated,
	}),
	reset: ({ tries, notRepeated, duringRead, answerName }) => ({
		message: duringRead
			? `The connection to the service broke while ${answerName ?? 'its answer'} was read${tries}`
			: `The connection to the service was closed before it answered${tries}`,
		description:
			'The service or a proxy in between dropped the connection. Try again later.' + notRepeated,
	}),
	tls: ({ origin }) => ({
		message: `The secure connection to ${origin} could not be established`,
		description:
			'The server’s HTTPS certificate was not accepted. Check that the Base URL is the service’s real address.',
	}),
	other: ({ origin, tries, notRepeated }) => ({
		message: `The request to the service at ${origin} failed without an answer${tries}`,
		description: 'Check the Base URL in the credential and try again later.' + notRepeated,
	}),
};

/**
 * Every failure of a file link without an answer, in the same words and without its network code:
 * a link may name an address inside n8n's network, and telling a refused connection from one that
 * answered in another protocol would let links map it.
 */
const LINK_NO_ANSWER: NetworkHint = ({ origin, tries }) => ({
	message: `The file link to ${origin} could not be fetched${tries}`,
	description:
		'No usable answer came from the address the service gave. Run the node again later: it asks the service for fresh links. If it keeps happening, report it to the service provider.',
});

/** What the user is told about a failure without an answer: the message and what to do. */
export function networkWords(failure: NetworkFailure): { message: string; description: string } {
	const tries = afterTries(failure.attempts);
	if (failure.link) return LINK_NO_ANSWER({ ...failure, tries, notRepeated: '' });
	const hint = NETWORK_HINTS[failure.problem] ?? NETWORK_HINTS.other;
	const { message, description } = hint({
		...failure,
		tries,
		// Used by the hints of failures a POST may have reached the service before (timeout, reset, other).
		notRepeated: notRepeated(failure.repeatable),
	});
	const code = failure.code ? ` (network code: ${failure.code})` : '';
	return { message, description: description + code };
}

/** No answer at all (refused, unknown host, timeout, dropped connection), after any retries. */
export function networkError(node: INode, redact: Redactor, failure: NetworkFailure): NodeApiError {
	return apiError(node, redact, { ...networkWords(failure), itemIndex: failure.itemIndex });
}

// Failures on this side of the connection.

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

/** A whole answer that could not be read or stored (n8n's binary store failed, say). */
export function unreadableAnswerError(
	node: INode,
	redact: Redactor,
	error: unknown,
	itemIndex?: number,
): NodeApiError {
	if (error instanceof JsonTooDeepError) return tooDeepError(node, redact, { itemIndex });
	const text = redact(error instanceof Error ? error.message : String(error));
	return apiError(node, redact, {
		message: `The service's answer could not be read: ${cut(text, QUOTE_LIMIT)}`,
		description:
			'The answer arrived, but n8n could not read or store it. Check that n8n has room to store files (its binary data storage) and run the node again.',
		itemIndex,
	});
}

// An answer whose body stopped arriving, took too long, grew too large or is nested too deep. A
// stalled answer is retried where reads are (the transport recognises it by `stalledReadOf`); a too
// large or too deep one is not.

interface StalledRead {
	stall: Stall;
	/** The bound that was reached: ms for time, bytes for size. */
	limit: number;
	/** The answer was a file (its size bound is the node's Max File Size). */
	file: boolean;
	/** What the answer is, when the request names it (`page 3 of the list`). */
	answerName?: string;
	method: ApiMethod;
	repeatable: boolean;
	/** Origin and path of the request (no query). */
	target: string;
	attempts: number;
	itemIndex?: number;
	/** What a too large answer means, when another bound than Max File Size set its size. */
	tooLarge?: { message: string; advice: string };
}

/** What happened, for each error made here, e.g. `nothing arrived for 30 seconds`. */
const stalledReads = new WeakMap<object, string>();

function whatHappened({ stall, limit }: StalledRead): string {
	return stall === 'idle'
		? `nothing arrived for ${formatDuration(limit)}`
		: `it was still arriving after ${formatDuration(limit)}`;
}

/** A request that may have been processed (a POST that makes something) is not repeated: say so. */
function notRepeated(repeatable: boolean): string {
	return repeatable ? '' : NOT_REPEATED;
}

/** What to do about an answer that took too long: wait and retry, or allow it more time. */
function slowAdvice(read: StalledRead): string {
	return read.stall === 'total'
		? 'If the service needs longer, raise Timeout (Seconds) under Request Options in the node.'
		: 'The service, or the network between it and n8n, may be overloaded: try again later. If it keeps happening, contact the provider’s support with the time of this run.';
}

/** The answer's body stopped arriving, took too long, or grew past its bound (after any retries). */
export function stalledReadError(node: INode, redact: Redactor, read: StalledRead): NodeApiError {
	if (read.stall === 'size') return tooLargeError(node, redact, read);
	if (read.stall === 'depth') return tooDeepError(node, redact, read);
	const what = whatHappened(read);
	const tries = afterTries(read.attempts);
	const error = apiError(node, redact, {
		message: `The service's answer${read.answerName ? ` for ${read.answerName}` : ''} timed out${tries}: ${what}`,
		description: `This was the answer to ${read.method} ${read.target}. ${slowAdvice(read)}${notRepeated(read.repeatable)}`,
		itemIndex: read.itemIndex,
	});
	stalledReads.set(error, what);
	return error;
}

/** An answer larger than its bound: reading stops there, and it is not asked for again. */
function tooLargeError(node: INode, redact: Redactor, read: StalledRead): NodeApiError {
	if (read.tooLarge) {
		const { message, advice } = read.tooLarge;
		return apiError(node, redact, { message, description: advice, itemIndex: read.itemIndex });
	}
	const size = megabytesText(read.limit);
	return apiError(node, redact, {
		message: read.file
			? `The file is larger than the Max File Size of ${size}`
			: `The service's answer is larger than ${size}, the most this node reads`,
		description: read.file
			? `This was the answer to ${read.method} ${read.target}. Raise Max File Size in the node if the file may be that large.`
			: `This was the answer to ${read.method} ${read.target}. No answer of the service should be that large: use Limit or fewer results per page, or report it to the service provider.`,
		itemIndex: read.itemIndex,
	});
}

/**
 * An answer nested deeper than MAX_JSON_DEPTH (shared/jsonDepth.ts): n8n could not copy or save
 * it. Not asked for again; `method` and `target` when the transport knows them.
 */
function tooDeepError(
	node: INode,
	redact: Redactor,
	read: { method?: ApiMethod; target?: string; itemIndex?: number },
): NodeApiError {
	const request = read.target ? `This was the answer to ${read.method} ${read.target}. ` : '';
	return apiError(node, redact, {
		message: `The service's answer is nested more than ${MAX_JSON_DEPTH} levels deep, which n8n cannot store; it was not used`,
		description: `${request}The service's answers are nested a few levels only: report it to the service provider with the time of this run.`,
		itemIndex: read.itemIndex,
	});
}

/** A size as a person reads it: `32 MB`, `1.5 MB`, `64 KB`. */
function megabytesText(bytes: number): string {
	const mb = bytes / 1024 / 1024;
	if (mb < 1) return `${Math.round(bytes / 1024)} KB`;
	return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** What happened when `error` is an answer that timed out while it was read, else undefined. */
export function stalledReadOf(error: unknown): string | undefined {
	return typeof error === 'object' && error !== null ? stalledReads.get(error) : undefined;
}

// A run of the node that took longer than its budget (limits.ts): nothing more is tried or asked for.

/** What happened, `the node has run for more than 20 minutes`, and what to change (with `narrower`). */
export function runOverWords(
	budget: RunBudget,
	narrower: string,
): { happened: string; advice: string } {
	return {
		happened: `the node has run for more than ${formatDuration(budget.ms)}`,
		advice: `A run of the node, all its items together, may take ${RUN_BUDGET_TIMEOUTS} times its Timeout. Raise Timeout (Seconds) under Request Options in the node, or ${narrower}.`,
	};
}

/** A failure that was not tried again because the run's budget was spent: the error says so. */
export function withRetriesStopped(error: NodeApiError, budget: RunBudget): NodeApiError {
	const words = runOverWords(
		budget,
		'have each run do less (fewer items, Limit instead of Return All)',
	);
	error.message = `${error.message}; it was not tried again: ${words.happened}`;
	error.description = [words.advice, error.description].filter(Boolean).join(' ');
	return error;
}

// What is quoted and kept of an error answer: bounded and redacted, as a service echoing an
// uploaded document must not put it whole into the execution data.

/** A longer string in an error answer is data (e.g. an echoed document), not a message. */
const LONG_TEXT = 1000;
/** Lists and objects of an error answer keep this many entries, nested this deep. */
const MAX_ENTRIES = 100;
const MAX_DEPTH = 8;
/** The most of an error answer kept in the error's details, as JSON text. */
const EXCERPT_LIMIT = 4096;
/** What the details keep of an error answer too big to keep whole. */
const USEFUL_KEYS = ['detail', 'message', 'error', 'error_description', 'title', 'code', 'errors'];

/** What stands in the place of a text of the service that may quote a secret too short to take out. */
const LEFT_OUT = '[left out: it may quote a secret]';

/** A text the service wrote, fit to quote (Redactor.quote), or LEFT_OUT. */
function quotedText(redact: Redactor, text: string): string {
	return redact.quote(text) ?? LEFT_OUT;
}

/**
 * An error body as JSON, or its text trimmed, redacted and cut at 300 characters (redacted first,
 * so a cut cannot leave part of a secret); undefined when empty. The body is what readErrorBody
 * read: at most ERROR_BODY_BYTES.
 */
export function parseErrorBody(raw: unknown, redact: Redactor = makeRedactor([])): unknown {
	const body = parseJsonBody(raw);
	if (typeof body !== 'string') return body ?? undefined;
	return cut(quotedText(redact, body.trim()), 300);
}

/**
 * The service's rules about a field named `file` ("Upload a valid image."), as opposed to an echoed
 * document: encoded data has no spaces.
 */
function isRuleText(value: unknown): boolean {
	const texts = Array.isArray(value) ? value : [value];
	return (
		texts.length > 0 &&
		texts.every((text) => typeof text === 'string' && text.length <= 300 && text.includes(' '))
	);
}

/**
 * A copy of an error answer fit to show and keep: every text redacted, an echoed document (`file`,
 * at any depth) and long strings left out, lists and objects bounded in size and depth.
 */
export function prunedErrorBody(value: unknown, redact: Redactor, depth = 0): unknown {
	if (typeof value === 'string') {
		return value.length > LONG_TEXT
			? `[long text left out: ${value.length} characters]`
			: quotedText(redact, value);
	}
	if (Array.isArray(value)) {
		if (depth >= MAX_DEPTH) return '[…]';
		return value.slice(0, MAX_ENTRIES).map((inner) => prunedErrorBody(inner, redact, depth + 1));
	}
	if (!isPlainObject(value)) return value;
	if (depth >= MAX_DEPTH) return '[…]';
	const result: Record<string, unknown> = {};
	for (const [key, inner] of Object.entries(value).slice(0, MAX_ENTRIES)) {
		if (key === 'file' && !isRuleText(inner)) continue;
		result[quotedText(redact, key)] = prunedErrorBody(inner, redact, depth + 1);
	}
	return result;
}

/**
 * What the error's details keep of a pruned answer: all of it when small, else its useful keys
 * (detail, message, errors...), else the start of its JSON text.
 */
function excerptOf(body: unknown): unknown {
	const text = JSON.stringify(body);
	if (text === undefined || text.length <= EXCERPT_LIMIT) return body;
	if (isPlainObject(body)) {
		const useful = Object.fromEntries(
			USEFUL_KEYS.filter((key) => key in body).map((key) => [key, body[key]]),
		);
		if (JSON.stringify(useful).length <= EXCERPT_LIMIT) return useful;
	}
	// half the limit: quotes in the text are escaped once more when the details are stored
	return { excerpt: cut(text, EXCERPT_LIMIT / 2 - 64) };
}

/** The service's own words: `detail` / `message` / `error` of the body. */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.startsWith('<') ? undefined : body;
	if (!isPlainObject(body)) return undefined;
	for (const key of ['detail', 'message', 'error', 'error_description', 'title']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
		if (isPlainObject(value) && typeof value.message === 'string') return value.message;
	}
	return undefined;
}

function flattenFieldErrors(value: unknown, prefix: string, out: string[]): void {
	if (typeof value === 'string') {
		out.push(`${prefix}: ${value}`);
	} else if (Array.isArray(value)) {
		const texts = value.filter((v) => typeof v === 'string') as string[];
		if (texts.length) out.push(`${prefix}: ${texts.join(' ')}`);
		value.forEach((v, i) => {
			if (typeof v !== 'string') flattenFieldErrors(v, `${prefix}[${i}]`, out);
		});
	} else if (isPlainObject(value)) {
		for (const [key, inner] of Object.entries(value)) {
			flattenFieldErrors(inner, prefix ? `${prefix}.${key}` : key, out);
		}
	}
}

/**
 * Field problems named by a 400 body: `{"errors": {"field": ["rule"]}}` or DRF's top-level
 * `{"field": ["rule"]}`. Returns e.g. `["lifetime: Ensure this value is less than or equal to 2592000."]`.
 */
export function fieldErrors(body: unknown): string[] {
	if (!isPlainObject(body)) return [];
	const out: string[] = [];
	if (isPlainObject(body.errors)) {
		flattenFieldErrors(body.errors, '', out);
	} else {
		const fields: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(body)) {
			if (['detail', 'message', 'code', 'status', 'error', 'errors'].includes(key)) continue;
			if (Array.isArray(value) || isPlainObject(value)) fields[key] = value;
		}
		flattenFieldErrors(fields, '', out);
	}
	return out;
}

// Wording the messages share.

/** The most of the service's words (or of its field rules) quoted in a message. */
export const QUOTE_LIMIT = 500;

const NOT_REPEATED =
	' The request was not repeated, because the service may already have processed it: check in the dashboard whether it went through before running again.';

const CREDENTIAL_DISPLAY_NAME: Record<SentAs, string> = {
	link: 'the file link',
	apiKey: 'Identity Verification API',
	kybFormToken: 'Identity Verification KYB Form Token API',
	// A given form token goes to the API credential's Base URL: messages about it name that credential.
	formToken: 'Identity Verification API',
};

/**
 * How messages name the credential: by the name the user gave it in n8n (n8n keeps it on the node,
 * `credentials[type].name`), else by its type.
 */
export function credentialLabel(auth: SentAs, ownName?: string): string {
	const name = typeof ownName === 'string' ? ownName.trim() : '';
	return name === '' ? CREDENTIAL_DISPLAY_NAME[auth] : name;
}

export function cut(text: string, limit: number): string {
	return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** Whether text ends a sentence itself (the service's words often do): no second full stop. */
function endsSentence(text: string): boolean {
	return /[.!?]$/.test(text);
}

/** `text` ended with a full stop, unless it ends a sentence already. */
function sentence(text: string): string {
	return endsSentence(text) ? text : `${text}.`;
}

/** The service's own words, to put before the advice; nothing when it said nothing. */
function quoted(text: string | undefined): string {
	if (!text) return '';
	return endsSentence(text) ? `The service said: "${text}" ` : `The service said: "${text}". `;
}

/** A duration as a person reads it: `200 ms`, `1.5 seconds`, `15 minutes`. */
function formatDuration(ms: number): string {
	if (ms < 1000) return `${ms} ms`;
	if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} minutes`;
	const seconds = Math.round(ms / 100) / 10;
	return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
