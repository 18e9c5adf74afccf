// `npm run demo`: the sandbox service and the pinned real n8n on loopback, with this package
// installed as n8n installs community packages, the sandbox credentials and one example workflow per
// user job imported (test/demo/workflows/*.json), the webhook-trigger workflow activated and the
// sandbox's webhook sender pointed at it. Prints the editor URL and how to sign in; Ctrl-C stops.
//
// `npm run demo -- --headless`: runs every example workflow through n8n (`n8n execute --id`), plus a
// sandbox-driven webhook delivery to the trigger workflow (checked in n8n's execution list), prints a
// table of results and exits non-zero if any fails.
//
// Options: --headless, --fresh, --port N (n8n, default 5678 when free), --sandbox-port N (default 8787 when free).
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, N8N_VERSION, execute, type ExecuteResult } from '../n8n/runtime.cjs';
import {
	connectTrigger,
	demoStackOptions,
	demoWorkflows,
	isSignupWorkflow,
	isTriggerWorkflow,
	runSignupApproved,
	signupUrl,
	startStack,
	triggerNodeOf,
	triggerUrl,
	waitForSignup,
	type Stack,
} from '../n8n/stack.cjs';

interface DemoWorkflow {
	file: string;
	workflow: {
		id: string;
		name: string;
		nodes: Array<{ name: string; type: string; webhookId?: string; parameters?: any }>;
		connections?: Record<string, unknown>;
	};
}

interface Row {
	workflow: string;
	status: 'success' | 'FAILED';
	items: number | string;
	ms: number;
	note?: string;
}

function flagValue(args: string[], name: string): number | undefined {
	const i = args.indexOf(name);
	return i >= 0 ? Number(args[i + 1]) : undefined;
}

/** The one-workflow onboarding, run once: sign-up → wait → the sandbox approves → result. */
async function runSignup(stack: Stack, w: DemoWorkflow): Promise<Row> {
	const started = Date.now();
	const row = (status: Row['status'], items: Row['items'], note?: string): Row => ({
		workflow: `${w.workflow.name} (sign-up → wait → result)`,
		status,
		items,
		ms: Date.now() - started,
		note,
	});
	try {
		const done = await runSignupApproved(stack, w, 'demo-customer-7');
		const ran = Object.keys(done.data.resultData.runData);
		const end = ran[ran.length - 1];
		return done.status === 'success'
			? { ...row('success', 1), workflow: `${w.workflow.name} (→ ${end})` }
			: row('FAILED', '-', `execution ${done.id} ended ${done.status}`);
	} catch (error) {
		return row('FAILED', '-', (error as Error).message);
	}
}

/** Items the workflow's last node produced (what a user sees at the end of the canvas). */
function itemsOf(result: ExecuteResult): number {
	const last = result.run?.data.resultData.lastNodeExecuted;
	if (!last) return 0;
	const runs = result.run!.data.resultData.runData[last] ?? [];
	const main = runs[runs.length - 1]?.data?.main ?? [];
	return main.reduce((sum, out) => sum + (out?.length ?? 0), 0);
}

function firstError(result: ExecuteResult): string {
	const err = result.run?.data.resultData.error;
	if (err)
		return `${err.message ?? ''}${err.description ? ` (${err.description})` : ''}`.slice(0, 160);
	const line = result.output.split('\n').find((l) => /error/i.test(l));
	return (line ?? `exit ${result.status}`).slice(0, 160);
}

function printTable(rows: Row[]): void {
	const headers = ['workflow', 'status', 'items', 'ms'];
	const cells = rows.map((r) => [r.workflow, r.status, String(r.items), String(r.ms)]);
	const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
	const line = (c: string[]) =>
		c.map((v, i) => (i >= 2 ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ');
	console.log('\n' + line(headers));
	console.log(widths.map((w) => '-'.repeat(w)).join('  '));
	for (const c of cells) console.log(line(c));
	for (const r of rows.filter((x) => x.note)) console.log(`  ${r.workflow}: ${r.note}`);
}

async function runHeadless(stack: Stack, workflows: DemoWorkflow[]): Promise<Row[]> {
	const rows: Row[] = [];
	for (const w of workflows.filter((x) => !isTriggerWorkflow(x) && !isSignupWorkflow(x))) {
		const started = Date.now();
		const result = await execute(stack.userFolder, w.workflow.id);
		rows.push({
			workflow: w.workflow.name,
			status: result.ok ? 'success' : 'FAILED',
			items: result.ok ? itemsOf(result) : '-',
			ms: Date.now() - started,
			note: result.ok ? undefined : firstError(result),
		});
	}
	for (const w of workflows.filter(isTriggerWorkflow)) {
		const started = Date.now();
		const before = (await stack.rest.listExecutions(w.workflow.id)).length;
		let row: Row;
		try {
			const { scanRef } = stack.sandbox.kyc.createSession('demo-customer-42');
			const delivery = await stack.sandbox.kyc.autoFinish(scanRef, {
				final: true,
				overall: 'APPROVED',
			});
			const code = delivery.attempts[delivery.attempts.length - 1]?.statusCode;
			if (delivery.status !== 'delivered')
				throw new Error(`delivery ${delivery.status} (last answer ${code})`);
			const done = await stack.rest.waitForExecutions(w.workflow.id, before + 1);
			const exec = await stack.rest.getExecution(done[0].id);
			const runData = exec.data?.resultData?.runData ?? {};
			const triggerName = triggerNodeOf(w)!.name;
			const emitted = runData[triggerName]?.[0]?.data?.main?.[0]?.length ?? 0;
			// The end node the result was routed to (the nodes nothing follows).
			const linked = new Set(Object.keys(w.workflow.connections ?? {}));
			const ends = Object.keys(runData).filter((name) => !linked.has(name));
			row = {
				workflow: `${w.workflow.name} (webhook → ${ends.join(', ') || 'nothing'})`,
				status: exec.status === 'success' && emitted === 1 ? 'success' : 'FAILED',
				items: emitted,
				ms: Date.now() - started,
				note: exec.status === 'success' ? undefined : `execution ${exec.id} ended ${exec.status}`,
			};
		} catch (error) {
			row = {
				workflow: `${w.workflow.name} (webhook delivery)`,
				status: 'FAILED',
				items: '-',
				ms: Date.now() - started,
				note: (error as Error).message,
			};
		}
		rows.push(row);
	}
	for (const w of workflows.filter(isSignupWorkflow)) rows.push(await runSignup(stack, w));
	return rows;
}

/**
 * The interactive demo keeps its n8n folder between runs (your own workflows stay; the examples and
 * sandbox credentials are re-imported each start); --fresh starts from an empty one. Headless runs
 * use a throw-away folder.
 */
function demoUserFolder(args: string[], headless: boolean): string | undefined {
	if (headless) return undefined;
	const userFolder = path.join(CACHE_DIR, 'demo-n8n');
	if (args.includes('--fresh')) rmSync(userFolder, { recursive: true, force: true });
	mkdirSync(userFolder, { recursive: true });
	return userFolder;
}

/** Activates the trigger and sign-up workflows and reports how long setting up took. */
async function connectWorkflows(
	stack: Stack,
	workflows: DemoWorkflow[],
	started: number,
): Promise<void> {
	for (const w of workflows.filter(isTriggerWorkflow)) await connectTrigger(stack, w);
	for (const w of workflows.filter(isSignupWorkflow)) await waitForSignup(signupUrl(stack, w));
	const setupSeconds = ((Date.now() - started) / 1000).toFixed(1);
	const timings = Object.entries(stack.timings)
		.map(([k, v]) => `${k} ${v.toFixed(1)} s`)
		.join(', ');
	console.log(`[demo] Ready in ${setupSeconds} s (${timings})`);
}

/** Runs every example, prints the table; the exit code is 1 when any failed. */
async function headlessDemo(stack: Stack, workflows: DemoWorkflow[]): Promise<number> {
	const rows = await runHeadless(stack, workflows);
	printTable(rows);
	const failed = rows.filter((r) => r.status !== 'success').length;
	console.log(
		`\n${rows.length - failed}/${rows.length} example workflows succeeded in n8n ${N8N_VERSION}`,
	);
	if (failed > 0) console.log(`n8n log: ${stack.n8n.logFile}\n${stack.n8n.logTail(30)}`);
	return failed === 0 ? 0 : 1;
}

/** Where the editor is, how to sign in, the example workflows and how to drive them. */
function printGuide(stack: Stack, workflows: DemoWorkflow[]): void {
	console.log('');
	console.log(`  n8n ${N8N_VERSION} editor:  ${stack.n8n.url}/`);
	console.log(`  Sign in with:        ${stack.owner.email}  /  ${stack.owner.password}`);
	console.log(
		`  Sandbox service:     ${stack.sandbox.url}  (credentials "Identity Verification sandbox" already point here)`,
	);
	console.log('');
	console.log('  Example workflows:');
	for (const w of workflows) {
		const extra = isTriggerWorkflow(w)
			? `  [active; the sandbox sends webhooks to ${triggerUrl(stack, w)}]`
			: isSignupWorkflow(w)
				? `  [active; sign-up URL ${signupUrl(stack, w)}]`
				: '';
		console.log(`    ${stack.n8n.url}/workflow/${w.workflow.id}  ${w.workflow.name}${extra}`);
	}
	console.log('');
	console.log('  Send the trigger a verification result from another terminal, e.g.:');
	console.log(
		`    curl -s -X POST ${stack.sandbox.url}/__sandbox/webhooks/send -H 'content-type: application/json' -d '{"eventType":"IDENTIFICATION_AUTO_FINISHED"}'`,
	);
	const signup = workflows.find(isSignupWorkflow);
	if (signup) {
		console.log(
			'  Onboarding in one workflow: sign a customer up, then finish their verification:',
		);
		console.log(
			`    curl -s -X POST ${signupUrl(stack, signup)} -H 'content-type: application/json' -d '{"customerId":"customer-1","email":"c1@example.com"}'`,
		);
		console.log(
			`    curl -s -X POST ${stack.sandbox.url}/__sandbox/kyc/sessions/<scanRef from the execution>/auto-finish -H 'content-type: application/json' -d '{"final":true,"overall":"APPROVED"}'`,
		);
	}
	console.log('');
	console.log(
		`  n8n folder: ${stack.userFolder} (kept between runs; npm run demo -- --fresh starts empty)`,
	);
	console.log(`  n8n log: ${stack.n8n.logFile}`);
	console.log('  Press Ctrl-C to stop.');
}

/** Resolves on Ctrl-C, SIGTERM, or when n8n exits (reported unless we are stopping it). */
function untilStopped(stack: Stack, stopping: () => boolean): Promise<void> {
	return new Promise<void>((resolve) => {
		process.once('SIGINT', resolve);
		process.once('SIGTERM', resolve);
		stack.n8n.child.once('exit', () => {
			if (!stopping()) console.log(`[demo] n8n exited unexpectedly:\n${stack.n8n.logTail(30)}`);
			resolve();
		});
	});
}

async function main(): Promise<number> {
	const args = process.argv.slice(2);
	const headless = args.includes('--headless');
	const workflows = demoWorkflows() as DemoWorkflow[];
	const started = Date.now();
	const stack = await startStack({
		userFolder: demoUserFolder(args, headless),
		n8nPort: flagValue(args, '--port') ?? 5678,
		sandboxPort: flagValue(args, '--sandbox-port') ?? 8787,
		...demoStackOptions(),
		log: (m) => console.log(`[demo] ${m}`),
	});
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		console.log('\n[demo] Stopping n8n and the sandbox...');
		await stack.stop();
	};
	try {
		await connectWorkflows(stack, workflows, started);
		if (headless) {
			const code = await headlessDemo(stack, workflows);
			await stop();
			return code;
		}
		printGuide(stack, workflows);
		await untilStopped(stack, () => stopping);
		await stop();
		return 0;
	} catch (error) {
		console.error(`[demo] ${(error as Error).message}`);
		console.error(stack.n8n.logTail(30));
		await stop();
		return 1;
	}
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(`[demo] ${error instanceof Error ? error.message : error}`);
		process.exit(1);
	},
);
