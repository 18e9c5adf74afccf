/**
 * What Personal Data: Leave Out keeps of the service's objects, in Get Data and in the trigger (and
 * Wait for Result) alike: the fields a list names, each only with a value of its contract type.
 */
import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import { decisionSchema } from './contract';
import { isPlainObject } from './isPlainObject';

/** The fields of `object` that `shape` names, each only when its value is of the field's type. */
export function typedFields(object: IDataObject, shape: z.ZodRawShape): IDataObject {
	const kept: IDataObject = {};
	for (const [field, schema] of Object.entries(shape)) {
		if (object[field] === undefined) continue;
		const read = schema.safeParse(object[field]);
		if (read.success && read.data !== undefined) kept[field] = read.data as IDataObject[string];
	}
	return kept;
}

/** The decision of an identification's `status` object (decisionSchema), or undefined if none. */
export function statusDecision(status: unknown): IDataObject | undefined {
	if (!isPlainObject(status)) return undefined;
	const decision = typedFields(status, decisionSchema.shape);
	return Object.keys(decision).length > 0 ? decision : undefined;
}
