/**
 * Which addresses a credential may reach: those under its Base URL, and in clear only this machine,
 * written as a literal. In nodes/shared because credentials/ (the authenticate hook) and the nodes
 * (transport, Wait for Result) both enforce it, and a module of neither lets each import it without
 * importing the other.
 */

/**
 * The provider's own address, the Base URL a credential starts with (a white-label deployment has
 * its own). An empty Base URL means this address.
 */
export const DEFAULT_BASE_URL = 'https://ivs.idenfy.com';

/** 127.0.0.0/8 written out in full, each octet 0–255. */
function isLoopbackIpv4(hostname: string): boolean {
	const octets = hostname.split('.');
	return (
		octets.length === 4 &&
		octets[0] === '127' &&
		octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
	);
}

/**
 * Hosts a plain http:// address may use: the machine itself (a local test service), written as a
 * literal. A name under `.localhost` is not: DNS may resolve it to any machine.
 */
export function isLoopbackHost(hostname: string): boolean {
	return (
		hostname === 'localhost' ||
		hostname === '[::1]' ||
		hostname === '::1' ||
		isLoopbackIpv4(hostname)
	);
}

/** Whether a credential sent to `url` would cross the network unencrypted. */
export function isPlainHttpToAnotherMachine(url: URL): boolean {
	return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}

export const PLAIN_HTTP_MESSAGE =
	'The Base URL starts with http://, so the credential would cross the network unencrypted: use the https:// address of the service (plain http:// is allowed only for a test service on this machine, e.g. http://127.0.0.1:8787)';

/** The Base URL as entered, trimmed and without trailing slashes; the default when left empty. */
export function credentialBaseUrl(data: { baseUrl?: unknown }): string {
	const raw = typeof data.baseUrl === 'string' ? data.baseUrl.trim() : '';
	return (raw === '' ? DEFAULT_BASE_URL : raw).replace(/\/+$/, '');
}

/** Origin and path of a URL (relative to `base`) for a message: no query, no user info. */
export function shownUrl(url: string, base?: string): string {
	try {
		const parsed = new URL(url, base);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return 'an invalid address';
	}
}

/**
 * Whether `url` is on the service: the Base URL's origin and, behind a gateway such as
 * `https://gw.example.com/ivs`, under its path too (`/ivs/...`, not `/other/...`).
 */
export function isUnderBaseUrl(baseUrl: string, url: string): boolean {
	try {
		const base = new URL(baseUrl);
		const target = new URL(url);
		if (base.origin !== target.origin) return false;
		// '' without a gateway path: every path starts with '/'.
		const prefix = base.pathname.replace(/\/+$/, '');
		return target.pathname === prefix || target.pathname.startsWith(`${prefix}/`);
	} catch {
		return false;
	}
}

// Links the service gives to files at its storage (a verification's photos): fetched without any
// credential, so what matters is that a link cannot make n8n fetch from inside its own network.

/** The IPv4 address a hostname writes, as four numbers; undefined for a name. */
function ipv4Of(hostname: string): number[] | undefined {
	const octets = hostname.split('.');
	if (octets.length !== 4 || !octets.every((octet) => /^\d{1,3}$/.test(octet))) return undefined;
	const numbers = octets.map(Number);
	return numbers.every((n) => n <= 255) ? numbers : undefined;
}

/**
 * IPv4 ranges that are not the public internet (IANA's special-purpose addresses that are not
 * globally reachable): this network (0/8), private (10/8, 172.16/12, 192.168/16), shared
 * (100.64/10), loopback (127/8), link-local (169.254/16), the protocol's own (192.0.0/24),
 * documentation (192.0.2/24, 198.51.100/24, 203.0.113/24), benchmarking (198.18/15), and
 * multicast and reserved (224/3: 224/4, 240/4 incl. broadcast).
 */
const NOT_PUBLIC_IPV4: Array<[string, number]> = [
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

function ipv4Number(octets: number[]): number {
	return octets.reduce((n, octet) => n * 256 + octet, 0);
}

/** Whether two IPv4 addresses (as numbers) share their first `prefix` bits. */
function samePrefix(a: number, b: number, prefix: number): boolean {
	const size = 2 ** (32 - prefix);
	return Math.floor(a / size) === Math.floor(b / size);
}

function isPrivateIpv4(octets: number[]): boolean {
	const address = ipv4Number(octets);
	return NOT_PUBLIC_IPV4.some(([network, prefix]) =>
		samePrefix(address, ipv4Number(network.split('.').map(Number)), prefix),
	);
}

/** The eight 16-bit groups of an IPv6 address as URL writes it (hex, `::` for zeros). */
function ipv6Groups(address: string): number[] {
	const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
	const groups = (text: string | undefined) =>
		text ? text.split(':').map((g) => parseInt(g, 16)) : [];
	const front = groups(head);
	const back = groups(tail);
	const zeros = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
	return [...front, ...zeros, ...back];
}

/**
 * IPv6 addresses that are not the public internet, as URL writes them (compressed, lower case, in
 * brackets): IPv4-compatible (::/96, deprecated; unspecified and loopback among them), discard
 * (100::/64), NAT64 for local use (64:ff9b:1::/48), documentation (2001:db8::/32), unique local
 * (fc00::/7), link-local (fe80::/10), multicast (ff00::/8), and IPv4 mapped (::ffff:0:0/96) or
 * translated (64:ff9b::/96) into IPv6, judged by their IPv4 part.
 */
function isPrivateIpv6(address: string): boolean {
	const g = ipv6Groups(address);
	const v4 = () => [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255];
	const zero = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
	if (zero(0, 6)) return true;
	if (zero(0, 5) && g[5] === 0xffff) return isPrivateIpv4(v4());
	if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return isPrivateIpv4(v4());
	if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return true;
	if (g[0] === 0x100 && zero(1, 4)) return true;
	if (g[0] === 0x2001 && g[1] === 0xdb8) return true;
	return (g[0] & 0xfe00) === 0xfc00 || (g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xff00) === 0xff00;
}

/** A name without the trailing dots of its fully qualified form (`localhost.` is `localhost`). */
function withoutTrailingDots(hostname: string): string {
	let end = hostname.length;
	while (end > 0 && hostname[end - 1] === '.') end--;
	return hostname.slice(0, end);
}

/** Whether a URL's hostname is an address (or name) of this machine or a private network. */
export function isPrivateHost(urlHostname: string): boolean {
	const hostname = withoutTrailingDots(urlHostname);
	if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
	if (hostname.startsWith('[')) return isPrivateIpv6(hostname.slice(1, -1));
	const ipv4 = ipv4Of(hostname);
	return ipv4 !== undefined && isPrivateIpv4(ipv4);
}

/**
 * Why a file link from the service is not fetched, or undefined when it may be: only https to a
 * public host, except to the host of a Base URL on this machine (a local test service, whose links
 * are its own).
 */
export function fileLinkProblem(link: string, baseUrl: string): string | undefined {
	const url = URL.canParse(link) ? new URL(link) : undefined;
	if (!url) return 'it is not a web address';
	const base = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
	if (base && isLoopbackHost(base.hostname) && url.host === base.host) return undefined;
	if (url.protocol !== 'https:') return 'it does not start with https://';
	if (url.username || url.password) return 'it carries a user name or password';
	if (isPrivateHost(url.hostname)) return 'it points to this machine or a private network';
	return undefined;
}
