/**
 * What n8n answers the sender (packages/cli webhook-helpers.ts `executeWebhook` in n8n 2.40.7), for
 * each way a request can end.
 */
import type { IncomingMessage } from 'node:http';
import type { IWebhookDescription, IWebhookResponseData } from 'n8n-workflow';

import type { ExpressLikeResponse } from './response.cjs';

/** Anything but a POST: n8n has no webhook registered for it. */
export function answerNotRegistered(res: ExpressLikeResponse, req: IncomingMessage): void {
	res.status(404).json({
		code: 404,
		message: `The requested webhook "${req.method} ${req.url}" is not registered.`,
	});
}

/** A JSON body that does not parse: n8n answers 422 and does not call the node. */
export function answerUnparsableBody(res: ExpressLikeResponse, error: Error): void {
	res.status(422).json({
		code: 422,
		message: 'Failed to parse request body',
		hint: error.message,
	});
}

/** `webhook()` threw. */
export function answerWebhookError(res: ExpressLikeResponse): void {
	if (!res.headersSent) {
		res
			.status(500)
			.json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
	}
}

/** A node that returned `noWebhookResponse` must have answered itself. */
export function checkAnsweredByNode(res: ExpressLikeResponse): void {
	if (!res.writableEnded) {
		// n8n would leave the request open until the sender times out; fail loudly instead.
		res.status(500).json({ harness: 'the node returned noWebhookResponse without answering' });
	}
}

/** No `workflowData`: the node's `webhookResponse`, else n8n's default. */
export function answerNoWorkflow(res: ExpressLikeResponse, result: IWebhookResponseData): void {
	if (!res.writableEnded) {
		res.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
	}
}

/** Creating the execution failed (WorkflowRunner.run threw). */
export function answerStartFailed(res: ExpressLikeResponse): void {
	res.status(500).json({ code: 0, message: 'There was a problem executing the workflow' });
}

/**
 * A workflow was started, in `onReceived` mode: the description's `responseData` when set (n8n's
 * default is the literal 'firstEntryJson'), else the node's `webhookResponse`, else n8n's default.
 */
export function answerStarted(
	res: ExpressLikeResponse,
	description: IWebhookDescription,
	result: IWebhookResponseData,
): void {
	if (res.writableEnded) return;
	const responseMode = description.responseMode ?? 'onReceived';
	if (responseMode !== 'onReceived')
		throw new Error(`responseMode ${responseMode} is not emulated`);
	const responseData =
		description.responseData === undefined ? 'firstEntryJson' : description.responseData;
	const code = Number(description.responseCode ?? 200);
	const body = responseData
		? responseData
		: (result.webhookResponse ?? { message: 'Workflow was started' });
	res.status(code);
	if (typeof body === 'string') res.send(body);
	else res.json(body);
}
