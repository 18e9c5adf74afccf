// The parts of the package the bench measures in its own process, loaded from the built package
// (dist/, made by `npm run build`, which every bench task runs first): what n8n runs, not the
// sources the tests compile. The types come from the build's declarations.
import path from 'node:path';

import { ROOT } from '../../test/n8n/runtime.cjs';

const built = <T,>(file: string): T => require(path.join(ROOT, 'dist', file)) as T;

export const dedupe = built<typeof import('../../dist/nodes/shared/webhook/dedupe')>(
	'nodes/shared/webhook/dedupe.js',
);
export const events = built<typeof import('../../dist/nodes/shared/webhook/events')>(
	'nodes/shared/webhook/events.js',
);
export const signature = built<typeof import('../../dist/nodes/shared/webhook/signature')>(
	'nodes/shared/webhook/signature.js',
);
const { IdentityVerification } = built<
	typeof import('../../dist/nodes/IdentityVerification/IdentityVerification.node')
>('nodes/IdentityVerification/IdentityVerification.node.js');

/** The default of a list's Max Parallel Requests option, as the node's panel shows it. */
export function defaultMaxParallel(): number {
	const options = new IdentityVerification().description.properties.flatMap((p) =>
		p.name === 'options' ? ((p.options ?? []) as Array<{ name: string; default?: unknown }>) : [],
	);
	const field = options.find((o) => o.name === 'maxParallelRequests');
	if (typeof field?.default !== 'number') throw new Error('Max Parallel Requests has no default');
	return field.default;
}
