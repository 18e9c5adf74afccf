// The provider's stand-in for the request tests (requests*.test.cts): a loopback server that records
// every request as it came and answers what the test queued, or else what the test's own
// `answerFor` says the provider answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server received it. */
export interface Captured {
	method: string;
	path: string;
	query: Record<string, string>;
	authorization: string;
	contentType: string;
	body: string;
}

/** An answer: JSON `body` (none: an empty answer), or a PDF's or another file's bytes. */
export interface Reply {
	status: number;
	body?: unknown;
	/** Sent as application/pdf. */
	pdf?: Buffer;
	/** Sent as they are, without a type. */
	raw?: Buffer;
}

export interface RecordingServer {
	url: string;
	requests: Captured[];
	/** The JSON body of each answer (undefined: none), in order. */
	answers: unknown[];
	/** Answers for the next requests, in order, before `answerFor`'s. */
	replies: Reply[];
	/** Forgets the requests and answers of a run before. */
	clear(): void;
}

function captured(req: IncomingMessage, body: Buffer): Captured {
	const url = new URL(req.url ?? '/', 'http://capture');
	return {
		method: req.method ?? '',
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		authorization: req.headers.authorization ?? '',
		contentType: req.headers['content-type'] ?? '',
		body: body.toString('utf8'),
	};
}

function send(res: ServerResponse, reply: Reply): void {
	if (reply.pdf) res.writeHead(reply.status, { 'content-type': 'application/pdf' }).end(reply.pdf);
	else if (reply.raw) res.writeHead(reply.status).end(reply.raw);
	else if (reply.body === undefined) res.writeHead(reply.status).end();
	else
		res
			.writeHead(reply.status, { 'content-type': 'application/json' })
			.end(JSON.stringify(reply.body));
}

/**
 * The server for the test file (started before its tests, closed after). `files`: bytes served
 * unrecorded at a path (a file link the provider gives).
 */
export function useRecordingServer(
	answerFor: (request: Captured) => Reply,
	files: Record<string, Buffer> = {},
): RecordingServer {
	const server: RecordingServer = {
		url: '',
		requests: [],
		answers: [],
		replies: [],
		clear() {
			server.requests.length = 0;
			server.answers.length = 0;
		},
	};
	const http = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			try {
				const request = captured(req, Buffer.concat(chunks));
				if (files[request.path]) return void res.writeHead(200).end(files[request.path]);
				server.requests.push(request);
				const reply = server.replies.shift() ?? answerFor(request);
				server.answers.push(reply.body);
				send(res, reply);
			} catch (error) {
				// Not 5xx: the transport would retry it.
				res.writeHead(400).end(`recording server: ${String(error)}`);
			}
		});
	});
	beforeAll(async () => {
		await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
		server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => http.close(() => resolve()));
	});
	return server;
}

/**
 * The operation a request went to, of `operations` (`METHOD /path/{param}/` as the provider's
 * documents write them): the template it matches with fewest parameters, and their values.
 */
export function operationOf<Key extends string>(
	operations: readonly Key[],
	request: Captured,
): { key: Key; params: Record<string, string> } {
	const matches = operations.flatMap((key) => {
		const [method, template] = key.split(' ');
		const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
		const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '([^/]+)')}$`);
		const found = method === request.method ? pattern.exec(request.path) : null;
		if (!found) return [];
		const params = Object.fromEntries(
			names.map((name, index) => [name, decodeURIComponent(found[index + 1])]),
		);
		return [{ key, params }];
	});
	matches.sort((a, b) => Object.keys(a.params).length - Object.keys(b.params).length);
	if (!matches[0])
		throw new Error(`No operation of the provider is ${request.method} ${request.path}`);
	return matches[0];
}
