#!/usr/bin/env node
// The lab's tasks, run as `node scripts/toolchain.mjs node lab/run.mjs <task> [args]` by
// lab/package.json's scripts: the package's toolchain has provided Node 24 and the package's
// dependencies, and the working folder is the repository's root. Each task builds what it needs:
// the package (npm run build, for the n8n stacks) and the lab's TypeScript with the package's test
// helpers it imports (lab/tsconfig.json, into .build/).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedRanges, mutatePatterns, withinBudget } from './mutation/mutation-ranges.cjs';

const LAB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(LAB);

const log = (msg) => process.stderr.write(`[lab] ${msg}\n`);

function run(cmd, args, opts = {}) {
	const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, env: process.env, ...opts });
	if (res.error) throw res.error;
	if (res.status !== 0) process.exit(res.status ?? 1);
}

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const buildPackage = () => run('npm', ['run', '--silent', 'build']);
const buildLab = () => run(bin('tsc'), ['-p', 'lab/tsconfig.json']);
const runBuilt = (file, args) =>
	run(process.execPath, [path.join(ROOT, '.build', 'lab', file), ...args]);
const jest = (args) => run(bin('jest'), ['--config', 'lab/jest.config.cjs', ...args]);

/** The lab's own packages (Stryker), installed from lab/package-lock.json when missing or older. */
function ensureLabDependencies() {
	const installed = path.join(LAB, 'node_modules', '.package-lock.json');
	const lock = path.join(LAB, 'package-lock.json');
	if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
	log("Installing the lab's dependencies (npm ci in lab/)...");
	run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: LAB });
}

/**
 * Stryker's command line, `stryker run <config> [args]`, in this process (whose working folder is
 * the repository's root, where Stryker copies the code from).
 */
async function stryker(args) {
	ensureLabDependencies();
	const { StrykerCli } = await import('@stryker-mutator/core');
	new StrykerCli(['node', 'stryker', 'run', 'lab/mutation/stryker.config.mjs', ...args]).run();
}

/** Without a changed shipped line: the core every delivery and request goes through. */
const MUTATION_CORE = [
	'nodes/shared/webhook/signature.ts',
	'nodes/IdentityVerification/transport/retry.ts',
];

/** The shipped lines changed since `base` (`git diff -U0`), or the core's whole files. */
function mutationRanges(base) {
	const res = spawnSync('git', ['diff', '-U0', base, '--', 'nodes', 'credentials'], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	if (res.status !== 0) {
		log(`git diff against ${base} failed: ${res.stderr.trim()}`);
		process.exit(res.status ?? 1);
	}
	const changed = changedRanges(res.stdout);
	if (changed.length > 0) return { ranges: changed, what: `the lines changed since ${base}` };
	const whole = MUTATION_CORE.map((file) => ({
		file,
		start: 1,
		end: readFileSync(path.join(ROOT, file), 'utf8').split('\n').length,
	}));
	return { ranges: whole, what: `the core (no shipped line changed since ${base})` };
}

const TASKS = {
	bench: (args) => {
		buildPackage();
		buildLab();
		runBuilt('bench/bench.cjs', args);
	},
	'bench:queue': (args) => {
		buildPackage();
		buildLab();
		runBuilt('queue/bench.cjs', args);
	},
	queue: (args) => {
		buildPackage();
		buildLab();
		jest(['lab/queue/', ...args]);
	},
	screenshots: (args) => {
		buildPackage();
		buildLab();
		runBuilt('screenshots.cjs', args);
	},
	// Stryker compiles the mutated code itself, in its copy of the repository.
	mutation: (args) => stryker(args),
	// The shipped lines changed since a base (default: the last commit), within a budget of lines
	// (mutation/mutation-ranges.cjs): the whole run takes hours on 2 cores.
	'mutation:changed': ([base = 'HEAD~1', ...args]) => {
		const { ranges, what } = mutationRanges(base);
		const { chosen, leftOut } = withinBudget(ranges);
		const patterns = mutatePatterns(chosen);
		log(`Mutation testing ${what}: ${patterns.join(', ')}`);
		if (leftOut > 0) log(`${leftOut} more changed lines are over the budget and not mutated here.`);
		stryker(['--mutate', patterns.join(','), ...args]);
	},
	// The lab's own unit test; compiling the lab also type-checks it against the package's helpers
	// and the built package's declarations (dist/, what bench/built.cts loads).
	test: (args) => {
		buildPackage();
		buildLab();
		jest(['lab/mutation/', ...args]);
	},
};

// As in the toolchain: Ctrl-C reaches the task, which stops its servers; this waits for it.
process.on('SIGINT', () => {});

const [task, ...args] = process.argv.slice(2);
if (!task || !(task in TASKS)) {
	log(`usage: npm run <${Object.keys(TASKS).join('|')}> [-- args] (in lab/)`);
	process.exit(2);
}
TASKS[task](args);
