// Workflow JSON the queue-mode tests and `npm run bench:queue` import into n8n (fixed ids, so they
// can be published before the processes start), written the way the editor saves them.
import { NODE_TYPES, credentialRef } from '../n8n/stack.cjs';

interface Node {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
}

export interface Workflow {
	id: string;
	name: string;
	nodes: Node[];
	connections: Record<string, unknown>;
	settings: Record<string, unknown>;
}

const TRIGGER = 'Identity Verification Trigger';
export const ACTION = 'Identity Verification';

/** A Redis credential for n8n's Redis node, pointing at the stack's Redis. */
export const REDIS_CREDENTIAL = { id: 'idvQueueRedis001', name: 'Queue Redis', type: 'redis' };

let counter = 0;
const nodeId = () => `00000000-0000-4000-a000-${String(++counter).padStart(12, '0')}`;

function workflow(id: string, name: string, nodes: Node[]): Workflow {
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	nodes.forEach((n, i) => (n.position = [220 * i, 0]));
	return { id, name, nodes, connections, settings: { executionOrder: 'v1' } };
}

function trigger(webhookId: string, options: Record<string, unknown> = {}): Node {
	return {
		id: nodeId(),
		name: TRIGGER,
		type: NODE_TYPES.trigger,
		typeVersion: 1,
		position: [0, 0],
		parameters: { options },
		credentials: credentialRef('webhookSigning'),
		webhookId,
	};
}

/** An HTTP Request node telling the test's sink which delivery reached the end of the workflow. */
function reportTo(sinkUrl: string, label: string): Node {
	return {
		id: nodeId(),
		name: 'Handle delivery',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		parameters: {
			method: 'GET',
			url: `={{ '${sinkUrl}/${label}?delivery=' + $('${TRIGGER}').item.json.deliveryId }}`,
			options: {},
		},
	};
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
		{
			id: nodeId(),
			name: 'Remove Duplicates',
			type: 'n8n-nodes-base.removeDuplicates',
			typeVersion: 2,
			position: [0, 0],
			parameters: {
				operation: 'removeItemsSeenInPreviousExecutions',
				dedupeValue: '={{ $json.deliveryId }}',
				options: { scope: 'workflow' },
			},
		},
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
		{
			id: nodeId(),
			name: 'Claim delivery',
			type: 'n8n-nodes-base.redis',
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				operation: 'incr',
				key: "={{ 'idv-delivery:' + $json.deliveryId }}",
				expire: true,
				ttl: 86400,
			},
			credentials: { redis: { id: REDIS_CREDENTIAL.id, name: REDIS_CREDENTIAL.name } },
		},
		{
			id: nodeId(),
			name: 'First copy?',
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			position: [0, 0],
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
					conditions: [
						{
							id: 'first-copy',
							leftValue:
								"={{ $json['idv-delivery:' + $('" + TRIGGER + "').item.json.deliveryId] }}",
							rightValue: 1,
							operator: { type: 'number', operation: 'equals' },
						},
					],
					combinator: 'and',
				},
				options: {},
			},
		},
		reportTo(sinkUrl, 'redis'),
	]);
	// Only the If node's "true" output leads to the work.
	wf.connections['First copy?'] = {
		main: [[{ node: 'Handle delivery', type: 'main', index: 0 }], []],
	};
	return wf;
}

/** n8n's Webhook node, answering `responseMode` (as the bench's comparison and the action tests use it). */
function webhookNode(
	webhookPath: string,
	response:
		| { responseMode: 'onReceived' }
		| {
				responseMode: 'lastNode';
				responseData: 'allEntries' | 'firstEntryJson' | 'firstEntryBinary';
				responseBinaryPropertyName?: string;
		  },
): Node {
	return {
		id: nodeId(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		parameters: { httpMethod: 'POST', path: webhookPath, ...response, options: {} },
		webhookId: webhookPath,
	};
}

/** n8n's own Webhook node, answering as soon as the execution is queued (the bench's baseline). */
export function plainWebhook(id: string, webhookPath: string): Workflow {
	return workflow(id, 'Queue: plain Webhook node', [
		webhookNode(webhookPath, { responseMode: 'onReceived' }),
	]);
}

function action(parameters: Record<string, unknown>): Node {
	return {
		id: nodeId(),
		name: ACTION,
		type: NODE_TYPES.action,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: credentialRef('api'),
	};
}

/** Webhook (body: verificationId, accountId) → List Transactions, Return All → every item answered. */
export function allTransactions(id: string, webhookPath: string): Workflow {
	return workflow(id, 'Queue: all transactions', [
		webhookNode(webhookPath, { responseMode: 'lastNode', responseData: 'allEntries' }),
		action({
			resource: 'bank',
			operation: 'listTransactions',
			verificationId: '={{ $json.body.verificationId }}',
			accountId: '={{ $json.body.accountId }}',
			returnAll: true,
			options: {},
		}),
	]);
}

/** Webhook (body: checkId, profileId, password) → Download Profile PDF → the PDF as the answer. */
export function amlPdf(id: string, webhookPath: string): Workflow {
	return workflow(id, 'Queue: AML PDF', [
		webhookNode(webhookPath, {
			responseMode: 'lastNode',
			responseData: 'firstEntryBinary',
			responseBinaryPropertyName: 'report',
		}),
		action({
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: '={{ $json.body.checkId }}',
			profileId: '={{ $json.body.profileId }}',
			password: '={{ $json.body.password }}',
			binaryPropertyName: 'report',
		}),
	]);
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
	return workflow(id, 'Queue: POA upload', [
		webhookNode(webhookPath, { responseMode: 'lastNode', responseData: 'firstEntryJson' }),
		action({
			resource: 'proofOfAddress',
			operation: 'createCheck',
			binaryPropertyName: 'data',
			providedName: provided.name,
			providedAddress: provided.address,
		}),
	]);
}
