import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/**
 * The "Simplify" switch. Two declarations of one parameter, told apart by n8n's `@tool` display
 * option: off by default on the canvas (the whole answer, as before), on by default in the AI tool
 * variant (a model reads fewer fields). With `onInAiTool: false` it is one declaration, off
 * everywhere: for a switch added to an operation that agents may already use, whose saved nodes
 * would otherwise change their output.
 */
export function simplifyOption(
	description: string,
	{ onInAiTool = true }: { onInAiTool?: boolean } = {},
): INodeProperties[] {
	const base: INodeProperties = {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description,
	};
	if (!onInAiTool) return [base];
	return [
		{ ...base, displayOptions: { show: { '@tool': [false] } } },
		{ ...base, default: true, displayOptions: { show: { '@tool': [true] } } },
	];
}

/** Each item with only the named fields that the answer has (in the order named). */
export function simplifyItems(items: INodeExecutionData[], fields: string[]): INodeExecutionData[] {
	return items.map((item) => {
		const json: IDataObject = {};
		for (const field of fields) {
			if (item.json[field] !== undefined) json[field] = item.json[field];
		}
		return { ...item, json };
	});
}
