#!/usr/bin/env node
// The project's wrapper (like ./gradlew): every npm script that needs Node 24 goes through here.
//
//  1. Node 24: n8n 2.x and n8n-core/n8n-workflow 2.4x need it (isolated-vm 7 ships prebuilt
//     binaries for Node 24 only). On an older Node this script provisions Node 24 from the npm
//     registry (package `node@24`) into a cache outside the repo, once, and re-runs itself with it.
//  2. Dependencies: runs `npm ci` when node_modules is missing or older than package-lock.json.
//  3. Runs the task: `node scripts/toolchain.mjs <task> [args]`, tasks listed in TASKS below.
//
// Plain JavaScript with no dependencies, so that it runs on any Node from 18 before anything is
// installed. Nothing here is shipped in the package.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REQUIRED_MAJOR = 24;
const CACHE =
	process.env.IDV_CACHE_DIR || path.join(homedir(), '.cache', 'n8n-nodes-identity-verification');
const NODE_CACHE = path.join(CACHE, `node${REQUIRED_MAJOR}`);

const log = (msg) => process.stderr.write(`[toolchain] ${msg}\n`);

function run(cmd, args, opts = {}) {
	const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, env: process.env, ...opts });
	if (res.error) throw res.error;
	if (res.status !== 0) process.exit(res.status ?? 1);
}

function major(version) {
	return Number(version.replace(/^v/, '').split('.')[0]);
}

function node24Paths() {
	const bin = path.join(NODE_CACHE, 'node_modules', '.bin');
	const headers = path.join(
		NODE_CACHE,
		'node_modules',
		'node',
		'node_modules',
		`node-${process.platform}-${process.arch}`,
	);
	return { bin, node: path.join(bin, 'node'), headers };
}

function ensureNode24() {
	if (major(process.version) >= REQUIRED_MAJOR) return;
	if (major(process.version) < 18) {
		log(
			`Node.js ${process.version} is too old even to provision Node ${REQUIRED_MAJOR}; install Node 18 or newer.`,
		);
		process.exit(1);
	}
	const { bin, node, headers } = node24Paths();
	if (!existsSync(node)) {
		log(
			`Node ${process.version} is older than ${REQUIRED_MAJOR}: installing Node ${REQUIRED_MAJOR} from the npm registry into ${NODE_CACHE} (once)...`,
		);
		mkdirSync(NODE_CACHE, { recursive: true });
		// The `node` package's preinstall fetches the platform binary package, so scripts must run here.
		run(
			'npm',
			[
				'install',
				'--prefix',
				NODE_CACHE,
				'--no-audit',
				'--no-fund',
				'--ignore-scripts=false',
				`node@${REQUIRED_MAJOR}`,
			],
			{ cwd: NODE_CACHE },
		);
	}
	const env = {
		...process.env,
		PATH: `${bin}${path.delimiter}${process.env.PATH}`,
		npm_config_nodedir: headers,
		IDV_TOOLCHAIN: '1',
		// The machine's own Node (this one): n8n 1.x runs on it (test/n8n/version.cts).
		IDV_SYSTEM_NODE: process.env.IDV_SYSTEM_NODE || process.execPath,
	};
	const res = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
		stdio: 'inherit',
		cwd: ROOT,
		env,
	});
	process.exit(res.status ?? 1);
}

function ensureDependencies() {
	const lock = path.join(ROOT, 'package-lock.json');
	const installed = path.join(ROOT, 'node_modules', '.package-lock.json');
	if (
		existsSync(installed) &&
		(!existsSync(lock) || statSync(installed).mtimeMs >= statSync(lock).mtimeMs)
	)
		return;
	log('Installing dependencies (npm ci, install scripts off per .npmrc)...');
	const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
		cwd: ROOT,
		env: process.env,
		stdio: ['inherit', 'inherit', 'pipe'],
		encoding: 'utf8',
	});
	if (ci.error) throw ci.error;
	if (ci.status === 0) return;
	process.stderr.write(ci.stderr);
	// A registry (mirror) that lacks some platform-specific optional packages the lock file lists
	// (e.g. @unrs/resolver-binding-android-*: 404) makes `npm ci` refuse the lock file as "not in
	// sync", even for a lock file freshly written by that npm. Install from the same lock file with
	// `npm install` instead (it skips unavailable optional packages) and keep the committed lock file.
	if (!/can only install packages when your package\.json and package-lock\.json/.test(ci.stderr)) {
		process.exit(ci.status ?? 1);
	}
	log(
		'npm ci refused the lock file (the registry lacks optional packages it lists); installing from it with npm install instead...',
	);
	const committed = readFileSync(lock);
	run('npm', ['install', '--no-audit', '--no-fund']);
	writeFileSync(lock, committed);
	const now = new Date();
	utimesSync(installed, now, now);
}

const npx = (bin, args) => run(path.join(ROOT, 'node_modules', '.bin', bin), args);
const buildTests = () => npx('tsc', ['-p', 'tsconfig.test.json']);
const buildPackage = () => run('npm', ['run', '--silent', 'build']);
const runBuilt = (file, args) =>
	run(process.execPath, [path.join(ROOT, '.build', 'test', file), ...args]);

const TASKS = {
	test: (args) => {
		buildTests();
		npx('jest', ['--config', 'jest.config.cjs', ...args]);
	},
	'test:e2e': (args) => {
		buildPackage();
		buildTests();
		npx('jest', ['--config', 'jest.e2e.config.cjs', ...args]);
	},
	// The end-to-end suite in n8n's 1.x line (the release N8N1_VERSION in test/n8n/version.cts, run
	// on the machine's Node 20-22): what needs a 2.x feature is skipped there with the reason printed.
	'test:e2e:n8n1': (args) => {
		buildPackage();
		buildTests();
		const version = /^1\./.test(process.env.IDV_N8N_VERSION ?? '')
			? process.env.IDV_N8N_VERSION
			: '1';
		run(
			path.join(ROOT, 'node_modules', '.bin', 'jest'),
			['--config', 'jest.e2e.config.cjs', ...args],
			{
				env: { ...process.env, IDV_N8N_VERSION: version },
			},
		);
	},
	'test:queue': (args) => {
		buildPackage();
		buildTests();
		npx('jest', ['--config', 'jest.queue.config.cjs', ...args]);
	},
	sandbox: (args) => {
		buildTests();
		runBuilt('sandbox/cli.cjs', args);
	},
	demo: (args) => {
		buildPackage();
		buildTests();
		runBuilt('demo/demo.cjs', args);
	},
	n8n: (args) => {
		buildPackage();
		buildTests();
		runBuilt('n8n/cli.cjs', args);
	},
	// Before tagging a release (and in .ci/run): the scanner-rule lint of the packed package plus
	// n8n's offline checks.
	verify: (args) => {
		buildPackage();
		buildTests();
		runBuilt('n8n/verify.cjs', args);
	},
	// Any script with Node 24 and the dependencies: the lab's tasks run through it (lab/run.mjs).
	node: (args) => run(process.execPath, args),
	// Only the set-up: Node 24 and dependencies (used by .ci/run as its install step).
	deps: () => {},
};

// Ctrl-C in a terminal reaches the whole foreground process group: the task (demo, `n8n start`,
// jest) handles it and stops its servers. The wrapper must not die first (that would hand the prompt
// back while the task is still cleaning up), so it only notes the signal and waits for the task.
process.on('SIGINT', () => {});

const [task, ...args] = process.argv.slice(2);
if (!task || !(task in TASKS)) {
	log(`usage: node scripts/toolchain.mjs <${Object.keys(TASKS).join('|')}> [args]`);
	process.exit(2);
}
ensureNode24();
ensureDependencies();
TASKS[task](args);
