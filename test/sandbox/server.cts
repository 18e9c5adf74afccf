/** The HTTP server: request log, faults, auth, routing and writing replies. */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { errorBody, HttpError, notFoundBody, statusErrorBody } from './http.cjs';
import type { Reply, Req } from './http.cjs';
import type { SandboxCore } from './core.cjs';
import type { Match, Router } from './router.cjs';
import type { FaultRule, RequestLogEntry } from './types.cjs';

export const ADMIN_PREFIX = '/__sandbox';
const MAX_BODY_BYTES = 200 * 1024 * 1024;

const UNAUTHORIZED = errorBody('UNAUTHORIZED', 'Invalid or missing API credentials.');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Auth {
	scheme: RequestLogEntry['authScheme'];
	basicOk: boolean;
	bearerOk: boolean;
}

function authOf(header: string | undefined, core: SandboxCore): Auth {
	if (!header) return { scheme: 'none', basicOk: false, bearerOk: false };
	const [scheme, ...rest] = header.trim().split(/\s+/);
	const value = rest.join(' ');
	if (/^basic$/i.test(scheme)) {
		const decoded = Buffer.from(value, 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		const ok =
			colon >= 0 &&
			decoded.slice(0, colon) === core.credentials.apiKey &&
			decoded.slice(colon + 1) === core.credentials.apiSecret;
		return { scheme: 'basic', basicOk: ok, bearerOk: false };
	}
	if (/^bearer$/i.test(scheme)) {
		// The sandbox's own form token, or a session's (POST /kyb/tokens/) while it is valid.
		const bearerOk =
			value === core.credentials.kybFormToken ||
			core.kybCompanies.validSession(value) !== undefined;
		return { scheme: 'bearer', basicOk: false, bearerOk };
	}
	return { scheme: 'other', basicOk: false, bearerOk: false };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new HttpError(413, errorBody('BAD_VALUE', 'Request body too large.')));
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function makeReq(req: IncomingMessage, url: URL, rawBody: Buffer): Req {
	let parsed: { value: unknown } | undefined;
	return {
		method: (req.method ?? 'GET').toUpperCase(),
		path: url.pathname,
		query: url.searchParams,
		params: {},
		headers: req.headers,
		origin: `http://${req.headers.host ?? url.host}`,
		rawBody,
		json() {
			if (!parsed) {
				const text = rawBody.toString('utf8');
				if (text.trim() === '') parsed = { value: undefined };
				else {
					try {
						parsed = { value: JSON.parse(text) };
					} catch (error) {
						throw new HttpError(
							400,
							errorBody('JSON_ERROR', `JSON parse error - ${(error as Error).message}`),
						);
					}
				}
			}
			return parsed.value;
		},
	};
}

function write(res: ServerResponse, reply: Reply, entry?: RequestLogEntry): void {
	if (entry) entry.status = reply.status;
	const headers: Record<string, string> = { ...reply.headers };
	if (reply.stream) {
		res.writeHead(reply.status, headers);
		reply.stream.on('error', () => res.destroy());
		reply.stream.pipe(res);
		return;
	}
	let body: Buffer | undefined = reply.buffer;
	if (reply.json !== undefined && reply.status !== 204) {
		body = Buffer.from(JSON.stringify(reply.json));
		headers['Content-Type'] ??= 'application/json';
	}
	if (reply.status === 204 || reply.status === 304) body = undefined;
	headers['Content-Length'] = String(body?.length ?? 0);
	res.writeHead(reply.status, headers);
	res.end(body);
}

function errorReply(error: unknown): Reply {
	if (error instanceof HttpError)
		return { status: error.status, json: error.body, headers: error.headers };
	console.error('[sandbox] internal error:', error);
	const message = `Internal sandbox error: ${(error as Error)?.message ?? String(error)}`;
	return { status: 500, json: errorBody('INTERNAL_ERROR', message) };
}

/** The admin API answers every error as `{detail}` (its own shape, not the service's). */
function adminErrorReply(error: unknown): Reply {
	const reply = errorReply(error);
	const detail =
		error instanceof HttpError ? error.message : (reply.json as { message: string }).message;
	return { ...reply, json: { detail } };
}

/**
 * The reply of a fault rule with a `status`: the service's error body (429: TOO_MANY_REQUESTS and,
 * as the service documents none, no `Retry-After` unless the rule gives one).
 */
function faultReply(fault: FaultRule, status: number): Reply {
	const headers: Record<string, string> = {};
	if (fault.retryAfter !== undefined && fault.retryAfter !== null)
		headers['Retry-After'] = String(fault.retryAfter);
	const message =
		status === 429 ? 'Requests per hour limit has been reached.' : `Sandbox fault: HTTP ${status}.`;
	if (fault.jsonText !== undefined) {
		headers['Content-Type'] = 'application/json';
		return { status, headers, buffer: Buffer.from(fault.jsonText) };
	}
	const body = fault.body !== undefined ? fault.body : statusErrorBody(status, message);
	return { status, headers, json: body };
}

/**
 * Applies latency and the first matching fault rule, like a proxy in front of the service. Returns
 * whether the request was answered (or dropped) here.
 */
async function applyFaults(
	core: SandboxCore,
	req: IncomingMessage,
	res: ServerResponse,
	entry: RequestLogEntry,
	url: URL,
): Promise<boolean> {
	if (core.latencyMs > 0) await sleep(core.latencyMs);
	const fault = core.takeFault(entry.method, url.pathname, url.searchParams);
	if (!fault) return false;
	if (fault.latencyMs) await sleep(fault.latencyMs);
	if (fault.drop) {
		entry.status = 0;
		req.socket.destroy();
		return true;
	}
	if (fault.status === undefined) return false;
	write(res, faultReply(fault, fault.status), entry);
	return true;
}

/** 404 for an unknown path, 401 without valid credentials for it, 405 for another method. */
function refusal(match: Match, auth: Auth, method: string): Reply | undefined {
	if (match.kind === 'none') return { status: 404, json: notFoundBody() };
	const kind = match.kind === 'route' ? match.route.auth : match.auth;
	if (kind !== 'public' && !(auth.basicOk || (kind === 'basicOrBearer' && auth.bearerOk))) {
		return {
			status: 401,
			headers: { 'WWW-Authenticate': 'Basic realm="api"' },
			json: UNAUTHORIZED,
		};
	}
	if (match.kind === 'method-not-allowed') {
		return {
			status: 405,
			headers: { Allow: match.allowed.join(', ') },
			json: errorBody('METHOD_NOT_ALLOWED', `Method "${method}" not allowed.`),
		};
	}
	return undefined;
}

/** Admin calls: not logged, not subject to faults or authentication. */
async function handleAdminRequest(
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	admin: (req: Req) => Promise<Reply>,
): Promise<void> {
	let reply: Reply;
	try {
		reply = await admin(makeReq(req, url, await readBody(req)));
	} catch (error) {
		reply = adminErrorReply(error);
	}
	write(res, reply);
}

/** A request on the service paths: logged, then faults, routing, authentication, the route. */
async function handleServiceRequest(
	core: SandboxCore,
	router: Router,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	const method = (req.method ?? 'GET').toUpperCase();
	const auth = authOf(req.headers.authorization, core);
	const entry: RequestLogEntry = {
		method,
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		host: req.headers.host ?? '',
		authScheme: auth.scheme,
		authorized: auth.basicOk || (auth.bearerOk && router.acceptsBearer(url.pathname)),
		status: 0,
		at: Date.now(),
	};
	core.requests.push(entry);

	let rawBody: Buffer;
	try {
		rawBody = await readBody(req);
	} catch (error) {
		// The client stopped sending (an upload it cut off): nothing to answer, as a real server.
		if (req.destroyed || req.readableAborted) return;
		write(res, errorReply(error), entry);
		return;
	}
	if (await applyFaults(core, req, res, entry, url)) return;

	const match = router.match(method, url.pathname);
	const refused = refusal(match, auth, method);
	if (refused) {
		write(res, refused, entry);
		return;
	}
	// refusal() answers every kind of match but a route.
	const { route, params } = match as Extract<Match, { kind: 'route' }>;
	const request = makeReq(req, url, rawBody);
	request.params = params;
	let reply: Reply;
	try {
		reply = await route.handler(request, core);
	} catch (error) {
		reply = errorReply(error);
	}
	write(res, reply, entry);
}

export function createSandboxServer(
	core: SandboxCore,
	router: Router,
	admin: (req: Req) => Promise<Reply>,
): Server {
	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		if (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
			await handleAdminRequest(req, res, url, admin);
		} else {
			await handleServiceRequest(core, router, req, res, url);
		}
	}

	const server = createServer((req, res) => {
		handle(req, res).catch((error) => {
			if (!res.headersSent) write(res, errorReply(error));
			else res.destroy();
		});
	});
	server.keepAliveTimeout = 5000;
	return server;
}
