/** Helpers for the sandbox's own tests: real HTTP calls with undici and a plain node:http webhook receiver. */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startSandbox } from './index.cjs';
import type { Sandbox, StartSandboxOptions } from './index.cjs';
import type { WebhookConfig } from './types.cjs';

export interface CallResult {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	body: Buffer;
	json: any;
}

export interface CallOptions {
	body?: unknown;
	/** 'basic' (default, the sandbox's key pair), 'bearer' (KYB form token), 'none', or a raw Authorization value. */
	auth?: 'basic' | 'bearer' | 'none' | string;
	headers?: Record<string, string>;
}

export function basicHeader(key: string, secret: string): string {
	return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

export async function call(
	sb: Sandbox,
	method: string,
	pathOrUrl: string,
	opts: CallOptions = {},
): Promise<CallResult> {
	const headers: Record<string, string> = { ...opts.headers };
	const auth = opts.auth ?? 'basic';
	if (auth === 'basic')
		headers.authorization = basicHeader(sb.credentials.apiKey, sb.credentials.apiSecret);
	else if (auth === 'bearer') headers.authorization = `Bearer ${sb.credentials.kybFormToken}`;
	else if (auth !== 'none') headers.authorization = auth;
	let body: string | Buffer | undefined;
	if (opts.body !== undefined) {
		body =
			typeof opts.body === 'string' || Buffer.isBuffer(opts.body)
				? opts.body
				: JSON.stringify(opts.body);
		headers['content-type'] ??= 'application/json';
	}
	const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${sb.url}${pathOrUrl}`;
	const res = await request(url, { method: method as 'GET', headers, body });
	const buf = Buffer.from(await res.body.arrayBuffer());
	const text = buf.toString('utf8');
	let json: unknown;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.statusCode, headers: res.headers, text, body: buf, json };
}

interface Received {
	headers: IncomingHttpHeaders;
	raw: Buffer;
	json: any;
}

/** A loopback webhook receiver; `answers` are the statuses (or 'hang' / 'reset') for the next deliveries, then 200. */
export interface Receiver {
	url: string;
	received: Received[];
	answers: Array<number | 'hang' | 'reset'>;
	close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
	const received: Received[] = [];
	const answers: Array<number | 'hang' | 'reset'> = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			let json: unknown;
			try {
				json = JSON.parse(raw.toString('utf8'));
			} catch {
				json = undefined;
			}
			received.push({ headers: req.headers, raw, json });
			const answer = answers.shift() ?? 200;
			if (answer === 'hang') return; // never answers: the sender's timeout applies
			if (answer === 'reset') {
				req.socket.destroy();
				return;
			}
			res.writeHead(answer, { 'content-type': 'application/json' });
			res.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/webhook`,
		received,
		answers,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/**
 * A webhook receiver for the enclosing describe block (`bind` gets it): started once, closed at the
 * end, and emptied (deliveries and queued answers) before each test.
 */
export function useReceiver(bind: (receiver: Receiver) => void): void {
	let receiver: Receiver;
	beforeAll(async () => {
		receiver = await startReceiver();
		bind(receiver);
	});
	afterAll(async () => {
		await receiver?.close();
	});
	beforeEach(() => {
		receiver.received.length = 0;
		receiver.answers.length = 0;
	});
}

/** How `useSandbox` readies the sandbox before each test. */
interface SandboxSetUp {
	/** Instead of `sb.reset()` (the admin API tests reset over HTTP). */
	reset?: (sb: Sandbox) => unknown;
	/** After the reset: deliver the sandbox's webhooks to the receiver with these settings. */
	webhooks?: Omit<WebhookConfig, 'url'>;
	/** How the sandbox is started. */
	options?: StartSandboxOptions;
}

/**
 * A sandbox and a webhook receiver for the enclosing describe block (`bind` gets them): started
 * once, closed at the end, and before each test the receiver emptied and the sandbox reset.
 */
export function useSandbox(
	bind: (sb: Sandbox, receiver: Receiver) => void,
	{ reset = (sb) => sb.reset(), webhooks, options }: SandboxSetUp = {},
): void {
	let sb: Sandbox;
	let receiver: Receiver;
	useReceiver((r) => (receiver = r));
	beforeAll(async () => {
		sb = await startSandbox(options);
		bind(sb, receiver);
	});
	afterAll(async () => {
		await sb?.close();
	});
	beforeEach(async () => {
		await reset(sb);
		if (webhooks) sb.webhooks.configure({ url: receiver.url, ...webhooks });
	});
}
