/** What the service itself said in an error answer: its message, and the fields it rejected. */
import { isPlainObject } from '../../../shared/isPlainObject';

/** The service's own words: `detail` / `message` / `error` of the body. */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.startsWith('<') ? undefined : body;
	if (!isPlainObject(body)) return undefined;
	for (const key of ['detail', 'message', 'error', 'error_description', 'title']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
		if (isPlainObject(value) && typeof value.message === 'string') return value.message;
	}
	return undefined;
}

function flattenFieldErrors(value: unknown, prefix: string, out: string[]): void {
	if (typeof value === 'string') {
		out.push(`${prefix}: ${value}`);
	} else if (Array.isArray(value)) {
		const texts = value.filter((v) => typeof v === 'string') as string[];
		if (texts.length) out.push(`${prefix}: ${texts.join(' ')}`);
		value.forEach((v, i) => {
			if (typeof v !== 'string') flattenFieldErrors(v, `${prefix}[${i}]`, out);
		});
	} else if (isPlainObject(value)) {
		for (const [key, inner] of Object.entries(value)) {
			flattenFieldErrors(inner, prefix ? `${prefix}.${key}` : key, out);
		}
	}
}

/**
 * Field problems named by a 400 body: `{"errors": {"field": ["rule"]}}` or DRF's top-level
 * `{"field": ["rule"]}`. Returns e.g. `["lifetime: Ensure this value is less than or equal to 2592000."]`.
 */
export function fieldErrors(body: unknown): string[] {
	if (!isPlainObject(body)) return [];
	const out: string[] = [];
	if (isPlainObject(body.errors)) {
		flattenFieldErrors(body.errors, '', out);
	} else {
		const fields: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(body)) {
			if (['detail', 'message', 'code', 'status', 'error', 'errors'].includes(key)) continue;
			if (Array.isArray(value) || isPlainObject(value)) fields[key] = value;
		}
		flattenFieldErrors(fields, '', out);
	}
	return out;
}
