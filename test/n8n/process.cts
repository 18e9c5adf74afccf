// Starting and stopping an n8n process on loopback (main, or in queue mode a webhook process or a
// worker), on free ports, with its output in a log file (part of runtime.cts, which re-exports it).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { freePort, portIsFree } from '../harness/net.cjs';
import { n8nEnv } from './env.cjs';
import { ensureN8n } from './install.cjs';
import { defaultLog, tail, type Log } from './shell.cjs';
import { n8nBin, versionTraits } from './version.cjs';

export { portIsFree };

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

/** How a child process ended: `code()` is undefined while it runs (-1 for a signal). */
interface ExitWatch {
	code(): number | null | undefined;
	done: Promise<void>;
}

function watchExit(child: ChildProcess): ExitWatch {
	let exited: number | null | undefined;
	const done = new Promise<void>((resolve) =>
		child.once('exit', (code, signal) => {
			exited = code ?? (signal ? -1 : 0);
			resolve();
		}),
	);
	return { code: () => exited, done };
}

/** Spawns `n8n <command>` on the user folder with its output appended to `logFile`. */
async function spawnN8n(
	opts: StartOptions,
	command: N8nCommand,
	port: number,
	logFile: string,
): Promise<ChildProcess> {
	const brokerPort = await freePort();
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
	const fd = openSync(logFile, 'a');
	// Own process group, so Ctrl-C in a terminal reaches us (and we stop n8n cleanly), and a final
	// kill reaches n8n's task-runner children too.
	const child = spawn(versionTraits().node.path, [n8nBin(), command], {
		cwd: opts.userFolder,
		env,
		stdio: ['ignore', fd, fd],
		detached: true,
	});
	closeSync(fd);
	return child;
}

/** Signals the child's process group; false when it is gone. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
	try {
		process.kill(-child.pid!, signal);
		return true;
	} catch {
		return false;
	}
}

/** Stops n8n: SIGTERM, SIGKILL after 30 s, then SIGKILL to whatever is left of its group. */
function stopper(child: ChildProcess, exit: ExitWatch): () => Promise<void> {
	return async () => {
		if (exit.code() !== undefined) return;
		if (!killGroup(child, 'SIGTERM')) return;
		const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000).unref());
		if ((await Promise.race([exit.done.then(() => 'exited' as const), timer])) === 'timeout') {
			killGroup(child, 'SIGKILL');
			await exit.done;
		}
		// the task runner and any other child of the group
		killGroup(child, 'SIGKILL');
	};
}

/**
 * Resolves once n8n logged its ready line (after `logOffset`) and answers its readiness check;
 * throws (after stopping it) when it exits or the time is up.
 */
async function waitUntilReady(
	instance: N8nInstance,
	command: N8nCommand,
	exit: ExitWatch,
	logOffset: number,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	const { logFile, url } = instance;
	for (;;) {
		if (exit.code() !== undefined) {
			throw new Error(
				`n8n exited during start (code ${exit.code()}). Last lines of ${logFile}:\n${instance.logTail()}`,
			);
		}
		if (Date.now() > deadline) {
			await instance.stop();
			throw new Error(
				`n8n did not become ready within ${timeoutMs} ms. Last lines of ${logFile}:\n${instance.logTail()}`,
			);
		}
		const ready =
			readFileSync(logFile, 'utf8').slice(logOffset).includes(READY_LINE[command]) &&
			(await fetch(`${url}/healthz/readiness`).then(
				(r) => r.ok,
				() => false,
			));
		if (ready) return;
		await new Promise((r) => setTimeout(r, 300));
	}
}

async function startN8nOnce(opts: StartOptions): Promise<N8nInstance> {
	ensureN8n({ log: opts.log });
	const command = opts.command ?? 'start';
	const port = opts.port ?? (await freePort());
	mkdirSync(opts.userFolder, { recursive: true });
	const logFile = path.join(opts.userFolder, opts.logName ?? 'n8n.log');
	// Only what this start logs counts (a reused folder's log holds earlier starts' ready lines).
	const logOffset = existsSync(logFile) ? statSync(logFile).size : 0;
	const child = await spawnN8n(opts, command, port, logFile);
	const exit = watchExit(child);
	const instance: N8nInstance = {
		url: `http://127.0.0.1:${port}`,
		port,
		userFolder: opts.userFolder,
		logFile,
		child,
		logTail: (lines = 60) =>
			existsSync(logFile) ? tail(readFileSync(logFile, 'utf8'), lines) : '',
		stop: stopper(child, exit),
	};
	await waitUntilReady(instance, command, exit, logOffset, opts.timeoutMs ?? 180_000);
	return instance;
}
