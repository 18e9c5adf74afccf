/** The demo's claim on its kept n8n folder: one demo per folder, a stale claim taken over. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { alreadyRunning, claimDemoFolder } from './lock.cjs';

let folder: string;
beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'idv-demo-lock-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** The pid of a process that has ended. */
function endedPid(): number {
	return spawnSync(process.execPath, ['-e', '0']).pid ?? 999_999;
}

test('a second demo on the same folder is told where the first one runs', () => {
	const first = claimDemoFolder(folder);
	expect(first.ok).toBe(true);
	if (first.ok) first.update('http://localhost:5678');
	// Another process holds it (this test's parent stands in for another terminal's demo).
	const held = JSON.parse(readFileSync(path.join(folder, 'demo.lock'), 'utf8'));
	writeFileSync(path.join(folder, 'demo.lock'), JSON.stringify({ ...held, pid: process.ppid }));
	const second = claimDemoFolder(folder);
	expect(second.ok).toBe(false);
	if (!second.ok) {
		expect(second.running.editorUrl).toBe('http://localhost:5678');
		expect(alreadyRunning(folder, second.running)).toMatch(
			/already runs on .*: its editor is at http:\/\/localhost:5678/,
		);
	}
});

test('a claim of a process that has ended is taken over; a released folder is free', () => {
	writeFileSync(
		path.join(folder, 'demo.lock'),
		JSON.stringify({ pid: endedPid(), startedAt: '2026-01-01T00:00:00.000Z' }),
	);
	const claim = claimDemoFolder(folder);
	expect(claim.ok).toBe(true);
	if (claim.ok) claim.release();
	expect(claimDemoFolder(folder).ok).toBe(true);
});
