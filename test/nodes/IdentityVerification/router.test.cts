/**
 * The action node's per-item loop (actions/router.ts) on its own edge: an operation the node does
 * not have is refused before anything is sent.
 */
import { expectError, serviceRequests, useSandbox } from './util.cjs';

const ctx = useSandbox();

describe('router', () => {
	test('refuses an operation the node does not have, before sending anything', async () => {
		const result = await ctx.run({ resource: 'bank', operation: 'nope' });
		expectError(result, 'The operation "nope" of "bank" is not supported');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});
