/**
 * The transport through n8n's real engine (a fixture node calling `apiRequest`) over real HTTP
 * against the sandbox and its fault injection: retries, backoff, Retry-After, the POST rule, URL
 * joining, links to other hosts, request/response encodings and the errors users see.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { joinUrl, parseRetryAfter, backoffDelay } from '../../nodes/IdentityVerification/transport';
import { registerNodeType, runNode } from '../harness/index.cjs';
import { TRANSPORT_PROBE, TransportProbe } from '../harness/fixtures/transport-probe.node.cjs';
import { transactionsRange } from '../sandbox/data.cjs';
import { SEED } from '../sandbox/index.cjs';
import type { Sandbox } from '../sandbox/index.cjs';
import { useSandboxCredentials } from './util.cjs';

const TX = `/bank/verifications/${SEED.bank.verificationId}/accounts/${SEED.bank.accountId}/transactions/`;
const TOKENS = '/bank/tokens/';
const ANSWERS = `/kyb/forms/${SEED.kyb.companyId}/questionnaires/${SEED.kyb.questionnaireId}/answers/`;

let sb: Sandbox;
let creds: Record<string, ICredentialDataDecryptedObject>;

useSandboxCredentials((s, c) => ([sb, creds] = [s, c]));
beforeAll(() => {
	registerNodeType(TRANSPORT_PROBE, new TransportProbe());
});

function probe(
	parameters: INodeParameters,
	credentials = creds,
	credentialNames?: Record<string, string>,
) {
	return runNode({ node: TRANSPORT_PROBE, parameters, credentials, credentialNames });
}

/** A tiny reverse proxy that serves the sandbox under a sub-path and records what it received. */
async function startPrefixProxy(
	prefix: string,
): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
	const target = new URL(sb.url);
	const seen: string[] = [];
	const server: Server = createServer((req: IncomingMessage, res) => {
		seen.push(`${req.method} ${req.url}`);
		if (!req.url?.startsWith(prefix)) {
			res.writeHead(404).end();
			return;
		}
		const upstream = httpRequest(
			{
				host: target.hostname,
				port: target.port,
				method: req.method,
				path: req.url.slice(prefix.length) || '/',
				headers: req.headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

describe('retries', () => {
	test('a GET is retried after 429 and waits as long as Retry-After says', async () => {
		sb.faults.add({ method: 'GET', path: TX, status: 429, retryAfter: 2 });
		const { items, error } = await probe({ path: TX, qs: '{"page":1,"perPage":1}' });
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(200);
		const attempts = sb.requests.filter((r) => r.method === 'GET' && r.path === TX);
		expect(attempts.map((r) => r.status)).toEqual([429, 200]);
		// Without Retry-After the first backoff is at most 300 ms: a 2 s gap means the header was honoured
		expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1500);
	});

	test('a GET is retried after 500', async () => {
		sb.faults.add({ method: 'GET', path: TX, status: 500 });
		const { items, error } = await probe({ path: TX });
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(200);
		expect(sb.count({ method: 'GET', path: TX })).toBe(2);
	});

	test('a GET gives up after 1 + maxRetries attempts with an error naming the attempts', async () => {
		sb.faults.add({ method: 'GET', path: TX, status: 500, times: Infinity });
		const { error } = await probe({ path: TX });
		expect(sb.count({ method: 'GET', path: TX })).toBe(4);
		expect(error?.message).toBe('The service had an internal problem (HTTP 500) on all 4 attempts');
		expect(error?.description).toMatch(/Try again later/);
		expect(error?.httpCode).toBe('500');
	});

	test('maxRetries limits the attempts', async () => {
		sb.faults.add({ method: 'GET', path: TX, status: 503, times: Infinity });
		const { error } = await probe({ path: TX, maxRetries: 1 });
		expect(sb.count({ method: 'GET', path: TX })).toBe(2);
		expect(error?.message).toMatch(/HTTP 503\) on all 2 attempts/);
	});

	test('a GET that stays rate limited gives up saying it is the request limit, and what to do', async () => {
		sb.faults.add({ method: 'GET', path: TX, status: 429, retryAfter: 0, times: Infinity });
		const { error } = await probe({ path: TX, maxRetries: 1 });
		expect(sb.count({ method: 'GET', path: TX })).toBe(2);
		expect(error?.message).toBe(
			"The service's request limit was reached (HTTP 429): it still refused after 2 attempts",
		);
		expect(error?.description).toMatch(/requests per hour/);
		expect(error?.description).toMatch(/lower Max Parallel Requests or use Limit/);
		// Every list has the option now, not only List Transactions.
		expect(error?.description).toContain('List Transactions or a Get Many');
		expect(error?.description).toMatch(/run the workflow \(or its schedule\) later/);
		expect(error?.description).toMatch(/Retry On Fail/);
		expect(error?.httpCode).toBe('429');
	});

	test('a 429 without Retry-After is waited out longer each time, long enough to outlast a short burst limit', async () => {
		sb.faults.add({ method: 'GET', path: TX, status: 429, retryAfter: null, times: 2 });
		const { items, error } = await probe({ path: TX, qs: '{"page":1,"perPage":1}' });
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(200);
		const at = sb.requests.filter((r) => r.path === TX).map((r) => r.at);
		expect(at).toHaveLength(3);
		// 1-2 s, then 2-4 s (before: at most 0.3 s, then 0.6 s)
		expect(at[1] - at[0]).toBeGreaterThanOrEqual(950);
		expect(at[2] - at[1]).toBeGreaterThanOrEqual(1950);
	});

	test('a POST is NOT repeated after a 500: it may have been processed', async () => {
		sb.faults.add({ method: 'POST', path: TOKENS, status: 500 });
		const { error } = await probe({ method: 'POST', path: TOKENS, body: '{"lifetime":60}' });
		expect(sb.count({ method: 'POST', path: TOKENS })).toBe(1);
		expect(error?.message).toBe('The service had an internal problem (HTTP 500)');
		expect(error?.description).toMatch(/sent once and not repeated/);
	});

	test('a POST IS retried after 429 (the service did not process it)', async () => {
		sb.faults.add({ method: 'POST', path: TOKENS, status: 429, retryAfter: 0 });
		const { items, error } = await probe({ method: 'POST', path: TOKENS, body: '{"lifetime":60}' });
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(201);
		expect(sb.count({ method: 'POST', path: TOKENS })).toBe(2);
	});

	test('a DELETE is retried after 500', async () => {
		sb.faults.add({ method: 'DELETE', path: ANSWERS, status: 500 });
		const { items, error } = await probe({ method: 'DELETE', path: ANSWERS, response: 'none' });
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(204);
		expect(sb.count({ method: 'DELETE', path: ANSWERS })).toBe(2);
	});

	test('a dropped connection on a GET is retried', async () => {
		sb.faults.add({ method: 'GET', path: TX, drop: true });
		const { items, error } = await probe({ path: TX });
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(200);
		expect(sb.requests.filter((r) => r.path === TX).map((r) => r.status)).toEqual([0, 200]);
	});

	test('a dropped connection on a POST is not repeated', async () => {
		sb.faults.add({ method: 'POST', path: TOKENS, drop: true });
		const { error } = await probe({ method: 'POST', path: TOKENS, body: '{"lifetime":60}' });
		expect(sb.count({ method: 'POST', path: TOKENS })).toBe(1);
		expect(error?.message).toBe('The connection to the service was closed before it answered');
		expect(error?.description).toMatch(/not repeated/);
	});

	test('a GET that keeps being dropped gives up naming the attempts', async () => {
		sb.faults.add({ method: 'GET', path: TX, drop: true, times: Infinity });
		const { error } = await probe({ path: TX, maxRetries: 2 });
		expect(sb.count({ method: 'GET', path: TX })).toBe(3);
		expect(error?.message).toBe(
			'The connection to the service was closed before it answered after 3 attempts',
		);
	});

	test('a service that does not answer in time fails with the timeout in the message', async () => {
		sb.faults.add({ method: 'GET', path: TX, latencyMs: 800 });
		const { error } = await probe({ path: TX, maxRetries: 0, timeoutMs: 200 });
		expect(error?.message).toBe('The service did not answer within 200 ms');
		expect(sb.count({ method: 'GET', path: TX })).toBe(1);
		// let the sandbox finish its delayed answer so no timer outlives the test file
		await new Promise((resolve) => setTimeout(resolve, 800));
	});

	test('nothing listening at the Base URL: a clear error naming the address and the attempts', async () => {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		await new Promise<void>((resolve) => server.close(() => resolve()));
		const { error } = await probe(
			{ path: TX, maxRetries: 1 },
			{
				identityVerificationApi: {
					...creds.identityVerificationApi,
					baseUrl: `http://127.0.0.1:${port}`,
				},
			},
		);
		expect(error?.message).toBe(
			`Could not connect to the service at http://127.0.0.1:${port} after 2 attempts`,
		);
		expect(error?.description).toMatch(/Check the Base URL in the credential/);
	});
});

describe('URLs', () => {
	test('joinUrl keeps the contract path trailing slash and tolerates base URL slashes and sub-paths', () => {
		expect(joinUrl('https://ivs.example.com', '/bank/tokens/')).toBe(
			'https://ivs.example.com/bank/tokens/',
		);
		expect(joinUrl('https://ivs.example.com/', '/bank/tokens/')).toBe(
			'https://ivs.example.com/bank/tokens/',
		);
		expect(joinUrl('https://ivs.example.com///', 'bank/tokens/')).toBe(
			'https://ivs.example.com/bank/tokens/',
		);
		expect(joinUrl(' https://ivs.example.com/ ', '/bank/tokens/')).toBe(
			'https://ivs.example.com/bank/tokens/',
		);
		expect(joinUrl('https://host/ivs/', '/api/v2/token')).toBe('https://host/ivs/api/v2/token');
		expect(joinUrl('http://127.0.0.1:8787', '/kyb/forms/a%2Fb/submit/')).toBe(
			'http://127.0.0.1:8787/kyb/forms/a%2Fb/submit/',
		);
	});

	test('a Base URL with trailing slashes reaches the same path', async () => {
		for (const baseUrl of [`${sb.url}/`, `${sb.url}///`]) {
			const { items, error } = await probe(
				{ path: TX },
				{ identityVerificationApi: { ...creds.identityVerificationApi, baseUrl } },
			);
			expect(error).toBeUndefined();
			expect(items[0].json.statusCode).toBe(200);
		}
		expect(sb.requests.map((r) => r.path)).toEqual([TX, TX]);
	});

	test('a Base URL with a sub-path (service behind a proxy) works', async () => {
		const proxy = await startPrefixProxy('/ivs');
		try {
			const { items, error } = await probe(
				{ path: TX, qs: '{"page":2,"perPage":3}' },
				{
					identityVerificationApi: {
						...creds.identityVerificationApi,
						baseUrl: `${proxy.url}/ivs/`,
					},
				},
			);
			expect(error).toBeUndefined();
			expect(items[0].json.statusCode).toBe(200);
			expect(proxy.seen).toEqual([`GET /ivs${TX}?page=2&perPage=3`]);
			expect(sb.requests.map((r) => r.path)).toEqual([TX]);
		} finally {
			await proxy.close();
		}
	});

	test('an absolute link on the same origin is followed', async () => {
		const { items, error } = await probe({ url: `${sb.url}${TX}?page=2&perPage=1` });
		expect(error).toBeUndefined();
		expect((items[0].json.body as IDataObject).previous).toBe(`${sb.url}${TX}?perPage=1`);
		expect(sb.requests[0]).toMatchObject({ path: TX, query: { page: '2', perPage: '1' } });
	});

	test('a link to another host is refused before anything is sent (the credential stays home)', async () => {
		const other = await startPrefixProxy('/');
		try {
			const { error } = await probe({ url: `${other.url}${TX}` });
			expect(error?.message).toMatch(/^Refused to follow a link to http:\/\/127\.0\.0\.1:\d+/);
			expect(other.seen).toEqual([]);
			expect(sb.requests).toEqual([]);
		} finally {
			await other.close();
		}
	});
});

describe('encodings', () => {
	test('a Buffer body is sent as JSON bytes', async () => {
		const { items, error } = await probe({
			method: 'POST',
			path: TOKENS,
			body: '{"lifetime":120,"country":"LT","bank":"Swedbank"}',
			bodyAsBuffer: true,
		});
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(201);
		expect(items[0].json.body).toMatchObject({ country: 'LT', bank: 'Swedbank' });
	});

	test('an object body is sent as JSON', async () => {
		const { items } = await probe({ method: 'POST', path: TOKENS, body: '{"country":"EE"}' });
		expect(items[0].json.statusCode).toBe(201);
		expect(items[0].json.body).toMatchObject({ country: 'EE', isValid: true });
	});

	test('a binary answer (the AML PDF) comes back as bytes', async () => {
		const { items, error } = await probe({
			method: 'POST',
			path: `/aml/checks/${SEED.aml.checkId}/profiles/${SEED.aml.profileId}/pdf/`,
			body: JSON.stringify({ password: SEED.aml.password }),
			response: 'binary',
		});
		expect(error).toBeUndefined();
		const body = items[0].json.body as { base64: string; length: number };
		expect(Buffer.from(body.base64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect((items[0].json.headers as IDataObject)['content-type']).toMatch(/application\/pdf/);
	});

	test('the KYB form token is sent as Bearer', async () => {
		// The DELETE test above emptied the answers (the service then answers 204): restore them.
		sb.reset();
		const { items, error } = await probe({ auth: 'kybFormToken', path: ANSWERS });
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(200);
		expect(sb.requests[0]).toMatchObject({ authScheme: 'bearer', authorized: true });
	});

	test('a form token given to the node is sent as Bearer to the API credential’s Base URL, with no form token credential', async () => {
		sb.reset();
		const { items, error } = await probe(
			{ formToken: sb.credentials.kybFormToken, path: ANSWERS },
			{ identityVerificationApi: creds.identityVerificationApi },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(200);
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0]).toMatchObject({ authScheme: 'bearer', authorized: true, path: ANSWERS });
	});

	test('a given form token goes only under the Base URL: a link elsewhere is refused unsent', async () => {
		const { error } = await probe(
			{ formToken: sb.credentials.kybFormToken, url: `http://localhost:1${ANSWERS}` },
			{ identityVerificationApi: creds.identityVerificationApi },
		);
		expect(error?.message).toMatch(/Refused to follow a link/);
		expect(sb.requests).toHaveLength(0);
	});
});

describe('errors users see', () => {
	test('400 names the fields and rules from the body', async () => {
		const { error } = await probe({ method: 'POST', path: TOKENS, body: '{"lifetime":2592001}' });
		expect(error?.httpCode).toBe('400');
		// The service's standard error body names the field in its message.
		expect(error?.message).toMatch(
			/^The service rejected the request \(HTTP 400\): Field 'lifetime' must be at most 2592000/,
		);
		expect(error?.description).toMatch(/Fix the value it names in the node/);
	});

	test('401 tells which credential to fix, by the name the user gave it, and where the key pair comes from', async () => {
		const { error } = await probe(
			{ path: TX },
			{ identityVerificationApi: { ...creds.identityVerificationApi, apiSecret: 'an-old-secret' } },
			{ identityVerificationApi: 'Compliance – production keys' },
		);
		expect(error?.httpCode).toBe('401');
		expect(error?.message).toBe('The service did not accept the API key and API secret (HTTP 401)');
		expect(error?.description).toMatch(/Open the credential "Compliance – production keys" and/);
		expect(error?.description).not.toMatch(/Identity Verification API/);
		expect(error?.description).toMatch(/Settings → API Keys → Create/);
		expect(sb.count({ path: TX })).toBe(1);
	});

	test('401 with the KYB form token says to generate a new token', async () => {
		const { error } = await probe(
			{ auth: 'kybFormToken', path: ANSWERS },
			{
				identityVerificationKybFormTokenApi: {
					...creds.identityVerificationKybFormTokenApi,
					formToken: 'expired',
				},
			},
			{ identityVerificationKybFormTokenApi: 'ACME form token' },
		);
		expect(error?.message).toBe('The service did not accept the KYB form token (HTTP 401)');
		expect(error?.description).toMatch(/The token in the credential "ACME form token" is wrong/);
		expect(error?.description).toMatch(/generate a new KYB form token/);
	});

	test('401 with a given form token says to run Create Session again, and names no credential', async () => {
		const { error } = await probe(
			{ formToken: 'Expired-Form-Token-123', path: ANSWERS },
			{ identityVerificationApi: creds.identityVerificationApi },
			{ identityVerificationApi: 'Compliance – production keys' },
		);
		expect(error?.httpCode).toBe('401');
		expect(error?.message).toBe(
			'The service did not accept the token in the Form Token field (HTTP 401)',
		);
		expect(error?.description).toMatch(/Run Create Session again/);
		expect(error?.description).toMatch(/set Authentication to API Key/);
		expect(error?.description).not.toMatch(/in the credential|Open the credential/);
		expect(`${error?.message} ${error?.description}`).not.toContain('Expired-Form-Token-123');
	});

	test('404 quotes the service and says to check the IDs', async () => {
		const { error } = await probe({ path: '/bank/verifications/nope/accounts/nope/transactions/' });
		expect(error?.httpCode).toBe('404');
		expect(error?.message).toMatch(/Not found \(HTTP 404\)/);
		expect(error?.description).toMatch(/The service said: "Not found\."/);
		expect(error?.description).toMatch(/Check the IDs/);
		expect(sb.count()).toBe(1);
	});

	/** The action node listing one transaction of each item's account (an unknown one answers 404). */
	const firstTransactionOf = (accountIds: string[], continueOnFail?: boolean) =>
		runNode({
			node: 'identityVerification',
			parameters: {
				resource: 'bank',
				operation: 'listTransactions',
				verificationId: SEED.bank.verificationId,
				accountId: '={{ $json.accountId }}',
				limit: 1,
			},
			credentials: creds,
			input: accountIds.map((accountId) => ({ json: { accountId } })),
			continueOnFail,
		});

	test("with Continue On Fail the node's router turns the failing item into an error item and goes on", async () => {
		// The action node itself: 3 items, the middle one asks for an unknown account (404).
		const { items, run } = await firstTransactionOf(
			[SEED.bank.accountId, 'nope', SEED.bank.accountId],
			true,
		);
		expect(run.data.resultData.error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const [firstTransaction] = transactionsRange(SEED.bank.accountId, 0, 1);
		expect(items[0].json).toEqual(firstTransaction);
		expect(items[2].json).toEqual(firstTransaction);
		expect(String(items[1].json.error)).toMatch(/Not found \(HTTP 404\)/);
		expect(items[1].json.httpCode).toBe('404');
		expect(String(items[1].json.description)).toMatch(/checks both IDs together/);
		expect(sb.count({ path: '/bank/' })).toBe(3);
	});

	test('without Continue On Fail the first failing item stops the node, naming the item', async () => {
		const { error, run } = await firstTransactionOf([SEED.bank.accountId, 'nope']);
		expect(run.data.resultData.error).toBeDefined();
		expect(error?.message).toMatch(/Not found \(HTTP 404\)/);
		expect(error?.context?.itemIndex).toBe(1);
	});

	test('an invalid Base URL is reported before anything is sent', async () => {
		const { error } = await probe(
			{ path: TX },
			{ identityVerificationApi: { ...creds.identityVerificationApi, baseUrl: 'ivs.example.com' } },
		);
		expect(error?.message).toMatch(
			/Base URL in the credential "Identity Verification API account" is not a web address/,
		);
	});
});

describe('retry timing rules (pure functions)', () => {
	test('Retry-After in seconds and as an HTTP date, capped at 60 s', () => {
		expect(parseRetryAfter('2')).toBe(2000);
		expect(parseRetryAfter('0')).toBe(0);
		expect(parseRetryAfter('3600')).toBe(60_000);
		const now = Date.parse('2026-11-22T20:00:00Z');
		expect(parseRetryAfter('Sun, 22 Nov 2026 20:00:05 GMT', now)).toBe(5000);
		expect(parseRetryAfter('Sun, 22 Nov 2026 19:59:00 GMT', now)).toBe(0);
		expect(parseRetryAfter('soon')).toBeUndefined();
		expect(parseRetryAfter(undefined)).toBeUndefined();
	});

	test('full-jitter backoff stays within base * 2^(n-1), capped at 10 s', () => {
		expect(backoffDelay(1, () => 0.999)).toBeLessThan(300);
		expect(backoffDelay(2, () => 0.999)).toBeLessThan(600);
		expect(backoffDelay(3, () => 0.999)).toBeLessThan(1200);
		expect(backoffDelay(10, () => 0.999)).toBeLessThan(10_000);
		expect(backoffDelay(10, () => 0.999)).toBeGreaterThan(9_000);
		expect(backoffDelay(3, () => 0)).toBe(0);
	});
});
