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
