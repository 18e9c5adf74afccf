/** The response side: express's `status()`/`json()`/`send()` and a record of each answer for tests. */
import type { ServerResponse } from 'node:http';

export interface RecordedResponse {
	statusCode: number;
	/** Body text as sent. */
	text: string;
	/** Parsed JSON body when it was JSON. */
	json?: unknown;
	/** Whether the node wrote the answer itself (`noWebhookResponse`). */
	writtenByNode: boolean;
	/** Whether a workflow was started for this request. */
	workflowStarted: boolean;
	/** What `webhook()` threw: n8n shows it as the run's error (a manual run's, in the editor). */
	webhookError?: Error;
}

/** Like express: `status()`, `json()`, `send()` on the raw ServerResponse. */
export type ExpressLikeResponse = ServerResponse & {
	status(code: number): ExpressLikeResponse;
	json(body: unknown): ExpressLikeResponse;
	send(body?: unknown): ExpressLikeResponse;
};

/** Adds a record of the answer to `responses`, once it is written. */
export type RecordAnswer = (
	writtenByNode: boolean,
	workflowStarted: boolean,
	webhookError?: Error,
) => void;

function expressLike(res: ServerResponse): ExpressLikeResponse {
	const r = res as ExpressLikeResponse;
	r.status = (code: number) => {
		r.statusCode = code;
		return r;
	};
	r.json = (body: unknown) => {
		if (!r.headersSent) r.setHeader('content-type', 'application/json; charset=utf-8');
		r.end(JSON.stringify(body));
		return r;
	};
	r.send = (body?: unknown) => {
		if (body === undefined || body === null) r.end();
		else if (Buffer.isBuffer(body)) r.end(body);
		else if (typeof body === 'object') return r.json(body);
		else {
			if (!r.headersSent && !r.getHeader('content-type'))
				r.setHeader('content-type', 'text/html; charset=utf-8');
			r.end(String(body));
		}
		return r;
	};
	return r;
}

/** Records what was written to the response, to report it to the test. */
function captureWrites(res: ServerResponse): () => string {
	const chunks: Buffer[] = [];
	const write = res.write.bind(res);
	const end = res.end.bind(res);
	const keep = (chunk: unknown) => {
		if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
		chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
	};
	res.write = ((chunk: unknown, ...rest: unknown[]) => {
		keep(chunk);
		return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
	}) as typeof res.write;
	res.end = ((chunk?: unknown, ...rest: unknown[]) => {
		keep(chunk);
		return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
	}) as typeof res.end;
	return () => Buffer.concat(chunks).toString('utf8');
}

/** The express-like response, and how to record what it answered into `responses`. */
export function recordedResponse(
	rawRes: ServerResponse,
	responses: RecordedResponse[],
): { res: ExpressLikeResponse; record: RecordAnswer } {
	const written = captureWrites(rawRes);
	const res = expressLike(rawRes);
	const record: RecordAnswer = (writtenByNode, workflowStarted, webhookError) => {
		const text = written();
		let json: unknown;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		responses.push({
			statusCode: res.statusCode,
			text,
			json,
			writtenByNode,
			workflowStarted,
			...(webhookError ? { webhookError } : {}),
		});
	};
	return { res, record };
}
