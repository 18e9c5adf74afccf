/**
 * What an HTTP error answer tells the user, chosen from a table by status, then by status class:
 * each entry is a small function giving the message and the advice that follows the service's words.
 */
import { credentialLabel } from '../authModes';
import type { ApiMethod, AuthMode } from '../types';
import { fieldErrors } from './serviceWords';
import { cut, QUOTE_LIMIT, sentence } from './wording';

/** What a hint may depend on. */
export interface HintInput {
	status: number;
	method: ApiMethod;
	attempts: number;
	auth: AuthMode;
	/** The name the user gave the credential, if n8n gave it. */
	credentialName?: string;
	/** The error answer, pruned and redacted. */
	body: unknown;
	/** What a 404 means for this request (the request's own words), if it says. */
	notFound?: Hint;
}

export interface Hint {
	message: string;
	/** What to do, after the quote of the service's own words. */
	advice: string;
}

type HintRule = (input: HintInput) => Hint;

const DASHBOARD_KEYS_HINT = 'the dashboard (Settings → API Keys → Create)';

function triesText(attempts: number): string {
	return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

function credentialName({ auth, credentialName: ownName }: HintInput): string {
	return `"${credentialLabel(auth, ownName)}"`;
}

/** 400 and 422: the fields the service named, if it named any. */
const rejectedFields: HintRule = ({ status, body }) => {
	const fields = cut(fieldErrors(body).join('; '), QUOTE_LIMIT);
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

const UNAUTHORISED: Record<AuthMode, HintRule> = {
	apiKey: (input) => ({
		message: `The service did not accept the API key and API secret (HTTP 401)`,
		advice: `Open the credential ${credentialName(input)} and paste the API Key and API Secret again from ${DASHBOARD_KEYS_HINT}. Sandbox and production keys are different; check the key has not been deleted.`,
	}),
	kybFormToken: (input) => ({
		message: `The service did not accept the KYB form token (HTTP 401)`,
		advice: `The token in the credential ${credentialName(input)} is wrong or has expired: generate a new KYB form token and paste its tokenString, or use the Identity Verification API credential instead.`,
	}),
};

const FORBIDDEN_ADVICE: Record<AuthMode, string> = {
	apiKey: `The API key was recognised but is not allowed to do this. Check the key's permissions in ${DASHBOARD_KEYS_HINT}, or ask the provider's support to enable this product for your account.`,
	kybFormToken:
		'A KYB form token only works for the form it was generated for: check the Company ID / Form ID, or use the Identity Verification API credential.',
};

/** 5xx: a POST is not repeated (it may have been processed), GET and DELETE were retried. */
const serverProblem: HintRule = ({ status, method, attempts }) =>
	method === 'POST'
		? {
				message: `The service had an internal problem (HTTP ${status})`,
				advice:
					'The request was sent once and not repeated, because the service may already have processed it. Check in the dashboard whether it went through before running again.',
			}
		: {
				message: `The service had an internal problem (HTTP ${status}) on all ${triesText(attempts)}`,
				advice:
					'This is on the service side. Try again later; if it keeps happening, contact the provider’s support with the time of this run.',
			};

const otherStatus: HintRule = ({ status }) => ({
	message: `The service rejected the request (HTTP ${status})`,
	advice: 'Check the values entered in the node and the Base URL of the credential.',
});

const BY_STATUS: Partial<Record<number, HintRule>> = {
	400: rejectedFields,
	401: (input) => UNAUTHORISED[input.auth](input),
	403: ({ auth }) => ({
		message: `The service refused access to this resource (HTTP 403)`,
		advice: FORBIDDEN_ADVICE[auth],
	}),
	404: ({ notFound }) =>
		notFound ?? {
			message: `Not found (HTTP 404): the service has nothing with the ID(s) given`,
			advice:
				'Check the IDs entered in the node (they must belong to the account of this credential: sandbox and production keys see different data). Also check that the Base URL in the credential has no extra path such as /api/v2.',
		},
	422: rejectedFields,
	429: ({ attempts }) => ({
		message: `The service's request limit was reached (HTTP 429): it still refused after ${triesText(attempts)}`,
		advice:
			'The service allows a set number of requests per hour (10,000 by default). Send fewer: in List Transactions lower Max Parallel Requests or use Limit instead of Return All, process fewer items per run, or run the workflow (or its schedule) later. To have n8n run the node again by itself, turn on Retry On Fail in the node’s Settings.',
	}),
};

/** The statuses the table does not name, by class: server problems, and everything else. */
function byClass(status: number): HintRule {
	return status >= 500 ? serverProblem : otherStatus;
}

export function httpHint(input: HintInput): Hint {
	const rule = BY_STATUS[input.status] ?? byClass(input.status);
	return rule(input);
}
