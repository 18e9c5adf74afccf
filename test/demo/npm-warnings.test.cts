/**
 * `npm run demo` on Node 18–22: npm checks package.json's devEngines before it runs a script, and a
 * runtime older than the one named there would print EBADDEVENGINES warnings as the demo's first
 * lines, although the wrapper (scripts/toolchain.mjs) provides Node 24 itself. The requirement stays
 * written there, with `onFail: "ignore"` (npm's documented values: warn, error, ignore).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** What npm prints around `npm run` in a package with this devEngines, on a Node older than it names. */
function npmRunOutput(runtime: Record<string, unknown>): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'idv-devengines-'));
	try {
		// A version no Node has: the running Node is "older" than required, as Node 18–22 is.
		const devEngines = { runtime: { ...runtime, version: '>=999' } };
		const manifest = { name: 'x', version: '1.0.0', devEngines, scripts: { hi: 'node -e 0' } };
		writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
		const res = spawnSync('npm', ['run', 'hi'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
		if (res.error) throw res.error;
		expect(res.status).toBe(0);
		return `${res.stdout}${res.stderr}`;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

test('package.json still names Node 24 for development', () => {
	expect(pkg.devEngines.runtime).toMatchObject({ name: 'node', version: '>=24' });
});

test('npm prints no EBADDEVENGINES warning before a script on an older Node (it would with onFail warn)', () => {
	expect(npmRunOutput(pkg.devEngines.runtime)).not.toContain('EBADDEVENGINES');
	expect(npmRunOutput({ ...pkg.devEngines.runtime, onFail: 'warn' })).toContain('EBADDEVENGINES');
});
