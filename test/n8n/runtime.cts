// The real n8n: install it once into a cache outside the repo, install this package into a
// fresh n8n user folder exactly the way n8n installs a community package, start/stop n8n on
// loopback, drive its CLI (import, publish, execute, export:nodes) and its REST API.
//
// Used by the demo (test/demo), the end-to-end tests (test/e2e), the bench and `npm run n8n`.
// Not shipped. Run through scripts/toolchain.mjs (Node 24).
//
// Two n8n lines: the pin (2.x, PINNED_N8N_VERSION), and a release of the 1.x line n8n still
// patches (N8N1_VERSION), which users of that line install this package into (n8n installs a
// community package without checking versions). IDV_N8N_VERSION picks the one a process drives
// (`npm run test:e2e:n8n1` sets it); everything below follows N8N_VERSION. Where the two lines
// differ (install, the Node that runs n8n, the expression engine, activation on the CLI) the
// functions ask versionTraits().
//
// Moving the pin: change PINNED_N8N_VERSION below. The next run installs that version into its own
// cache folder (the old one can be deleted); then run `npm run test:e2e` and `npm run demo -- --headless`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	closeSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	realpathSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

import { freePort, portIsFree } from '../harness/net.cjs';

export { portIsFree };

/** The one place the n8n 2.x version is pinned: what everything runs by default. */
const PINNED_N8N_VERSION = '2.40.7';

/** The n8n 1.x release the compatibility run drives (`npm run test:e2e:n8n1`). */
const N8N1_VERSION = '1.123.81';

/**
 * The n8n version this process drives: IDV_N8N_VERSION, a version (e.g. 1.123.81) or a line (`1`:
 * N8N1_VERSION, `2`: the pin), or the pin when unset.
 */
export const N8N_VERSION = ((wanted = process.env.IDV_N8N_VERSION?.trim() ?? '') =>
	wanted === '' || wanted === '2' ? PINNED_N8N_VERSION : wanted === '1' ? N8N1_VERSION : wanted)();

const majorOf = (version: string): number => Number(version.replace(/^v/, '').split('.')[0]);

/** The major of N8N_VERSION: tests skip what needs a 2.x feature when it is 1. */
const N8N_MAJOR = majorOf(N8N_VERSION);
if (!/^\d+\.\d+\.\d+$/.test(N8N_VERSION) || N8N_MAJOR < 1)
	throw new Error(
		`IDV_N8N_VERSION=${N8N_VERSION}: expected an n8n version such as ${N8N1_VERSION}`,
	);

const skipNotes = new Set<string>();

/**
 * For a test, or a part of one, that needs what only n8n 2.x has: true on 2.x; on 1.x false, after
 * printing (once) what is skipped and which 2.x feature it needs, so a 1.x run never skips silently.
 * A whole test: `(on2x('…', '…') ? test : test.skip)(name, fn)`.
 */
export function on2x(feature: string, skipped: string): boolean {
	if (N8N_MAJOR >= 2) return true;
	const note = `[n8n ${N8N_VERSION}] skipped: ${skipped}. Needs ${feature} (n8n 2.x only).`;
	if (!skipNotes.has(note)) {
		skipNotes.add(note);
		process.stderr.write(`${note}\n`);
	}
	return false;
}

/** Repository root (this file runs compiled from .build/test/n8n/). */
export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const PACKAGE_NAME: string = JSON.parse(
	readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
).name;

export const CACHE_DIR =
	process.env.IDV_CACHE_DIR || path.join(homedir(), '.cache', 'n8n-nodes-identity-verification');

/** Folder holding an n8n install (private package.json + node_modules). */
function n8nHome(version = N8N_VERSION): string {
	return path.join(CACHE_DIR, `n8n-${version}`);
}

function n8nBin(version = N8N_VERSION): string {
	return path.join(n8nHome(version), 'node_modules', 'n8n', 'bin', 'n8n');
}

type Log = (msg: string) => void;
const defaultLog: Log = (msg) => process.stderr.write(`[n8n] ${msg}\n`);

function runVisible(
	cmd: string,
	args: string[],
	cwd: string,
	env: NodeJS.ProcessEnv = process.env,
): void {
	const res = spawnSync(cmd, args, { cwd, env, stdio: 'inherit' });
	if (res.error) throw res.error;
	if (res.status !== 0)
		throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${res.status} (in ${cwd})`);
}

// ---------------------------------------------------------------------------------------------
// What differs between the n8n lines
// ---------------------------------------------------------------------------------------------

/** A Node.js binary and its version. */
interface NodeRuntime {
	path: string;
	version: string;
}

/** The version of a Node.js binary (undefined when it does not run). */
function nodeVersionOf(bin: string): string | undefined {
	const res = spawnSync(bin, ['-p', 'process.versions.node'], {
		encoding: 'utf8',
		timeout: 30_000,
	});
	return res.status === 0 && /^\d+\.\d+\.\d+/.test(res.stdout.trim())
		? res.stdout.trim()
		: undefined;
}

/** Whether a Node version is one n8n 1.x runs on as its users run it (20.19 up to 22.x). */
function suitsN8n1(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return (major === 20 && minor >= 19) || major === 21 || major === 22;
}

/**
 * The Node that runs n8n 1.x: one of the 20-22 line its users run it on (the machine's own Node, as
 * a user who installed n8n 1.x with npm has it). Looked for, first match wins: IDV_N8N1_NODE (an
 * explicit choice, any Node 20-24), IDV_SYSTEM_NODE (the Node scripts/toolchain.mjs started on
 * before it switched to Node 24), every `node` on PATH. Without one, this process's Node 24 (n8n
 * 1.123 declares ">=20.19 <= 24.x", its default expression engine has a Node 24 build, and sqlite3's
 * N-API build loads on both).
 */
function findNodeForN8n1(): NodeRuntime {
	const explicit = process.env.IDV_N8N1_NODE;
	if (explicit) {
		const version = nodeVersionOf(explicit);
		if (!version || majorOf(version) < 20 || majorOf(version) > 24)
			throw new Error(
				`IDV_N8N1_NODE=${explicit}: ${version ? `Node ${version}` : 'does not run'}; n8n 1.x needs Node 20.19 to 24`,
			);
		return { path: explicit, version };
	}
	const seen = new Set<string>();
	const candidates = [
		process.env.IDV_SYSTEM_NODE,
		...(process.env.PATH ?? '').split(path.delimiter).map((dir) => dir && path.join(dir, 'node')),
	];
	for (const candidate of candidates) {
		if (!candidate || !existsSync(candidate)) continue;
		const real = realpathSync(candidate);
		if (seen.has(real)) continue;
		seen.add(real);
		const version = nodeVersionOf(real);
		if (version && suitsN8n1(version)) return { path: real, version };
	}
	return { path: process.execPath, version: process.versions.node };
}

interface VersionTraits {
	version: string;
	major: number;
	/** npm `overrides` the install needs (in the install folder's package.json). */
	overrides: Record<string, string>;
	/** The Node that runs this n8n (server and CLI). */
	node: NodeRuntime;
	/** Environment this line needs on top of n8nEnv's. */
	env: Record<string, string>;
	/** Settings of n8nEnv this line does not know and would refuse to start with. */
	unknownEnv: string[];
	/** CLI arguments that make a workflow active (published) or inactive from the next start. */
	activation(id: string, active: boolean): string[];
}

const traitsCache = new Map<string, VersionTraits>();

/** How this project installs and drives an n8n version (the line's differences, in one place). */
function versionTraits(version = N8N_VERSION): VersionTraits {
	const cached = traitsCache.get(version);
	if (cached) return cached;
	const major = majorOf(version);
	let traits: VersionTraits;
	if (major >= 2) {
		traits = {
			version,
			major,
			overrides: {},
			node: { path: process.execPath, version: process.versions.node },
			env: {},
			unknownEnv: [],
			// 2.x activates by publishing; `update:workflow --active=true` only forwards to it.
			activation: (id, active) => [
				active ? 'publish:workflow' : 'unpublish:workflow',
				`--id=${id}`,
			],
		};
	} else {
		const node = findNodeForN8n1();
		traits = {
			version,
			major,
			// n8n 1.x pins xlsx to a tarball on a host outside the npm registry (cdn.sheetjs.com);
			// the registry's 0.18.5 is what installs everywhere.
			overrides: { xlsx: '0.18.5' },
			node,
			// Its default expression engine ("vm") needs isolated-vm, built for Node 22 and 24 only;
			// on Node 20 n8n exits at start unless the legacy engine is chosen.
			env: majorOf(node.version) < 22 ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {},
			// 1.x refuses to start on a module name it does not know.
			unknownEnv: ['N8N_DISABLED_MODULES'],
			// No publish:workflow in 1.x: activation is update:workflow.
			activation: (id, active) => ['update:workflow', `--id=${id}`, `--active=${active}`],
		};
	}
	traitsCache.set(version, traits);
	return traits;
}

/** One line naming the n8n and the Node running it (for logs and reports). */
export function describeN8n(version = N8N_VERSION): string {
	const { node, env } = versionTraits(version);
	const engine = env.N8N_EXPRESSION_ENGINE
		? `, ${env.N8N_EXPRESSION_ENGINE} expression engine`
		: '';
	return `n8n ${version} on Node ${node.version} (${node.path}${engine})`;
}

// ---------------------------------------------------------------------------------------------
// Install
// ---------------------------------------------------------------------------------------------

function installLooksComplete(home: string, version: string): boolean {
	if (!existsSync(path.join(home, 'node_modules', '.bin', 'n8n'))) return false;
	try {
		const pkg = JSON.parse(
			readFileSync(path.join(home, 'node_modules', 'n8n', 'package.json'), 'utf8'),
		);
		if (pkg.version !== version) return false;
	} catch {
		return false;
	}
	// sqlite3 is the one native module n8n needs here; it must load in the Node that runs n8n.
	const probe = spawnSync(
		versionTraits(version).node.path,
		['-e', "const s=require('sqlite3');new s.Database(':memory:').close(e=>process.exit(e?1:0))"],
		{ cwd: home, stdio: 'ignore', timeout: 60_000 },
	);
	return probe.status === 0;
}

/**
 * Environment for npm building a native module for `node`: that Node first on PATH (npm and
 * node-gyp run on it) and its headers (npm_config_nodedir) when they sit beside it, as a system
 * Node's do (/usr/include/node); Node 24's come from the wrapper.
 */
function buildEnvFor(node: NodeRuntime): NodeJS.ProcessEnv {
	if (node.path === process.execPath) return { ...process.env };
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PATH: `${path.dirname(node.path)}${path.delimiter}${process.env.PATH ?? ''}`,
	};
	const prefix = path.resolve(path.dirname(node.path), '..');
	if (existsSync(path.join(prefix, 'include', 'node', 'node_api.h')))
		env.npm_config_nodedir = prefix;
	else delete env.npm_config_nodedir;
	return env;
}

/**
 * Installs an n8n version into the cache once (marker file `.complete`) and returns its folder.
 * Install scripts stay off (the Kafka client's build downloads sources and fails; nothing else needs
 * one); only sqlite3 is rebuilt, for the Node that runs that n8n (versionTraits).
 */
export function ensureN8n(opts: { log?: Log; version?: string } = {}): string {
	const log = opts.log ?? defaultLog;
	const version = opts.version ?? N8N_VERSION;
	const traits = versionTraits(version);
	const home = n8nHome(version);
	const marker = path.join(home, '.complete');
	if (existsSync(marker) && existsSync(n8nBin(version))) return home;
	if (installLooksComplete(home, version)) {
		writeFileSync(marker, `${new Date().toISOString()} n8n@${version} (found installed)\n`);
		return home;
	}
	if (traits.major >= 2 && majorOf(process.versions.node) < 24)
		throw new Error(`n8n ${version} needs Node.js 24; run this through scripts/toolchain.mjs`);
	const started = Date.now();
	log(`Installing n8n@${version} into ${home} (once; a few minutes and ~2.8 GB)...`);
	mkdirSync(home, { recursive: true });
	writeFileSync(
		path.join(home, 'package.json'),
		JSON.stringify({
			name: 'n8n-runtime',
			private: true,
			dependencies: { n8n: version },
			...(Object.keys(traits.overrides).length > 0 ? { overrides: traits.overrides } : {}),
		}),
	);
	// Progress: npm's http log goes to install.log; a line every 150 downloaded packages (~2,400 in all)
	// goes to the terminal, so a CI log shows it moving without thousands of lines.
	const installLog = path.join(home, 'install.log');
	const npmInstall = `npm install --ignore-scripts --no-audit --no-fund --loglevel=http n8n@${version}`;
	const progress = `awk '/http fetch GET 200/ { n++; if (n % 150 == 0) { printf("[n8n]   %d packages downloaded...\\n", n); fflush() } }'`;
	const res = spawnSync(
		'bash',
		['-o', 'pipefail', '-c', `${npmInstall} 2>&1 | tee "${installLog}" | ${progress}`],
		{
			cwd: home,
			env: { ...process.env, npm_config_ignore_scripts: 'true' },
			stdio: 'inherit',
		},
	);
	if (res.status !== 0) {
		const logTail = existsSync(installLog) ? tail(readFileSync(installLog, 'utf8'), 30) : '';
		throw new Error(
			`npm install n8n@${version} failed (exit ${res.status}) in ${home}:\n${logTail}`,
		);
	}
	log(`Rebuilding sqlite3 for Node ${traits.node.version} (${traits.node.path})...`);
	runVisible(
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false'],
		home,
		buildEnvFor(traits.node),
	);
	if (!installLooksComplete(home, version))
		throw new Error(`n8n@${version} installed into ${home} but does not load`);
	writeFileSync(
		marker,
		`${new Date().toISOString()} n8n@${version} (${Math.round((Date.now() - started) / 1000)} s)\n`,
	);
	log(`n8n@${version} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return home;
}

/** A module from n8n's own install (e.g. flatted, to read execution data as n8n stores it). */
export function requireFromN8n<T = unknown>(id: string): T {
	return createRequire(path.join(n8nHome(), 'node_modules', 'n8n', 'package.json'))(id) as T;
}

// ---------------------------------------------------------------------------------------------
// The package, installed as n8n installs a community package
// ---------------------------------------------------------------------------------------------

/** `npm pack` of this package (built first if dist/ is missing). Returns the tarball path. */
export function packPackage(opts: { log?: Log; destination?: string } = {}): string {
	const log = opts.log ?? defaultLog;
	const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const missing = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])].filter(
		(f: string) => !existsSync(path.join(ROOT, f)),
	);
	if (missing.length > 0) {
		log(`dist/ is incomplete (${missing[0]} missing): running npm run build`);
		runVisible('npm', ['run', '--silent', 'build'], ROOT);
	}
	const destination = opts.destination ?? mkdtempSync(path.join(tmpdir(), 'idv-pack-'));
	const res = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	if (res.status !== 0) throw new Error(`npm pack failed:\n${res.stderr}`);
	const [info] = JSON.parse(res.stdout) as Array<{ filename: string }>;
	return path.join(destination, info.filename);
}

/**
 * Installs the packed package into `<userFolder>/.n8n/nodes/node_modules/<name>` the way n8n's
 * CommunityPackagesService.downloadPackage does (the same steps in 2.40 and 1.123): extract the tarball with --strip-components=1, drop
 * devDependencies/peerDependencies/optionalDependencies from its package.json, run
 * `npm install --audit=false --fund=false --bin-links=false --install-strategy=shallow
 * --ignore-scripts=true --package-lock=false` inside it, and record it in the nodes folder's
 * package.json ledger. n8n loads every package in that node_modules at start.
 */
export function installPackage(
	userFolder: string,
	/** `name`: the package's name when the tarball is another package (the bench's fixture). */
	opts: { tarball?: string; log?: Log; name?: string } = {},
): string {
	const tarball = opts.tarball ?? packPackage({ log: opts.log });
	const packedHere = opts.tarball === undefined;
	const name = opts.name ?? PACKAGE_NAME;
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', name);
	mkdirSync(nodesDir, { recursive: true });
	const ledgerPath = path.join(nodesDir, 'package.json');
	const ledger = existsSync(ledgerPath)
		? JSON.parse(readFileSync(ledgerPath, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	const localTarball = path.join(nodesDir, path.basename(tarball));
	copyFileSync(tarball, localTarball);
	try {
		runQuiet(
			'tar',
			['-xzf', path.basename(tarball), '-C', packageDir, '--strip-components=1'],
			nodesDir,
		);
		const pkgPath = path.join(packageDir, 'package.json');
		const packageJson = JSON.parse(readFileSync(pkgPath, 'utf8'));
		for (const key of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
			delete packageJson[key];
		writeFileSync(pkgPath, JSON.stringify(packageJson, null, 2), 'utf8');
		runQuiet(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			packageDir,
		);
		ledger.dependencies = { ...(ledger.dependencies ?? {}), [name]: packageJson.version };
		writeFileSync(ledgerPath, JSON.stringify(ledger, null, 2), 'utf8');
	} finally {
		rmSync(localTarball, { force: true });
		if (packedHere) rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
	return packageDir;
}

function runQuiet(
	cmd: string,
	args: string[],
	cwd: string,
	env: NodeJS.ProcessEnv = process.env,
): string {
	const res = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
	if (res.error) throw res.error;
	if (res.status !== 0) {
		throw new Error(
			`${cmd} ${args.join(' ')} failed (exit ${res.status}) in ${cwd}:\n${tail(res.stdout + res.stderr, 40)}`,
		);
	}
	return res.stdout;
}

// ---------------------------------------------------------------------------------------------
// Environment of an isolated loopback n8n
// ---------------------------------------------------------------------------------------------

/** A fixed encryption key per user folder (created once, kept in the folder). */
export function encryptionKey(userFolder: string): string {
	const file = path.join(userFolder, '.idv-encryption-key');
	if (!existsSync(file)) {
		mkdirSync(userFolder, { recursive: true });
		writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600 });
	}
	return readFileSync(file, 'utf8').trim();
}

/** Env for any n8n process (server or CLI) on this user folder. Nothing here leaves loopback. */
function n8nEnv(
	userFolder: string,
	port: number,
	extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
	const traits = versionTraits();
	const base: NodeJS.ProcessEnv = {};
	// Keep only what a child needs from our environment; never leak a developer's N8N_* / DB_* settings.
	for (const k of ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR', 'npm_config_nodedir', 'SystemRoot']) {
		if (process.env[k] !== undefined) base[k] = process.env[k];
	}
	const env: NodeJS.ProcessEnv = {
		...base,
		NODE_ENV: 'production',
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey(userFolder),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		DB_TYPE: 'sqlite',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_SSRF_PROTECTION_ENABLED: 'false',
		// Loopback only: switch off everything that would call n8n's servers (MCP server registry,
		// licence renewal, banners, the verified-community-nodes list).
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PUBLIC_API_DISABLED: 'true',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		// info, not warn: the CLI prints --rawOutput and the server its "Editor is now accessible"
		// line through the logger. Output goes to a log file, not the terminal.
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		N8N_NO_COLOR: 'true',
		NO_COLOR: '1',
		...traits.env,
		...extra,
	};
	for (const name of traits.unknownEnv) if (!(name in extra)) delete env[name];
	return env;
}

function tail(text: string, lines = 60): string {
	return text.split('\n').slice(-lines).join('\n');
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

export interface N8nInstance {
	url: string; // http://127.0.0.1:PORT (no trailing slash)
	port: number;
	userFolder: string;
	logFile: string;
	child: ChildProcess;
	/** Last lines of n8n's output (for failure messages). */
	logTail(lines?: number): string;
	stop(): Promise<void>;
}

/**
 * The n8n process kind: `start` (the main process: editor, REST API, webhooks unless turned off),
 * and in queue mode `webhook` (production webhooks only) and `worker` (runs queued executions).
 */
type N8nCommand = 'start' | 'webhook' | 'worker';

export interface StartOptions {
	userFolder: string;
	port?: number; // default: a free port
	env?: Record<string, string>;
	log?: Log;
	timeoutMs?: number; // default 180 s
	/** Which n8n command to run (default `start`). */
	command?: N8nCommand;
	/** Log file name inside the user folder (default `n8n.log`). */
	logName?: string;
}

/** The line each command logs once it serves requests (the health check is asked as well). */
const READY_LINE: Record<N8nCommand, string> = {
	start: 'Editor is now accessible via',
	webhook: 'Webhook listener waiting for requests.',
	worker: 'n8n worker is now ready',
};

/** Port clashes n8n reports at start (its own port or the task broker's). */
const PORT_IN_USE = /port \d+ is already in use|EADDRINUSE/i;

export async function startN8n(opts: StartOptions): Promise<N8nInstance> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await startN8nOnce(opts);
		} catch (error) {
			const message = (error as Error).message;
			// Another process took a port between our check and n8n's bind: pick new ones.
			if (attempt >= 3 || !PORT_IN_USE.test(message)) throw error;
			// A fixed editor port that is taken stays taken; only the broker's random port can change.
			if (opts.port !== undefined && !/Task Broker/.test(message)) throw error;
			(opts.log ?? defaultLog)(
				`n8n could not bind a port (attempt ${attempt}); retrying with other ports`,
			);
		}
	}
}

async function startN8nOnce(opts: StartOptions): Promise<N8nInstance> {
	ensureN8n({ log: opts.log });
	const command = opts.command ?? 'start';
	const port = opts.port ?? (await freePort());
	const brokerPort = await freePort();
	mkdirSync(opts.userFolder, { recursive: true });
	const logFile = path.join(opts.userFolder, opts.logName ?? 'n8n.log');
	const fd = openSync(logFile, 'a');
	// A worker serves no HTTP on N8N_PORT; its health check listens on QUEUE_HEALTH_CHECK_PORT.
	const workerHealth: Record<string, string> =
		command === 'worker'
			? {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(port),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				}
			: {};
	const env = n8nEnv(opts.userFolder, port, {
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		...workerHealth,
		...(opts.env ?? {}),
	});
	// Own process group, so Ctrl-C in a terminal reaches us (and we stop n8n cleanly), and a final
	// kill reaches n8n's task-runner children too.
	const child = spawn(versionTraits().node.path, [n8nBin(), command], {
		cwd: opts.userFolder,
		env,
		stdio: ['ignore', fd, fd],
		detached: true,
	});
	closeSync(fd);
	const url = `http://127.0.0.1:${port}`;
	const logTail = (lines = 60) =>
		existsSync(logFile) ? tail(readFileSync(logFile, 'utf8'), lines) : '';
	let exited: number | null | undefined;
	const exitPromise = new Promise<void>((resolve) =>
		child.once('exit', (code, signal) => {
			exited = code ?? (signal ? -1 : 0);
			resolve();
		}),
	);
	const stop = async () => {
		if (exited !== undefined) return;
		try {
			process.kill(-child.pid!, 'SIGTERM');
		} catch {
			return;
		}
		const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000).unref());
		if ((await Promise.race([exitPromise.then(() => 'exited' as const), timer])) === 'timeout') {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// already gone
			}
			await exitPromise;
		}
		// the task runner and any other child of the group
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// group already gone
		}
	};
	const instance: N8nInstance = {
		url,
		port,
		userFolder: opts.userFolder,
		logFile,
		child,
		logTail,
		stop,
	};
	const deadline = Date.now() + (opts.timeoutMs ?? 180_000);
	const startLogOffset = statSync(logFile).size;
	for (;;) {
		if (exited !== undefined) {
			throw new Error(
				`n8n exited during start (code ${exited}). Last lines of ${logFile}:\n${logTail()}`,
			);
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(
				`n8n did not become ready within ${opts.timeoutMs ?? 180_000} ms. Last lines of ${logFile}:\n${logTail()}`,
			);
		}
		const ready =
			readFileSync(logFile, 'utf8').slice(startLogOffset).includes(READY_LINE[command]) &&
			(await fetch(`${url}/healthz/readiness`).then(
				(r) => r.ok,
				() => false,
			));
		if (ready) return instance;
		await new Promise((r) => setTimeout(r, 300));
	}
}

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

export interface CliResult {
	status: number;
	stdout: string;
	stderr: string;
}

/** Runs `n8n <args>` on a user folder (its own task-broker port, so it can run beside a server). */
export async function n8nCli(
	userFolder: string,
	args: string[],
	opts: { env?: Record<string, string> } = {},
): Promise<CliResult> {
	for (let attempt = 1; ; attempt++) {
		const res = await n8nCliOnce(userFolder, args, opts);
		// The command's own task broker could not bind its port (taken meanwhile): run it again.
		if (
			attempt < 3 &&
			res.status !== 0 &&
			/Task Broker's port \d+ is already in use/.test(res.stdout + res.stderr)
		)
			continue;
		return res;
	}
}

async function n8nCliOnce(
	userFolder: string,
	args: string[],
	opts: { env?: Record<string, string> },
): Promise<CliResult> {
	ensureN8n();
	const env = n8nEnv(userFolder, 0, {
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		...(opts.env ?? {}),
	});
	delete env.N8N_PORT;
	return await new Promise((resolve, reject) => {
		const child = spawn(versionTraits().node.path, [n8nBin(), ...args], {
			cwd: userFolder,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
		child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
		child.on('error', reject);
		child.on('close', (code, signal) =>
			resolve({
				status: code ?? 1,
				stdout,
				stderr: signal ? `${stderr}\n(n8n ended by signal ${signal})` : stderr,
			}),
		);
	});
}

/** Extra environment for the CLI commands below (e.g. the database of a queue-mode stack). */
export interface CliOptions {
	env?: Record<string, string>;
}

async function cliOrThrow(
	userFolder: string,
	args: string[],
	opts: CliOptions = {},
): Promise<CliResult> {
	const res = await n8nCli(userFolder, args, opts);
	if (res.status !== 0 || /^Error/m.test(res.stderr)) {
		throw new Error(
			`n8n ${args.join(' ')} failed (exit ${res.status}):\n${tail(res.stdout + '\n' + res.stderr, 40)}`,
		);
	}
	return res;
}

export interface CredentialImport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>; // plain; n8n encrypts it on import
}

/** `n8n import:<kind>` of `data`, through a JSON file in the user folder (removed afterwards). */
async function importJson(
	userFolder: string,
	kind: 'credentials' | 'workflow',
	data: unknown,
	opts: CliOptions,
): Promise<void> {
	const file = path.join(userFolder, `${kind}-import-${Date.now()}.json`);
	writeFileSync(file, JSON.stringify(data, null, 2));
	try {
		await cliOrThrow(userFolder, [`import:${kind}`, `--input=${file}`], opts);
	} finally {
		rmSync(file, { force: true });
	}
}

/** `n8n import:credentials`: credentials with plain data (n8n encrypts them with the folder's key). */
export async function importCredentials(
	userFolder: string,
	credentials: CredentialImport[],
	opts: CliOptions = {},
): Promise<void> {
	const unmanaged = credentials.map((c) => ({ ...c, isManaged: false }));
	await importJson(userFolder, 'credentials', unmanaged, opts);
}

/** `n8n import:workflow`: one workflow object or an array (each should carry an `id`). */
export async function importWorkflow(
	userFolder: string,
	workflow: object | object[],
	opts: CliOptions = {},
): Promise<void> {
	await importJson(userFolder, 'workflow', workflow, opts);
}

/**
 * Activates a workflow from the CLI: in n8n 2.x `publish:workflow --id=<id>` publishes the current
 * version (`update:workflow --active=true` is deprecated and only forwards to it); n8n 1.x has only
 * `update:workflow --active=true` (versionTraits). It takes effect when n8n (re)starts, so publish
 * before startN8n; for a running n8n use RestClient.activate.
 */
export async function publishWorkflow(
	userFolder: string,
	id: string,
	opts: CliOptions = {},
): Promise<void> {
	await cliOrThrow(userFolder, versionTraits().activation(id, true), opts);
}

/** Deactivates (unpublishes) a workflow (a no-op for an unknown id). Needed before re-importing a published workflow. */
export async function unpublishWorkflow(userFolder: string, id: string): Promise<void> {
	await cliOrThrow(userFolder, versionTraits().activation(id, false));
}

/** The run data n8n prints for `execute --rawOutput` (an IRun). */
export interface ExecuteResult {
	ok: boolean;
	status: number;
	run?: {
		status?: string;
		data: {
			resultData: {
				runData: Record<
					string,
					Array<{
						data?: { main?: Array<Array<{ json: any; binary?: Record<string, any> }> | null> };
						error?: any;
						executionStatus?: string;
					}>
				>;
				error?: any;
				lastNodeExecuted?: string;
			};
		};
	};
	output: string;
}

/** Finds the top-level JSON object printed as `JSON.stringify(data, null, 2)` among log lines. */
function parseRawOutput(stdout: string): any | undefined {
	const lines = stdout.split('\n');
	for (let start = lines.length - 1; start >= 0; start--) {
		if (lines[start] !== '{') continue;
		const end = lines.indexOf('}', start);
		if (end === -1) continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n'));
		} catch {
			// not it; keep looking
		}
	}
	return undefined;
}

/** `n8n execute --id <id> --rawOutput`, parsed. A failed execution resolves with ok=false. */
export async function execute(userFolder: string, id: string): Promise<ExecuteResult> {
	const res = await n8nCli(userFolder, ['execute', `--id=${id}`, '--rawOutput']);
	const run = parseRawOutput(res.stdout);
	// The run n8n printed is the verdict. On a loaded machine `n8n execute` can exit non-zero after a
	// successful run (its shutdown outlasts n8n's grace period), so a finished run without error counts.
	const finished = res.status === 0 || run?.status === 'success' || run?.finished === true;
	const ok = finished && run !== undefined && !run.data?.resultData?.error;
	return { ok, status: res.status, run, output: res.stdout + '\n' + res.stderr };
}

/** Items a node emitted on its first (or given) output in an execute result. */
export function nodeOutput(
	result: ExecuteResult | { run?: ExecuteResult['run'] },
	nodeName: string,
	output = 0,
): Array<{ json: any; binary?: Record<string, any> }> {
	const runs = result.run?.data.resultData.runData[nodeName];
	if (!runs || runs.length === 0) return [];
	return runs[runs.length - 1].data?.main?.[output] ?? [];
}

/** `n8n export:nodes`: the node types this n8n loaded (including the package's). */
export async function exportNodes(
	userFolder: string,
): Promise<
	Array<{ name: string; displayName: string; version: number | number[]; [k: string]: unknown }>
> {
	const file = path.join(userFolder, `nodes-export-${Date.now()}.json`);
	try {
		await cliOrThrow(userFolder, ['export:nodes', `--output=${file}`]);
		return JSON.parse(readFileSync(file, 'utf8'));
	} finally {
		rmSync(file, { force: true });
	}
}

// ---------------------------------------------------------------------------------------------
// REST client (the editor's API, as a signed-in owner)
// ---------------------------------------------------------------------------------------------

export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Sandbox-Owner-1',
};

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	finished?: boolean;
	startedAt?: string;
	stoppedAt?: string;
}

export class RestClient {
	private cookie = '';
	private readonly browserId = randomBytes(8).toString('hex');

	constructor(readonly baseUrl: string) {}

	async request<T = any>(
		method: string,
		route: string,
		body?: unknown,
	): Promise<{ status: number; body: T }> {
		const res = await fetch(`${this.baseUrl}/rest${route}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': this.browserId,
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (setCookie) this.cookie = setCookie.split(';')[0];
		const text = await res.text();
		let parsed: any = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON
		}
		return { status: res.status, body: parsed?.data !== undefined ? parsed.data : parsed };
	}

	private async ok<T = any>(method: string, route: string, body?: unknown): Promise<T> {
		const res = await this.request<T>(method, route, body);
		if (res.status >= 400) {
			throw new Error(
				`n8n REST ${method} ${route} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`,
			);
		}
		return res.body;
	}

	/** Sets up the instance owner (first run) or signs in (owner exists). */
	async setupOwnerOrLogin(owner = DEFAULT_OWNER): Promise<void> {
		const setup = await this.request('POST', '/owner/setup', owner);
		if (setup.status < 400) return;
		await this.login(owner.email, owner.password);
	}

	async login(email: string, password: string): Promise<void> {
		await this.ok('POST', '/login', { emailOrLdapLoginId: email, password });
	}

	/**
	 * The editor's "Test" button of a stored credential: POST /rest/credentials/test with
	 * { credentials: { id, name, type, data } }; `data` replaces the stored data for the test.
	 */
	async testCredential(credential: {
		id: string;
		name?: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<{ status: 'OK' | 'Error'; message: string }> {
		return await this.ok('POST', '/credentials/test', { credentials: { name: '', ...credential } });
	}

	/** Creates a workflow as the editor's Save does (POST /rest/workflows); returns its id. */
	async createWorkflow(workflow: {
		name: string;
		nodes: object[];
		connections: object;
		settings?: object;
	}): Promise<string> {
		const created = await this.ok<{ id: string }>('POST', '/workflows', {
			active: false,
			settings: { executionOrder: 'v1' },
			...workflow,
		});
		return created.id;
	}

	/** A binary file of an execution as the editor's Download button gets it (GET /rest/binary-data). */
	async downloadBinary(
		binaryDataId: string,
	): Promise<{ status: number; contentType: string; disposition: string; bytes: Buffer }> {
		const res = await fetch(
			`${this.baseUrl}/rest/binary-data?id=${encodeURIComponent(binaryDataId)}&action=download`,
			{ headers: { 'browser-id': this.browserId, cookie: this.cookie } },
		);
		return {
			status: res.status,
			contentType: res.headers.get('content-type') ?? '',
			disposition: res.headers.get('content-disposition') ?? '',
			bytes: Buffer.from(await res.arrayBuffer()),
		};
	}

	/** Activates (publishes) a workflow in a running n8n, as the editor's toggle does. */
	async activate(workflowId: string): Promise<void> {
		const wf = await this.ok<{ versionId: string }>('GET', `/workflows/${workflowId}`);
		const res = await this.request('POST', `/workflows/${workflowId}/activate`, {
			versionId: wf.versionId,
		});
		if (res.status >= 400) {
			throw new Error(
				`activating workflow ${workflowId} failed: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`,
			);
		}
	}

	async listExecutions(workflowId: string, limit = 100): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const body = await this.ok<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${filter}&limit=${limit}`,
		);
		return body.results;
	}

	/** One execution with its run data decoded (n8n stores it flatted-serialised). */
	async getExecution(id: string): Promise<ExecutionSummary & { data: any; workflowData?: any }> {
		const body = await this.ok<any>('GET', `/executions/${id}`);
		if (typeof body.data === 'string') {
			const flatted = requireFromN8n<{ parse(s: string): any }>('flatted');
			body.data = flatted.parse(body.data);
		}
		return body;
	}

	/** Waits until the workflow has at least `count` finished executions; returns them newest first. */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 30_000,
	): Promise<ExecutionSummary[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const list = await this.listExecutions(workflowId);
			const done = list.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
			if (done.length >= count) return done;
			if (Date.now() > deadline) {
				throw new Error(
					`expected ${count} finished executions of workflow ${workflowId}, found ${done.length} (of ${list.length})`,
				);
			}
			await new Promise((r) => setTimeout(r, 250));
		}
	}
}

/**
 * Waits until n8n serves a production webhook and returns the probe's status. n8n 2.x activates
 * (publishes) workflows asynchronously, after start and after the activate call, so a webhook
 * answers 404 for a moment. The default probe is an empty unsigned POST: the trigger refuses it
 * (401) without starting a workflow.
 */
export async function waitForWebhook(
	url: string,
	{ init, timeoutMs = 60_000 }: { init?: RequestInit; timeoutMs?: number } = {},
): Promise<number> {
	const probe: RequestInit = init ?? {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
	};
	const deadline = Date.now() + timeoutMs;
	let last = 0;
	for (;;) {
		last = await fetch(url, probe).then(
			async (r) => {
				await r.arrayBuffer();
				return r.status;
			},
			() => 0,
		);
		if (last !== 404 && last !== 0) return last;
		if (Date.now() > deadline)
			throw new Error(
				`n8n did not register the webhook ${url} within ${timeoutMs} ms (last answer ${last})`,
			);
		await new Promise((r) => setTimeout(r, 200));
	}
}

/** A fresh user folder under the OS temp dir. */
export function makeUserFolder(prefix = 'idv-n8n-'): string {
	return mkdtempSync(path.join(tmpdir(), prefix));
}
