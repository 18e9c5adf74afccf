// actionOverhead: ms per item of Create Bank Token (100 items per execution) against n8n's HTTP
// Request node making the same call with the same credential values, in the same real n8n.
import type { Stack } from '../../test/n8n/stack.cjs';
import { load, log, median, round, type Options, type Results } from './common.cjs';
import { createActive, runMeasured, type MeasuredRun } from './n8n.cjs';
import { NAMES, actionNode, httpRequestNode, measuredWorkflow } from './workflows.cjs';

const TOKEN_REQUEST = {
	lifetime: 3600,
	country: 'LT',
	bank: null,
	access: { accounts: true, balances: true, transactions: true },
};

const ITEMS_PER_RUN = 100;

/** The two workflows (Split Out the items, then the call); one run of each by name. */
async function overheadWorkflows(stack: Stack, basicAuth: { id: string; name: string }) {
	const httpWf = await createActive(
		stack.rest,
		measuredWorkflow(
			'Bench: HTTP Request create bank token',
			'bench-overhead-http',
			httpRequestNode(
				{
					method: 'POST',
					url: `${stack.sandbox.url}/bank/tokens/`,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify(TOKEN_REQUEST),
					options: {},
				},
				basicAuth,
			),
			{ splitItems: true },
		),
	);
	const nodeWf = await createActive(
		stack.rest,
		measuredWorkflow(
			'Bench: Identity Verification create bank token',
			'bench-overhead-node',
			actionNode({
				resource: 'bank',
				operation: 'createToken',
				lifetime: TOKEN_REQUEST.lifetime,
				country: TOKEN_REQUEST.country,
				bank: '',
				accounts: true,
				balances: true,
				transactions: true,
			}),
			{ splitItems: true },
		),
	);
	const body = { items: Array.from({ length: ITEMS_PER_RUN }, (_, i) => ({ customer: i })) };
	return async (which: 'node' | 'http'): Promise<MeasuredRun> => {
		const run =
			which === 'node'
				? await runMeasured(
						stack,
						nodeWf,
						'bench-overhead-node',
						NAMES.action,
						body,
						'/bank/tokens/',
					)
				: await runMeasured(
						stack,
						httpWf,
						'bench-overhead-http',
						NAMES.httpRequest,
						body,
						'/bank/tokens/',
					);
		if (run.items !== ITEMS_PER_RUN || run.requests !== ITEMS_PER_RUN) {
			throw new Error(
				`${which}: ${run.items} items / ${run.requests} requests, expected ${ITEMS_PER_RUN}`,
			);
		}
		return run;
	};
}

export async function benchOverhead(
	stack: Stack,
	basicAuth: { id: string; name: string },
	opts: Options,
	details: string[],
): Promise<NonNullable<Results['actionOverhead']>> {
	const runOne = await overheadWorkflows(stack, basicAuth);
	const runs = opts.quick ? 3 : 7;
	const nodeMs: number[] = [];
	const httpMs: number[] = [];
	for (let i = -1; i < runs; i++) {
		// Alternate which one goes first, so neither always runs right after the other.
		const order = i % 2 === 0 ? (['node', 'http'] as const) : (['http', 'node'] as const);
		const got: Partial<Record<'node' | 'http', MeasuredRun>> = {};
		for (const which of order) got[which] = await runOne(which);
		const node = got.node!.executionTime;
		const http = got.http!.executionTime;
		const label = i < 0 ? 'warm-up' : `run ${i + 1}/${runs}`;
		log(
			`overhead ${label}: node ${node} ms, HTTP Request ${http} ms for ${ITEMS_PER_RUN} items; load ${load()}`,
		);
		if (i < 0) continue;
		nodeMs.push(node / ITEMS_PER_RUN);
		httpMs.push(http / ITEMS_PER_RUN);
	}
	const node = median(nodeMs);
	const http = median(httpMs);
	details.push(
		`actionOverhead: ${ITEMS_PER_RUN} items per execution; node ${nodeMs.map((v) => v.toFixed(2)).join(', ')} ms/item; ` +
			`HTTP Request ${httpMs.map((v) => v.toFixed(2)).join(', ')} ms/item`,
	);
	// The median of each round's ratio: the machine's load drifting between rounds cancels out within
	// a round (both runs of a round are back to back), as in the trigger's section.
	const ratio = median(nodeMs.map((ms, i) => ms / httpMs[i]));
	return { nodeMs: round(node, 3), httpRequestNodeMs: round(http, 3), ratio: round(ratio) };
}
