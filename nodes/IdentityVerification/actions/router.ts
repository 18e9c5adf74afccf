import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { resources } from './resources';
import type { Operation } from './resources';

/** A NodeApiError/NodeOperationError that knows which item failed. */
function withItemIndex(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex });
}

/** Extra fields of an error worth showing on an error item (never request options or headers). */
function errorDetails(error: NodeApiError | NodeOperationError): IDataObject {
	const details: IDataObject = {};
	if (error.description) details.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	return details;
}

/**
 * The fields that name what an operation acts on. An error item repeats those the item gave, so a
 * failed row can be named after the node even where its input did not hold the ID (an expression).
 */
const REFERENCE_FIELDS = [
	'scanRef',
	'clientId',
	'externalRef',
	'accountId',
	'verificationId',
	'checkId',
	'profileId',
	'monitoringId',
	'companyId',
	'formId',
	'questionnaireId',
	'documentId',
	'registrationNumber',
];

/** The reference fields of the operation that this item gave (an unreadable one is left out). */
function referencesOf(
	this: IExecuteFunctions,
	operation: Operation,
	itemIndex: number,
): IDataObject {
	const references: IDataObject = {};
	for (const { name } of operation.description) {
		if (!REFERENCE_FIELDS.includes(name) || name in references) continue;
		try {
			// A locator's ID (version 2) as the text field of version 1 gives it.
			const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true });
			if ((typeof value === 'string' && value !== '') || typeof value === 'number') {
				references[name] = value;
			}
		} catch {
			// The expression of this field is what failed: the error says so.
		}
	}
	return references;
}

/**
 * A failed item. On the regular output its words and the IDs it was about sit beside `error`. For
 * the error output they are `error`'s own fields, as n8n's HTTP Request node gives them: n8n moves an
 * item there only when `error` is its JSON's one key (1.x; 2.x also allows `message` and `details`),
 * and adds the input item's fields to it.
 */
function errorItem(
	this: IExecuteFunctions,
	error: NodeApiError | NodeOperationError,
	operation: Operation,
	itemIndex: number,
): INodeExecutionData {
	const fields = {
		message: error.message,
		...errorDetails(error),
		...referencesOf.call(this, operation, itemIndex),
	};
	const { message, ...details } = fields;
	const json: IDataObject =
		this.getNode().onError === 'continueErrorOutput'
			? { error: fields }
			: { error: message, ...details };
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * The per-item loop: runs the selected operation for every input item, pairs every output item
 * with its input item, and turns a failure into an error item when On Error continues (n8n routes
 * it to the error output when that is chosen).
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;

	const selected = resources[resource]?.operations?.[operation];
	if (!selected) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const executionData = this.helpers.constructExecutionMetaData(
				await selected.execute.call(this, itemIndex),
				{ itemData: { item: itemIndex } },
			);
			// One at a time: a spread of one item's 200,000 transactions overflows the call stack.
			for (const item of executionData) returnData.push(item);
		} catch (error) {
			const nodeError = withItemIndex.call(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			returnData.push(errorItem.call(this, nodeError, selected, itemIndex));
		}
	}
	return [returnData];
}
