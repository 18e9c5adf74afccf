/**
 * The credential tests pass only against this service, and no credential crosses the network in
 * clear (issue "reliability", item 9): a server at a mistyped Base URL that answers an HTML page
 * fails the test; a plain http:// Base URL is refused unless it is on this machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../../nodes/shared/urlGuards';
import { runNode, sandboxCredentials, testCredential } from '../harness/index.cjs';
import { startSandbox } from '../sandbox/index.cjs';
import type { Sandbox } from '../sandbox/index.cjs';

let sb: Sandbox;
let creds: ReturnType<typeof sandboxCredentials>;
let other: http.Server;
let otherUrl: string;
let otherStatus = 404;
let otherBody = '<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>';
let otherContentType = 'text/html';

beforeAll(async () => {
	sb = await startSandbox();
	creds = sandboxCredentials(sb);
	// Some other web server: a typo in the Base URL, or a path prefix the service does not use.
	other = http.createServer((_req, res) => {
		res.writeHead(otherStatus, { 'content-type': otherContentType }).end(otherBody);
	});
	await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
	otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await sb?.close();
	await new Promise<void>((resolve) => other.close(() => resolve()));
});

const TYPES = ['identityVerificationApi', 'identityVerificationKybFormTokenApi'] as const;

describe.each(TYPES)('%s: the test passes only on an answer from this service', (type) => {
	test('passes against the service (its JSON answer for the made-up id)', async () => {
		expect(await testCredential(type, creds[type])).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	});

	test.each([
		[404, 'text/html', '<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>'],
		[200, 'text/html', '<html><body>Welcome to nginx!</body></html>'],
		[404, 'application/json', '{"error":"no route"}'],
		[200, 'text/plain', ''],
	])('fails when another server answers %s %s', async (status, contentType, body) => {
		otherStatus = status;
		otherContentType = contentType;
		otherBody = body;
		const result = await testCredential(type, { ...creds[type], baseUrl: otherUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/not like the identity verification service/);
		expect(result.message).toMatch(/check the Base URL/);
	});

	test.each(['http://ivs.example.com', 'http://foo.localhost:8787'])(
		'refuses a plain http:// Base URL on another machine (%s), saying why, without sending the secret',
		async (baseUrl) => {
			const result = await testCredential(type, { ...creds[type], baseUrl });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/http:\/\/.*unencrypted/);
			expect(result.message).toMatch(/https:\/\//);
		},
	);
});

describe('the node refuses a plain http:// Base URL on another machine before any request', () => {
	test.each([
		'http://ivs.example.com',
		'http://10.0.0.7:8787',
		'http://gw.example.com/ivs',
		// a name under .localhost is resolved by DNS, which may answer with any machine
		'http://foo.localhost:8787',
	])('%s', async (baseUrl) => {
		const { error } = await runNode({
			node: 'identityVerification',
			parameters: {
				resource: 'identification',
				operation: 'requestInformation',
				scanRef: 'scan-1',
			},
			credentials: { identityVerificationApi: { ...creds.identityVerificationApi, baseUrl } },
		});
		expect(error?.message).toMatch(
			/Base URL in the credential "Identity Verification API account" starts with http:\/\//,
		);
		expect(error?.description).toMatch(/unencrypted/);
	});

	test.each(['http://127.0.0.1', 'http://localhost'])(
		'%s (this machine) is allowed',
		async (host) => {
			const port = new URL(sb.url).port;
			sb.resetLog();
			const { error } = await runNode({
				node: 'identityVerification',
				parameters: {
					resource: 'bank',
					operation: 'listTransactions',
					verificationId: 'v',
					accountId: 'a',
					limit: 1,
				},
				credentials: {
					identityVerificationApi: { ...creds.identityVerificationApi, baseUrl: `${host}:${port}` },
				},
			});
			// reached the service: it answers 404 for unknown ids
			expect(error?.message).toMatch(/404/);
		},
	);
});

describe('plain http:// is allowed only for a literal loopback address', () => {
	test.each([
		'localhost',
		'127.0.0.1',
		'127.0.0.0',
		'127.255.255.255',
		'127.1.2.3',
		'[::1]',
		'::1',
	])('%s is this machine', (hostname) => {
		expect(isLoopbackHost(hostname)).toBe(true);
	});

	test.each([
		'foo.localhost',
		'localhost.example.com',
		'127.0.0.256',
		'127.0.0.999',
		'127.0.0',
		'127.0.0.1.example.com',
		'128.0.0.1',
		'0.0.0.0',
		'[::2]',
		'[::ffff:127.0.0.1]',
		'',
	])('%s is not', (hostname) => {
		expect(isLoopbackHost(hostname)).toBe(false);
	});
});
