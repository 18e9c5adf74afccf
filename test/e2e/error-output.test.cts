// On Error in real n8n: one operation of every resource over a mixed batch (good, refused, not
// found), the items made by n8n's own nodes (Set → Split Out, Convert to File for a document). With
// "Continue (using error output)" the good item leaves by Success and the failed ones by Error with
// the IDs they were about; with "Continue (regular output)" all stay on the one output. One workflow
// per mode holds a branch per resource, so each mode is one `n8n execute`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

import {
	caseName,
	ERROR_CASES,
	type ErrorCase,
} from '../nodes/IdentityVerification/errorCases.cjs';
import { execute, nodeOutput, type ExecuteResult } from '../n8n/runtime.cjs';
import { node } from '../n8n/workflow.cjs';
import {
	CREDENTIALS,
	NODE_TYPES,
	startStack,
	type Stack,
	type WorkflowNode,
} from '../n8n/stack.cjs';
import { expectSuccess } from './helpers.cjs';

type OnError = 'continueErrorOutput' | 'continueRegularOutput';

let stack: Stack;
/** Where the sandbox sends the results of the verifications made here: nothing listens to them. */
let receiver: Server;
/** The input items of each case, made once per run (a deletion cannot be made twice). */
const inputs = new Map<string, IDataObject[]>();

beforeAll(async () => {
	stack = await startStack({ log: (m) => process.stderr.write(`[e2e] ${m}\n`) });
	receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const { port } = receiver.address() as AddressInfo;
	stack.sandbox.webhooks.configure({ url: `http://127.0.0.1:${port}/`, retryDelaysMs: [] });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	await new Promise<void>((resolve) => receiver?.close(() => resolve()));
}, 60_000);

const link = (to: string, index = 0) => ({ node: to, type: 'main', index });

/** Set (the rows) → Split Out → [Convert to File] → the action, and after it Succeeded / Failed. */
function branch(
	errorCase: ErrorCase,
	rows: IDataObject[],
	onError: OnError,
): { nodes: WorkflowNode[]; connections: Record<string, unknown>; first: string } {
	const name = (what: string) => `${what} (${caseName(errorCase)})`;
	const rowsNode = node(name('Rows'), 'n8n-nodes-base.set', 3.4, {
		mode: 'raw',
		jsonOutput: JSON.stringify({ rows }),
		options: {},
	});
	const split = node(name('Split Out'), 'n8n-nodes-base.splitOut', 1, {
		fieldToSplitOut: 'rows',
		options: {},
	});
	const file =
		errorCase.resource === 'proofOfAddress'
			? [
					node(name('Convert to File'), 'n8n-nodes-base.convertToFile', 1.1, {
						operation: 'toBinary',
						sourceProperty: 'fileBase64',
						binaryPropertyName: 'data',
						options: { fileName: 'bill.png', mimeType: 'image/png', keepSource: true },
					}),
				]
			: [];
	// Convert to File gives only the file: the other fields are read from the row before it.
	const parameters = file.length
		? JSON.parse(
				JSON.stringify(errorCase.parameters).replaceAll('$json.', `$('${split.name}').item.json.`),
			)
		: errorCase.parameters;
	const action = {
		...node(name('Action'), NODE_TYPES.action, 1.1, parameters, {
			credentials: {
				[CREDENTIALS.api.type]: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name },
			},
		}),
		onError,
	} as WorkflowNode;
	const succeeded = node(name('Succeeded'), 'n8n-nodes-base.noOp', 1, {});
	const failed = node(name('Failed'), 'n8n-nodes-base.noOp', 1, {});
	const line = [rowsNode, split, ...file, action];
	const connections: Record<string, unknown> = {};
	for (let i = 0; i < line.length - 1; i++) {
		connections[line[i].name] = { main: [[link(line[i + 1].name)]] };
	}
	connections[action.name] = {
		main:
			onError === 'continueErrorOutput'
				? [[link(succeeded.name)], [link(failed.name)]]
				: [[link(succeeded.name)]],
	};
	return { nodes: [...line, succeeded, failed], connections, first: rowsNode.name };
}

/** One workflow: the manual trigger and a branch per resource. */
async function runAll(onError: OnError): Promise<ExecuteResult> {
	const manual = node('Start', 'n8n-nodes-base.manualTrigger', 1, {});
	const nodes: WorkflowNode[] = [manual];
	const connections: Record<string, unknown> = {};
	const starts: Array<ReturnType<typeof link>> = [];
	for (const errorCase of ERROR_CASES) {
		const rows = await errorCase.inputs(stack.sandbox);
		inputs.set(`${onError}:${caseName(errorCase)}`, rows);
		const part = branch(errorCase, rows, onError);
		nodes.push(...part.nodes);
		Object.assign(connections, part.connections);
		starts.push(link(part.first));
	}
	connections[manual.name] = { main: [starts] };
	nodes.forEach((n, i) => (n.position = [220 * (i % 6), 200 * Math.floor(i / 6)]));
	const id = await stack.rest.createWorkflow({ name: `On Error: ${onError}`, nodes, connections });
	const result = await execute(stack.userFolder, id);
	expectSuccess(result);
	return result;
}

/** What n8n adds to an error item of the action: its input item (only the file after Convert to File). */
function inputFields(errorCase: ErrorCase, row: IDataObject): IDataObject {
	return errorCase.resource === 'proofOfAddress' ? {} : row;
}

describe('On Error in real n8n, every resource, a mixed batch', () => {
	test('Continue (using error output): good items by Success, failed ones by Error, with their IDs and their input', async () => {
		const result = await runAll('continueErrorOutput');
		for (const errorCase of ERROR_CASES) {
			const rows = inputs.get(`continueErrorOutput:${caseName(errorCase)}`) as IDataObject[];
			const action = `Action (${caseName(errorCase)})`;
			const success = nodeOutput(result, action, 0);
			const failed = nodeOutput(result, action, 1);
			expect(success.length).toBeGreaterThan(0);
			for (const item of success) expect(item.json.error).toBeUndefined();
			expect(failed).toHaveLength(errorCase.failures.length);
			failed.forEach((item, index) => {
				const expected = errorCase.failures[index];
				expect(String(item.json.error.message)).toMatch(expected.error);
				if (expected.httpCode) expect(item.json.error.httpCode).toBe(expected.httpCode);
				expect(item.json.error).toMatchObject(errorCase.references(rows, index + 1));
				expect(item.json).toMatchObject(inputFields(errorCase, rows[index + 1]));
			});
			expect(nodeOutput(result, `Failed (${caseName(errorCase)})`)).toHaveLength(
				errorCase.failures.length,
			);
		}
	});

	test('Continue (regular output): every item on the one output, the failed ones with their words and IDs', async () => {
		const result = await runAll('continueRegularOutput');
		for (const errorCase of ERROR_CASES) {
			const action = `Action (${caseName(errorCase)})`;
			const rows = inputs.get(`continueRegularOutput:${caseName(errorCase)}`) as IDataObject[];
			const items = nodeOutput(result, action, 0);
			expect(nodeOutput(result, action, 1)).toEqual([]);
			const failed = items.filter((item) => item.json.error !== undefined);
			expect(failed).toHaveLength(errorCase.failures.length);
			expect(items.length - failed.length).toBeGreaterThan(0);
			failed.forEach((item, index) => {
				const expected = errorCase.failures[index];
				expect(String(item.json.error)).toMatch(expected.error);
				if (expected.httpCode) expect(item.json.httpCode).toBe(expected.httpCode);
				expect(item.json).toMatchObject(errorCase.references(rows, index + 1));
			});
		}
	});
});
