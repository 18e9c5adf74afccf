/**
 * The credential tests (the action node's `testedBy` functions), run the way n8n's
 * CredentialsTester runs them (n8n-core's CredentialTestContext, over real HTTP) against the
 * sandbox: a right key passes, a wrong one, or a Base URL that cannot be reached, fails with a
 * message saying what to do, and the test never creates anything (only GETs reach the service).
 */

import type { ICredentialType } from 'n8n-workflow';
import { IdentityVerification } from '../../nodes/IdentityVerification/IdentityVerification.node';
import { getCredentialType, sandboxCredentials, testCredential } from '../harness/index.cjs';
import { freePort } from '../harness/net.cjs';
import type { Sandbox } from '../sandbox/index.cjs';
import { useSandboxCredentials } from './util.cjs';

let sb: Sandbox;
let creds: ReturnType<typeof sandboxCredentials>;
useSandboxCredentials((s, c) => ([sb, creds] = [s, c]));

/** The service's 403 body. */
const PERMISSION_DENIED = {
	detail: 'You do not have permission to perform this action.',
	code: 'permission_denied',
};

afterEach(() => {
	// A credential test must never create or change anything on the service
	expect(sb.requests.filter((r) => r.method !== 'GET')).toEqual([]);
});

describe('Identity Verification API credential', () => {
	test('passes for the right key pair', async () => {
		const result = await testCredential('identityVerificationApi', creds.identityVerificationApi);
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(sb.count({ method: 'GET', path: '/bank/verifications/' })).toBe(1);
		expect(sb.requests[0]).toMatchObject({ authScheme: 'basic', authorized: true, status: 404 });
	});

	test.each([
		['API secret', { apiSecret: 'not-the-secret' }],
		['API key', { apiKey: 'someone-elses-key' }],
	])('fails for a wrong %s, telling the user to copy the key pair again', async (_field, wrong) => {
		const result = await testCredential('identityVerificationApi', {
			...creds.identityVerificationApi,
			...wrong,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/API key or API secret is wrong/);
		expect(result.message).toMatch(/Settings → API Keys/);
		expect(sb.requests.length).toBeGreaterThan(0);
		expect(sb.requests.every((r) => r.status === 401)).toBe(true);
	});

	test.each([
		[
			'the service refuses the key (403)',
			{ status: 403, body: PERMISSION_DENIED },
			/refused this API key/,
		],
		[
			'the service has a server error',
			{ status: 500, times: Infinity },
			/internal problem \(HTTP 500\)/,
		],
		['rate limited', { status: 429, retryAfter: 1, times: Infinity }, /rate limiting/],
	])('fails with a clear message when %s', async (_name, fault, message) => {
		sb.faults.add({ method: 'GET', path: '/bank/', ...fault });
		const result = await testCredential('identityVerificationApi', creds.identityVerificationApi);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
	});

	test('fails when nothing listens at the Base URL, saying so in words (not only the network code)', async () => {
		const port = await freePort();
		const result = await testCredential('identityVerificationApi', {
			...creds.identityVerificationApi,
			baseUrl: `http://127.0.0.1:${port}`,
		});
		expect(result).toEqual({
			status: 'Error',
			message: `Could not connect to the service at http://127.0.0.1:${port}. Nothing accepted the connection. Check the Base URL in the credential (host name and port) and that the service is reachable from n8n. (network code: ECONNREFUSED)`,
		});
	});

	test('fails for a host that does not resolve, saying to check its spelling', async () => {
		const result = await testCredential('identityVerificationApi', {
			...creds.identityVerificationApi,
			baseUrl: 'https://ivs.idenfy.invalid',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The host of the Base URL could not be found \(https:\/\/ivs\.idenfy\.invalid\)\. Check the spelling of the Base URL in the credential, e\.g\. https:\/\/ivs\.idenfy\.com\. \(network code: (ENOTFOUND|EAI_AGAIN)\)$/,
		);
	});

	test('never shows the key, even where the Base URL holds it', async () => {
		const apiKey = 'leakedkey42';
		const result = await testCredential('identityVerificationApi', {
			...creds.identityVerificationApi,
			apiKey,
			baseUrl: `https://${apiKey}.invalid`,
		});
		expect(result.message).toMatch(/could not be found \(https:\/\/\[redacted\]\.invalid\)/);
		expect(result.message).not.toContain(apiKey);
	});

	test('fails, without sending anything, for a Base URL that is no web address', async () => {
		const result = await testCredential('identityVerificationApi', {
			...creds.identityVerificationApi,
			baseUrl: 'ivs.idenfy.com',
		});
		expect(result).toEqual({
			status: 'Error',
			message:
				'The Base URL is not a web address: "ivs.idenfy.com". Enter the address of the service starting with https://, e.g. https://ivs.idenfy.com',
		});
		expect(sb.requests).toEqual([]);
	});

	test('accepts a Base URL with trailing slashes or surrounding spaces', async () => {
		for (const baseUrl of [`${sb.url}/`, `${sb.url}//`, `  ${sb.url}  `]) {
			const result = await testCredential('identityVerificationApi', {
				...creds.identityVerificationApi,
				baseUrl,
			});
			expect(result.status).toBe('OK');
		}
		expect(sb.requests.map((r) => r.path)).toEqual(
			Array(3).fill(
				'/bank/verifications/00000000-0000-4000-8000-000000000000/accounts/00000000-0000-4000-8000-000000000000/transactions/',
			),
		);
	});
});

describe('Identity Verification KYB Form Token API credential', () => {
	test('passes for the right form token (sent as Bearer)', async () => {
		const result = await testCredential(
			'identityVerificationKybFormTokenApi',
			creds.identityVerificationKybFormTokenApi,
		);
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0]).toMatchObject({
			authScheme: 'bearer',
			authorized: true,
			path: expect.stringMatching(/^\/kyb\/forms\//),
		});
	});

	test('fails for a wrong form token', async () => {
		const result = await testCredential('identityVerificationKybFormTokenApi', {
			...creds.identityVerificationKybFormTokenApi,
			formToken: 'expired-token',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/KYB form token is wrong or has expired/);
	});

	test('passes when a valid token belongs to another form (403): the service knows the token', async () => {
		sb.faults.add({
			method: 'GET',
			path: '/kyb/',
			status: 403,
			body: PERMISSION_DENIED,
		});
		const result = await testCredential(
			'identityVerificationKybFormTokenApi',
			creds.identityVerificationKybFormTokenApi,
		);
		expect(result.status).toBe('OK');
	});

	test('fails when nothing listens at the Base URL, saying so in words', async () => {
		const port = await freePort();
		const result = await testCredential('identityVerificationKybFormTokenApi', {
			...creds.identityVerificationKybFormTokenApi,
			baseUrl: `http://127.0.0.1:${port}/`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not connect to the service at http:\/\/127\.0\.0\.1:\d+\./,
		);
	});
});

describe('credential definitions (what the user sees in n8n)', () => {
	const field = (type: string, name: string) =>
		getCredentialType(type).properties.find((p) => p.name === name);
	/** What the credential's authenticate function makes of a request, called as n8n calls it. */
	const authenticate = (type: ICredentialType, credentials: object, request: object) =>
		(type.authenticate as unknown as (c: object, o: object) => Promise<Record<string, unknown>>)(
			credentials,
			request,
		);

	/** n8n's switches (the current and the older request options) for not following redirects. */
	const NO_REDIRECTS = {
		disableFollowRedirect: true,
		followRedirect: false,
		followAllRedirects: false,
		sendCredentialsOnCrossOriginRedirect: false,
	};

	test('API key pair: masked key and secret, Base URL with the service default, HTTP Basic', async () => {
		const type = getCredentialType('identityVerificationApi');
		expect(type.displayName).toBe('Identity Verification API');
		expect(type.properties.map((p) => p.name)).toEqual(['apiKey', 'apiSecret', 'baseUrl']);
		expect(field('identityVerificationApi', 'apiSecret')?.typeOptions?.password).toBe(true);
		expect(field('identityVerificationApi', 'apiKey')?.description).toMatch(/Settings → API Keys/);
		expect(field('identityVerificationApi', 'baseUrl')?.default).toBe('https://ivs.idenfy.com');
		expect(field('identityVerificationApi', 'baseUrl')?.placeholder).toBe('https://ivs.idenfy.com');
		expect(typeof type.authenticate).toBe('function');
		await expect(
			authenticate(
				type,
				{ apiKey: 'k', apiSecret: 's', baseUrl: 'https://ivs.idenfy.com' },
				{ url: 'https://ivs.idenfy.com/a/', headers: { Accept: 'application/json' } },
			),
		).resolves.toEqual({
			url: 'https://ivs.idenfy.com/a/',
			headers: { Accept: 'application/json' },
			auth: { username: 'k', password: 's' },
			...NO_REDIRECTS,
		});
	});

	// n8n's "Add new credential" dialog filters the credential types by their display name only
	// (CredentialsSelectModal: displayName.toLowerCase().includes(query)); the editor's e2e test
	// searches the real dialog.
	// The product's names stay neutral: the README names the provider whose API the package follows.
	test.each(['identityVerificationApi', 'identityVerificationKybFormTokenApi'])(
		'%s has the product’s neutral name',
		(type) => {
			const { displayName } = getCredentialType(type);
			expect(displayName.toLowerCase()).not.toContain('idenfy');
			expect(displayName).toMatch(/^Identity Verification /);
		},
	);

	test('KYB form token: masked token sent as Bearer', async () => {
		const type = getCredentialType('identityVerificationKybFormTokenApi');
		expect(field('identityVerificationKybFormTokenApi', 'formToken')?.typeOptions?.password).toBe(
			true,
		);
		expect(typeof type.authenticate).toBe('function');
		await expect(
			authenticate(
				type,
				{ formToken: 't0k', baseUrl: 'https://ivs.idenfy.com' },
				{ url: '/a/', baseURL: 'https://ivs.idenfy.com', headers: { Accept: 'application/json' } },
			),
		).resolves.toEqual({
			url: '/a/',
			baseURL: 'https://ivs.idenfy.com',
			headers: { Accept: 'application/json', Authorization: 'Bearer t0k' },
			...NO_REDIRECTS,
		});
	});

	// n8n prefers a credential's own declarative `test`, which shows a failure without an answer as
	// its bare network code: the node's functions are used only when the credentials have none.
	test.each([
		['identityVerificationApi', 'identityVerificationApiTest'],
		['identityVerificationKybFormTokenApi', 'kybFormTokenTest'],
	])('%s is tested by the action node’s %s', (type, testedBy) => {
		expect(getCredentialType(type).test).toBeUndefined();
		const node = new IdentityVerification();
		expect(node.description.credentials?.find((c) => c.name === type)?.testedBy).toBe(testedBy);
		expect(typeof node.methods.credentialTest[testedBy as never]).toBe('function');
	});

	// n8n shows a field's `hint` under it; its `description` only behind the "?" next to the label.
	test.each([
		['identityVerificationApi', 'apiKey', [/provider’s dashboard/, /Settings → API Keys → Create/]],
		['identityVerificationApi', 'apiSecret', [/only then/, /create a new key/]],
		['identityVerificationApi', 'baseUrl', [/https:\/\/ivs\.idenfy\.com/, /white-label/]],
		['identityVerificationKybFormTokenApi', 'baseUrl', [/https:\/\/ivs\.idenfy\.com/]],
		[
			'identityVerificationKybFormTokenApi',
			'formToken',
			[/tokenString/, /KYB form token/, /POST \/kyb\/tokens\//, /provider’s dashboard/],
		],
		[
			'identityVerificationWebhookSigningApi',
			'signingSecret',
			[/Settings → Notifications/, /Each notification has its own key/, /not your API secret/],
		],
	])('%s %s says in visible text where its value comes from', (type, name, texts) => {
		const hint = field(type, name)?.hint ?? '';
		for (const text of texts) expect(hint).toMatch(text);
	});

	test('webhook signing key: the masked key and its header prefix, no request to the service', () => {
		const type = getCredentialType('identityVerificationWebhookSigningApi');
		expect(type.properties.map((p) => p.name)).toEqual([
			'testNotice',
			'signingSecret',
			'headerPrefix',
		]);
		expect(
			field('identityVerificationWebhookSigningApi', 'signingSecret')?.typeOptions?.password,
		).toBe(true);
		expect(type.authenticate).toBeUndefined();
		expect(type.test).toBeUndefined();
	});
});

describe('the webhook signing credential tells the truth where n8n shows it', () => {
	const type = () => getCredentialType('identityVerificationWebhookSigningApi');
	const prefix = () => type().properties.find((p) => p.name === 'headerPrefix');

	test('Header Prefix is empty by default (both the contract’s and the provider’s names) with a visible hint naming Idenfy', () => {
		expect(prefix()?.default).toBe('');
		expect(prefix()?.hint).toMatch(/Idenfy-Signature/);
		expect(prefix()?.hint).toMatch(/e\.g\. Idenfy/);
	});

	test('no text holds <…>: n8n renders descriptions and hints as HTML, where "<prefix>" vanishes', () => {
		for (const property of type().properties) {
			for (const text of [property.displayName, property.description, property.hint]) {
				expect(text ?? '').not.toMatch(/<[a-z]/i);
			}
		}
	});

	test('the form says what the Test button checks and what only a delivery shows (n8n shows no message for a passed test)', () => {
		const notice = type().properties.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/checks only that a key is entered/);
		expect(notice?.displayName).toMatch(/Only a delivery shows that it is the right key/);
	});
});
