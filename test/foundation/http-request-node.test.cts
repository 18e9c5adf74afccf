/**
 * The API credential in n8n's HTTP Request node ("Predefined Credential Type"), with the guarantees
 * it has in the package's own node: it goes only to its Base URL, never in clear to another
 * machine, and no redirect takes it elsewhere.
 *
 * The editor offers a credential there when the type n8n describes to it has `authenticate`
 * (HttpRequestV3's `credentialTypes: ['extends:oAuth2Api', 'extends:oAuth1Api',
 * 'has:authenticate']`, checked by the editor's CredentialsSelect). The description is made here
 * as n8n makes it: n8n-core's PackageDirectoryLoader loads the compiled package, then the copy and
 * JSON of n8n 2.41's LoadNodesAndCredentials.postProcessLoaders.
 *
 * At run time the HTTP Request node calls n8n-core's `requestWithAuthentication` with n8n's older
 * request options (`uri`, `followRedirect`, ...): a stand-in node sends them as HttpRequestV3 does,
 * through the harness (the credential's own `authenticate`), to loopback servers.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { injectDomainRestrictionFields } from 'n8n-workflow';
import { PackageDirectoryLoader } from 'n8n-core';

import { getCredentialType, PACKAGE_NAME, registerNodeType, runNode } from '../harness/index.cjs';

/** `.build/` (this file is compiled to `.build/test/foundation/`). */
const BUILD_DIR = path.resolve(__dirname, '..', '..');

/** The `credentialTypes` of HttpRequestV3's "Credential Type" parameter (n8n-nodes-base 2.41). */
const HTTP_REQUEST_CREDENTIAL_TYPES = [
	'extends:oAuth2Api',
	'extends:oAuth1Api',
	'has:authenticate',
];

/**
 * The package as n8n installs it: a package.json naming the compiled node and credentials, which
 * are linked in (n8n refuses icons outside the package's folder).
 */
function installedPackage(): string {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'idv-package-'));
	for (const folder of ['nodes', 'credentials']) {
		symlinkSync(path.join(BUILD_DIR, folder), path.join(dir, folder), 'dir');
	}
	writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({
			name: PACKAGE_NAME,
			version: '0.0.0-test',
			n8n: {
				nodes: ['nodes/IdentityVerification/IdentityVerification.node.js'],
				credentials: [
					'credentials/IdentityVerificationApi.credentials.js',
					'credentials/IdentityVerificationKybFormTokenApi.credentials.js',
					'credentials/IdentityVerificationWebhookSigningApi.credentials.js',
				],
			},
		}),
	);
	return dir;
}

/** The credential types as the editor receives them (GET /types/credentials.json). */
async function credentialTypesForTheEditor(): Promise<ICredentialType[]> {
	const dir = installedPackage();
	const loader = new PackageDirectoryLoader(dir);
	await loader.loadAll();
	rmSync(dir, { recursive: true });
	// n8n's postProcessLoaders: a copy of each type with the domain restriction fields added.
	const described = loader.types.credentials.map((credential) => ({
		...credential,
		properties: injectDomainRestrictionFields(credential),
	}));
	return JSON.parse(JSON.stringify(described)) as ICredentialType[];
}

/** The editor's CredentialsSelect.isSupported for the HTTP Request node (no `extends` here). */
function offeredByHttpRequestNode(type: ICredentialType): boolean {
	if (type.hidden) return false;
	const has = HTTP_REQUEST_CREDENTIAL_TYPES.filter((entry) => entry.startsWith('has:')).map(
		(entry) => entry.slice('has:'.length) as keyof ICredentialType,
	);
	return has.some((property) => type[property] !== undefined && !type.genericAuth);
}

describe('the HTTP Request node’s "Predefined Credential Type" list', () => {
	let types: ICredentialType[];
	beforeAll(async () => {
		types = await credentialTypesForTheEditor();
	});
	const offered = () => types.filter(offeredByHttpRequestNode).map((type) => type.name);

	test('offers the API credential and the KYB form token credential (not the signing key)', () => {
		expect(offered()).toEqual(['identityVerificationApi', 'identityVerificationKybFormTokenApi']);
	});
});

// ---------------------------------------------------------------------------------------------
// At run time
// ---------------------------------------------------------------------------------------------

const HTTP_REQUEST_STAND_IN = 'httpRequestStandIn';

/**
 * The predefined-credential path of HttpRequestV3 (n8n-nodes-base 2.41): its request options (a
 * GET unless Method says otherwise, headers as an object) with Follow Redirects on (the default),
 * sent with `requestWithAuthentication`. Versions
 * before 4.4 re-send the credential across origins on a redirect (`redirectAcrossOrigins`).
 */
class HttpRequestStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'HTTP Request (stand-in)',
		name: HTTP_REQUEST_STAND_IN,
		group: ['output'],
		version: 1,
		description: 'Sends one GET per item like the HTTP Request node (test fixture)',
		defaults: { name: 'HTTP Request' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [
			{ name: 'identityVerificationApi', required: false },
			{ name: 'identityVerificationKybFormTokenApi', required: false },
		],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Credential Type', name: 'nodeCredentialType', type: 'string', default: '' },
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Headers', name: 'headers', type: 'json', default: {} },
			{
				displayName: 'Redirect Across Origins',
				name: 'redirectAcrossOrigins',
				type: 'boolean',
				default: false,
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const requestOptions = {
				headers: this.getNodeParameter('headers', i) as IDataObject,
				// As the node's Method field set by an expression: any text, in any letter case.
				method: this.getNodeParameter('method', i) as 'GET',
				uri: this.getNodeParameter('url', i) as string,
				gzip: true,
				rejectUnauthorized: true,
				followRedirect: true,
				followAllRedirects: true,
				resolveWithFullResponse: true,
				sendCredentialsOnCrossOriginRedirect: this.getNodeParameter(
					'redirectAcrossOrigins',
					i,
				) as boolean,
				// "Never Error" on: the status is the item's
				simple: false,
			};
			const response = (await this.helpers.requestWithAuthentication.call(
				this,
				this.getNodeParameter('nodeCredentialType', i) as string,
				requestOptions,
				undefined,
				i,
			)) as { statusCode: number };
			out.push({ json: { statusCode: response.statusCode } });
		}
		return [out];
	}
}

interface Seen {
	server: string;
	path: string;
	authorization: string | undefined;
}

/** Every request that reached one of the servers below. */
const seen: Seen[] = [];
/** What the gateway answers under /ivs/moved/: a redirect to this address. */
let redirectTo = '';

async function listen(
	name: string,
	host: string,
	answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
	const server = createServer((req, res) => {
		seen.push({ server: name, path: req.url ?? '', authorization: req.headers.authorization });
		req.resume();
		req.on('end', () => answer(req, res));
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	return { url: `http://${host}:${(server.address() as AddressInfo).port}`, server };
}

/** The service behind a gateway path: the Base URL is `<gateway>/ivs`. */
let gateway: { url: string; server: Server };
/** Another service on this machine (another port: another origin). */
let other: { url: string; server: Server };

beforeAll(async () => {
	registerNodeType(HTTP_REQUEST_STAND_IN, new HttpRequestStandIn());
	gateway = await listen('gateway', '127.0.0.1', (req, res) => {
		if (req.url?.startsWith('/ivs/moved/')) {
			res.writeHead(302, { location: redirectTo }).end();
			return;
		}
		res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}');
	});
	other = await listen('other', '127.0.0.1', (_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
	});
});
afterAll(async () => {
	for (const { server } of [gateway, other]) {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
});
beforeEach(() => {
	seen.length = 0;
});

const API_KEY = 'http-node-key';
const API_SECRET = 'http-node-secret';
const BASIC = `Basic ${Buffer.from(`${API_KEY}:${API_SECRET}`).toString('base64')}`;
const FORM_TOKEN = 'http-node-form-token';

const credentialsFor = (baseUrl: string): Record<string, ICredentialDataDecryptedObject> => ({
	identityVerificationApi: { apiKey: API_KEY, apiSecret: API_SECRET, baseUrl },
	identityVerificationKybFormTokenApi: { formToken: FORM_TOKEN, baseUrl },
});

const send = (url: string, options: IDataObject = {}) =>
	runNode({
		node: HTTP_REQUEST_STAND_IN,
		parameters: {
			url,
			nodeCredentialType: 'identityVerificationApi',
			...options,
		},
		credentials: credentialsFor(`${gateway.url}/ivs`),
	});

describe('the API credential in the HTTP Request node', () => {
	test('is sent to an address under its Base URL, as HTTP Basic', async () => {
		const { items, error } = await send(`${gateway.url}/ivs/bank/tokens/`);
		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(404);
		expect(seen).toEqual([{ server: 'gateway', path: '/ivs/bank/tokens/', authorization: BASIC }]);
	});

	test('the KYB form token credential likewise, as Bearer', async () => {
		const { error } = await send(`${gateway.url}/ivs/kyb/forms/f/submit/`, {
			nodeCredentialType: 'identityVerificationKybFormTokenApi',
		});
		expect(error).toBeUndefined();
		expect(seen[0].authorization).toBe(`Bearer ${FORM_TOKEN}`);
	});

	test.each([
		['another origin', () => `${other.url}/ivs/bank/tokens/`],
		['the Base URL’s host outside its path', () => `${gateway.url}/elsewhere/`],
		['a path that only starts like the Base URL’s', () => `${gateway.url}/ivs-other/`],
	])('is not sent to %s: the request is refused, saying why', async (_where, url) => {
		const { error } = await send(url());
		expect(seen).toEqual([]);
		expect(error?.message).toMatch(/only sent to its Base URL/);
		expect(error?.message).toContain(`(${gateway.url}/ivs)`);
	});

	test('is not sent in clear to another machine', async () => {
		const { error } = await runNode({
			node: HTTP_REQUEST_STAND_IN,
			parameters: {
				url: 'http://ivs.example.com/bank/tokens/',
				nodeCredentialType: 'identityVerificationApi',
			},
			credentials: credentialsFor('http://ivs.example.com'),
		});
		expect(error?.message).toMatch(/unencrypted/);
	});

	test.each([
		['to another origin', () => `${other.url}/steal`, false],
		[
			'to another origin, with a node version that re-sends credentials',
			() => `${other.url}/steal`,
			true,
		],
		['to the Base URL’s host outside its path', () => `${gateway.url}/elsewhere/`, false],
	])('does not follow a redirect %s', async (_where, target, redirectAcrossOrigins) => {
		redirectTo = target();
		const { items } = await send(`${gateway.url}/ivs/moved/`, { redirectAcrossOrigins });
		expect(items[0].json.statusCode).toBe(302);
		expect(seen.map((request) => request.path)).toEqual(['/ivs/moved/']);
	});
});

describe('the credential goes to its Base URL under no other host and by no other method', () => {
	const CREDENTIAL_TYPES = ['identityVerificationApi', 'identityVerificationKybFormTokenApi'];
	const INSIDE = () => `${gateway.url}/ivs/bank/tokens/`;

	// A front end (nginx, an ingress) routes by Host and by these headers: the key pair would reach
	// another site behind the same address.
	describe.each(CREDENTIAL_TYPES)('%s', (nodeCredentialType) => {
		test.each([
			['Host', 'collector.example'],
			['host', 'collector.example'],
			['x-Forwarded-HOST', 'collector.example'],
			['FORWARDED', 'host=collector.example'],
			['X-Original-Url', '/collector/'],
			['x-rewrite-URL', '/collector/'],
		])('a %s header: refused before any request, naming it', async (name, value) => {
			const { error } = await send(INSIDE(), { nodeCredentialType, headers: { [name]: value } });
			expect(seen).toEqual([]);
			expect(error?.message).toContain(`Remove the ${name} header`);
			expect(error?.message).toMatch(/only to its Base URL/);
		});

		// TRACE makes a server that answers it echo the request, Authorization included, into the item.
		test.each(['TRACE', 'trace', 'CONNECT', 'STEAL'])(
			'the method %s: refused before any request, naming it and the methods that may be used',
			async (method) => {
				const { error } = await send(INSIDE(), { nodeCredentialType, method });
				expect(seen).toEqual([]);
				expect(error?.message).toContain(`"${method}"`);
				expect(error?.message).toMatch(/GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS/);
			},
		);

		test.each(['get', 'Post', 'DELETE', 'options', 'HEAD', 'put', 'patch'])(
			'the method %s in any letter case, with ordinary headers: sent, with the credential',
			async (method) => {
				const headers = { Accept: 'application/json', 'X-Forwarded-For': '10.0.0.1' };
				const { error } = await send(INSIDE(), { nodeCredentialType, method, headers });
				expect(error).toBeUndefined();
				expect(seen).toHaveLength(1);
				expect(seen[0].authorization).toMatch(/^(Basic|Bearer) /);
			},
		);
	});

	const authenticate = (type: string, request: IDataObject) =>
		(
			getCredentialType(type).authenticate as unknown as (
				c: IDataObject,
				r: IDataObject,
			) => Promise<IDataObject>
		)(
			{ apiKey: 'k', apiSecret: 's', formToken: 't', baseUrl: 'https://ivs.example.com' },
			{ uri: 'https://ivs.example.com/bank/tokens/', ...request },
		);

	// What axios turns into headers: an object (also under its `common` or per-method sections),
	// key-value pairs, a Map, a raw header block; names with spaces around them.
	test.each([
		['an object', { Host: 'collector.example' }, 'Host'],
		['axios’ common section', { common: { 'X-Forwarded-Host': 'c' } }, 'X-Forwarded-Host'],
		['axios’ section for the method', { get: { Forwarded: 'host=c' } }, 'Forwarded'],
		['key-value pairs', [['X-Original-URL', '/c/']], 'X-Original-URL'],
		['a Map', new Map([['X-Rewrite-URL', '/c/']]), 'X-Rewrite-URL'],
		['a raw header block', 'Accept: */*\r\nHost: collector.example', 'Host'],
		['a name with spaces around it', { ' Host ': 'collector.example' }, 'Host'],
	])('finds the header in %s', async (_form, headers, name) => {
		for (const type of CREDENTIAL_TYPES) {
			await expect(authenticate(type, { headers })).rejects.toThrow(`Remove the ${name} header`);
		}
	});

	// Other headers some front ends route by (IIS, Apache, frameworks behind a proxy).
	test.each(['X-Original-Host', 'x-forwarded-server', 'X-Host', 'X-HTTP-Host-Override'])(
		'refuses the %s header too',
		async (name) => {
			for (const type of CREDENTIAL_TYPES) {
				await expect(authenticate(type, { headers: { [name]: 'c' } })).rejects.toThrow(
					`Remove the ${name} header`,
				);
			}
		},
	);

	test('a request without a method (or with an empty one) is a GET, and is sent', async () => {
		for (const type of CREDENTIAL_TYPES) {
			for (const method of [undefined, '']) {
				await expect(
					authenticate(type, { method, headers: { Accept: '*/*' } }),
				).resolves.toMatchObject({ uri: 'https://ivs.example.com/bank/tokens/' });
			}
		}
	});
});

describe('which address authenticate checks (the one axios sends to)', () => {
	const authenticate = (credentials: IDataObject, request: IDataObject) =>
		(
			getCredentialType('identityVerificationApi').authenticate as unknown as (
				c: IDataObject,
				r: IDataObject,
			) => Promise<IDataObject>
		)({ apiKey: 'k', apiSecret: 's', ...credentials }, request);
	const GATEWAY = { baseUrl: 'https://gw.example.com/ivs/' };

	test.each([
		['a path joined to baseURL', { url: '/bank/tokens/', baseURL: 'https://gw.example.com/ivs' }],
		['an older `uri`', { uri: 'https://gw.example.com/ivs/bank/tokens/' }],
		['an older `uri` given as a URL', { uri: new URL('https://gw.example.com/ivs/x') }],
	])('accepts %s under the Base URL', async (_what, request) => {
		await expect(authenticate(GATEWAY, request)).resolves.toMatchObject({
			auth: { username: 'k', password: 's' },
		});
	});

	test.each([
		[
			'an absolute url, whatever baseURL says',
			{ url: 'https://other.example.com/x', baseURL: 'https://gw.example.com/ivs' },
			/only sent to its Base URL \(https:\/\/gw\.example\.com\/ivs\)/,
		],
		[
			'a protocol-relative url',
			{ url: '//other.example.com/x', baseURL: 'https://gw.example.com/ivs' },
			/no full web address/,
		],
		['a request without an address', {}, /no full web address/],
	])('refuses %s', async (_what, request, message) => {
		await expect(authenticate(GATEWAY, request)).rejects.toThrow(message);
	});

	test('refuses every request when the Base URL is no web address', async () => {
		await expect(
			authenticate({ baseUrl: 'ivs.example.com' }, { url: 'https://ivs.example.com/x' }),
		).rejects.toThrow(/its Base URL is not a web address \("ivs.example.com"\)/);
	});
});

describe('what authenticate lets go with the credential', () => {
	const authenticate = (request: IDataObject) =>
		(
			getCredentialType('identityVerificationApi').authenticate as unknown as (
				c: IDataObject,
				r: IDataObject,
			) => Promise<IDataObject>
		)({ apiKey: 'k', apiSecret: 's', baseUrl: 'https://ivs.example.com' }, request);
	const formToken = (request: IDataObject) =>
		(
			getCredentialType('identityVerificationKybFormTokenApi').authenticate as unknown as (
				c: IDataObject,
				r: IDataObject,
			) => Promise<IDataObject>
		)({ formToken: 't', baseUrl: 'https://ivs.example.com' }, request);
	const TARGET = { uri: 'https://ivs.example.com/bank/tokens/', method: 'GET' };

	// What the HTTP Request node's options (Proxy, Ignore SSL Issues, Provide SSL Certificates) and
	// n8n's helpers put on a request: each would hand the key pair to someone other than the service.
	test.each([
		['Proxy', { proxy: 'http://127.0.0.1:3128' }, /Proxy/],
		['Proxy as an object', { proxy: { host: '127.0.0.1', port: 3128 } }, /Proxy/],
		['Ignore SSL Issues', { rejectUnauthorized: false }, /Ignore SSL Issues/],
		['skipSslCertificateValidation', { skipSslCertificateValidation: true }, /Ignore SSL Issues/],
		['its own CA', { agentOptions: { ca: '-----BEGIN CERTIFICATE-----' } }, /SSL Certificates/],
		['a client certificate', { agentOptions: { cert: 'c', key: 'k' } }, /SSL Certificates/],
		[
			'agent options that switch checks off',
			{ agentOptions: { rejectUnauthorized: false } },
			/SSL/,
		],
		['its own agent', { agent: {} }, /agent/],
		['its own HTTPS agent', { httpsAgent: {} }, /agent/],
	])('refuses a request with %s, naming the option', async (_what, extra, words) => {
		await expect(authenticate({ ...TARGET, ...extra })).rejects.toThrow(words);
		await expect(formToken({ ...TARGET, ...extra })).rejects.toThrow(words);
	});

	test('keeps certificate checks on and returns only the fields of a request', async () => {
		const sent = await authenticate({
			...TARGET,
			rejectUnauthorized: true,
			agentOptions: {},
			proxy: undefined,
			headers: { Accept: 'application/json' },
			somethingElse: 'dropped',
		});
		expect(sent).not.toHaveProperty('somethingElse');
		expect(sent).not.toHaveProperty('proxy');
		expect(sent).not.toHaveProperty('agentOptions');
		expect(sent).toMatchObject({
			uri: TARGET.uri,
			method: 'GET',
			headers: { Accept: 'application/json' },
			auth: { username: 'k', password: 's' },
			followRedirect: false,
			sendCredentialsOnCrossOriginRedirect: false,
		});
		expect(sent.rejectUnauthorized).not.toBe(false);
		expect(sent.skipSslCertificateValidation).not.toBe(true);
	});
});
