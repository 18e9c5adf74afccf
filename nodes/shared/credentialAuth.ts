/**
 * What the credentials add to a request, and the requests they refuse: a credential goes only to
 * its Base URL (its origin and, behind a gateway, its path), never in clear to another machine, and
 * no redirect takes it elsewhere. Each credential's `authenticate` runs this for every request that
 * uses it: the node's, its credential test's, and those of n8n's HTTP Request node, whose address
 * the user types.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';

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
}

/**
 * The request with `added` (the credential's header or `auth`), refused when it would take the
 * credential anywhere but its Base URL. Redirects are switched off: n8n sends the credential, and a
 * POST's body, on to wherever a redirect points.
 */
function withCredential(
	credentials: ICredentialDataDecryptedObject,
	options: CredentialRequestOptions,
	added: { auth?: IHttpRequestOptions['auth']; headers?: IDataObject },
): IHttpRequestOptions {
	assertSendable(credentials, options);
	const sent: CredentialRequestOptions = {
		...options,
		...(added.auth ? { auth: added.auth } : {}),
		...(added.headers ? { headers: { ...options.headers, ...added.headers } } : {}),
		disableFollowRedirect: true,
		followRedirect: false,
		followAllRedirects: false,
	};
	return sent;
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
