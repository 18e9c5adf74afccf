import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
	IDataObject,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_BASE_URL } from '../nodes/shared/urlGuards';

/** A made-up UUID: reading something that does not exist is harmless and creates nothing. */
export const MADE_UP_ID = '00000000-0000-4000-8000-000000000000';

/** The service's address as the credential test sends it: trimmed, without trailing slashes. */
const TEST_BASE_URL = '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}';

/** The Base URL field of the credentials that call the service; `more` ends its description. */
export function baseUrlProperty(more: string): INodeProperties {
	return {
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		required: true,
		default: DEFAULT_BASE_URL,
		placeholder: DEFAULT_BASE_URL,
		hint: `The provider’s address is ${DEFAULT_BASE_URL}: keep it unless your provider gave you another one (a white-label deployment).`,
		description: `Address of the service, without a path such as /api/v2. ${more}`,
	};
}

/**
 * A credential test that reads something made up (`url`, built with MADE_UP_ID). Any status passes
 * except the failing ones, so the 404 a right credential gets counts as success, while the statuses
 * of `failing` (wrong credential, rate limit, server error) are reported with their messages.
 */
export function readMadeUpResource(
	url: string,
	failing: IAuthenticateRuleResponseCode[],
	qs?: IDataObject,
): ICredentialTestRequest {
	return {
		request: {
			method: 'GET',
			baseURL: TEST_BASE_URL,
			url,
			...(qs ? { qs } : {}),
			// Following a redirect would send the credential to wherever it points.
			disableFollowRedirect: true,
			ignoreHttpStatusErrors: {
				ignore: true,
				except: failing.map((rule) => rule.properties.value),
			},
		},
		rules: testRules(failing),
	};
}

/**
 * The statuses that make a credential test fail, each with a message saying what to do: the
 * credential's own messages for authentication statuses, then redirects (never followed), rate
 * limiting and server errors.
 * Every other status passes, notably the 404 a valid credential gets for a made-up id.
 */
export function failureRules(
	what: string,
	authentication: Record<number, string>,
): IAuthenticateRuleResponseCode[] {
	const rule = (value: number, message: string): IAuthenticateRuleResponseCode => ({
		type: 'responseCode',
		properties: { value, message },
	});
	return [
		...Object.entries(authentication).map(([status, message]) => rule(Number(status), message)),
		...Array.from({ length: 9 }, (_, i) =>
			rule(
				300 + i,
				`The Base URL answers with a redirect (HTTP ${300 + i}) to another address, so the ${what} was not sent there: check the Base URL and use the service's own https address (the right host, without an extra path)`,
			),
		),
		rule(
			429,
			'The service is rate limiting requests right now (429): wait a minute and test again',
		),
		...Array.from({ length: 12 }, (_, i) =>
			rule(
				500 + i,
				`The service had an internal problem (HTTP ${500 + i}), so the ${what} could not be checked. Try again in a few minutes`,
			),
		),
	];
}

/**
 * The test's rules: the failing statuses, then one for an answer that does not look like this
 * service. A right credential gets the service's JSON error (`{"detail": ...}`) for the made-up id;
 * a mistyped Base URL whose server answers with an HTML page, or nothing, has no `detail`.
 */
function testRules(statusRules: IAuthenticateRuleResponseCode[]): ICredentialTestRequest['rules'] {
	const notTheService: IAuthenticateRuleResponseSuccessBody = {
		type: 'responseSuccessBody',
		properties: {
			key: 'detail',
			value: undefined,
			message: `The server at the Base URL answered, but not like the identity verification service (no JSON answer for a made-up id): check the Base URL, e.g. ${DEFAULT_BASE_URL} without a path such as /api/v2`,
		},
	};
	// n8n runs both kinds of rule from one list, but types `rules` as a list of a single kind.
	return [...statusRules, notTheService] as ICredentialTestRequest['rules'];
}
