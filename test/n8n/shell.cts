// Running a command (npm, tar) and showing what went wrong: the small helpers the modules behind
// runtime.cts share.
import { spawnSync } from 'node:child_process';

export type Log = (msg: string) => void;
export const defaultLog: Log = (msg) => process.stderr.write(`[n8n] ${msg}\n`);

/** The last `lines` lines of a text (for failure messages). */
export function tail(text: string, lines = 60): string {
	return text.split('\n').slice(-lines).join('\n');
}

/** Runs a command with its output on the terminal; throws when it fails. */
export function runVisible(
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

/** Runs a command quietly and returns its stdout; throws with the end of its output when it fails. */
export function runQuiet(
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
