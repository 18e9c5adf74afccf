// Installing n8n once into a cache outside the repo, and this package into an n8n user folder exactly
// the way n8n installs a community package (part of runtime.cts, which re-exports it).
import { spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { defaultLog, runQuiet, runVisible, tail, type Log } from './shell.cjs';
import {
	N8N_VERSION,
	majorOf,
	n8nBin,
	n8nHome,
	versionTraits,
	type NodeRuntime,
} from './version.cjs';

/** Repository root (this file runs compiled from .build/test/n8n/). */
export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const PACKAGE_NAME: string = JSON.parse(
	readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
).name;

// ---------------------------------------------------------------------------------------------
// n8n itself
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

/** `npm install n8n@<version>` into `home`, install scripts off; throws with the end of its log. */
function npmInstallN8n(home: string, version: string): void {
	const traits = versionTraits(version);
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
	npmInstallN8n(home, version);
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
 * Extracts a package tarball into `packageDir` and installs its dependencies there, with the steps
 * and npm flags of n8n's CommunityPackagesService.downloadPackage. Returns its package.json.
 */
function unpackLikeN8n(tarball: string, nodesDir: string, packageDir: string): { version: string } {
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
	return packageJson;
}

/**
 * Installs the packed package into `<userFolder>/.n8n/nodes/node_modules/<name>` the way n8n's
 * CommunityPackagesService.downloadPackage does (the same steps in 2.40 and 1.123): extract the
 * tarball with --strip-components=1, drop devDependencies/peerDependencies/optionalDependencies from
 * its package.json, run `npm install --audit=false --fund=false --bin-links=false
 * --install-strategy=shallow --ignore-scripts=true --package-lock=false` inside it, and record it in
 * the nodes folder's package.json ledger. n8n loads every package in that node_modules at start.
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
		const packageJson = unpackLikeN8n(tarball, nodesDir, packageDir);
		ledger.dependencies = { ...(ledger.dependencies ?? {}), [name]: packageJson.version };
		writeFileSync(ledgerPath, JSON.stringify(ledger, null, 2), 'utf8');
	} finally {
		rmSync(localTarball, { force: true });
		if (packedHere) rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
	return packageDir;
}

/** A fresh user folder under the OS temp dir. */
export function makeUserFolder(prefix = 'idv-n8n-'): string {
	return mkdtempSync(path.join(tmpdir(), prefix));
}
