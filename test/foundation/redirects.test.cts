/**
 * A redirect is never followed: n8n's request helper would re-send the credential (and a POST's
 * body) to wherever the answer points. Over real HTTP: a service that answers 3xx, and another
 * server (another host, or the same host on another port) that counts what reaches it. It must
 * receive nothing, for a GET, a JSON POST, a streamed download and the credential tests.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { registerNodeType, runNode, testCredential } from '../harness/index.cjs';
import { TRANSPORT_PROBE, TransportProbe } from '../harness/fixtures/transport-probe.node.cjs';
import { SEED } from '../sandbox/index.cjs';

interface Seen {
	method: string;
	url: string;
	authorization: string | undefined;
	bodyLength: number;
}

interface Listening {
	url: string;
	close: () => Promise<void>;
}

async function listen(
	host: string,
	handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void,
): Promise<Listening> {
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => handler(req, res, Buffer.concat(chunks)));
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${host}:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Every request that reached a server other than the service. */
const elsewhere: Seen[] = [];
/** Every request that reached the service. */
const atService: Seen[] = [];
/** What the service answers outside `/ok/`: a redirect with this status and Location. */
let redirect: { status: number; location?: string } = { status: 302 };

const record = (into: Seen[], req: IncomingMessage, body: Buffer) =>
	into.push({
		method: req.method ?? '',
		url: req.url ?? '',
		authorization: req.headers.authorization,
		bodyLength: body.length,
	});

/** Answers like the service would for an unknown id, so following a redirect here looks fine. */
const otherHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
	record(elsewhere, req, body);
	res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}');
};

let service: Listening;
/** Another host: 127.0.0.2 is this machine too, but not the Base URL's host. */
let otherHost: Listening;
/** The Base URL's host (127.0.0.1), plain http on another port. */
let otherPort: Listening;
const servers = () => [service, otherHost, otherPort];

beforeAll(async () => {
	registerNodeType(TRANSPORT_PROBE, new TransportProbe());
	service = await listen('127.0.0.1', (req, res, body) => {
		record(atService, req, body);
		if (req.url?.startsWith('/ok/')) {
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			return;
		}
		const headers = redirect.location === undefined ? {} : { location: redirect.location };
		res.writeHead(redirect.status, headers).end('Moved');
	});
	otherHost = await listen('127.0.0.2', otherHandler);
	otherPort = await listen('127.0.0.1', otherHandler);
});
afterAll(async () => {
	await Promise.all(servers().map((s) => s?.close()));
});
beforeEach(() => {
	elsewhere.length = 0;
	atService.length = 0;
});

const API_KEY = 'redirect-test-key';
const API_SECRET = 'redirect-test-secret';
const FORM_TOKEN = 'redirect-test-form-token';

const credentials = (): Record<string, ICredentialDataDecryptedObject> => ({
	identityVerificationApi: { apiKey: API_KEY, apiSecret: API_SECRET, baseUrl: service.url },
	identityVerificationKybFormTokenApi: { formToken: FORM_TOKEN, baseUrl: service.url },
});

const probe = (parameters: INodeParameters, continueOnFail = false, input?: IDataObject[]) =>
	runNode({
		node: TRANSPORT_PROBE,
		parameters,
		credentials: credentials(),
		continueOnFail,
		...(input ? { input: input.map((json) => ({ json })) } : {}),
	});

const REQUESTS: Array<[string, INodeParameters]> = [
	['a GET', { method: 'GET', path: '/bank/tokens/' }],
	[
		'a JSON POST',
		{ method: 'POST', path: '/bank/tokens/', body: '{"country":"LT","bank":"Swedbank"}' },
	],
	[
		'a streamed download (POST, like the AML PDF)',
		{
			method: 'POST',
			path: '/aml/checks/c/profiles/p/pdf/',
			body: '{"password":"pw"}',
			response: 'binary',
		},
	],
];

const TARGETS: Array<[string, () => string]> = [
	['another host', () => otherHost.url],
	['plain http on the same host (another port)', () => otherPort.url],
];

/** The message of a redirect to `target` (shown without its query). */
const redirectMessage = (status: number, shown: string) =>
	`The service answered with a redirect (HTTP ${status}) to ${shown}; redirects are not followed, so the credential and the request were not sent there`;

describe.each(TARGETS)('a redirect to %s', (_target, targetUrl) => {
	describe.each(REQUESTS)('for %s', (_request, parameters) => {
		test.each([301, 302, 303, 307, 308])(
			'HTTP %i: nothing reaches the other address and the item fails saying where it pointed',
			async (status) => {
				redirect = { status, location: `${targetUrl()}/steal?token=abc` };
				const { error } = await probe(parameters);
				expect(elsewhere).toEqual([]);
				expect(error?.message).toBe(redirectMessage(status, `${targetUrl()}/steal`));
				expect(error?.description).toMatch(
					/^Check the Base URL in the credential "Identity Verification API account"/,
				);
				expect(error?.httpCode).toBe(String(status));
				// not retried either, though the probe allows 3 retries
				expect(atService).toHaveLength(1);
			},
		);
	});
});

describe('a redirect', () => {
	test('with Continue On Fail only the redirected item fails; the others go on', async () => {
		redirect = { status: 307, location: `${otherHost.url}/steal` };
		const { items, error } = await probe({ path: '={{ $json.path }}' }, true, [
			{ path: '/ok/1/' },
			{ path: '/moved/' },
			{ path: '/ok/2/' },
		]);
		expect(error).toBeUndefined();
		expect(elsewhere).toEqual([]);
		expect(items.map((item) => item.json.statusCode ?? item.json.error)).toEqual([
			200,
			redirectMessage(307, `${otherHost.url}/steal`),
			200,
		]);
	});

	test('of the AML PDF download (the action node itself) sends nothing elsewhere', async () => {
		redirect = { status: 307, location: `${otherHost.url}/steal` };
		const { error } = await runNode({
			node: 'identityVerification',
			parameters: {
				resource: 'aml',
				operation: 'downloadProfilePdf',
				checkId: SEED.aml.checkId,
				profileId: SEED.aml.profileId,
				password: SEED.aml.password,
			},
			credentials: credentials(),
		});
		expect(elsewhere).toEqual([]);
		expect(error?.message).toBe(redirectMessage(307, `${otherHost.url}/steal`));
	});

	test('to a path on the service is not followed either, and is named by its full address', async () => {
		redirect = { status: 301, location: '/bank/tokens/moved/?page=2' };
		const { error } = await probe({ path: '/bank/tokens' });
		expect(atService).toHaveLength(1);
		expect(error?.message).toBe(redirectMessage(301, `${service.url}/bank/tokens/moved/`));
	});

	test('without a Location says so', async () => {
		redirect = { status: 302 };
		const { error } = await probe({ path: '/bank/tokens/' });
		expect(error?.message).toBe(
			'The service answered with a redirect (HTTP 302) without an address; redirects are not followed',
		);
		expect(error?.httpCode).toBe('302');
	});

	test('whose address carries the API secret shows it redacted', async () => {
		redirect = { status: 302, location: `${otherHost.url}/${API_SECRET}/x` };
		const { error } = await probe({ path: '/bank/tokens/' });
		expect(error?.message).toBe(redirectMessage(302, `${otherHost.url}/[redacted]/x`));
	});
});

describe.each([
	['identityVerificationApi', 'identityVerificationApi'],
	['identityVerificationKybFormTokenApi', 'identityVerificationKybFormTokenApi'],
] as const)('the credential test of %s', (_name, type) => {
	test.each([301, 302, 307, 308])(
		'fails on a %i to another host, saying to check the Base URL; the other host receives nothing',
		async (status) => {
			redirect = { status, location: `${otherHost.url}/steal` };
			const result = await testCredential(type, credentials()[type]);
			expect(elsewhere).toEqual([]);
			expect(atService).toHaveLength(1);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(new RegExp(`redirect \\(HTTP ${status}\\)`));
			expect(result.message).toMatch(/check the Base URL/);
		},
	);
});
