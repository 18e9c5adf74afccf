/**
 * The action node's per-item loop (actions/router.ts) on its own edges: an operation the node does
 * not have is refused before anything is sent (through n8n's engine); and with a stub of n8n's
 * execute context, its error handling: which item an error names, what an error item holds, and
 * that errors other than n8n's own are wrapped. The operations only throw node errors that already
 * know their item, so only a stub can reach these branches. What On Error does with the error
 * items, through the engine: error-output.test.cts.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { router } from '../../../nodes/IdentityVerification/actions/router';
import { ACTION_NODE as NODE } from '../../harness/fixtures/action-node.cjs';
import { expectError, serviceRequests, useSandbox } from './util.cjs';

const ctx = useSandbox();

describe('router', () => {
	test('refuses an operation the node does not have, before sending anything', async () => {
		const result = await ctx.run({ resource: 'bank', operation: 'nope' });
		expectError(result, 'The operation "nope" of "bank" is not supported');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});

/**
 * A context for KYB "Get Answers" over `failures.length` items, whose item i fails with
 * `failures[i]()` when the operation reads its first field (before anything is sent).
 */
function stubContext(failures: Array<() => Error>, continueOnFail: boolean): IExecuteFunctions {
	return {
		getInputData: () => failures.map((): INodeExecutionData => ({ json: {} })),
		getNode: () => NODE,
		continueOnFail: () => continueOnFail,
		getNodeParameter: (name: string, itemIndex: number) => {
			if (name === 'resource') return 'kyb';
			if (name === 'operation') return 'getAnswers';
			throw failures[itemIndex]();
		},
		helpers: {
			constructExecutionMetaData: (
				items: INodeExecutionData[],
				options: { itemData: { item: number } },
			) => items.map((item) => ({ ...item, pairedItem: options.itemData })),
		},
	} as unknown as IExecuteFunctions;
}

const apiError = (itemIndex?: number) =>
	new NodeApiError(
		NODE,
		{ message: 'Not found' },
		{ httpCode: '404', message: 'No such form', description: 'Check the form ID', itemIndex },
	);

/** The error the router throws for this context (the test fails when it throws nothing). */
async function thrownBy(context: IExecuteFunctions): Promise<NodeApiError | NodeOperationError> {
	const outcome = await router.call(context).then(
		() => undefined,
		(error: unknown) => error,
	);
	if (!(outcome instanceof NodeApiError || outcome instanceof NodeOperationError)) {
		throw new Error(`expected a node error, got ${String(outcome)}`);
	}
	return outcome;
}

describe('router errors', () => {
	test('an error that is not a node error is wrapped in one that names the failing item', async () => {
		const error = await thrownBy(stubContext([() => new Error('boom')], false));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('boom');
		expect(error.context.itemIndex).toBe(0);
	});

	test('a node error without an item gets the failing item; one with an item keeps it', async () => {
		const unnamed = await thrownBy(
			stubContext([() => new NodeOperationError(NODE, 'no item named')], false),
		);
		expect(unnamed.message).toBe('no item named');
		expect(unnamed.context.itemIndex).toBe(0);

		const named = await thrownBy(stubContext([() => apiError(5)], false));
		expect(named).toBeInstanceOf(NodeApiError);
		expect(named.context.itemIndex).toBe(5);
	});

	test('with Continue On Fail every failing item becomes an error item paired with it, with only the details it has', async () => {
		const [output] = await router.call(
			stubContext(
				[
					() => new Error('boom'),
					() => apiError(),
					() => new NodeOperationError(NODE, 'bad'),
					// A network failure: an API error without an HTTP status.
					() => new NodeApiError(NODE, { message: 'ECONNREFUSED' }, { message: 'No answer' }),
				],
				true,
			),
		);
		expect(output).toStrictEqual([
			{ json: { error: 'boom' }, pairedItem: { item: 0 } },
			{
				json: { error: 'No such form', description: 'Check the form ID', httpCode: '404' },
				pairedItem: { item: 1 },
			},
			{ json: { error: 'bad' }, pairedItem: { item: 2 } },
			{ json: { error: 'No answer', description: 'ECONNREFUSED' }, pairedItem: { item: 3 } },
		]);
	});

	test('an error item repeats the IDs the item gave, and leaves out one whose expression failed', async () => {
		const context = stubContext([() => apiError()], true);
		// The operation's first read fails (as a 404 would); the router's reads afterwards see the IDs.
		let failed = false;
		context.getNodeParameter = ((name: string) => {
			if (name === 'resource') return 'kyb';
			if (name === 'operation') return 'getAnswers';
			if (!failed) {
				failed = true;
				throw apiError();
			}
			if (name === 'companyId') return 'company-7';
			if (name === 'questionnaireId') return 7;
			throw new Error(`could not read ${name}`);
		}) as IExecuteFunctions['getNodeParameter'];
		const [output] = await router.call(context);
		expect(output).toHaveLength(1);
		expect(output[0].json).toStrictEqual({
			error: 'No such form',
			description: 'Check the form ID',
			httpCode: '404',
			companyId: 'company-7',
			questionnaireId: 7,
		});
	});

	test('without Continue On Fail the first failure stops the run', async () => {
		const reached: number[] = [];
		const fail = (index: number) => () => {
			reached.push(index);
			return new Error(`item ${index}`);
		};
		const error = await thrownBy(stubContext([fail(0), fail(1)], false));
		expect(error.message).toBe('item 0');
		expect(reached).toEqual([0]);
	});
});
