/**
 * The credential a request is sent with, and where the request may go. The credential is read once
 * per execution, credential and item; its Base URL is checked (a web address, never plain http://
 * to another machine); its secrets make the redactor every error passes through. Contract paths
 * are joined to the Base URL, and a link (e.g. a `next` page) is followed only when it stays under
 * it, so the credential is never sent anywhere else. Last, the node's credential tests.
 */
import { NodeOperationError } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IHttpRequestOptions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { authenticateWithApiKey, authenticateWithFormToken } from '../../shared/credentialAuth';
import { isPlainObject } from '../../shared/isPlainObject';
import {
	credentialBaseUrl,
	DEFAULT_BASE_URL,
	isPlainHttpToAnotherMachine,
	isUnderBaseUrl,
	PLAIN_HTTP_MESSAGE,
	shownUrl,
} from '../../shared/urlGuards';
import { classifyNetworkError, credentialLabel, cut, networkWords, QUOTE_LIMIT } from './errors';
import { makeRedactor } from './redact';
import type { Redactor } from './redact';
import { HEADERS_TIMEOUT_MS } from './limits';
import type { ApiRequest, AuthMode, RequestContext } from './types';

/** The n8n credential type of each way of authenticating. */
const CREDENTIAL_BY_AUTH: Record<AuthMode, string> = {
	apiKey: 'identityVerificationApi',
	kybFormToken: 'identityVerificationKybFormTokenApi',
};

export interface ResolvedCredential {
	baseUrl: string;
	/** `https://host[:port]` of the Base URL: where path-only links go. */
	origin: string;
	redact: Redactor;
	/** How messages name the credential: the name the user gave it, else its type. */
	label: string;
	/** What `redact` takes out, for a request that adds its own (see ApiRequest.secrets). */
	secrets: string[];
	/** Handed to httpRequestWithAuthentication so n8n does not read and decrypt it a second time. */
	decrypted: ICredentialsDecrypted;
}

/**
 * Credentials read during one execution of the node, per credential and item. Reading a credential
 * costs n8n a database read, a decryption and an expression evaluation; without the cache every
 * request would read it twice (here for the Base URL, then inside httpRequestWithAuthentication),
 * and every page of a paginated list again. Keyed by item so credentials given as expressions
 * still resolve per item, as n8n's getCredentials(type, itemIndex) does. The WeakMap lets the
 * execution context go.
 */
const credentialCache = new WeakMap<object, Map<string, Promise<ResolvedCredential>>>();

export async function resolveCredential(
	this: RequestContext,
	auth: AuthMode,
	itemIndex?: number,
): Promise<ResolvedCredential> {
	const perContext = credentialCache.get(this) ?? new Map<string, Promise<ResolvedCredential>>();
	credentialCache.set(this, perContext);
	const key = `${auth}:${itemIndex ?? 0}`;
	let resolved = perContext.get(key);
	if (!resolved) {
		resolved = readCredential.call(this, auth, itemIndex);
		perContext.set(key, resolved);
		// A failed read (e.g. a bad Base URL) is not kept: the next item reads it again.
		resolved.catch(() => perContext.delete(key));
	}
	return await resolved;
}

/**
 * A KYB form token the node was given (its Form Token field), as a credential: sent as the KYB form
 * token credential sends it (`authenticate`: Bearer, only under the Base URL, no redirect), to the
 * API credential's Base URL, and taken out of every error as that credential's secrets are.
 */
export async function givenFormToken(
	this: RequestContext,
	formToken: string,
	itemIndex?: number,
): Promise<ResolvedCredential> {
	const api = await resolveCredential.call(this, 'apiKey', itemIndex);
	const secrets = [...api.secrets, formToken];
	const type = CREDENTIAL_BY_AUTH.kybFormToken;
	const data = { formToken, baseUrl: api.baseUrl };
	return {
		...api,
		secrets,
		redact: makeRedactor(secrets),
		decrypted: { id: '', name: '', type, data },
	};
}

/** The credential's base URL without trailing slashes. */
export async function getBaseUrl(this: RequestContext, auth: AuthMode): Promise<string> {
	return (await resolveCredential.call(this, auth)).baseUrl;
}

async function readCredential(
	this: RequestContext,
	auth: AuthMode,
	itemIndex?: number,
): Promise<ResolvedCredential> {
	const type = CREDENTIAL_BY_AUTH[auth];
	const data = await this.getCredentials(type, itemIndex ?? 0);
	const baseUrl = credentialBaseUrl(data);
	const secrets = secretsOf(auth, data);
	const redact = makeRedactor(secrets);
	const label = credentialLabel(auth, this.getNode().credentials?.[type]?.name);
	const parsed = parseBaseUrl.call(this, label, baseUrl, redact, itemIndex);
	const decrypted = { id: '', name: '', type, data };
	return { baseUrl, origin: parsed.origin, label, redact, secrets, decrypted };
}

/** Every form a secret may take in a message: the key, the secret, and both as Basic auth. */
function secretsOf(auth: AuthMode, data: ICredentialDataDecryptedObject): string[] {
	if (auth !== 'apiKey') return [String(data.formToken ?? '')];
	const key = String(data.apiKey ?? '');
	const secret = String(data.apiSecret ?? '');
	return [key, secret, Buffer.from(`${key}:${secret}`).toString('base64')];
}

/** The Base URL parsed, when it is an http(s) address. */
function webAddressOf(baseUrl: string): URL | undefined {
	const parsed = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
	return parsed?.protocol === 'https:' || parsed?.protocol === 'http:' ? parsed : undefined;
}

/** The Base URL parsed; refused when it is no web address or would send the credential in clear. */
function parseBaseUrl(
	this: RequestContext,
	name: string,
	baseUrl: string,
	redact: Redactor,
	itemIndex?: number,
): URL {
	const parsed = webAddressOf(baseUrl);
	if (!parsed) {
		throw new NodeOperationError(
			this.getNode(),
			`The Base URL in the credential "${name}" is not a web address: "${redact(baseUrl)}"`,
			{
				itemIndex,
				description: `Enter the address of the service starting with https://, e.g. ${DEFAULT_BASE_URL}`,
			},
		);
	}
	if (isPlainHttpToAnotherMachine(parsed)) {
		throw new NodeOperationError(
			this.getNode(),
			`The Base URL in the credential "${name}" starts with http://, so the request was not sent`,
			{ itemIndex, description: PLAIN_HTTP_MESSAGE },
		);
	}
	return parsed;
}

// Where a request may go.

/** Joins the base URL and a contract path: one slash between them, the path's trailing slash kept. */
export function joinUrl(baseUrl: string, path: string): string {
	const base = baseUrl.trim().replace(/\/+$/, '');
	const tail = path.startsWith('/') ? path : `/${path}`;
	return `${base}${tail}`;
}

/** Refuses a URL (e.g. a pagination link) that would send the credential outside the Base URL. */
export function assertUnderBaseUrl(
	this: RequestContext,
	baseUrl: string,
	url: string,
	itemIndex?: number,
): void {
	if (isUnderBaseUrl(baseUrl, url)) return;
	throw new NodeOperationError(
		this.getNode(),
		`Refused to follow a link to ${shownUrl(url)}: it is not under the service's address (${shownUrl(baseUrl)})`,
		{
			itemIndex,
			description:
				'The service answered with a link outside the Base URL of the credential (another host, or another path on the same host). The credential is only ever sent under the Base URL, so the request was not made.',
		},
	);
}

/**
 * The URL a request goes to: its contract path under the Base URL, or its link (a path-only link
 * is on the Base URL's origin), refused when that is not under the Base URL.
 */
export function requestUrl(
	this: RequestContext,
	req: ApiRequest,
	service: { baseUrl: string; origin: string },
): string {
	if (req.url === undefined) return joinUrl(service.baseUrl, req.path ?? '/');
	const url = req.url.startsWith('/') ? `${service.origin}${req.url}` : req.url;
	assertUnderBaseUrl.call(this, service.baseUrl, url, req.itemIndex);
	return url;
}

// The tests of the API and KYB form token credentials (the node's `testedBy`): a read of something
// made up, which creates nothing, sent with the credential's own `authenticate`, and a failure told
// in the words a run uses. A credential's declarative `test` cannot word a failure without an
// answer: n8n shows only its network code (ENOTFOUND), or "Couldn't connect".

/** A made-up UUID: reading something that does not exist is harmless and creates nothing. */
const MADE_UP_ID = '00000000-0000-4000-8000-000000000000';

interface CredentialCheck {
	auth: AuthMode;
	/** Something made up to read: a right credential gets the service's 404 (or 403) for it. */
	path: string;
	qs?: IDataObject;
	/** What is checked, in the messages: `key`, `token`. */
	what: string;
	/** The statuses that mean a wrong credential, with what to do about each. */
	refused: Record<number, string>;
}

const CHECKS: Record<AuthMode, CredentialCheck> = {
	// A right key pair gets 404 (no such verification), a wrong one 401 or 403.
	apiKey: {
		auth: 'apiKey',
		path: `/bank/verifications/${MADE_UP_ID}/accounts/${MADE_UP_ID}/transactions/`,
		qs: { page: 1, perPage: 1 },
		what: 'key',
		refused: {
			401: 'The API key or API secret is wrong: copy both again from the dashboard (Settings → API Keys) and check that the key has not been deleted',
			403: 'The service recognised the request but refused this API key (403): check in the dashboard (Settings → API Keys) that the key is active and allowed to use the API',
		},
	},
	// A token the service knows gets 404 (no such form) or 403 (the token is another form's): both
	// prove it valid. 401 means the service does not know the token.
	kybFormToken: {
		auth: 'kybFormToken',
		path: `/kyb/forms/${MADE_UP_ID}/questionnaires/${MADE_UP_ID}/answers/`,
		what: 'token',
		refused: {
			401: 'The KYB form token is wrong or has expired: generate a new form token for the company and paste its tokenString here',
		},
	},
};

const AUTHENTICATE: Record<
	AuthMode,
	(
		data: ICredentialDataDecryptedObject,
		options: IHttpRequestOptions,
	) => Promise<IHttpRequestOptions>
> = {
	apiKey: authenticateWithApiKey,
	kybFormToken: authenticateWithFormToken,
};

/** What n8n's request helper answers with `resolveWithFullResponse` and `simple: false`. */
interface TestAnswer {
	statusCode: number;
	body?: unknown;
}

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** Why the Base URL cannot be tested, if it cannot. */
function baseUrlProblem(baseUrl: string): string | undefined {
	const parsed = webAddressOf(baseUrl);
	if (!parsed) {
		return `The Base URL is not a web address: "${cut(baseUrl, 200)}". Enter the address of the service starting with https://, e.g. ${DEFAULT_BASE_URL}`;
	}
	return isPlainHttpToAnotherMachine(parsed) ? PLAIN_HTTP_MESSAGE : undefined;
}

/** The made-up read, in n8n's older request options (a credential test gets only `request`). */
function testRequest(check: CredentialCheck, baseUrl: string): IHttpRequestOptions {
	const options = {
		method: 'GET',
		uri: joinUrl(baseUrl, check.path),
		...(check.qs ? { qs: check.qs } : {}),
		headers: { Accept: 'application/json' },
		json: true,
		resolveWithFullResponse: true,
		// Every status is an answer here: the rules below say which ones fail the test.
		simple: false,
		timeout: HEADERS_TIMEOUT_MS,
	};
	return options as unknown as IHttpRequestOptions;
}

/** The test's result for the service's answer. */
function resultOfAnswer(check: CredentialCheck, answer: TestAnswer): INodeCredentialTestResult {
	const status = answer.statusCode;
	if (status >= 300 && status < 400) {
		return failed(
			`The Base URL answers with a redirect (HTTP ${status}) to another address, so the ${check.what} was not sent there: check the Base URL and use the service's own https address (the right host, without an extra path)`,
		);
	}
	const refused = check.refused[status];
	if (refused) return failed(refused);
	if (status === 429) {
		return failed(
			'The service is rate limiting requests right now (429): wait a minute and test again',
		);
	}
	if (status >= 500) {
		return failed(
			`The service had an internal problem (HTTP ${status}), so the ${check.what} could not be checked. Try again in a few minutes`,
		);
	}
	// The service answers a made-up id with its JSON error ({"detail": ...}); a mistyped Base URL's
	// server with an HTML page, or nothing.
	if (!isPlainObject(answer.body) || answer.body.detail === undefined) {
		return failed(
			`The server at the Base URL answered, but not like the identity verification service (no JSON answer for a made-up id): check the Base URL, e.g. ${DEFAULT_BASE_URL} without a path such as /api/v2`,
		);
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/**
 * The words for a request that got no answer: those of a run, else what went wrong, redacted
 * before they are cut (a secret across the cut would otherwise show in part).
 */
function noAnswerText(error: unknown, baseUrl: string, redact: Redactor): string {
	const network = classifyNetworkError(error);
	if (!network) {
		const text = error instanceof Error ? error.message : String(error);
		return `The test request could not be sent: ${cut(redact(text), QUOTE_LIMIT)}`;
	}
	const { message, description } = networkWords({
		...network,
		origin: new URL(baseUrl).origin,
		method: 'GET',
		repeatable: true,
		attempts: 1,
		timeoutMs: HEADERS_TIMEOUT_MS,
	});
	return redact(`${message}. ${description}`);
}

async function testCredential(
	helpers: ICredentialTestFunctions['helpers'],
	check: CredentialCheck,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const baseUrl = credentialBaseUrl(data);
	const problem = baseUrlProblem(baseUrl);
	if (problem) return failed(problem);
	const redact = makeRedactor(secretsOf(check.auth, data));
	let answer: TestAnswer;
	try {
		const options = await AUTHENTICATE[check.auth](data, testRequest(check, baseUrl));
		answer = (await helpers.request(options)) as TestAnswer;
	} catch (error) {
		return failed(noAnswerText(error, baseUrl, redact));
	}
	return resultOfAnswer(check, answer);
}

/** The node's `methods.credentialTest` for the two credentials that call the service. */
export const serviceCredentialTests = {
	async identityVerificationApiTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		return await testCredential(this.helpers, CHECKS.apiKey, credential.data ?? {});
	},

	async kybFormTokenTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		return await testCredential(this.helpers, CHECKS.kybFormToken, credential.data ?? {});
	},
};
