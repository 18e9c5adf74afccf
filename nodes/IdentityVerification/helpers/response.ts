import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isPlainObject } from '../../shared/isPlainObject';

/** True for a JSON object with at least one key (an empty body or `{}` counts as nothing). */
export function isNonEmptyObject(value: unknown): value is IDataObject {
	return isPlainObject(value) && Object.keys(value).length > 0;
}

/** One output item per JSON object (arrays become one item per element). */
export function toItems(body: unknown): INodeExecutionData[] {
	if (Array.isArray(body)) return body.map((entry) => ({ json: (entry ?? {}) as IDataObject }));
	return [{ json: (body ?? {}) as IDataObject }];
}

/** Path segment of a URL: ids go through encodeURIComponent so `/` or `?` in an id stay inside it. */
export function segment(value: string): string {
	return encodeURIComponent(value);
}
