/**
 * What the credentials add to a request, and the requests they refuse: a credential goes only to
 * its Base URL (its origin and, behind a gateway, its path), never in clear to another machine, no
 * redirect or Host header takes it elsewhere, and only the API's methods carry it. Each
 * credential's `authenticate` runs this for every request that uses it: the node's, its credential
 * test's, and those of n8n's HTTP Request node, whose address the user types.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { isPlainObject } from './isPlainObject';
import {
	credentialBaseUrl,
	isPlainHttpToAnotherMachine,
	isUnderBaseUrl,
	PLAIN_HTTP_MESSAGE,
	shownUrl,
} from './urlGuards';

/**
 * Fields of n8n's older request options, which its HTTP Request node still hands to
 * `authenticate`: the address as `uri`, and its own switches for following redirects.
 */
interface OlderRequestFields {
	uri?: string | { toString(): string };
	followRedirect?: boolean;
	followAllRedirects?: boolean;
}

type CredentialRequestOptions = IHttpRequestOptions & OlderRequestFields;

/** axios' test for an address that ignores `baseURL`: a scheme, or `//`. */
const ABSOLUTE_ADDRESS = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/** Where the request goes: its address joined to `baseURL` the way axios joins them. */
function targetOf(options: CredentialRequestOptions): string {
	const address = String(options.url ?? options.uri ?? '');
	const base = options.baseURL;
	if (!base || ABSOLUTE_ADDRESS.test(address)) return address;
	return address ? `${base.replace(/\/?\/$/, '')}/${address.replace(/^\/+/, '')}` : base;
}

/** Throws, saying why, when the credential must not go with this request. */
function assertSendable(
	credentials: ICredentialDataDecryptedObject,
	options: CredentialRequestOptions,
): void {
	const target = targetOf(options);
	if (!URL.canParse(target)) {
		throw new Error(
			'The credential was not added: the request has no full web address (one starting with https://) to check against the credential’s Base URL',
		);
	}
	if (isPlainHttpToAnotherMachine(new URL(target))) throw new Error(PLAIN_HTTP_MESSAGE);
	const baseUrl = credentialBaseUrl(credentials);
	if (!URL.canParse(baseUrl)) {
		throw new Error(
			`The credential was not added: its Base URL is not a web address ("${baseUrl.slice(0, 200)}"). Enter the service's address starting with https://`,
		);
	}
	if (!isUnderBaseUrl(baseUrl, target)) {
		throw new Error(
			`The credential is only sent to its Base URL (${shownUrl(baseUrl)}), so the request to ${shownUrl(target)} was not sent. Use an address that starts with the Base URL, or change the Base URL in the credential.`,
		);
	}
	assertNotRerouted(baseUrl, options.headers);
	assertSendableMethod(options.method);
}

/**
 * Headers that make the front end at the Base URL (nginx, an ingress, a gateway) route the request
 * to another site or path than its address says, credential included. Lower case.
 */
const REROUTING_HEADERS = new Set([
	'host',
	'x-forwarded-host',
	'forwarded',
	'x-original-url',
	'x-rewrite-url',
	'x-original-host',
	'x-forwarded-server',
	'x-host',
	'x-http-host-override',
]);

/**
 * The header names of a request, in every form axios takes headers: an object (with its `common`
 * and per-method sections, which axios merges in), key-value pairs, a Map, a raw header block.
 */
function headerNames(headers: unknown): string[] {
	if (typeof headers === 'string') return headers.split('\n').map((line) => line.split(':')[0]);
	if (typeof headers !== 'object' || headers === null) return [];
	const entries: unknown[] =
		Symbol.iterator in headers ? [...(headers as Iterable<unknown>)] : Object.entries(headers);
	return entries.flatMap((entry) => {
		const [name, value] = Array.isArray(entry) ? (entry as unknown[]) : [entry];
		return [String(name).trim(), ...(isPlainObject(value) ? headerNames(value) : [])];
	});
}

/** Throws, naming the header, when a header would send the credential to another site. */
function assertNotRerouted(baseUrl: string, headers: unknown): void {
	const name = headerNames(headers).find((header) => REROUTING_HEADERS.has(header.toLowerCase()));
	if (name === undefined) return;
	throw new Error(
		`The credential was not added: the request sets the ${name} header, which can make the server at the Base URL hand the request, credential included, to another site. Remove the ${name} header from the node: the credential goes only to its Base URL (${shownUrl(baseUrl)}).`,
	);
}

/**
 * The methods the service's API is called with. Any other is refused: a server that answers TRACE
 * echoes the request, Authorization included, back into the answer.
 */
const SENDABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Throws, naming the method, unless it is one of SENDABLE_METHODS in any letter case. */
function assertSendableMethod(method: unknown): void {
	// axios sends a request without a method (or with an empty one) as a GET.
	if (SENDABLE_METHODS.includes(String(method || 'GET').toUpperCase())) return;
	throw new Error(
		`The credential was not added: the request method "${String(method).slice(0, 40)}" is not one the credential is sent with (GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS). Choose one of those as the node's Method.`,
	);
}

/**
 * Request options that would let something other than the service see the credential: a proxy the
 * user names (it sees the Authorization header, in clear or through certificate checks switched
 * off or trusting the user's own CA), or an agent of the user's. Each with the words of the HTTP
 * Request node option that sets it. The administrator's proxy (HTTP(S)_PROXY) is n8n's own setting
 * and is not on a request.
 */
const UNSAFE_OPTIONS: Array<[string, (options: IDataObject) => boolean]> = [
	['Proxy', (options) => Boolean(options.proxy)],
	[
		'Ignore SSL Issues',
		(options) =>
			options.rejectUnauthorized === false || options.skipSslCertificateValidation === true,
	],
	[
		'SSL Certificates (its own CA, certificate or agent options)',
		(options) => hasEntries(options.agentOptions),
	],
	[
		'its own HTTP agent',
		(options) => Boolean(options.agent ?? options.httpAgent ?? options.httpsAgent),
	],
];

function hasEntries(value: unknown): boolean {
	return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

/** Throws, naming the option, when the request would show the credential to someone in between. */
function assertDirect(options: CredentialRequestOptions): void {
	const unsafe = UNSAFE_OPTIONS.find(([, isSet]) => isSet(options as unknown as IDataObject));
	if (!unsafe) return;
	throw new Error(
		`The credential was not added: the request uses ${unsafe[0]}, which would let a server between n8n and the service read it. Remove that option from the node: the credential goes only straight to its Base URL, with certificate checks on (a proxy the n8n administrator sets for all of n8n still applies).`,
	);
}

/**
 * The fields of a request the credential may go with: where it goes, what it sends, how the answer
 * is read. Anything else a node puts on the request (proxies, agents, certificate switches, fields
 * n8n adds later) is left behind, so it cannot weaken where the credential goes.
 */
const REQUEST_FIELDS = [
	'url',
	'uri',
	'baseURL',
	'method',
	'headers',
	'qs',
	'qsStringifyOptions',
	'useQuerystring',
	'arrayFormat',
	'body',
	'form',
	'formData',
	'json',
	'gzip',
	'encoding',
	'useStream',
	'returnFullResponse',
	'resolveWithFullResponse',
	'simple',
	'ignoreHttpStatusErrors',
	'timeout',
	'abortSignal',
	'allowedDomains',
] as const;

/**
 * The request with `added` (the credential's header or `auth`), refused when it would take the
 * credential anywhere but its Base URL. Built from REQUEST_FIELDS only; redirects are switched off:
 * n8n sends the credential, and a POST's body, on to wherever a redirect points.
 */
function withCredential(
	credentials: ICredentialDataDecryptedObject,
	options: CredentialRequestOptions,
	added: { auth?: IHttpRequestOptions['auth']; headers?: IDataObject },
): IHttpRequestOptions {
	assertSendable(credentials, options);
	assertDirect(options);
	const sent: IDataObject = {};
	for (const field of REQUEST_FIELDS) {
		const value = (options as unknown as IDataObject)[field];
		if (value !== undefined) sent[field] = value;
	}
	if (added.auth) sent.auth = added.auth;
	if (added.headers) sent.headers = { ...options.headers, ...added.headers };
	return {
		...(sent as unknown as IHttpRequestOptions),
		disableFollowRedirect: true,
		followRedirect: false,
		followAllRedirects: false,
		sendCredentialsOnCrossOriginRedirect: false,
	} as IHttpRequestOptions;
}

/** The API key pair as HTTP Basic: key as user, secret as password. */
export async function authenticateWithApiKey(
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return withCredential(credentials, options, {
		auth: {
			username: String(credentials.apiKey ?? ''),
			password: String(credentials.apiSecret ?? ''),
		},
	});
}

/** The KYB form token as `Authorization: Bearer <tokenString>`. */
export async function authenticateWithFormToken(
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return withCredential(credentials, options, {
		headers: { Authorization: `Bearer ${String(credentials.formToken ?? '')}` },
	});
}
