// `npm run verify`: what a maintainer runs before tagging a release, and a step of .ci/run. The
// scanner-rule lint of the packed tarball (scan-package.mjs), then the checks of n8n's
// verification guidelines that can be made offline: what the tarball holds, the MIT licence and its
// file, no runtime dependencies, English only, a README with the nodes and examples, repository
// fields that name one GitHub repository, and a changelog entry for the version. Each check is a
// pure function over the files (tested in verify.test.cts); main() reads the files and prints.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

export interface PackageJson {
	name?: string;
	version?: string;
	description?: string;
	license?: string;
	homepage?: string;
	keywords?: string[];
	author?: string | { name?: string; email?: string; url?: string };
	repository?: string | { type?: string; url?: string };
	bugs?: string | { url?: string };
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	bundleDependencies?: string[] | boolean;
	bundledDependencies?: string[] | boolean;
	peerDependencies?: Record<string, string>;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

/** Files npm always adds to the tarball besides `files`. */
const ALWAYS_PACKED = ['package.json', 'README.md', 'LICENSE'];
/**
 * What n8n loads from dist/. `n8n-node build` also copies every picture of the repository there
 * (docs/images, lab/node_modules): package.json's `files` names only these two.
 */
const SHIPPED_DIRS = ['dist/nodes/', 'dist/credentials/'];

/**
 * The tarball holds package.json, README.md, LICENSE and the built nodes and credentials only, and
 * every file n8n loads.
 */
export function checkTarballContents(pkg: PackageJson, files: string[]): string[] {
	const problems: string[] = [];
	for (const required of ALWAYS_PACKED) {
		if (!files.includes(required)) problems.push(`${required} is missing from the tarball`);
	}
	for (const file of files) {
		if (!ALWAYS_PACKED.includes(file) && !SHIPPED_DIRS.some((dir) => file.startsWith(dir)))
			problems.push(
				`${file} is in the tarball but is not in ${SHIPPED_DIRS.join(' or ')} (check "files" in package.json)`,
			);
	}
	for (const entry of [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])]) {
		if (!files.includes(entry))
			problems.push(`${entry} (package.json "n8n") is not in the tarball`);
	}
	return problems;
}

/** `license` is MIT and the tarball carries the MIT licence text. */
export function checkLicence(
	pkg: PackageJson,
	files: string[],
	licenceText: string | undefined,
): string[] {
	const problems: string[] = [];
	if (pkg.license !== 'MIT') problems.push(`package.json "license" is ${pkg.license}, not MIT`);
	if (licenceText === undefined) return [...problems, 'there is no LICENSE file'];
	if (!files.includes('LICENSE')) problems.push('LICENSE is not in the tarball');
	if (!/^MIT License\b/.test(licenceText.trim()))
		problems.push('LICENSE does not start with "MIT License"');
	if (!/^Copyright \(c\) \d{4} \S/m.test(licenceText))
		problems.push('LICENSE has no "Copyright (c) <year> <holder>" line');
	if (!licenceText.includes('Permission is hereby granted, free of charge'))
		problems.push('LICENSE lacks the MIT permission notice');
	return problems;
}

/** n8n provides n8n-workflow at run time; a verified package installs nothing else. */
export function checkNoRuntimeDependencies(pkg: PackageJson): string[] {
	const problems: string[] = [];
	for (const field of ['dependencies', 'optionalDependencies'] as const) {
		const names = Object.keys(pkg[field] ?? {});
		if (names.length) problems.push(`"${field}" must be empty, has ${names.join(', ')}`);
	}
	for (const field of ['bundleDependencies', 'bundledDependencies'] as const) {
		const value = pkg[field];
		if (value === true || (Array.isArray(value) && value.length))
			problems.push(`"${field}" must be empty`);
	}
	const peers = Object.keys(pkg.peerDependencies ?? {}).filter((name) => name !== 'n8n-workflow');
	if (peers.length) problems.push(`"peerDependencies" may name only n8n-workflow, has ${peers}`);
	return problems;
}

/** Letters outside ASCII that English text may still hold (µ of µs). */
const ALLOWED_LETTERS = new Set(['µ']);

/** No letters outside English's alphabet (punctuation and symbols such as → and … are fine). */
export function checkEnglishOnly(texts: Array<{ name: string; text: string }>): string[] {
	const problems: string[] = [];
	for (const { name, text } of texts) {
		text.split('\n').forEach((line, index) => {
			for (const char of line.match(/\p{L}/gu) ?? []) {
				if (char.codePointAt(0)! > 0x7f && !ALLOWED_LETTERS.has(char)) {
					problems.push(`${name}:${index + 1}: "${char}" is not an English letter`);
					return;
				}
			}
		});
	}
	return problems;
}

/** A section per node (a heading that starts with its display name) and an Examples section. */
export function checkReadme(readme: string | undefined, nodeDisplayNames: string[]): string[] {
	if (readme === undefined) return ['there is no README.md'];
	const problems: string[] = [];
	const headings = readme.split('\n').filter((line) => /^#{2,3} /.test(line));
	for (const name of nodeDisplayNames) {
		const pattern = new RegExp(`^#{2,3} ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(|$)`);
		if (!headings.some((heading) => pattern.test(heading)))
			problems.push(`README.md has no section (## heading) for the node "${name}"`);
	}
	if (!/^## (Install|Installation)\b/m.test(readme))
		problems.push('README.md has no "## Install" section');
	if (!/^## Credentials\b/m.test(readme))
		problems.push('README.md has no "## Credentials" section');
	const examples = /^## Examples?\b.*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme);
	if (!examples) problems.push('README.md has no "## Examples" section');
	else if (!/^(\s*[-*] |\s*\d+\. |\||```)/m.test(examples[1]))
		problems.push('the "## Examples" section of README.md lists no example');
	return problems;
}

/** `owner/name` of a GitHub URL (git+https, .git, #readme and /issues are ignored). */
export function githubSlug(url: string | undefined): string | undefined {
	if (!url) return undefined;
	const match = /github\.com[/:]([^/\s]+)\/([^/#?\s]+?)(?:\.git)?(?:[/#?].*)?$/.exec(url);
	return match ? `${match[1]}/${match[2]}` : undefined;
}

const urlOf = (value: string | { url?: string } | undefined) =>
	typeof value === 'string' ? value : value?.url;

/** repository, bugs and homepage name the same GitHub repository, named as the package; author set. */
export function checkRepositoryFields(pkg: PackageJson): string[] {
	const problems: string[] = [];
	const repository = githubSlug(urlOf(pkg.repository));
	if (!repository) return ['package.json "repository" does not name a GitHub repository'];
	if (typeof pkg.repository === 'object' && pkg.repository.type !== 'git')
		problems.push('package.json "repository.type" is not "git"');
	if (repository.split('/')[1] !== pkg.name)
		problems.push(`the repository ${repository} is not named as the package (${pkg.name})`);
	for (const [field, value] of [
		['bugs', urlOf(pkg.bugs)],
		['homepage', pkg.homepage],
	] as const) {
		const slug = githubSlug(value);
		if (slug !== repository)
			problems.push(`package.json "${field}" (${value}) does not point at ${repository}`);
	}
	const author = typeof pkg.author === 'string' ? { name: pkg.author } : pkg.author;
	if (!author?.name?.trim()) problems.push('package.json has no "author" name');
	const owner = repository.split('/')[0];
	if (author?.url && !new RegExp(`^https://github\\.com/${owner}/?$`).test(author.url))
		problems.push(`package.json "author.url" (${author.url}) is not https://github.com/${owner}`);
	return problems;
}

/** The marker `n8n-node release` (auto-changelog) writes above, and a section for the version. */
export function checkChangelog(
	changelog: string | undefined,
	version: string | undefined,
): string[] {
	if (changelog === undefined) return ['there is no CHANGELOG.md'];
	const problems: string[] = [];
	if (!changelog.includes('<!-- auto-changelog-above -->'))
		problems.push(
			'CHANGELOG.md lacks the <!-- auto-changelog-above --> marker (n8n-node release would overwrite it)',
		);
	const escaped = (version ?? '').replace(/\./g, '\\.');
	if (!version || !new RegExp(`^#{2,4} \\[?${escaped}\\]?(\\(| |$)`, 'm').test(changelog))
		problems.push(`CHANGELOG.md has no section for version ${version}`);
	return problems;
}

// ------------------------------------------------------------------------------------------------

function readIfExists(file: string): string | undefined {
	const full = path.join(ROOT, file);
	return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
}

/** The tarball's file list as `npm pack --dry-run` reports it. */
function packedFiles(): string[] {
	const res = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	if (res.status !== 0) throw new Error(`npm pack --dry-run failed:\n${res.stderr}`);
	const [pack] = JSON.parse(res.stdout) as Array<{ files: Array<{ path: string }> }>;
	return pack.files.map((file) => file.path).sort();
}

/** Display names of the built nodes, as n8n reads them from the classes. */
function nodeDisplayNames(pkg: PackageJson): string[] {
	return (pkg.n8n?.nodes ?? []).map((file) => {
		const mod = require(path.join(ROOT, file)) as Record<string, new () => unknown>;
		const node = new (Object.values(mod)[0])() as { description: { displayName: string } };
		return node.description.displayName;
	});
}

function main(): void {
	console.log('==> scanner-rule lint of the packed package (test/n8n/scan-package.mjs)');
	const lint = spawnSync(process.execPath, [path.join(ROOT, 'test', 'n8n', 'scan-package.mjs')], {
		cwd: ROOT,
		stdio: 'inherit',
	});
	let failed = lint.status !== 0;
	console.log(failed ? 'FAILED  scanner-rule lint' : 'ok      scanner-rule lint');

	const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;
	const files = packedFiles();
	const readme = readIfExists('README.md');
	const shipped = files
		.filter((file) => /\.(js|json)$/.test(file))
		.map((file) => ({ name: file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
	const checks: Array<[string, () => string[]]> = [
		[
			'tarball holds LICENSE, README, package.json and the built nodes and credentials only',
			() => checkTarballContents(pkg, files),
		],
		[
			'MIT licence, LICENSE in the tarball',
			() => checkLicence(pkg, files, readIfExists('LICENSE')),
		],
		['no runtime dependencies', () => checkNoRuntimeDependencies(pkg)],
		[
			'English only (README and shipped files)',
			() => checkEnglishOnly([{ name: 'README.md', text: readme ?? '' }, ...shipped]),
		],
		[
			'README: install, credentials, each node, examples',
			() => checkReadme(readme, nodeDisplayNames(pkg)),
		],
		['repository, bugs, homepage and author agree', () => checkRepositoryFields(pkg)],
		[
			'CHANGELOG.md has this version',
			() => checkChangelog(readIfExists('CHANGELOG.md'), pkg.version),
		],
	];
	for (const [name, check] of checks) {
		const problems = check();
		console.log(`${problems.length ? 'FAILED' : 'ok    '}  ${name}`);
		for (const problem of problems.slice(0, 20)) console.log(`          - ${problem}`);
		if (problems.length > 20) console.log(`          (${problems.length - 20} more)`);
		failed ||= problems.length > 0;
	}
	console.log(failed ? '\nverify: FAILED' : '\nverify: ok');
	process.exit(failed ? 1 : 0);
}

if (require.main === module) main();
