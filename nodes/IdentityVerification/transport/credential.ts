/**
 * The credential a request is sent with, and where the request may go. The credential is read once
 * per execution, credential and item; its Base URL is checked (a web address, never plain http://
 * to another machine); its secrets make the redactor every error passes through. Contract paths
 * are joined to the Base URL, and a link (e.g. a `next` page) is followed only when it stays under
 * it, so the credential is never sent anywhere else.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, ICredentialsDecrypted } from 'n8n-workflow';

import {
	credentialBaseUrl,
	DEFAULT_BASE_URL,
	isPlainHttpToAnotherMachine,
	isUnderBaseUrl,
	PLAIN_HTTP_MESSAGE,
	shownUrl,
} from '../../shared/urlGuards';
import { credentialLabel, makeRedactor } from './errors';
import type { Redactor } from './errors';
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
export function secretsOf(auth: AuthMode, data: ICredentialDataDecryptedObject): string[] {
	if (auth !== 'apiKey') return [String(data.formToken ?? '')];
	const key = String(data.apiKey ?? '');
	const secret = String(data.apiSecret ?? '');
	return [key, secret, Buffer.from(`${key}:${secret}`).toString('base64')];
}

/** The Base URL parsed, when it is an http(s) address. */
export function webAddressOf(baseUrl: string): URL | undefined {
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
