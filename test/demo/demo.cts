// `npm run demo`: the sandbox service and the pinned real n8n on loopback, with this package
// installed as n8n installs community packages, the sandbox credentials and the demo's copies of the
// example workflows (workflows/*.json) imported: n8n's own nodes stand in for the outside services
// and e-mail goes to the sandbox's mailbox (copies.cts, ../n8n/standins.cts). Those that start from
// a webhook, a form or this package's trigger are published (the sandbox's webhook sender is pointed
// at a trigger workflow). Prints the editor URL, how to sign in, every example with its link and
// what to click, the inbox page, and a verification link of a customer who just signed up through
// the onboarding workflow: the sandbox's verification page finishes it and the waiting execution
// continues; the sandbox's pages and the AML test names. Enter prints another link; Ctrl-C stops.
//
// `npm run demo -- --headless`: runs every start of every example once (`n8n execute --id`, a
// posted customer, a filled-in form, the trigger's event sent by the sandbox and checked in n8n's
// execution list, a sign-up approved by the sandbox; a reviewer's form answered once each way, as a
// browser posts it (review.cts); a KYB info request whose e-mailed link must open the sandbox's
// form), prints a table of the runs and how many of the examples ran, and exits non-zero if any
// run fails.
//
// Options: --headless, --fresh, --port N (n8n, default 5678 when free), --sandbox-port N (default
// 8787 when free), --smtp-port N (the mailbox; default a random free one), --only a.json,b.json
// (run and list only those examples of workflows/).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { CACHE_DIR, N8N_VERSION, execute, type ExecuteResult } from '../n8n/runtime.cjs';
import { alreadyRunning, claimDemoFolder, DEMO_LOCK_FILE, type Claim } from './lock.cjs';
import { amlTestNames, DELIVERIES_PAGE, SEED } from '../sandbox/index.cjs';
import {
	demoCopies,
	kindReceivers,
	demoStackOptions,
	isSignupWorkflow,
	seedDemoData,
	startsOf,
	type DemoSeeded,
	type Start,
	formFieldsOf,
	kybFormLinkIn,
	webhookSample,
} from './copies.cjs';
import type { DemoWorkflow } from '../n8n/examples.cjs';
import {
	approvalAfter,
	approvedRoute,
	formUrlOf,
	reviewerFormOf,
	reviewerGuide,
	reviewFields,
	reviewSubject,
} from './review.cjs';
import { INBOX_PAGE } from '../sandbox/index.cjs';
import { DEMO_SEED } from '../sandbox/seed.cjs';
import { postWhenRegistered } from '../n8n/runtime.cjs';
import {
	connectTrigger,
	credentialRef,
	NODE_TYPES,
	isTriggerWorkflow,
	routesTaken,
	runSignupApproved,
	signUp,
	signupUrl,
	startStack,
	triggerEvents,
	triggerNodeOf,
	triggerUrl,
	waitForSignup,
	type Stack,
	type StackOptions,
} from '../n8n/stack.cjs';

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

const SWITCH = 'n8n-nodes-base.switch';

/** Where a run ended: the last node that ran, and for a Switch the route the result took. */
function endOf(w: DemoWorkflow, runData: Record<string, any>): string {
	const ran = Object.keys(runData);
	const last = ran[ran.length - 1] ?? 'nothing';
	const node = w.workflow.nodes.find((n) => n.name === last);
	if (node?.type !== SWITCH) return last;
	return `${last}: ${routesTaken(node, runData).join(', ') || 'no route'}`;
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
		const end = endOf(w, done.data.resultData.runData);
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

/** The names that hit (or not) on the sandbox's invented AML lists. */
function printAmlTestNames(): void {
	console.log('');
	console.log('  AML test names (AML Check → Create, or an AML Monitoring):');
	for (const { name, produces } of amlTestNames()) console.log(`    ${name}: ${produces}`);
}

/** A manual example, run with `n8n execute`. */
async function runManual(stack: Stack, w: DemoWorkflow): Promise<Row> {
	const started = Date.now();
	const result = await execute(stack.userFolder, w.workflow.id);
	return {
		workflow: w.workflow.name,
		status: result.ok ? 'success' : 'FAILED',
		items: result.ok ? itemsOf(result) : '-',
		ms: Date.now() - started,
		note: result.ok ? undefined : firstError(result),
	};
}

const IDENTIFICATION = /^IDENTIFICATION_/;

/**
 * A verification of the demo's customer the sandbox ends with `event`: expired or cancelled (a link
 * left unused), else finished and approved.
 */
async function identificationDelivery(stack: Stack, event: string) {
	const { scanRef } = stack.sandbox.kyc.createSession('demo-customer-42');
	if (event === 'IDENTIFICATION_EXPIRED') return await stack.sandbox.kyc.expire(scanRef);
	if (event === 'IDENTIFICATION_CANCELLED') return await stack.sandbox.kyc.cancel(scanRef);
	return await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
}

/**
 * A trigger example, started by the first event it listens to, sent by the sandbox to its URL: an
 * identification result by a verification the sandbox ends so, an AML monitoring update by the
 * daily screening of the demo's monitoring in ALERT (so the alert branch runs), any other its
 * sample delivery.
 */
async function runTrigger(stack: Stack, w: DemoWorkflow, seeded: DemoSeeded): Promise<Row> {
	const started = Date.now();
	const before = (await stack.rest.listExecutions(w.workflow.id)).length;
	const trigger = triggerNodeOf(w)!;
	const event = triggerEvents(w)[0] ?? 'IDENTIFICATION_AUTO_FINISHED';
	try {
		await connectTrigger(stack, w);
		const delivery = IDENTIFICATION.test(event)
			? await identificationDelivery(stack, event)
			: event === 'AML_MONITORING'
				? await stack.sandbox.aml.screenMonitoring(seeded.amlAlertMonitoringId)
				: await stack.sandbox.webhooks.send(event as never);
		const code = delivery.attempts[delivery.attempts.length - 1]?.statusCode;
		if (delivery.status !== 'delivered')
			throw new Error(`delivery ${delivery.status} (last answer ${code})`);
		const done = await stack.rest.waitForExecutions(w.workflow.id, before + 1);
		const exec = await stack.rest.getExecution(done[0].id);
		const runData = exec.data?.resultData?.runData ?? {};
		const emitted = runData[trigger.name]?.[0]?.data?.main?.[0]?.length ?? 0;
		return {
			workflow: `${w.workflow.name} (${event} → ${endOf(w, runData)})`,
			status: exec.status === 'success' && emitted === 1 ? 'success' : 'FAILED',
			items: emitted,
			ms: Date.now() - started,
			note: exec.status === 'success' ? undefined : `execution ${exec.id} ended ${exec.status}`,
		};
	} catch (error) {
		return failedRow(`${w.workflow.name} (${event})`, started, error);
	}
}

/** Polls the workflow's executions until one not in `seen` matches; returns it. */
async function nextExecution(
	stack: Stack,
	w: DemoWorkflow,
	seen: Set<string>,
	ready: (status: string) => boolean,
	timeoutMs = 60_000,
): Promise<{ id: string; status: string }> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = (await stack.rest.listExecutions(w.workflow.id)).find(
			(e) => !seen.has(e.id) && ready(e.status),
		);
		if (found) return found;
		if (Date.now() > deadline) throw new Error(`no execution of ${w.workflow.name} got there`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * A trigger example with a reviewer's form: started once per answer (deny first: a stopped AML
 * monitoring is screened no more), each run waiting for the form, which the demo submits as the
 * reviewer's browser would; the run must take the route of the answer.
 */
async function runReviews(stack: Stack, w: DemoWorkflow, seeded: DemoSeeded): Promise<Row[]> {
	const form = reviewerFormOf(w)!;
	const { name, approve, deny } = approvalAfter(w, form);
	const rows: Row[] = [];
	for (const [n, decision] of [deny, approve].entries())
		rows.push(
			await runReview(stack, w, seeded, {
				form,
				name,
				decision,
				approved: decision === approve,
				n,
			}),
		);
	return rows;
}

async function runReview(
	stack: Stack,
	w: DemoWorkflow,
	seeded: DemoSeeded,
	review: { form: { name: string }; name: string; decision: string; approved: boolean; n: number },
): Promise<Row> {
	const started = Date.now();
	const event = triggerEvents(w)[0];
	const label = `${event}, the reviewer chose ${review.decision}`;
	const subject = reviewSubject(stack, event, review.n + 1, seeded.amlAlertMonitoringId);
	try {
		await connectTrigger(stack, w);
		const seen = new Set((await stack.rest.listExecutions(w.workflow.id)).map((e) => e.id));
		const delivery = await subject.start();
		if (delivery.status !== 'delivered') throw new Error(`delivery ${delivery.status}`);
		const waiting = await nextExecution(stack, w, seen, (s) => s === 'waiting');
		const url = formUrlOf(
			stack.n8n.url,
			await stack.rest.getExecution(waiting.id),
			review.form.name,
		);
		const res = await fetch(url, {
			method: 'POST',
			body: reviewFields(review.decision, 'Reviewed in the headless demo'),
		});
		await res.arrayBuffer();
		if (res.status >= 400) throw new Error(`the reviewer's form answered ${res.status}`);
		seen.delete(waiting.id);
		const done = await nextExecution(
			stack,
			w,
			seen,
			(s) => !['new', 'running', 'waiting'].includes(s),
		);
		const exec = await stack.rest.getExecution(done.id);
		const runData = exec.data?.resultData?.runData ?? {};
		const routed = approvedRoute(w, review.name, runData) === review.approved;
		return {
			workflow: `${w.workflow.name} (${label} → ${endOf(w, runData)}; ${subject.outcome()})`,
			status: exec.status === 'success' && routed ? 'success' : 'FAILED',
			items: 1,
			ms: Date.now() - started,
			note:
				exec.status !== 'success'
					? `execution ${exec.id} ended ${exec.status}`
					: routed
						? undefined
						: `the run did not take the route of ${review.decision}`,
		};
	} catch (error) {
		return failedRow(`${w.workflow.name} (${label})`, started, error);
	}
}

const listensTo = (w: DemoWorkflow, kind: string) => triggerEvents(w).includes(kind);

/**
 * The reviewer asks the sandbox's company for more information (COMPANY_INFO_REQUEST): the example
 * e-mails the company its form link, which must open the sandbox's KYB form page (answering 200).
 */
async function runInfoRequest(stack: Stack, w: DemoWorkflow): Promise<Row> {
	const started = Date.now();
	const label = 'COMPANY_INFO_REQUEST';
	try {
		const before = (await stack.rest.listExecutions(w.workflow.id)).length;
		const mails = stack.sandbox.mailbox.messages.length;
		const delivery = await stack.sandbox.kyb.requestInformation(SEED.kyb.companyId);
		if (delivery.status !== 'delivered') throw new Error(`delivery ${delivery.status}`);
		const row = await finishedRow(stack, w, label, before, started);
		const link = await kybFormLinkIn(stack.sandbox.mailbox.messages.slice(mails));
		if (!link?.startsWith(`${stack.sandbox.url}/`))
			throw new Error(`the e-mail links to ${link ?? 'nothing'}, not the sandbox's form`);
		const res = await fetch(link);
		await res.arrayBuffer();
		return res.status === 200
			? { ...row, workflow: `${row.workflow.slice(0, -1)}; its form link answers 200)` }
			: { ...row, status: 'FAILED', note: `the e-mailed form link answered ${res.status}` };
	} catch (error) {
		return failedRow(`${w.workflow.name} (${label})`, started, error);
	}
}

function failedRow(workflow: string, started: number, error: unknown): Row {
	return {
		workflow,
		status: 'FAILED',
		items: '-',
		ms: Date.now() - started,
		note: (error as Error).message,
	};
}

/** The newest finished execution after `before` of them, as a row. */
async function finishedRow(
	stack: Stack,
	w: DemoWorkflow,
	label: string,
	before: number,
	started: number,
): Promise<Row> {
	const done = await stack.rest.waitForExecutions(w.workflow.id, before + 1, 60_000);
	const exec = await stack.rest.getExecution(done[0].id);
	const runData = exec.data?.resultData?.runData ?? {};
	return {
		workflow: `${w.workflow.name} (${label} → ${endOf(w, runData)})`,
		status: exec.status === 'success' ? 'success' : 'FAILED',
		items: exec.status === 'success' ? 1 : '-',
		ms: Date.now() - started,
		note: exec.status === 'success' ? undefined : `execution ${exec.id} ended ${exec.status}`,
	};
}

/** An example started by n8n's Webhook node: a new customer posted to it, as a CRM would. */
async function runWebhook(stack: Stack, w: DemoWorkflow): Promise<Row> {
	const started = Date.now();
	const node = w.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!;
	try {
		const before = (await stack.rest.listExecutions(w.workflow.id)).length;
		const url = `${stack.n8n.url}/webhook/${node.parameters.path as string}`;
		const status = await postWhenRegistered(url, {
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(webhookSample('demo-customer-9')),
		});
		if (status >= 400) throw new Error(`the webhook answered ${status}`);
		return await finishedRow(stack, w, 'webhook', before, started);
	} catch (error) {
		return failedRow(`${w.workflow.name} (webhook)`, started, error);
	}
}

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/**
 * An example started by n8n's form: filled in as a person would (a client whose verification the
 * sandbox finished, so that it can be erased; yesterday for a date).
 */
async function runForm(stack: Stack, w: DemoWorkflow): Promise<Row> {
	const started = Date.now();
	const node = w.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.formTrigger')!;
	const clientId = `demo-erasure-${Date.now()}`;
	try {
		const { scanRef } = stack.sandbox.kyc.createSession(clientId);
		await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
		const before = (await stack.rest.listExecutions(w.workflow.id)).length;
		const form = new FormData();
		for (const [name, value] of formFieldsOf(node, clientId, yesterday())) form.append(name, value);
		const path = (node.parameters.path as string | undefined) || node.webhookId;
		const res = await fetch(`${stack.n8n.url}/form/${path}`, { method: 'POST', body: form });
		await res.arrayBuffer();
		if (res.status >= 400) throw new Error(`the form answered ${res.status}`);
		return await finishedRow(stack, w, 'form', before, started);
	} catch (error) {
		return failedRow(`${w.workflow.name} (form)`, started, error);
	}
}

async function runHeadless(
	stack: Stack,
	workflows: DemoWorkflow[],
	seeded: DemoSeeded,
): Promise<Row[]> {
	const runners: Record<Start, (stack: Stack, w: DemoWorkflow) => Promise<Row | Row[]>> = {
		manual: runManual,
		webhook: runWebhook,
		form: runForm,
		trigger: async (s, w) => {
			if (reviewerFormOf(w)) return runReviews(s, w, seeded);
			const first = await runTrigger(s, w, seeded);
			return listensTo(w, 'COMPANY_INFO_REQUEST') ? [first, await runInfoRequest(s, w)] : first;
		},
		signup: runSignup,
	};
	const rows: Row[] = [];
	const print = (row: Row) =>
		console.log(`[demo] ${row.status}: ${row.workflow}${row.note ? ` (${row.note})` : ''}`);
	for (const w of workflows)
		for (const start of startsOf(w)) {
			for (const row of [await runners[start](stack, w)].flat()) {
				print(row);
				rows.push(row);
			}
		}
	const together = await runEveryListener(stack, workflows, 'IDENTIFICATION_EXPIRED');
	if (together) {
		print(together);
		rows.push(together);
	}
	return rows;
}

/**
 * As the interactive demo routes events: one verification expired on the sandbox runs every
 * example that listens to the kind (none when fewer than two do).
 */
async function runEveryListener(
	stack: Stack,
	workflows: DemoWorkflow[],
	kind: string,
): Promise<Row | undefined> {
	const listeners = triggerWorkflows(workflows).filter((w) => listensTo(w, kind));
	if (listeners.length < 2) return undefined;
	const started = Date.now();
	const name = `Every example that listens to ${kind} (${listeners.length}), from one verification`;
	try {
		const before = await Promise.all(
			listeners.map(async (w) => (await stack.rest.listExecutions(w.workflow.id)).length),
		);
		routeEachKind(stack, workflows);
		await identificationDelivery(stack, kind);
		for (const [i, w] of listeners.entries())
			await stack.rest.waitForExecutions(w.workflow.id, before[i] + 1);
		return { workflow: name, status: 'success', items: listeners.length, ms: Date.now() - started };
	} catch (error) {
		return failedRow(name, started, error);
	}
}

/**
 * The interactive demo keeps its n8n folder between runs (your own workflows stay; the examples and
 * sandbox credentials are re-imported each start); --fresh starts from an empty one. Headless runs
 * use a throw-away folder. The folder is claimed first (lock.cts): a second demo on it is told where
 * the first one runs, and --fresh never empties a folder another demo runs on.
 */
function claimUserFolder(args: string[]): { folder: string; claim: Claim } {
	const folder = path.join(CACHE_DIR, 'demo-n8n');
	mkdirSync(folder, { recursive: true });
	const claim = claimDemoFolder(folder);
	if (claim.ok && args.includes('--fresh')) {
		for (const entry of readdirSync(folder)) {
			if (entry !== DEMO_LOCK_FILE)
				rmSync(path.join(folder, entry), { recursive: true, force: true });
		}
	}
	return { folder, claim };
}

/**
 * The demo's own trigger workflow, when no example the demo runs starts from this package's trigger:
 * the sandbox sends every result there (a token without a Callback URL included), so finishing a
 * verification on the sandbox's page always reaches n8n, and its executions list shows each.
 */
const RESULTS_WORKFLOW: DemoWorkflow = {
	file: '(the demo’s own)',
	needs: [],
	workflow: {
		id: 'idvDemoSandboxResults',
		name: 'Sandbox results (the demo’s trigger)',
		nodes: [
			{
				id: '0d6f4c3e-6a0b-4f57-9d0e-2f7f3c1b9a51',
				name: 'Identity Verification Trigger',
				type: NODE_TYPES.trigger,
				typeVersion: 1.1,
				position: [0, 0],
				parameters: { events: [] },
				webhookId: 'b7c2e1d4-5f3a-4e8b-9c6d-1a2b3c4d5e6f',
				credentials: credentialRef('webhookSigning'),
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	},
};

/** The demo's trigger workflows: the examples it runs that start from the trigger, else its own. */
function triggerWorkflows(workflows: DemoWorkflow[]): DemoWorkflow[] {
	const examples = workflows.filter(isTriggerWorkflow);
	return examples.length > 0 ? examples : [RESULTS_WORKFLOW];
}

/** The stack's workflows: the examples, and the demo's own trigger workflow when it needs it. */
function stackWorkflows(workflows: DemoWorkflow[]): Pick<StackOptions, 'workflows' | 'publish'> {
	const options = demoStackOptions(0);
	const own = triggerWorkflows(workflows).filter((w) => w === RESULTS_WORKFLOW);
	return {
		workflows: (sandbox) => [...options.workflows(sandbox), ...own.map((w) => w.workflow)],
		publish: [...(options.publish ?? []), ...own.map((w) => w.workflow.id)],
	};
}

/** Each kind to every trigger workflow that listens to it; the others to the last one. */
function routeEachKind(stack: Stack, workflows: DemoWorkflow[]): void {
	const triggers = triggerWorkflows(workflows);
	if (triggers.length === 0) return;
	stack.sandbox.webhooks.configure({
		url: triggerUrl(stack, triggers[triggers.length - 1]),
		urlsByKind: kindReceivers(triggers, (w) => triggerUrl(stack, w)),
		signingKey: stack.sandbox.credentials.signingKey,
	});
}

/** Waits for the published trigger and sign-up workflows and reports how long setting up took. */
async function connectWorkflows(
	stack: Stack,
	workflows: DemoWorkflow[],
	started: number,
): Promise<void> {
	for (const w of triggerWorkflows(workflows)) await connectTrigger(stack, w);
	routeEachKind(stack, workflows);
	for (const w of workflows.filter(isSignupWorkflow)) await waitForSignup(signupUrl(stack, w));
	const setupSeconds = ((Date.now() - started) / 1000).toFixed(1);
	const timings = Object.entries(stack.timings)
		.map(([k, v]) => `${k} ${v.toFixed(1)} s`)
		.join(', ');
	console.log(`[demo] Ready in ${setupSeconds} s (${timings})`);
}

/** Runs every start of every example, prints the table; the exit code is 1 when any failed. */
async function headlessDemo(
	stack: Stack,
	workflows: DemoWorkflow[],
	seeded: DemoSeeded,
): Promise<number> {
	const rows = await runHeadless(stack, workflows, seeded);
	printTable(rows);
	printStandIns(workflows);
	const failed = rows.filter((r) => r.status !== 'success').length;
	const examplesOk = workflows.filter((w) =>
		rows.every((r) => !r.workflow.startsWith(`${w.workflow.name} (`) || r.status === 'success'),
	).length;
	console.log(
		`\n${stack.sandbox.mailbox.messages.length} e-mails reached the sandbox's mailbox: ${stack.sandbox.url}${INBOX_PAGE}`,
	);
	console.log(
		`${rows.length - failed}/${rows.length} runs succeeded; ${examplesOk} of ${workflows.length} example workflows run in n8n ${N8N_VERSION}`,
	);
	if (failed > 0) console.log(`n8n log: ${stack.n8n.logFile}\n${stack.n8n.logTail(30)}`);
	return failed === 0 ? 0 : 1;
}

/** The outside services each example's demo copy stands in for (the imported files keep them). */
function printStandIns(workflows: DemoWorkflow[]): void {
	const with_ = workflows.filter((w) => w.needs.length > 0);
	if (with_.length === 0) return;
	console.log('');
	console.log(
		"  Run with n8n's own stand-ins for outside services (the files in workflows/ keep the real ones; e-mail goes to the sandbox's inbox):",
	);
	for (const w of with_)
		console.log(`    ${w.workflow.name}  (stand-ins for ${w.needs.join(', ')})`);
}

/** What a person does to run one start of an example, in the editor or the sandbox's pages. */
function whatToClick(stack: Stack, w: DemoWorkflow, start: Start): string {
	if (start === 'manual') return 'Open it and click Execute workflow.';
	if (start === 'signup')
		return `Published. A customer signs up at ${signupUrl(stack, w)} (the demo prints a link below); finish their verification on the sandbox's page.`;
	if (start === 'webhook') {
		const node = w.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!;
		return `Published. Runs when a CRM posts a customer to ${stack.n8n.url}/webhook/${node.parameters.path as string}.`;
	}
	if (start === 'form') {
		const node = w.workflow.nodes.find((n) => n.type === 'n8n-nodes-base.formTrigger')!;
		return `Published. Fill in its form: ${stack.n8n.url}/form/${(node.parameters.path as string | undefined) || node.webhookId}`;
	}
	const kinds = triggerEvents(w);
	const events = kinds.join(', ') || 'every event';
	const act = kinds.some((kind) => kind.startsWith('IDENTIFICATION'))
		? "finish a verification on the sandbox's page"
		: kinds.some((kind) => kind.startsWith('COMPANY_'))
			? "submit a company's form on the sandbox's KYB page (the formUrl of KYB Form → Create Session)"
			: 'send a sample event from the deliveries page';
	return `Published. Runs on ${events}: ${act}, or Resend a delivery on ${stack.sandbox.url}${DELIVERIES_PAGE}.${reviewerGuide(stack.n8n.url, w)}`;
}

/** Where the editor is, how to sign in, and the example workflows. */
function printGuide(stack: Stack, workflows: DemoWorkflow[], seeded: DemoSeeded): void {
	const url = (w: DemoWorkflow) => `${stack.n8n.url}/workflow/${w.workflow.id}`;
	console.log('');
	console.log(`  n8n ${N8N_VERSION} editor:  ${stack.n8n.url}/`);
	console.log(`  Sign in with:        ${stack.owner.email}  /  ${stack.owner.password}`);
	console.log(
		`  Sandbox service:     ${stack.sandbox.url}  (credentials "Identity Verification sandbox" already point here)`,
	);
	console.log(
		`  Sandbox pages:       ${stack.sandbox.url}/  (what it is, where results go, the AML test names)`,
	);
	console.log(
		`                       ${stack.sandbox.url}${DELIVERIES_PAGE}  (every webhook sent and its answer, with Resend)`,
	);
	const results = triggerWorkflows(workflows)
		.map((w) => triggerUrl(stack, w))
		.at(-1);
	console.log(
		`  Events go to:        every example that listens to them, signed; the others to ${results}  (a token's Callback URL gets its own too)`,
	);
	if (triggerWorkflows(workflows).includes(RESULTS_WORKFLOW))
		console.log(
			`                       workflow "${RESULTS_WORKFLOW.workflow.name}": ${stack.n8n.url}/workflow/${RESULTS_WORKFLOW.workflow.id}/executions`,
		);
	printAmlTestNames();
	console.log(
		`  AML monitoring in ALERT: ${seeded.amlAlertMonitoringId} (Aleksandr Volkov); its daily screening (AML_MONITORING, the alert-triage example's alert branch): Screen now on ${stack.sandbox.url}${DELIVERIES_PAGE}`,
	);
	console.log(
		`  A verification approved six years ago: ${seeded.oldVerificationScanRef} (client ${DEMO_SEED.oldVerificationClientId}); the retention purge example erases it.`,
	);
	console.log('');
	console.log(
		'  Example workflows (the files of workflows/; into your own n8n: ⋯ → Import → From File,',
	);
	console.log('  in n8n 1.x ⋯ → Import from File):');
	for (const w of workflows) {
		console.log(`    ${url(w)}  ${w.workflow.name}`);
		for (const start of startsOf(w)) console.log(`        ${whatToClick(stack, w, start)}`);
	}
	printStandIns(workflows);
	console.log(
		`  E-mails the examples send arrive in the sandbox's inbox: ${stack.sandbox.url}${INBOX_PAGE}`,
	);
	console.log('');
	console.log(
		`  n8n folder: ${stack.userFolder} (kept between runs; npm run demo -- --fresh starts empty)`,
	);
	console.log(`  n8n log: ${stack.n8n.logFile}`);
}

/**
 * A customer signs up through the onboarding workflow; prints the verification link its answer
 * gives, which the person would be sent to: the sandbox's page finishes the verification.
 */
async function printVerificationLink(stack: Stack, w: DemoWorkflow, n: number): Promise<void> {
	const customerId = `demo-customer-${n}`;
	const { status, answer } = await signUp(stack, w, customerId);
	if (status !== 200 || typeof answer?.verificationUrl !== 'string') {
		console.log(`[demo] The sign-up answered ${status}: ${JSON.stringify(answer)}`);
		return;
	}
	console.log('');
	console.log(
		`  Try onboarding: customer ${customerId} just signed up through "${w.workflow.name}".`,
	);
	console.log(
		'  Open their verification link and choose how it ends (approved, denied, suspected, expire now, cancel):',
	);
	console.log(`    ${answer.verificationUrl}`);
	console.log(
		`  The execution waiting for their result then goes on: ${stack.n8n.url}/workflow/${w.workflow.id}/executions`,
	);
}

/** Prints a first verification link, and another each time Enter is pressed (when run in a terminal). */
async function offerVerificationLinks(
	stack: Stack,
	workflows: DemoWorkflow[],
): Promise<() => void> {
	const onboarding = workflows.find(isSignupWorkflow);
	if (!onboarding) {
		console.log('  Press Ctrl-C to stop.');
		return () => undefined;
	}
	let n = 1;
	const print = () =>
		printVerificationLink(stack, onboarding, n).catch((error) =>
			console.log(`[demo] No verification link: ${(error as Error).message}`),
		);
	await print();
	if (!process.stdin.isTTY) {
		console.log('  Press Ctrl-C to stop.');
		return () => undefined;
	}
	console.log("  Press Enter for another customer's link; Ctrl-C stops.");
	// terminal: false keeps Ctrl-C a signal for the process (a terminal-mode reader would take it).
	const lines = createInterface({ input: process.stdin, terminal: false });
	lines.on('line', () => {
		n += 1;
		void print();
	});
	return () => lines.close();
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

/** --only a.json,b.json: the demo runs and lists those examples (every one is imported still). */
function onlyThose(workflows: DemoWorkflow[], args: string[]): DemoWorkflow[] {
	const i = args.indexOf('--only');
	if (i < 0) return workflows;
	const files = new Set(String(args[i + 1]).split(','));
	return workflows.filter((w) => files.has(w.file));
}

async function main(): Promise<number> {
	const args = process.argv.slice(2);
	const headless = args.includes('--headless');
	const workflows = onlyThose(demoCopies(), args);
	const started = Date.now();
	const { folder: userFolder, claim } = headless
		? { folder: undefined, claim: undefined }
		: claimUserFolder(args);
	if (userFolder && claim && !claim.ok) {
		console.error(`[demo] ${alreadyRunning(userFolder, claim.running)}`);
		return 1;
	}
	try {
		return await runDemo(args, headless, workflows, started, userFolder, claim);
	} finally {
		if (claim?.ok) claim.release();
	}
}

async function runDemo(
	args: string[],
	headless: boolean,
	workflows: DemoWorkflow[],
	started: number,
	userFolder: string | undefined,
	claim: Claim | undefined,
): Promise<number> {
	const stack = await startStack({
		userFolder,
		n8nPort: flagValue(args, '--port') ?? 5678,
		sandboxPort: flagValue(args, '--sandbox-port') ?? 8787,
		...demoStackOptions(flagValue(args, '--smtp-port') ?? 0),
		...stackWorkflows(workflows),
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
		const seeded = seedDemoData(stack.sandbox);
		await connectWorkflows(stack, workflows, started);
		if (headless) {
			const code = await headlessDemo(stack, workflows, seeded);
			await stop();
			return code;
		}
		if (claim?.ok) claim.update(stack.n8n.url);
		printGuide(stack, workflows, seeded);
		const closeInput = await offerVerificationLinks(stack, workflows);
		await untilStopped(stack, () => stopping);
		closeInput();
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
