/**
 * Which addresses a credential may reach in clear: only this machine, written as a literal.
 * In nodes/shared because credentials/ (the authenticate hook) and the nodes (transport, Wait for
 * Result) both enforce it, and a module of neither lets each import it without importing the other.
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
