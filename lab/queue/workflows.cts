// Workflow JSON the queue-mode tests and `npm run bench:queue` import into n8n (fixed ids, so they
// can be published before the processes start), written the way the editor saves them.
import type { WorkflowNode as Node } from '../../test/n8n/stack.cjs';
import {
	TRIGGER,
	actionNode as action,
	ifNode,
	lineUp,
	node,
	triggerNode as trigger,
	webhookNode,
} from '../../test/n8n/workflow.cjs';

export { ACTION } from '../../test/n8n/workflow.cjs';

export interface Workflow {
	id: string;
	name: string;
	nodes: Node[];
	connections: Record<string, unknown>;
	settings: Record<string, unknown>;
}

/** A Redis credential for n8n's Redis node, pointing at the stack's Redis. */
export const REDIS_CREDENTIAL = { id: 'idvQueueRedis001', name: 'Queue Redis', type: 'redis' };

function workflow(id: string, name: string, nodes: Node[]): Workflow {
	return { id, name, nodes, connections: lineUp(nodes), settings: { executionOrder: 'v1' } };
}

/** An HTTP Request node telling the test's sink which delivery reached the end of the workflow. */
function reportTo(sinkUrl: string, label: string): Node {
	return node('Handle delivery', 'n8n-nodes-base.httpRequest', 4.2, {
		method: 'GET',
		url: `={{ '${sinkUrl}/${label}?delivery=' + $('${TRIGGER}').item.json.deliveryId }}`,
		options: {},
	});
}

/**
 * The trigger with its default options (signature check and duplicate suppression on) unless
 * `options` says otherwise, then the report to the sink when one is given (the bench measures the
 * trigger alone).
 */
export function triggerOnly(
	id: string,
	webhookId: string,
	sinkUrl?: string,
	options: Record<string, unknown> = {},
): Workflow {
	return workflow(id, 'Queue: trigger alone', [
		trigger(webhookId, options),
		...(sinkUrl ? [reportTo(sinkUrl, 'trigger')] : []),
	]);
}

/**
 * Trigger → n8n's Remove Duplicates ("Remove Items Processed in Previous Executions", keyed by the
 * trigger's deliveryId, history in n8n's database) → the work.
 */
export function triggerWithRemoveDuplicates(
	id: string,
	webhookId: string,
	sinkUrl: string,
): Workflow {
	return workflow(id, 'Queue: trigger + Remove Duplicates', [
		trigger(webhookId),
		node('Remove Duplicates', 'n8n-nodes-base.removeDuplicates', 2, {
			operation: 'removeItemsSeenInPreviousExecutions',
			dedupeValue: '={{ $json.deliveryId }}',
			options: { scope: 'workflow' },
		}),
		reportTo(sinkUrl, 'removeDuplicates'),
	]);
}

/**
 * Trigger → n8n's Redis node "Increment" on `idv-delivery:<deliveryId>` (kept 24 hours) → If the
 * count is 1 → the work. Redis increments atomically, so of two copies of a delivery running at the
 * same moment on two workers exactly one sees 1.
 */
export function triggerWithRedisClaim(id: string, webhookId: string, sinkUrl: string): Workflow {
	const wf = workflow(id, 'Queue: trigger + Redis claim', [
		trigger(webhookId),
		node(
			'Claim delivery',
			'n8n-nodes-base.redis',
			1,
			{
				operation: 'incr',
				key: "={{ 'idv-delivery:' + $json.deliveryId }}",
				expire: true,
				ttl: 86400,
			},
			{ credentials: { redis: { id: REDIS_CREDENTIAL.id, name: REDIS_CREDENTIAL.name } } },
		),
		ifNode('First copy?', {
			id: 'first-copy',
			leftValue: "={{ $json['idv-delivery:' + $('" + TRIGGER + "').item.json.deliveryId] }}",
			rightValue: 1,
			operator: { type: 'number', operation: 'equals' },
		}),
		reportTo(sinkUrl, 'redis'),
	]);
	// Only the If node's "true" output leads to the work.
	wf.connections['First copy?'] = {
		main: [[{ node: 'Handle delivery', type: 'main', index: 0 }], []],
	};
	return wf;
}

/** n8n's own Webhook node, answering as soon as the execution is queued (the bench's baseline). */
export function plainWebhook(id: string, webhookPath: string): Workflow {
	return workflow(id, 'Queue: plain Webhook node', [
		webhookNode(webhookPath, { responseMode: 'onReceived' }),
	]);
}

/** Webhook answering with `answer` when the workflow has finished → this package's action node. */
function webhookToAction(
	id: string,
	name: string,
	webhookPath: string,
	answer: Record<string, unknown>,
	parameters: Record<string, unknown>,
): Workflow {
	return workflow(id, name, [
		webhookNode(webhookPath, { responseMode: 'lastNode', ...answer }),
		action(parameters),
	]);
}

/** Webhook (body: verificationId, accountId) → List Transactions, Return All → every item answered. */
export function allTransactions(id: string, webhookPath: string): Workflow {
	return webhookToAction(
		id,
		'Queue: all transactions',
		webhookPath,
		{ responseData: 'allEntries' },
		{
			resource: 'bank',
			operation: 'listTransactions',
			verificationId: '={{ $json.body.verificationId }}',
			accountId: '={{ $json.body.accountId }}',
			returnAll: true,
			options: {},
		},
	);
}

/** Webhook (body: checkId, profileId, password) → Download Profile PDF → the PDF as the answer. */
export function amlPdf(id: string, webhookPath: string): Workflow {
	return webhookToAction(
		id,
		'Queue: AML PDF',
		webhookPath,
		{ responseData: 'firstEntryBinary', responseBinaryPropertyName: 'report' },
		{
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: '={{ $json.body.checkId }}',
			profileId: '={{ $json.body.profileId }}',
			password: '={{ $json.body.password }}',
			binaryPropertyName: 'report',
		},
	);
}

/**
 * Webhook receiving the document itself (the request body, stored by the webhook process as binary
 * `data`) → Proof of Address check on a worker → the check as the answer.
 */
export function poaUpload(
	id: string,
	webhookPath: string,
	provided: { name: string; address: string },
): Workflow {
	return webhookToAction(
		id,
		'Queue: POA upload',
		webhookPath,
		{ responseData: 'firstEntryJson' },
		{
			resource: 'proofOfAddress',
			operation: 'createCheck',
			binaryPropertyName: 'data',
			providedName: provided.name,
			providedAddress: provided.address,
		},
	);
}
