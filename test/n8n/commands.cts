// n8n's CLI on a user folder: import credentials and workflows, publish (activate), execute,
// export:nodes (part of runtime.cts, which re-exports it; `node scripts/toolchain.mjs n8n` is
// cli.cts).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { freePort } from '../harness/net.cjs';
import { n8nEnv } from './env.cjs';
import { ensureN8n } from './install.cjs';
import { tail } from './shell.cjs';
import { n8nBin, versionTraits } from './version.cjs';

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
