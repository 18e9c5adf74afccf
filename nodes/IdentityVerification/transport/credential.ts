/**
 * The credential a request is sent with: read once per execution, credential and item, its Base
 * URL checked (a web address, never plain http:// to another machine), and its secrets made into
 * the redactor every error passes through.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, ICredentialsDecrypted } from 'n8n-workflow';

import {
	credentialBaseUrl,
	DEFAULT_BASE_URL,
	isPlainHttpToAnotherMachine,
	PLAIN_HTTP_MESSAGE,
} from '../../shared/urlGuards';
import { CREDENTIAL_BY_AUTH } from './authModes';
import { credentialLabel } from './errors';
import { makeRedactor } from './redact';
import type { Redactor } from './redact';
import type { AuthMode, RequestContext } from './types';

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
 * costs n8n a database read, a decryption and an expression evaluation; without this every request
 * read it twice (here for the Base URL, then again inside httpRequestWithAuthentication), and every
 * page of a paginated list again. Keyed by item so credentials given as expressions still resolve per
 * item, as n8n's getCredentials(type, itemIndex) does. The WeakMap lets the execution context go.
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
	const parsed = checkedBaseUrl.call(this, label, baseUrl, redact, itemIndex);
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

/** The Base URL parsed; refused when it is no web address or would send the credential in clear. */
function checkedBaseUrl(
	this: RequestContext,
	name: string,
	baseUrl: string,
	redact: Redactor,
	itemIndex?: number,
): URL {
	const parsed = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
	if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
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
