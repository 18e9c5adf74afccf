/** Helpers of the trigger tests: signing (independently of the node's code) and posting over HTTP. */
import { createHmac } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import {
	SIGNING_CREDENTIAL,
	startTriggerHost,
	type TriggerHost,
	type TriggerHostOptions,
} from '../../harness/webhook.cjs';

export type Encoding = 'hexLower' | 'hexUpper' | 'base64' | 'prefixedHex';
export const ENCODINGS: Encoding[] = ['hexLower', 'hexUpper', 'base64', 'prefixedHex'];

/** HMAC-SHA256 of the bytes with the key, in the given encoding (Node's crypto, not the node's module). */
export function sign(body: Buffer | string, key: string, encoding: Encoding = 'hexLower'): string {
	const digest = createHmac('sha256', key)
		.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
		.digest();
	switch (encoding) {
		case 'hexUpper':
			return digest.toString('hex').toUpperCase();
		case 'base64':
			return digest.toString('base64');
		case 'prefixedHex':
			return `sha256=${digest.toString('hex')}`;
		default:
			return digest.toString('hex');
	}
}

export interface PostResult {
	status: number;
	text: string;
	json: any;
}

/** A header sent several times is given as a list of its values. */
type Headers = Record<string, string | string[]>;

export async function post(
	url: string,
	body: Buffer | string,
	headers: Headers = {},
): Promise<PostResult> {
	const res = await request(url, {
		method: 'POST',
		body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
		headers: { 'content-type': 'application/json', ...headers },
	});
	const text = await res.body.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.statusCode, text, json };
}

/** Posts a body signed with `key` (and the event type header unless `eventType` is undefined). */
export async function postSigned(
	url: string,
	body: unknown,
	opts: { key: string; eventType?: string; encoding?: Encoding; headers?: Headers },
): Promise<PostResult> {
	const raw = Buffer.isBuffer(body)
		? body
		: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
	const headers: Headers = {
		'service-signature': sign(raw, opts.key, opts.encoding),
		...(opts.eventType !== undefined ? { 'service-event-type': opts.eventType } : {}),
		...opts.headers,
	};
	return await post(url, raw, headers);
}

export interface VectorFile {
	signingKey: string;
	valid: Array<{ name: string; bodyBase64: string; signatures: Record<Encoding, string> }>;
	invalid: Array<{ name: string; bodyBase64: string; signature: string; why?: string }>;
}

/**
 * The shared vectors, signed by an implementation independent of the project (Python's hmac); a
 * verbatim copy of the project's shared `vectors/webhook-signatures.json` kept beside the tests.
 * Read from the source tree (tests run compiled from .build/test/nodes/IdentityVerificationTrigger/).
 */
export function loadVectors(): VectorFile {
	const file = path.resolve(
		__dirname,
		'..',
		'..',
		'..',
		'..',
		'test',
		'nodes',
		'IdentityVerificationTrigger',
		'fixtures',
		'webhook-signatures.json',
	);
	return JSON.parse(readFileSync(file, 'utf8')) as VectorFile;
}

/**
 * Starts trigger hosts whose signing credential holds `key`; every host started is closed after the
 * test file. Call it at the top level of a test file.
 */
export function useTriggerHosts(key: string): (opts?: TriggerHostOptions) => Promise<TriggerHost> {
	const credentials = { [SIGNING_CREDENTIAL]: { signingSecret: key } };
	const hosts: TriggerHost[] = [];
	afterAll(async () => {
		await Promise.all(hosts.map(async (h) => await h.close()));
	});
	return async (opts = {}) => {
		const h = await startTriggerHost({ credentials, ...opts });
		hosts.push(h);
		return h;
	};
}

/** The newest event a trigger host emitted. */
export const lastEvent = (h: TriggerHost) =>
	h.emitted[h.emitted.length - 1]?.[0]?.json as Record<string, any>;

/** A final identification result: the body the stub-context tests deliver. */
export const FINAL_BODY = Buffer.from(
	'{"scanRef":"s-1","final":true,"status":{"overall":"APPROVED"}}',
);

/** n8n's response object as far as the trigger uses it: status/json, statusCode and its events. */
export class StubResponse extends EventEmitter {
	statusCode = 200;
	answered: Array<{ status: number; body: IDataObject }> = [];
	status(code: number) {
		this.statusCode = code;
		return this;
	}
	json(body: IDataObject) {
		this.answered.push({ status: this.statusCode, body });
		return this;
	}
}
