/**
 * The tests of the API and KYB form token credentials (the node's `testedBy`): a read of something
 * made up, which creates nothing, sent with the credential's own `authenticate`, and a failure told
 * in the words a run uses. A credential's declarative `test` cannot word a failure without an
 * answer: n8n shows only its network code (ENOTFOUND), or "Couldn't connect".
 */
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
	PLAIN_HTTP_MESSAGE,
} from '../../shared/urlGuards';
import {
	classifyNetworkError,
	cut,
	HEADERS_TIMEOUT_MS,
	joinUrl,
	makeRedactor,
	networkWords,
	QUOTE_LIMIT,
	secretsOf,
	webAddressOf,
} from '../transport';
import type { AuthMode, Redactor } from '../transport';

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
