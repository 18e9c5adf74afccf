// pagination: 10,000 transactions, perPage 100, 50 ms added latency per request in the sandbox.
// n8n's HTTP Request node following `next` one page at a time (its pagination option) against this
// node's Return All at default settings, both running inside the same pinned real n8n, timed by n8n
// itself (the node's `executionTime` in the run data), alternating A and B.
import type { Stack } from '../../test/n8n/stack.cjs';
import { defaultMaxParallel } from './built.cjs';
import { load, log, median, round, type Options, type PaginationFigures } from './common.cjs';
import { createActive, runMeasured, type MeasuredRun } from './n8n.cjs';
import {
	NAMES,
	actionNode,
	httpPaginationParameters,
	httpRequestNode,
	measuredWorkflow,
} from './workflows.cjs';

const PAGINATION = { transactions: 10_000, perPage: 100, latencyMs: 50 };
/** Max Parallel Requests as Return All runs at its default. */
const DEFAULT_MAX_PARALLEL = defaultMaxParallel();

/** The two workflows over the same seeded account; each run of them, and what it must read. */
async function paginationWorkflows(stack: Stack, basicAuth: { id: string; name: string }) {
	const { sandbox } = stack;
	const account = sandbox.bank.seedAccount({ transactions: PAGINATION.transactions });
	const listPath = `/bank/verifications/${account.verificationId}/accounts/${account.accountId}/transactions/`;
	const httpWf = await createActive(
		stack.rest,
		measuredWorkflow(
			'Bench: HTTP Request pagination',
			'bench-pagination-http',
			httpRequestNode(
				httpPaginationParameters(`${sandbox.url}${listPath}?perPage=${PAGINATION.perPage}`),
				basicAuth,
			),
		),
	);
	const nodeWf = await createActive(
		stack.rest,
		measuredWorkflow(
			'Bench: Identity Verification Return All',
			'bench-pagination-node',
			actionNode({
				resource: 'bank',
				operation: 'listTransactions',
				verificationId: account.verificationId,
				accountId: account.accountId,
				returnAll: true,
				options: { perPage: PAGINATION.perPage },
			}),
		),
	);
	return {
		runHttp: () =>
			runMeasured(stack, httpWf, 'bench-pagination-http', NAMES.httpRequest, {}, listPath),
		runNode: () => runMeasured(stack, nodeWf, 'bench-pagination-node', NAMES.action, {}, listPath),
	};
}

/** One run of each, in the order given; checks both read every page and the node every item. */
async function pairOfRuns(
	runs: Awaited<ReturnType<typeof paginationWorkflows>>,
	nodeFirst: boolean,
	pages: number,
): Promise<{ a: MeasuredRun; b: MeasuredRun }> {
	let a: MeasuredRun;
	let b: MeasuredRun;
	if (nodeFirst) {
		b = await runs.runNode();
		a = await runs.runHttp();
	} else {
		a = await runs.runHttp();
		b = await runs.runNode();
	}
	if (a.requests !== pages || b.requests !== pages) {
		throw new Error(
			`expected ${pages} page requests each, got HTTP Request ${a.requests}, node ${b.requests}`,
		);
	}
	if (b.items !== PAGINATION.transactions)
		throw new Error(`the node returned ${b.items} items, expected ${PAGINATION.transactions}`);
	return { a, b };
}

export async function benchPagination(
	stack: Stack,
	basicAuth: { id: string; name: string },
	opts: Options,
	details: string[],
): Promise<PaginationFigures> {
	const pages = Math.ceil(PAGINATION.transactions / PAGINATION.perPage);
	const workflows = await paginationWorkflows(stack, basicAuth);
	stack.sandbox.faults.setLatency(PAGINATION.latencyMs);
	const runs = opts.quick ? 3 : 5;
	const sequential: number[] = [];
	const concurrent: number[] = [];
	try {
		for (let i = -1; i < runs; i++) {
			// Alternate which one goes first, so neither always runs right after the other.
			const { a, b } = await pairOfRuns(workflows, i % 2 === 0, pages);
			const label = i < 0 ? 'warm-up' : `run ${i + 1}/${runs}`;
			log(
				`pagination ${label}: HTTP Request ${a.executionTime} ms (${a.items} page items), node ${b.executionTime} ms (${b.items} items), ${a.requests}/${b.requests} requests; load ${load()}`,
			);
			if (i < 0) continue;
			sequential.push(a.executionTime);
			concurrent.push(b.executionTime);
		}
	} finally {
		stack.sandbox.faults.setLatency(0);
	}
	const sequentialMs = median(sequential);
	const concurrentMs = median(concurrent);
	const idealMs = Math.ceil(pages / DEFAULT_MAX_PARALLEL) * PAGINATION.latencyMs;
	details.push(
		`pagination: ${pages} pages of ${PAGINATION.perPage}, +${PAGINATION.latencyMs} ms per request, Max Parallel Requests ${DEFAULT_MAX_PARALLEL}; ` +
			`HTTP Request runs ${sequential.join(', ')} ms; node runs ${concurrent.join(', ')} ms`,
	);
	return {
		sequentialMs,
		concurrentMs,
		idealMs,
		speedup: round(sequentialMs / concurrentMs),
		toIdeal: round(concurrentMs / idealMs),
	};
}
