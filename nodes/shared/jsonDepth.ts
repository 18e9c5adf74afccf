/**
 * How deep the JSON the nodes take from the network may be nested: an answer of the service, a
 * webhook delivery. n8n copies and saves an item by recursion, which fails ("Maximum call stack
 * size exceeded") from a few thousand levels on; the service's deepest published answer has 7.
 * JSON.parse itself reads any depth (measured: 10 million levels on Node 20 and 24), so the depth
 * is measured on the parsed value, without recursion.
 */

/** The most levels of arrays and objects one inside the other (docs/service-interface.md, "Bounds"). */
export const MAX_JSON_DEPTH = 200;

/** A value parsed from JSON that is nested deeper than MAX_JSON_DEPTH (the readers refuse it). */
export class JsonTooDeepError extends Error {
	constructor() {
		super(`the JSON is nested more than ${MAX_JSON_DEPTH} levels deep`);
	}
}

/**
 * Whether `value`, as JSON.parse gives it, has arrays and objects nested more than `limit` deep (a
 * scalar is 0 levels, `[]` 1, `{"a":[1]}` 2). Walks with a list of its own, as the value may be
 * nested far deeper than the call stack allows, and stops at the first container past the limit.
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
	const containers: object[] = [];
	const depths: number[] = [];
	const visit = (inner: unknown, depth: number): boolean => {
		if (typeof inner !== 'object' || inner === null) return false;
		if (depth > limit) return true;
		containers.push(inner);
		depths.push(depth);
		return false;
	};
	if (visit(value, 1)) return true;
	while (containers.length > 0) {
		const container = containers.pop() as Record<string, unknown>;
		const depth = (depths.pop() as number) + 1;
		if (Array.isArray(container)) {
			for (const inner of container as unknown[]) if (visit(inner, depth)) return true;
			continue;
		}
		// for…in, not Object.values: a page of 60,000 results is measured in a third of the time.
		for (const name in container) {
			if (!Object.prototype.hasOwnProperty.call(container, name)) continue;
			if (visit(container[name], depth)) return true;
		}
	}
	return false;
}
