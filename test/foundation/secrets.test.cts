/**
 * No error a user, a log or the execution data can see carries the API key, the API secret, the
 * base64 of `key:secret`, or the KYB bearer token: checked on the very object the node threw (JSON, its
 * description/cause/context, util.inspect with hidden fields) and on the run data n8n would store.
 */
import { inspect } from 'node:util';

import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { registerNodeType, runNode } from '../harness/index.cjs';
import { freePort } from '../harness/net.cjs';
import type { RunNodeResult } from '../harness/index.cjs';
import { TRANSPORT_PROBE, TransportProbe } from '../harness/fixtures/transport-probe.node.cjs';
import { SEED } from '../sandbox/index.cjs';
import type { Sandbox } from '../sandbox/index.cjs';
import { useSandboxCredentials } from './util.cjs';

const API_KEY = 'key-ABCD-1234';
const API_SECRET = 'S3cr3t-Value-9f8e7d';
const WRONG_SECRET = 'Wr0ng-Secret-4c3b2a';
const FORM_TOKEN = 'Form-T0ken-77aa55';
const WRONG_TOKEN = 'Bad-F0rm-T0ken-88bb';
const b64 = (key: string, secret: string) => Buffer.from(`${key}:${secret}`).toString('base64');

const FORBIDDEN = [
	API_KEY,
	API_SECRET,
	WRONG_SECRET,
	b64(API_KEY, API_SECRET),
	b64(API_KEY, WRONG_SECRET),
	FORM_TOKEN,
	WRONG_TOKEN,
];

const TX = `/bank/verifications/${SEED.bank.verificationId}/accounts/${SEED.bank.accountId}/transactions/`;
const ANSWERS = `/kyb/forms/${SEED.kyb.companyId}/questionnaires/${SEED.kyb.questionnaireId}/answers/`;

let sb: Sandbox;
let creds: Record<string, ICredentialDataDecryptedObject>;

useSandboxCredentials((s, c) => ([sb, creds] = [s, c]), {
	apiKey: API_KEY,
	apiSecret: API_SECRET,
	kybFormToken: FORM_TOKEN,
});
beforeAll(() => {
	registerNodeType(TRANSPORT_PROBE, new TransportProbe());
});

/** Every view of the failure someone could get to see. */
function exposures(result: RunNodeResult): string[] {
	const error = result.error as (Error & Record<string, unknown>) | undefined;
	expect(error).toBeDefined();
	const e = error!;
	return [
		e.message,
		String(e.description ?? ''),
		String(e.stack ?? ''),
		JSON.stringify(e),
		JSON.stringify({
			description: e.description,
			context: e.context,
			errorResponse: e.errorResponse,
			messages: e.messages,
			httpCode: e.httpCode,
			cause: e.cause,
		}),
		inspect(e.cause, { depth: 10, showHidden: true }),
		inspect(e, { depth: 10, showHidden: true }),
		inspect(result.run.data, { depth: 20 }),
		JSON.stringify(result.items),
	];
}

function expectNoSecrets(result: RunNodeResult): void {
	for (const text of exposures(result)) {
		for (const secret of FORBIDDEN) {
			expect(text.includes(secret) ? `${secret} leaked in: ${text.slice(0, 400)}` : 'clean').toBe(
				'clean',
			);
		}
	}
}

const probe = (parameters: INodeParameters, credentials = creds) =>
	runNode({ node: TRANSPORT_PROBE, parameters, credentials });

const wrongSecret = () => ({
	identityVerificationApi: { ...creds.identityVerificationApi, apiSecret: WRONG_SECRET },
});

describe('errors never carry a secret', () => {
	test('401 for a wrong API secret', async () => {
		const result = await probe({ path: TX }, wrongSecret());
		expect(result.error?.httpCode).toBe('401');
		expectNoSecrets(result);
	});

	test('404 with the right key pair', async () => {
		const result = await probe({ path: '/bank/verifications/x/accounts/y/transactions/' });
		expect(result.error?.httpCode).toBe('404');
		expectNoSecrets(result);
	});

	test('400 for a POST with invalid fields', async () => {
		const result = await probe({
			method: 'POST',
			path: '/bank/tokens/',
			body: '{"bank":"' + 'x'.repeat(40) + '"}',
		});
		expect(result.error?.httpCode).toBe('400');
		expectNoSecrets(result);
	});

	test('500 on a POST (not repeated) and on a GET (after all retries)', async () => {
		sb.faults.add({ method: 'POST', path: '/bank/tokens/', status: 500 });
		expectNoSecrets(await probe({ method: 'POST', path: '/bank/tokens/', body: '{}' }));
		sb.faults.add({ method: 'GET', path: TX, status: 502, times: Infinity });
		expectNoSecrets(await probe({ path: TX, maxRetries: 1 }));
	});

	test('429 after all retries', async () => {
		sb.faults.add({ method: 'GET', path: TX, status: 429, retryAfter: 0, times: Infinity });
		expectNoSecrets(await probe({ path: TX, maxRetries: 1 }));
	});

	test('a service that echoes the Authorization header and the secret in its error body', async () => {
		sb.faults.add({
			method: 'GET',
			path: TX,
			status: 400,
			body: {
				detail: `Rejected Authorization: Basic ${b64(API_KEY, API_SECRET)}`,
				errors: { apiSecret: [`${API_SECRET} is not allowed`] },
			},
		});
		const result = await probe({ path: TX });
		expect(result.error?.message).toMatch(/\[redacted\]/);
		expectNoSecrets(result);
	});

	test('a service that echoes the API key alone in its error body', async () => {
		sb.faults.add({
			method: 'GET',
			path: TX,
			status: 403,
			body: {
				detail: `The key ${API_KEY} may not read this`,
				errors: { key: [`${API_KEY} is disabled`] },
				request: { apiKey: API_KEY },
			},
		});
		const result = await probe({ path: TX });
		expect(result.error?.description).toMatch(/The key \[redacted\] may not read this/);
		expectNoSecrets(result);
	});

	test('a dropped connection, a timeout and a refused connection', async () => {
		sb.faults.add({ method: 'POST', path: '/bank/tokens/', drop: true });
		expectNoSecrets(await probe({ method: 'POST', path: '/bank/tokens/', body: '{}' }));

		sb.faults.add({ method: 'GET', path: TX, latencyMs: 600 });
		expectNoSecrets(await probe({ path: TX, maxRetries: 0, timeoutMs: 100 }));
		await new Promise((resolve) => setTimeout(resolve, 600));

		const port = await freePort();
		expectNoSecrets(
			await probe(
				{ path: TX, maxRetries: 0 },
				{
					identityVerificationApi: {
						...creds.identityVerificationApi,
						baseUrl: `http://127.0.0.1:${port}`,
					},
				},
			),
		);
	});

	test('a link to another host and a Base URL with the secret typed into it', async () => {
		expectNoSecrets(await probe({ url: `http://localhost:1${TX}` }));
		expectNoSecrets(
			await probe(
				{ path: TX },
				{
					identityVerificationApi: {
						...creds.identityVerificationApi,
						baseUrl: `ivs ${API_SECRET}`,
					},
				},
			),
		);
	});

	test('the KYB form token: wrong token (401) and right token (404, echoed in the body)', async () => {
		const wrong = await probe(
			{ auth: 'kybFormToken', path: ANSWERS },
			{
				identityVerificationKybFormTokenApi: {
					...creds.identityVerificationKybFormTokenApi,
					formToken: WRONG_TOKEN,
				},
			},
		);
		expect(wrong.error?.httpCode).toBe('401');
		expectNoSecrets(wrong);

		sb.faults.add({
			method: 'GET',
			path: '/kyb/',
			status: 404,
			body: { detail: `No form for token ${FORM_TOKEN}` },
		});
		const echoed = await probe({ auth: 'kybFormToken', path: ANSWERS });
		expect(echoed.error?.httpCode).toBe('404');
		expectNoSecrets(echoed);
	});

	test('a form token given to the node: wrong (401) and right but echoed (404)', async () => {
		const api = { identityVerificationApi: creds.identityVerificationApi };
		// Given by an expression, as a workflow gives it ({{ $json.tokenString }}): the node's saved
		// parameter is the expression, which does not spell the token out.
		const given = (token: string) =>
			`={{ ${JSON.stringify(token.slice(0, 5))} + ${JSON.stringify(token.slice(5))} }}`;
		const wrong = await probe({ formToken: given(WRONG_TOKEN), path: ANSWERS }, api);
		expect(wrong.error?.httpCode).toBe('401');
		expectNoSecrets(wrong);

		sb.faults.add({
			method: 'GET',
			path: '/kyb/',
			status: 404,
			body: { detail: `No form for token ${FORM_TOKEN} (${encodeURIComponent(FORM_TOKEN)})` },
		});
		const echoed = await probe({ formToken: given(FORM_TOKEN), path: ANSWERS }, api);
		expect(echoed.error?.httpCode).toBe('404');
		expectNoSecrets(echoed);
	});

	test("with Continue On Fail the node's error items carry no secret either", async () => {
		// The action node itself (its router makes the error items), not the transport fixture.
		const result = await runNode({
			node: 'identityVerification',
			parameters: {
				resource: 'bank',
				operation: 'listTransactions',
				verificationId: SEED.bank.verificationId,
				accountId: SEED.bank.accountId,
				limit: 1,
			},
			credentials: wrongSecret(),
			input: [{ json: { n: 0 } }, { json: { n: 1 } }],
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(String(item.json.error)).toMatch(/HTTP 401/);
			expect(item.json.httpCode).toBe('401');
		});
		const texts = [JSON.stringify(result.items), inspect(result.run.data, { depth: 20 })];
		for (const text of texts) {
			for (const secret of FORBIDDEN) expect(text.includes(secret)).toBe(false);
		}
	});
});

describe("the Basic header on a proxy's page, and the PDF password", () => {
	/** Changes under every encoding: &, <, >, ", ', +, a space, /, = and ä. */
	const SPECIAL = `Sp3c&al<Secret>"'+ä /x=`;
	const PASSWORD = `Pdf&<Pass>"'+ wörd`;
	const html = (text: string) =>
		text
			.replace(/&/g, '&amp;')
			.replace(/</g, '&lt;')
			.replace(/>/g, '&gt;')
			.replace(/"/g, '&quot;')
			.replace(/'/g, '&#x27;');
	/** The forms a value may take in a text: as it is, HTML, URL (both cases), form, JSON, numeric. */
	const forms = (value: string) => [
		value,
		html(value),
		encodeURIComponent(value),
		encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		new URLSearchParams({ q: value }).toString().slice(2),
		JSON.stringify(value).slice(1, -1),
		Array.from(value, (c) => `&#${c.codePointAt(0)};`).join(''),
	];

	function expectNone(texts: string[], forbidden: string[]): void {
		for (const text of texts) {
			for (const value of forbidden) {
				expect(text.includes(value) ? `${value} leaked in: ${text.slice(0, 400)}` : 'clean').toBe(
					'clean',
				);
			}
		}
	}

	test("a proxy's HTML error page echoing the Authorization header it got", async () => {
		const basic = Buffer.from(`${API_KEY}:${SPECIAL}`).toString('base64');
		const page = `<p>Rejected Authorization: Basic ${basic}</p>`;
		const { createServer } = await import('node:http');
		const server = createServer((req, res) => {
			req.resume();
			res.writeHead(502, { 'content-type': 'text/html' }).end(`<html>${page}</html>`);
		});
		const port = await freePort();
		await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
		try {
			const result = await probe(
				{ path: TX, maxRetries: 0 },
				{
					identityVerificationApi: {
						apiKey: API_KEY,
						apiSecret: SPECIAL,
						baseUrl: `http://127.0.0.1:${port}`,
					},
				},
			);
			expect(result.error?.httpCode).toBe('502');
			expect(JSON.stringify(result.error?.context?.data)).toMatch(/\[redacted\]/);
			expectNone(exposures(result), [...forms(SPECIAL), basic]);
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	test('the AML PDF password echoed by the service: not in the error, its details or the error items', async () => {
		sb.faults.add({
			method: 'POST',
			path: '/aml/',
			status: 400,
			times: Infinity,
			body: {
				detail: `The password ${PASSWORD} is not allowed`,
				password: [PASSWORD],
			},
		});
		const parameters = {
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: SEED.aml.checkId,
			profileId: SEED.aml.profileId,
			password: PASSWORD,
		};
		const failed = await runNode({ node: 'identityVerification', parameters, credentials: creds });
		expect(failed.error?.httpCode).toBe('400');
		expect(failed.error?.description).toContain('The password [redacted] is not allowed');
		// (n8n's error carries the node with its parameters, the password among them, as the
		// workflow does: what this package adds to the error is checked.)
		const error = failed.error as unknown as Record<string, unknown>;
		const texts = [
			String(error.message),
			String(error.description),
			JSON.stringify(error),
			inspect(
				{ context: error.context, cause: error.cause, messages: error.messages },
				{ depth: 10 },
			),
		];
		expectNone(texts, forms(PASSWORD));

		const continued = await runNode({
			node: 'identityVerification',
			parameters,
			credentials: creds,
			continueOnFail: true,
		});
		expect(continued.items[0].json.httpCode).toBe('400');
		expectNone([JSON.stringify(continued.items)], forms(PASSWORD));
	});
});

describe('what the service writes: base64 and short passwords', () => {
	test('the API secret inside other base64 the service echoes: not shown', async () => {
		const secretB64 = Buffer.from(`{"secret":"${API_SECRET}"}`).toString('base64');
		sb.faults.add({
			method: 'POST',
			path: '/bank/',
			status: 400,
			times: Infinity,
			body: {
				detail: 'Invalid credentials',
				echo: secretB64,
			},
		});
		const result = await probe({ method: 'POST', path: '/bank/tokens/', body: '{"country":"LT"}' });
		expect(result.error?.httpCode).toBe('400');
		for (const text of exposures(result)) expect(text).not.toContain(secretB64.slice(8, 24));
	});

	test('an AML PDF password of 3 characters echoed by the service: the echoing text is left out', async () => {
		const short = 'x7q';
		sb.faults.add({
			method: 'POST',
			path: '/aml/',
			status: 400,
			times: Infinity,
			body: { detail: `The password ${short} is too short`, password: [short], other: 'Keep this' },
		});
		const parameters = {
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: SEED.aml.checkId,
			profileId: SEED.aml.profileId,
			password: short,
		};
		const failed = await runNode({ node: 'identityVerification', parameters, credentials: creds });
		expect(failed.error?.httpCode).toBe('400');
		const error = failed.error as unknown as Record<string, unknown>;
		const texts = [String(error.message), String(error.description), JSON.stringify(error.context)];
		for (const text of texts) expect(text).not.toContain(short);
		expect(JSON.stringify(error.context)).toContain('Keep this');
		const continued = await runNode({
			node: 'identityVerification',
			parameters,
			credentials: creds,
			continueOnFail: true,
		});
		expect(JSON.stringify(continued.items)).not.toContain(short);
	});
});

describe('the credential test', () => {
	test('redacts a secret before it cuts a long error, so no part of it shows', async () => {
		const { serviceCredentialTests } = await import(
			'../../nodes/IdentityVerification/helpers/credentialTest'
		);
		// An error whose words run to the cut (500 characters) with the secret across it.
		const failing = {
			helpers: {
				request: async () => {
					throw new Error(`${'x'.repeat(490)} ${API_SECRET} ${'y'.repeat(40)}`);
				},
			},
		};
		const result = await serviceCredentialTests.identityVerificationApiTest.call(failing as never, {
			id: '1',
			name: 'API',
			type: 'identityVerificationApi',
			data: { apiKey: API_KEY, apiSecret: API_SECRET, baseUrl: 'https://ivs.idenfy.com' },
		});
		expect(result.status).toBe('Error');
		// The secret became the marker (itself cut, as a run's message is), not a part of the secret.
		expect(result.message).toMatch(/ \[reda[a-z]*…$/);
		expect(result.message).not.toContain(API_SECRET.slice(0, 4));
	});
});
