/**
 * File links the service gives (a verification's photos at its storage) are untrusted input: only
 * https to a public host is fetched (a loopback test service's own links aside), never with a
 * credential, never through a redirect, and an expired link says so in words. The address check is
 * compared with Node's own `net.BlockList` on generated addresses.
 */
import { BlockList } from 'node:net';
import { Readable } from 'node:stream';

import fc from 'fast-check';
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { fileLinkProblem, isPrivateHost } from '../../nodes/shared/urlGuards';
import { downloadLink } from '../../nodes/IdentityVerification/transport/download';
import { ACTION_NODE } from '../harness/fixtures/action-node.cjs';

describe('which links are fetched', () => {
	const SERVICE = 'https://ivs.idenfy.com';

	test.each([
		['https://s3.eu-central-1.amazonaws.com/bucket/FRONT.jpg?X-Amz-Signature=1', SERVICE],
		['https://files.example.com/a.png', SERVICE],
		// a test service on this machine serves its own files
		['http://127.0.0.1:8787/files/a.png', 'http://127.0.0.1:8787'],
	])('%s is fetched', (link, base) => {
		expect(fileLinkProblem(link, base)).toBeUndefined();
	});

	test.each([
		['http://files.example.com/a.png', /does not start with https/],
		['https://user:pass@files.example.com/a.png', /user name or password/],
		['https://127.0.0.1/a.png', /private network/],
		['https://0x7f.1/a.png', /private network/],
		['https://2130706433/a.png', /private network/],
		['https://10.1.2.3/a.png', /private network/],
		['https://169.254.169.254/latest/meta-data/', /private network/],
		['https://localhost/a.png', /private network/],
		['https://files.localhost/a.png', /private network/],
		['https://[::1]/a.png', /private network/],
		['https://[fd00::1]/a.png', /private network/],
		['https://[::ffff:10.0.0.1]/a.png', /private network/],
		// a name written with the root's trailing dot is the same name
		['https://localhost./a.png', /private network/],
		['https://LOCALHOST../a.png', /private network/],
		['https://files.localhost./a.png', /private network/],
		['https://127.0.0.1./a.png', /private network/],
		['https://0x7f.1./a.png', /private network/],
		// reserved for benchmarks, documentation, carrier-grade NAT, the future, the protocol itself
		['https://198.18.0.1/a.png', /private network/],
		['https://198.19.255.254/a.png', /private network/],
		['https://192.0.2.10/a.png', /private network/],
		['https://198.51.100.7/a.png', /private network/],
		['https://203.0.113.9/a.png', /private network/],
		['https://100.64.0.1/a.png', /private network/],
		['https://240.0.0.1/a.png', /private network/],
		['https://255.255.255.255/a.png', /private network/],
		['https://192.0.0.170/a.png', /private network/],
		['https://[::ffff:198.18.0.1]/a.png', /private network/],
		['https://[::ffff:c633:6407]/a.png', /private network/],
		['https://[64:ff9b::203.0.113.9]/a.png', /private network/],
		['https://[::127.0.0.1]/a.png', /private network/],
		['https://[2001:db8::1]/a.png', /private network/],
		['not a link', /not a web address/],
	])('%s is not', (link, words) => {
		expect(fileLinkProblem(link, SERVICE)).toMatch(words);
	});

	test.each([
		'https://198.17.255.255/a.png',
		'https://198.20.0.1/a.png',
		'https://192.0.3.1/a.png',
		'https://203.0.114.1/a.png',
		'https://100.128.0.1/a.png',
		'https://[2001:db9::1]/a.png',
		'https://files.example.com./a.png',
	])('%s, next to a refused range, is fetched', (link) => {
		expect(fileLinkProblem(link, SERVICE)).toBeUndefined();
	});

	test("a loopback test service's links to another port are not its own", () => {
		expect(fileLinkProblem('http://127.0.0.1:9999/a.png', 'http://127.0.0.1:8787')).toMatch(
			/https/,
		);
	});
});

describe('the private-address check against net.BlockList', () => {
	// The ranges isPrivateHost refuses, as BlockList subnets; mapped (::ffff:0:0/96) IPv6 addresses
	// are checked against the IPv4 rules by BlockList itself, translated ones (64:ff9b::/96) by rules
	// of their own.
	const IPV4: Array<[string, number]> = [
		['0.0.0.0', 8],
		['10.0.0.0', 8],
		['100.64.0.0', 10],
		['127.0.0.0', 8],
		['169.254.0.0', 16],
		['172.16.0.0', 12],
		['192.0.0.0', 24],
		['192.0.2.0', 24],
		['192.168.0.0', 16],
		['198.18.0.0', 15],
		['198.51.100.0', 24],
		['203.0.113.0', 24],
		['224.0.0.0', 3],
	];
	const reference = new BlockList();
	for (const [address, prefix] of IPV4) {
		reference.addSubnet(address, prefix, 'ipv4');
		reference.addSubnet(`64:ff9b::${address}`, 96 + prefix, 'ipv6');
	}
	// IPv4-compatible (deprecated, :: and ::1 among them), discard-only, NAT64 for local use,
	// documentation
	reference.addSubnet('::', 96, 'ipv6');
	reference.addSubnet('100::', 64, 'ipv6');
	reference.addSubnet('64:ff9b:1::', 48, 'ipv6');
	reference.addSubnet('2001:db8::', 32, 'ipv6');
	reference.addSubnet('fc00::', 7, 'ipv6');
	reference.addSubnet('fe80::', 10, 'ipv6');
	reference.addSubnet('ff00::', 8, 'ipv6');

	/** The hostname a link to `address` has, as the URL parser writes it. */
	const hostnameOf = (address: string, v6: boolean) =>
		new URL(`https://${v6 ? `[${address}]` : address}/`).hostname;

	/** An IPv4 address as a number, and back. */
	const ipv4Number = (address: string) =>
		address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
	const ipv4Text = (n: number) =>
		[24, 16, 8, 0].map((bits) => Math.floor(n / 2 ** bits) % 256).join('.');

	test('IPv4 addresses', () => {
		// Addresses in each range and just outside it: random ones rarely fall in a /24.
		const nearby = fc.constantFrom(...IPV4).chain(([address, prefix]) => {
			const size = 2 ** (32 - prefix);
			return fc
				.integer({ min: -size, max: 2 * size - 1 })
				.map((offset) => ipv4Text((ipv4Number(address) + offset + 2 ** 32) % 2 ** 32));
		});
		fc.assert(
			fc.property(fc.oneof(fc.ipV4(), nearby), (address) => {
				expect(isPrivateHost(hostnameOf(address, false))).toBe(reference.check(address, 'ipv4'));
			}),
			{ numRuns: 20_000 },
		);
	});

	test('IPv6 addresses, also IPv4 mapped or translated into them', () => {
		const mapped = fc.ipV4().map((address) => `::ffff:${address}`);
		const translated = fc.ipV4().map((address) => `64:ff9b::${address}`);
		const nearby = fc
			.constantFrom(
				'fc',
				'fd',
				'fe8',
				'fe9',
				'fea',
				'feb',
				'fec',
				'ff',
				'::',
				'fb',
				'100:0:0:0:',
				'64:ff9b:1:',
				'64:ff9b:0:',
				'2001:db8:',
				'2001:db9:',
			)
			.chain((start) => fc.ipV6().map((address) => `${start}${address.slice(start.length)}`))
			.filter((address) => URL.canParse(`https://[${address}]/`));
		fc.assert(
			fc.property(fc.oneof(fc.ipV6(), mapped, translated, nearby), (address) => {
				expect(isPrivateHost(hostnameOf(address, true))).toBe(reference.check(address, 'ipv6'));
			}),
			{ numRuns: 20_000 },
		);
	});
});

describe('a file link is fetched without the credential, and not through a redirect', () => {
	const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000100000001', 'hex');

	/** An execution context whose plain request helper answers each link with `answer`. */
	function context(
		answer: (options: IHttpRequestOptions) => {
			statusCode: number;
			body?: unknown;
			headers?: object;
		},
	) {
		const plain: IHttpRequestOptions[] = [];
		const withCredential: unknown[] = [];
		const ctx = {
			getNode: () => ACTION_NODE,
			getNodeParameter: (_name: string, _i: number, fallback?: unknown) => fallback,
			getCredentials: async () => ({
				apiKey: 'k',
				apiSecret: 'secret-1234',
				baseUrl: 'https://ivs.example.com',
			}),
			getExecutionCancelSignal: () => new AbortController().signal,
			helpers: {
				httpRequest: async (options: IHttpRequestOptions) => {
					plain.push(options);
					return { headers: {}, ...answer(options) };
				},
				httpRequestWithAuthentication: async (...args: unknown[]) => withCredential.push(args),
				prepareBinaryData: async (data: Buffer | Readable, fileName: string, mimeType: string) => {
					const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(await data.toArray());
					return { data: bytes.toString('base64'), fileName, mimeType, bytes: bytes.length };
				},
			},
		};
		return { context: ctx as unknown as IExecuteFunctions, plain, withCredential };
	}

	const FILE = { name: 'scan-1-FRONT', accepts: ['jpeg', 'png'], what: 'photo' };
	const LINK = 'https://s3.example.com/bucket/FRONT.png?X-Amz-Signature=abc';

	test('the photo is stored with its real type, and no credential went with the request', async () => {
		const s = context(() => ({ statusCode: 200, body: Readable.from([PNG]) }));
		const file = await downloadLink.call(s.context, LINK, FILE, { itemIndex: 0 });
		expect(file).toMatchObject({
			fileName: 'scan-1-FRONT.png',
			mimeType: 'image/png',
			fileSize: PNG.length,
		});
		expect(s.withCredential).toEqual([]);
		expect(s.plain).toHaveLength(1);
		expect(JSON.stringify(s.plain[0])).not.toMatch(/secret-1234|Authorization|auth/i);
		expect(s.plain[0]).toMatchObject({ url: LINK, disableFollowRedirect: true });
	});

	test('a redirect is not followed, wherever it points', async () => {
		const s = context(() => ({
			statusCode: 302,
			headers: { location: 'http://169.254.169.254/' },
		}));
		await expect(downloadLink.call(s.context, LINK, FILE, { itemIndex: 0 })).rejects.toThrow(
			/answered with a redirect \(HTTP 302\), which is not followed/,
		);
		expect(s.plain).toHaveLength(1);
	});

	test('an expired link says so, and what to do', async () => {
		const s = context(() => ({
			statusCode: 403,
			body: Readable.from([
				Buffer.from(
					'<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
				),
			]),
		}));
		const error = await downloadLink
			.call(s.context, LINK, FILE, { itemIndex: 0 })
			.catch((e: Error) => e);
		expect(error).toMatchObject({
			message: 'The file link was refused (HTTP 403): it has expired or is no longer valid',
			description: expect.stringMatching(/valid for a short time .* Run the node again/),
		});
	});

	test('a link to a private address is refused before any request', async () => {
		const s = context(() => ({ statusCode: 200, body: Readable.from([PNG]) }));
		await expect(
			downloadLink.call(s.context, 'https://169.254.169.254/latest/', FILE, { itemIndex: 0 }),
		).rejects.toThrow(/not followed: it points to this machine or a private network/);
		expect(s.plain).toEqual([]);
	});

	// A link may name an address inside n8n's network by a public-looking name: if its words told a
	// closed port (refused) from an open one (an answer that is no HTTP, a TLS greeting that fails),
	// links would map that network.
	test('a link that gets no answer says the same, whatever the address did', async () => {
		const failures = [
			Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6379'), { code: 'ECONNREFUSED' }),
			Object.assign(new Error('connect EHOSTUNREACH 10.0.0.5:22'), { code: 'EHOSTUNREACH' }),
			Object.assign(new Error('timeout of 30000ms exceeded'), { code: 'ECONNABORTED' }),
			Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
			Object.assign(new Error('Parse Error: Expected HTTP/'), { code: 'HPE_INVALID_CONSTANT' }),
			Object.assign(new Error('SSL routines:ssl3_get_record:wrong version number'), {
				code: 'ERR_SSL_WRONG_VERSION_NUMBER',
			}),
			new Error('-ERR unknown command'),
		];
		jest.spyOn(Math, 'random').mockReturnValue(0);
		try {
			const words = await Promise.all(
				failures.map(async (failure) => {
					const s = context(() => {
						throw failure;
					});
					const error = (await downloadLink
						.call(s.context, LINK, FILE, { itemIndex: 0 })
						.catch((e: unknown) => e)) as Error & { description?: string };
					return { message: error.message, description: error.description };
				}),
			);
			expect(new Set(words.map((w) => JSON.stringify(w))).size).toBe(1);
			expect(words[0].message).toMatch(/file link/);
			expect(JSON.stringify(words[0])).not.toMatch(/ECONN|EHOST|HPE|SSL|refused|ERR|code/i);
		} finally {
			jest.restoreAllMocks();
		}
	});

	test('a file over Max File Size is refused, saying which bound', async () => {
		const s = context(() => ({ statusCode: 200, body: Readable.from([PNG, Buffer.alloc(2048)]) }));
		await expect(
			downloadLink.call(s.context, LINK, FILE, { itemIndex: 0, maxBytes: 1024 }),
		).rejects.toThrow('The file is larger than the Max File Size of 1 KB');
	});
});
