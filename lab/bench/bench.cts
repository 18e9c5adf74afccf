// `npm run bench [-- --quick] [-- --json FILE] [-- --only verify,dedupe,memory,pagination,overhead,trigger,burst,patched,poll]`
//
// Measures this package against what a user would build instead, side by side in one run. Each
// section is its own file; this one picks the sections, runs them and prints the table:
//
//   verify       the signature check alone for 1 KB, 100 KB and 1 MB bodies, and the other parts
//                of a delivery this package runs itself (parts.cts).
//   dedupe       the duplicate store's cost per delivery at 0, 500 and 1,000 entries (dedupe.cts).
//   memory       peak (heap + external) above a GC'd baseline while the node runs, each case in a
//                fresh child process, against the payload and n8n's HTTP Request node (memory.cts,
//                memory-case.cts).
//   pagination   Return All against n8n's HTTP Request node's pagination in real n8n (pagination.cts).
//   overhead     ms per item of Create Bank Token against HTTP Request in real n8n (overhead.cts).
//   trigger      deliveries per second through real n8n: the trigger against the null community
//                trigger, Webhook + Crypto + If and the bare Webhook node (trigger.cts).
//   burst        the largest burst answered entirely under 10 s (burst.cts).
//   patched      the trigger against the Webhook node in a second n8n, patched as docs/upstream/
//                proposes (patched-n8n.cts).
//   poll         one poll of the Polling Trigger over 10,000 verifications and 1,000 companies
//                with 20 changes: its requests beside the ideal (poll.cts).
//
// Every figure is the median of several runs (5, the trigger's and the action node's 7; 3 with
// --quick). Not a test: it asserts nothing, it prints a table with each target and PASS/MISS, the
// machine's load average at the start and the end (and in every round's log line), and exits 0
// (1 only when a run fails).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';

import { N8N_VERSION } from '../../test/n8n/runtime.cjs';
import type { Stack } from '../../test/n8n/stack.cjs';
import { SECTIONS, log, type Options, type Results, type Section } from './common.cjs';
import { maxBurst } from './burst.cjs';
import { benchDedupe } from './dedupe.cjs';
import { benchMemory } from './memory.cjs';
import { createBasicAuthCredential, startBenchStack } from './n8n.cjs';
import { benchOverhead } from './overhead.cjs';
import { benchPagination } from './pagination.cjs';
import { benchParts, benchVerify } from './parts.cjs';
import { benchPoll } from './poll.cjs';
import { benchPatchedN8n } from './patched-n8n.cjs';
import { machine, markdownTable, table } from './report.cjs';
import { benchTriggerN8n, setUpTriggerVariants, type TriggerVariant } from './trigger.cjs';

const USAGE =
	'npm run bench [-- --quick] [-- --json FILE] [-- --markdown FILE] [-- --only verify,dedupe,memory,pagination,overhead,trigger,burst,patched,poll] [-- --n8n-env NAME=VALUE ...] [-- --package-tarball FILE]\n';

function parseOnly(list: string): Set<Section> {
	const wanted = list.split(',').map((s) => s.trim()) as Section[];
	for (const w of wanted)
		if (!SECTIONS.includes(w))
			throw new Error(`--only: unknown section "${w}" (${SECTIONS.join(', ')})`);
	return new Set(wanted);
}

/** `--name value` or `--name=value`: the value and how many arguments it took; undefined if not `name`. */
function named(argv: string[], i: number, name: string): [string, number] | undefined {
	if (argv[i] === name) return [argv[i + 1] ?? '', 2];
	if (argv[i].startsWith(`${name}=`)) return [argv[i].slice(name.length + 1), 1];
	return undefined;
}

function parseArgs(argv: string[]): Options {
	const opts: Options = { quick: false, only: new Set(SECTIONS), n8nEnv: {} };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const json = named(argv, i, '--json');
		const markdown = named(argv, i, '--markdown');
		const only = named(argv, i, '--only');
		const found = json ?? markdown ?? only;
		if (found) i += found[1] - 1;
		if (arg === '--quick') opts.quick = true;
		else if (json) opts.json = json[0];
		else if (markdown) opts.markdown = markdown[0];
		else if (only) opts.only = parseOnly(only[0]);
		else if (arg === '--n8n-env') {
			const pair = argv[++i] ?? '';
			const eq = pair.indexOf('=');
			if (eq < 1) throw new Error('--n8n-env needs NAME=VALUE');
			opts.n8nEnv[pair.slice(0, eq)] = pair.slice(eq + 1);
		} else if (arg === '--package-tarball') opts.tarball = path.resolve(argv[++i] ?? '');
		else if (arg === '--help' || arg === '-h') {
			process.stdout.write(USAGE);
			process.exit(0);
		} else throw new Error(`unknown argument "${arg}"`);
	}
	if (opts.json === '' || opts.markdown === '')
		throw new Error('--json/--markdown need a file name');
	return opts;
}

type Attempt = (what: string, fn: () => Promise<void>) => Promise<void>;

/** The sections run in this process, without n8n. */
async function inProcessSections(
	opts: Options,
	results: Results,
	details: string[],
	attempt: Attempt,
) {
	if (opts.only.has('verify'))
		await attempt('trigger.verifyMicros', async () => {
			results.trigger.verifyMicros = benchVerify(opts);
			results.trigger.parts = benchParts(opts, details);
		});
	if (opts.only.has('dedupe'))
		await attempt('dedupe', async () => void (results.dedupe = await benchDedupe(opts, details)));
	if (opts.only.has('memory'))
		await attempt('memory', async () => void (results.memory = await benchMemory(opts, details)));
	if (opts.only.has('poll'))
		await attempt('poll', async () => void (results.poll = await benchPoll(opts, details)));
}

/** The sections that run in real n8n, on one stack. */
async function n8nSections(
	s: Stack,
	opts: Options,
	results: Results,
	details: string[],
	attempt: Attempt,
) {
	if (opts.only.has('pagination') || opts.only.has('overhead')) {
		let basicAuth: { id: string; name: string } | undefined;
		await attempt(
			'Basic-auth credential',
			async () => void (basicAuth = await createBasicAuthCredential(s)),
		);
		const b = basicAuth;
		if (b && opts.only.has('pagination'))
			await attempt(
				'pagination',
				async () => void (results.pagination = await benchPagination(s, b, opts, details)),
			);
		if (b && opts.only.has('overhead'))
			await attempt(
				'actionOverhead',
				async () => void (results.actionOverhead = await benchOverhead(s, b, opts, details)),
			);
	}
	let variants: TriggerVariant[] | undefined;
	if (opts.only.has('trigger') || opts.only.has('burst'))
		await attempt('trigger workflows', async () => void (variants = await setUpTriggerVariants(s)));
	const v = variants;
	if (v && opts.only.has('trigger'))
		await attempt(
			'trigger.n8n',
			async () => void (results.trigger.n8n = await benchTriggerN8n(s, v, opts, details)),
		);
	if (v && opts.only.has('burst'))
		await attempt('trigger.n8n.maxBurstUnder10s', async () => {
			const pick = (key: string) => v.find((x) => x.key === key)!;
			results.trigger.maxBurstUnder10s = {
				trigger: await maxBurst(s, pick('trigger'), opts, details),
				nullTrigger: await maxBurst(s, pick('null'), opts, details),
				webhookNode: await maxBurst(s, pick('plain'), opts, details),
			};
		});
}

async function withN8n(opts: Options, attempt: Attempt, run: (s: Stack) => Promise<void>) {
	let stack: Stack | undefined;
	await attempt('starting sandbox + n8n', async () => {
		stack = await startBenchStack(opts);
		log(
			`n8n ${N8N_VERSION} on ${stack.n8n.url}, sandbox on ${stack.sandbox.url} (n8n set-up ${JSON.stringify(stack.timings)})`,
		);
	});
	if (!stack) return;
	const s = stack;
	const onSignal = () => void s.stop().finally(() => process.exit(130));
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	try {
		await run(s);
	} finally {
		await s.stop();
	}
}

function diagnostics(opts: Options, sep: string): string {
	return (
		(Object.keys(opts.n8nEnv).length
			? `${sep}DIAGNOSTIC: n8n with ${JSON.stringify(opts.n8nEnv)}`
			: '') + (opts.tarball ? `${sep}DIAGNOSTIC: package from ${opts.tarball}` : '')
	);
}

function write(opts: Options, results: Results, details: string[], heading: string) {
	process.stdout.write(
		['', heading, '', table(results), '', ...details.map((d) => `  ${d}`), ''].join('\n'),
	);
	if (opts.json) {
		mkdirSync(path.dirname(path.resolve(opts.json)), { recursive: true });
		writeFileSync(opts.json, `${JSON.stringify(results, null, 2)}\n`);
		log(`figures written to ${opts.json}`);
	}
	if (opts.markdown) {
		mkdirSync(path.dirname(path.resolve(opts.markdown)), { recursive: true });
		writeFileSync(
			opts.markdown,
			`${markdownTable(results)}\n\nMeasured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${heading}.\n\n${details.map((d) => `- ${d}`).join('\n')}\n`,
		);
		log(`markdown table written to ${opts.markdown}`);
	}
}

async function main(): Promise<number> {
	const opts = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const machineLine = machine(loadavg()[0]);
	log(`${opts.quick ? 'quick run' : 'full run'} on ${machineLine}${diagnostics(opts, '; ')}`);
	const results: Results = {
		pagination: null,
		memory: null,
		trigger: {
			verifyMicros: null,
			parts: null,
			n8n: null,
			maxBurstUnder10s: null,
			n8nPatched: null,
		},
		dedupe: null,
		actionOverhead: null,
		poll: null,
	};
	const details: string[] = [];
	let failed = false;
	const attempt: Attempt = async (what, fn) => {
		try {
			await fn();
		} catch (error) {
			failed = true;
			log(`${what} FAILED: ${(error as Error)?.stack ?? String(error)}`);
		}
	};
	await inProcessSections(opts, results, details, attempt);
	if (['pagination', 'overhead', 'trigger', 'burst'].some((s) => opts.only.has(s as Section)))
		await withN8n(opts, attempt, (s) => n8nSections(s, opts, results, details, attempt));
	if (opts.only.has('patched'))
		await attempt('trigger.n8nPatched', async () => {
			results.trigger.n8nPatched = await benchPatchedN8n(opts, details);
		});

	const elapsed = Math.round((Date.now() - started) / 1000);
	// Other work on the machine moves absolute figures (not much the side-by-side ratios): say how much.
	const heading = `Benchmark (${opts.quick ? '--quick' : 'full'}, ${elapsed} s) on ${machineLine}; load average ${loadavg()[0].toFixed(1)} (1 min), ${loadavg()[2].toFixed(1)} (15 min) at the end${diagnostics(opts, ' — ')}`;
	write(opts, results, details, heading);
	return failed ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		log(`${(error as Error)?.stack ?? String(error)}`);
		process.exit(1);
	},
);
