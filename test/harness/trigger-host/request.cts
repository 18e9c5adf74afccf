/** Reading a webhook request as n8n does: its `rawBodyReader` middleware, then `parseBody`. */
import type { IncomingMessage } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

function contentTypeOf(req: IncomingMessage): string | undefined {
	const header = req.headers['content-type'];
	return header ? header.split(';')[0].trim().toLowerCase() : undefined;
}

/**
 * Reads the body whole and sets what n8n's request carries (`rawBody` unless `withoutRawBody`,
 * `body` by content type, `query`, `params`, `contentType`). Returns the JSON parse error, if any:
 * n8n answers it 422 without calling the node.
 */
export async function readWebhookRequest(
	req: IncomingMessage,
	withoutRawBody: boolean | undefined,
): Promise<Error | undefined> {
	const rawBody = await readBody(req);
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	const request = req as IncomingMessage & Record<string, unknown>;
	const contentType = contentTypeOf(req);
	Object.assign(request, {
		contentType,
		encoding: 'utf-8',
		params: {},
		query: Object.fromEntries(url.searchParams),
		readRawBody: async () => {},
	});
	if (!withoutRawBody) request.rawBody = rawBody;
	if (rawBody.length === 0) return undefined;
	const text = rawBody.toString('utf8');
	const stripped = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	if (contentType === 'application/json') {
		try {
			request.body = JSON.parse(stripped);
		} catch (error) {
			return error as Error;
		}
	} else if (contentType === 'application/x-www-form-urlencoded') {
		request.body = parseQueryString(stripped);
	} else if (contentType === 'text/plain') {
		request.body = text;
	}
	return undefined;
}
