import type { IAuthenticateRuleResponseCode } from 'n8n-workflow';

/** A made-up UUID: reading something that does not exist is harmless and creates nothing. */
export const MADE_UP_ID = '00000000-0000-4000-8000-000000000000';

/** The service's address as the credential test sends it: trimmed, without trailing slashes. */
export const TEST_BASE_URL = '={{String($credentials.baseUrl).trim().replace(/\\/+$/, "")}}';

/**
 * The statuses that make a credential test fail, each with a message saying what to do: the
 * credential's own messages for authentication statuses, then rate limiting and server errors.
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
