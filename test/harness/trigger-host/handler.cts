/**
 * One request to the host, start to end: read it like n8n, call the node's `webhook()`, answer like
 * n8n, record the emission (and start the run), save the static data.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type {
	ICredentialDataDecryptedObject,
	INodeExecutionData,
	IRun,
	IWebhookResponseData,
	Workflow,
} from 'n8n-workflow';

import {
	answerNoWorkflow,
	answerNotRegistered,
	answerStarted,
	answerStartFailed,
	answerUnparsableBody,
	answerWebhookError,
	checkAnsweredByNode,
} from './answer.cjs';
import { readWebhookRequest } from './request.cjs';
import {
	recordedResponse,
	type ExpressLikeResponse,
	type RecordAnswer,
	type RecordedResponse,
} from './response.cjs';
import { webhookContext, type WebhookCall } from './webhook-context.cjs';
import { additionalDataFor, runWorkflow, type WorkflowStore } from './workflow.cjs';

/** Lets the first N requests wait for each other after reading their bodies. */
export class Overlap {
	private arrivals = 0;
	private release: () => void = () => {};
	private readonly reached = new Promise<void>((resolve) => {
		this.release = resolve;
	});

	constructor(private readonly first: number | undefined) {}

	async arrive(): Promise<void> {
		if (!this.first || this.arrivals >= this.first) return;
		this.arrivals += 1;
		if (this.arrivals === this.first) this.release();
		await this.reached;
	}
}

/** What a host knows and keeps across requests. */
export interface HostState {
	call: WebhookCall;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	store: WorkflowStore;
	overlap: Overlap;
	withoutRawBody?: boolean;
	/** Run each emission through WorkflowExecute. */
	execute?: boolean;
	/** How many workflow starts fail, and how many have failed so far. */
	failStarts: number;
	failedStarts: number;
	emitted: INodeExecutionData[][];
	executions: IRun[];
	pending: Array<Promise<void>>;
	responses: RecordedResponse[];
}

export async function handleWebhookRequest(
	host: HostState,
	req: IncomingMessage,
	rawRes: ServerResponse,
): Promise<void> {
	const { res, record } = recordedResponse(rawRes, host.responses);
	// n8n registers the node's webhook for each method its description lists.
	const methods = (host.call.nodeType.description.webhooks ?? []).map((w) => w.httpMethod);
	if (!methods.includes(req.method as (typeof methods)[number])) {
		answerNotRegistered(res, req);
		record(false, false);
		return;
	}

	// n8n loads the workflow (with its static data) from the database when the request arrives,
	// before the body is read, and saves the static data after answering: requests that overlap
	// work on the same stored copy, as they do in n8n.
	const workflow = host.store.load();
	const parseError = await readWebhookRequest(req, host.withoutRawBody);
	if (parseError) {
		answerUnparsableBody(res, parseError);
		record(false, false);
		return;
	}
	await host.overlap.arrive();

	const additionalData = additionalDataFor(host.credentials, req, res);
	const { context, close } = webhookContext(host.call, workflow, additionalData);
	let result: IWebhookResponseData;
	try {
		result = await host.call.nodeType.webhook!.call(context);
	} catch (error) {
		// n8n answers 500 and runs the workflow with the error, which its trigger node then throws:
		// a manual run ends with it in the editor (webhook-helpers.ts, `runExecutionDataMerge`).
		answerWebhookError(res);
		record(false, false, error as Error);
		return;
	} finally {
		await close();
	}
	handleResult(host, workflow, result, res, record);
}

/** After `webhook()` returned: answer, start the workflow when there are items, save static data. */
function handleResult(
	host: HostState,
	workflow: Workflow,
	result: IWebhookResponseData,
	res: ExpressLikeResponse,
	record: RecordAnswer,
): void {
	const writtenByNode = result.noWebhookResponse === true;
	if (writtenByNode) checkAnsweredByNode(res);

	if (result.workflowData === undefined) {
		answerNoWorkflow(res, result);
		host.store.save(workflow);
		record(writtenByNode, false);
		return;
	}

	if (host.failedStarts < host.failStarts) {
		// n8n saves the static data only when the execution was created.
		host.failedStarts += 1;
		answerStartFailed(res);
		record(writtenByNode, false);
		return;
	}

	startWorkflow(host, result.workflowData);
	answerStarted(res, host.call.description, result);
	host.store.save(workflow);
	record(writtenByNode, true);
}

/** Records the emission; with `execute`, starts the run without waiting, as n8n in onReceived mode. */
function startWorkflow(host: HostState, workflowData: INodeExecutionData[][]): void {
	host.emitted.push(workflowData[0] ?? []);
	if (!host.execute) return;
	const executionId = `exec-${host.executions.length + 1}`;
	const run = runWorkflow(
		host.store.load(),
		host.call.node,
		workflowData,
		host.credentials,
		executionId,
	);
	host.pending.push(run.then((finished) => void host.executions.push(finished)));
}
