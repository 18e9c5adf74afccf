// One demo per n8n folder: the interactive demo keeps its n8n folder (and database) between runs, so a
// second `npm run demo` (another terminal, another clone) must not start a second n8n on it. The
// first one claims the folder with a lock file naming its process and editor address; a later one
// reads it and says where the first one runs. A lock whose process is gone is stale and taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface DemoLock {
	pid: number;
	startedAt: string;
	/** The editor's address, once n8n is up. */
	editorUrl?: string;
}

export type Claim =
	| { ok: true; update(editorUrl: string): void; release(): void }
	| { ok: false; running: DemoLock };

export const DEMO_LOCK_FILE = 'demo.lock';

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it runs, as another user.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function readLock(file: string): DemoLock | undefined {
	try {
		const lock = JSON.parse(readFileSync(file, 'utf8')) as DemoLock;
		return Number.isInteger(lock.pid) ? lock : undefined;
	} catch {
		return undefined;
	}
}

/** Claims `folder` for this process, or says which running demo holds it. */
export function claimDemoFolder(folder: string): Claim {
	const file = path.join(folder, DEMO_LOCK_FILE);
	const mine: DemoLock = { pid: process.pid, startedAt: new Date().toISOString() };
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			// `wx`: created only when it is not there, so two demos starting at once cannot both win.
			writeFileSync(file, JSON.stringify(mine), { flag: 'wx' });
			return {
				ok: true,
				update: (editorUrl) => writeFileSync(file, JSON.stringify({ ...mine, editorUrl })),
				release: () => {
					if (readLock(file)?.pid === process.pid) rmSync(file, { force: true });
				},
			};
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const held = readLock(file);
			if (held && held.pid !== process.pid && isAlive(held.pid))
				return { ok: false, running: held };
			rmSync(file, { force: true });
		}
	}
	throw new Error(`Could not claim the demo's n8n folder ${folder}`);
}

/** What a second demo prints instead of starting. */
export function alreadyRunning(folder: string, running: DemoLock): string {
	const where = running.editorUrl
		? `its editor is at ${running.editorUrl}`
		: 'it is still starting';
	return [
		`Another demo (process ${running.pid}, started ${running.startedAt}) already runs on ${folder}: ${where}.`,
		'Open that one, or stop it (Ctrl-C in its terminal) before starting the demo again.',
		'To try something on the side without it: npm run demo -- --headless (a throw-away n8n).',
	].join('\n');
}
