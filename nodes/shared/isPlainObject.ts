import type { IDataObject } from 'n8n-workflow';

/** True for a JSON object (not null, not an array): what a parsed body or a field of one must be to be read by key. */
export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
