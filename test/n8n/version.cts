// Which n8n this process drives, where it is installed, which Node runs it, and what differs between
// the two n8n lines (part of runtime.cts, which re-exports it).
//
// Two n8n lines: the pin (2.x, PINNED_N8N_VERSION), and a release of the 1.x line n8n still
// patches (N8N1_VERSION), which users of that line install this package into (n8n installs a
// community package without checking versions). IDV_N8N_VERSION picks the one a process drives
// (`npm run test:e2e:n8n1` sets it); everything follows N8N_VERSION. Where the two lines differ
// (install, the Node that runs n8n, the expression engine, activation on the CLI) the other modules
// ask versionTraits().
//
// Moving the pin: change PINNED_N8N_VERSION below. The next run installs that version into its own
// cache folder (the old one can be deleted); then run `npm run test:e2e` and `npm run demo -- --headless`.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** The one place the n8n 2.x version is pinned: what everything runs by default. */
const PINNED_N8N_VERSION = '2.41.1';

/** The n8n 1.x release the compatibility run drives (`npm run test:e2e:n8n1`). */
const N8N1_VERSION = '1.123.81';

/**
 * The n8n version this process drives: IDV_N8N_VERSION, a version (e.g. 1.123.81) or a line (`1`:
 * N8N1_VERSION, `2`: the pin), or the pin when unset.
 */
export const N8N_VERSION = ((wanted = process.env.IDV_N8N_VERSION?.trim() ?? '') =>
	wanted === '' || wanted === '2' ? PINNED_N8N_VERSION : wanted === '1' ? N8N1_VERSION : wanted)();

export const majorOf = (version: string): number => Number(version.replace(/^v/, '').split('.')[0]);

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

export const CACHE_DIR =
	process.env.IDV_CACHE_DIR || path.join(homedir(), '.cache', 'n8n-nodes-identity-verification');

/** Folder holding an n8n install (private package.json + node_modules). */
export function n8nHome(version = N8N_VERSION): string {
	return path.join(CACHE_DIR, `n8n-${version}`);
}

export function n8nBin(version = N8N_VERSION): string {
	return path.join(n8nHome(version), 'node_modules', 'n8n', 'bin', 'n8n');
}

// ---------------------------------------------------------------------------------------------
// What differs between the n8n lines
// ---------------------------------------------------------------------------------------------

/** A Node.js binary and its version. */
export interface NodeRuntime {
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

function traits2x(version: string): VersionTraits {
	return {
		version,
		major: majorOf(version),
		overrides: {},
		node: { path: process.execPath, version: process.versions.node },
		env: {},
		unknownEnv: [],
		// 2.x activates by publishing; `update:workflow --active=true` only forwards to it.
		activation: (id, active) => [active ? 'publish:workflow' : 'unpublish:workflow', `--id=${id}`],
	};
}

function traits1x(version: string): VersionTraits {
	const node = findNodeForN8n1();
	return {
		version,
		major: majorOf(version),
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

const traitsCache = new Map<string, VersionTraits>();

/** How this project installs and drives an n8n version (the line's differences, in one place). */
export function versionTraits(version = N8N_VERSION): VersionTraits {
	let traits = traitsCache.get(version);
	if (!traits) {
		traits = majorOf(version) >= 2 ? traits2x(version) : traits1x(version);
		traitsCache.set(version, traits);
	}
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
