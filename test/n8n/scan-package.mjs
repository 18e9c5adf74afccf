#!/usr/bin/env node
// Lints the packed package the way n8n's community package scanner (@n8n/scan-community-package,
// the gate for verified and cloud nodes) lints a published tarball: `npm pack`, extract, then ESLint
// over every .js and .json file with the community-nodes recommended rules, `no-console`, the
// n8n-nodes-base community rules for package.json, and inline `eslint-disable` comments ignored.
// `n8n-node lint` checks the TypeScript sources; this checks what n8n actually receives.
//
// Run by `npm run verify` (which builds first). Exits 1 on any error. Plain ESM JavaScript: the
// community-nodes plugin is an ES module, and this runs on any Node from 18.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The scanner's rules come from the same packages @n8n/node-cli lints with.
const cliRequire = createRequire(
	path.join(ROOT, 'node_modules', '@n8n', 'node-cli', 'package.json'),
);
const load = async (name) => await import(pathToFileURL(cliRequire.resolve(name)).href);

function run(cmd, args, cwd) {
	const res = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
	if (res.status !== 0) {
		process.stderr.write(res.stdout + res.stderr);
		throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status})`);
	}
	return res.stdout;
}

const work = mkdtempSync(path.join(tmpdir(), 'idv-scan-'));
try {
	run('npm', ['pack', '--silent', '--pack-destination', work], ROOT);
	const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
	run('tar', ['-xzf', tarball], work);
	const packageDir = path.join(work, 'package');

	const { ESLint } = await load('eslint');
	const { n8nCommunityNodesPlugin } = await load('@n8n/eslint-plugin-community-nodes');
	const n8nNodesPlugin = (await load('eslint-plugin-n8n-nodes-base')).default;
	const { parser } = (await load('typescript-eslint')).default;

	const eslint = new ESLint({
		cwd: packageDir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: [
			n8nCommunityNodesPlugin.configs.recommended,
			{ rules: { 'no-console': 'error' } },
			{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
			{ files: ['package.json'], rules: { ...n8nNodesPlugin.configs.community.rules } },
			{ files: ['**/*.json'], languageOptions: { parser } },
		],
	});
	const results = await eslint.lintFiles(['**/*.js', '**/*.json']);
	const files = results.length;
	const errors = results.reduce((n, r) => n + r.errorCount, 0);
	const warnings = results.reduce((n, r) => n + r.warningCount, 0);
	const report = await (await eslint.loadFormatter('stylish')).format(results);
	if (report.trim()) process.stdout.write(report + '\n');
	console.log(`package scan (${tarball}): ${files} files, ${errors} errors, ${warnings} warnings`);
	process.exitCode = errors > 0 ? 1 : 0;
} finally {
	rmSync(work, { recursive: true, force: true });
}
