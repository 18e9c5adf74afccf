// n8n's queue mode on loopback, for the queue-mode smoke test (test/queue) and the lab's load runs:
// Postgres and Redis from Debian's packages, started in a temporary folder on free ports and stopped
// afterwards (no system service), and the pinned n8n as one main process, webhook processes and
// workers, all with this package installed as a community package and the binary data kept in the
// database (the mode that works across processes). Not shipped.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../sandbox/index.cjs';
import { freePort } from '../harness/net.cjs';
import {
	DEFAULT_OWNER,
	RestClient,
	encryptionKey,
	ensureN8n,
	importCredentials,
	importWorkflow,
	installPackage,
	packPackage,
	publishWorkflow,
	requireFromN8n,
	startN8n,
	type CredentialImport,
	type N8nInstance,
} from './runtime.cjs';
import { sandboxCredentialImports } from './stack.cjs';

type Log = (msg: string) => void;

/** The one command that installs what the queue-mode stack needs on Debian/Ubuntu. */
const APT_INSTALL = 'apt-get install -y postgresql redis-server';

// ---------------------------------------------------------------------------------------------
// Postgres and Redis
// ---------------------------------------------------------------------------------------------

function postgresBin(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

function redisBin(): string | undefined {
	const res = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
	return res.status === 0 ? res.stdout.trim() : undefined;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * Finds Postgres and Redis; installs them with apt-get when missing and running as root (CI on a
 * fresh machine); otherwise fails saying what to install. Never skips.
 */
function ensureQueueServices(log: Log): { pgBin: string; redisServer: string } {
	let pgBin = postgresBin();
	let redisServer = redisBin();
	if (pgBin && redisServer) return { pgBin, redisServer };
	const missing = [!pgBin && 'postgresql', !redisServer && 'redis-server'].filter(
		(p): p is string => typeof p === 'string',
	);
	const canApt = isRoot() && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
	if (canApt) {
		log(`Installing ${missing.join(' and ')} with apt-get (needed for the queue-mode stack)...`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const install = () =>
			spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
				stdio: 'inherit',
				env,
			}).status === 0;
		if (!install()) {
			spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
			install();
		}
		pgBin = postgresBin();
		redisServer = redisBin();
	}
	if (!pgBin || !redisServer) {
		throw new Error(
			`The queue-mode stack needs Postgres and Redis, and ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed` +
				(canApt ? ' (apt-get could not install it)' : '') +
				`. Install them with: sudo ${APT_INSTALL}`,
		);
	}
	return { pgBin, redisServer };
}

interface Service {
	port: number;
	stop(): Promise<void>;
}

function run(cmd: string, args: string[], what: string): string {
	const res = spawnSync(cmd, args, { encoding: 'utf8' });
	if (res.error) throw res.error;
	if (res.status !== 0)
		throw new Error(`${what} failed (exit ${res.status}):\n${res.stdout}\n${res.stderr}`);
	return res.stdout;
}

/**
 * A throw-away Postgres cluster in `dir`, trust authentication, loopback only. Postgres refuses to
 * run as root, so as root it runs as the `postgres` user the Debian package creates.
 */
async function startPostgres(pgBin: string, dir: string): Promise<Service> {
	const data = path.join(dir, 'data');
	const sockets = path.join(dir, 'sockets');
	mkdirSync(data, { recursive: true });
	mkdirSync(sockets, { recursive: true });
	const asPostgres = (cmd: string, args: string[]): [string, string[]] =>
		isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
	if (isRoot()) run('chown', ['-R', 'postgres:postgres', dir], 'chown of the Postgres folder');
	const port = await freePort();
	run(
		...asPostgres(path.join(pgBin, 'initdb'), [
			'-D',
			data,
			'-U',
			'postgres',
			'-A',
			'trust',
			'-E',
			'UTF8',
			'--no-sync',
		]),
		'initdb',
	);
	run(
		...asPostgres(path.join(pgBin, 'pg_ctl'), [
			'-D',
			data,
			'-l',
			path.join(dir, 'postgres.log'),
			'-o',
			`-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c max_connections=200`,
			'-w',
			'-t',
			'60',
			'start',
		]),
		'pg_ctl start',
	);
	return {
		port,
		stop: async () => {
			spawnSync(
				...asPostgres(path.join(pgBin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']),
				{ stdio: 'ignore' },
			);
		},
	};
}

/** A Redis in the foreground as our child, loopback only, nothing written to disk. */
async function startRedis(redisServer: string, dir: string): Promise<Service> {
	const port = await freePort();
	const child: ChildProcess = spawn(
		redisServer,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{ cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	await new Promise<void>((resolve, reject) => {
		const onData = (d: Buffer) => {
			output += d.toString();
			if (output.includes('Ready to accept connections')) resolve();
		};
		child.stdout!.on('data', onData);
		child.stderr!.on('data', onData);
		child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
		setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 30_000).unref();
	});
	child.stdout!.resume();
	child.stderr!.resume();
	return {
		port,
		stop: async () => {
			if (child.exitCode !== null) return;
			const exited = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			await exited;
		},
	};
}

// ---------------------------------------------------------------------------------------------
// n8n in queue mode
// ---------------------------------------------------------------------------------------------

/** The environment every n8n process of the stack shares (what a user sets on every container). */
function queueEnv(opts: {
	postgresPort: number;
	redisPort: number;
	encryptionKey: string;
}): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(opts.redisPort),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(opts.postgresPort),
		DB_POSTGRESDB_DATABASE: 'postgres',
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		// n8n's default is 2 connections per process: under a burst, webhook requests then wait for
		// a connection and fail after 20 s ("timeout exceeded when trying to connect").
		DB_POSTGRESDB_POOL_SIZE: '10',
		// Binary data in Postgres: a file a webhook process or worker writes is readable by every
		// other process (n8n's default in queue mode; `filesystem` would need a shared disk).
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		N8N_ENCRYPTION_KEY: opts.encryptionKey,
		// Manual executions (the editor's Execute button) also go to the workers.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// n8n 2.x gives every webhook request of a node other than its own Webhook node an expression
		// isolate, made cold when its pool (1 by default) is empty, as it is under any burst: the
		// whole cost of a community trigger there. Lazily, an isolate is made only for a request that
		// evaluates an expression (the trigger's webhook evaluates none). The lab's `bench:queue`
		// measured the trigger at 12.7/s without it and 30.1/s with it (the null community trigger
		// 13.3 and 28.0), 2 webhook processes on 2 busy cores.
		N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
	};
}

interface QueueProcess {
	name: string;
	command: 'start' | 'webhook' | 'worker';
	instance: N8nInstance;
}

export interface QueueStack {
	sandbox: Sandbox;
	main: N8nInstance;
	webhooks: N8nInstance[];
	workers: N8nInstance[];
	rest: RestClient;
	/** The main process's user folder (the CLI runs there). */
	userFolder: string;
	/** The shared queue-mode environment (for CLI calls and extra processes). */
	env: Record<string, string>;
	postgresPort: number;
	redisPort: number;
	/** A query on n8n's Postgres database. */
	query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
	/** Execution id → the worker that ran it (from the workers' "Worker started execution" lines). */
	executionsByWorker(): Map<string, string>;
	stop(): Promise<void>;
}

export interface QueueStackOptions {
	webhookProcesses?: number; // default 2
	workers?: number; // default 2
	/** Workflows to import (each with an `id`) and the ids to publish before the processes start. */
	workflows?: object[];
	publish?: string[];
	/** More credentials to import besides the three sandbox ones. */
	credentials?: (services: { redisPort: number; postgresPort: number }) => CredentialImport[];
	/** A packed build of this package to install instead of packing this checkout (diagnostics). */
	tarball?: string;
	/** More community packages to install beside this one (e.g. the bench's null trigger). */
	packages?: Array<{ tarball: string; name: string }>;
	log?: Log;
	/** Extra environment for every n8n process (diagnostics, e.g. N8N_EXPRESSION_ENGINE=legacy). */
	env?: Record<string, string>;
}

/** What the stack starts on and stops in reverse: Postgres, Redis, the sandbox. */
interface Services {
	postgres: Service;
	redis: Service;
	sandbox: Sandbox;
}

async function startServices(base: string, log: Log, stops: Array<() => Promise<unknown>>) {
	const { pgBin, redisServer } = ensureQueueServices(log);
	const pgDir = path.join(base, 'postgres');
	const redisDir = path.join(base, 'redis');
	mkdirSync(pgDir);
	mkdirSync(redisDir);
	const [postgres, redis, sandbox] = await Promise.all([
		startPostgres(pgBin, pgDir),
		startRedis(redisServer, redisDir),
		startSandbox(),
	]);
	stops.push(postgres.stop, redis.stop, () => sandbox.close());
	log(`Postgres on ${postgres.port}, Redis on ${redis.port}, sandbox on ${sandbox.url}`);
	return { postgres, redis, sandbox };
}

/**
 * The main process's user folder with the packages installed (this one packed, as n8n installs
 * community packages), the credentials and workflows imported (the first CLI command creates n8n's
 * tables in Postgres, before any process starts); the queue-mode environment every process shares.
 */
async function prepareMain(
	base: string,
	services: Services,
	opts: QueueStackOptions,
	log: Log,
): Promise<{ userFolder: string; env: Record<string, string> }> {
	const { postgres, redis, sandbox } = services;
	const userFolder = path.join(base, 'main');
	log('Installing the packed package (as n8n installs community packages)...');
	installPackage(userFolder, { tarball: opts.tarball ?? packPackage({ destination: base }), log });
	for (const extra of opts.packages ?? [])
		installPackage(userFolder, { tarball: extra.tarball, name: extra.name, log });
	const env = {
		...queueEnv({
			postgresPort: postgres.port,
			redisPort: redis.port,
			encryptionKey: encryptionKey(userFolder),
		}),
		...(opts.env ?? {}),
	};
	await importCredentials(
		userFolder,
		[
			...sandboxCredentialImports(sandbox),
			...(opts.credentials?.({ redisPort: redis.port, postgresPort: postgres.port }) ?? []),
		],
		{ env },
	);
	if (opts.workflows?.length) await importWorkflow(userFolder, opts.workflows, { env });
	for (const id of opts.publish ?? []) await publishWorkflow(userFolder, id, { env });
	return { userFolder, env };
}

/**
 * Starts main, the webhook processes and the workers in parallel. Each process gets its own folder
 * (as each container has its own), sharing the installed packages (the nodes folder) and the
 * encryption key.
 */
async function startProcesses(
	base: string,
	main: { userFolder: string; env: Record<string, string> },
	opts: QueueStackOptions,
	log: Log,
	n8nStops: Array<() => Promise<unknown>>,
): Promise<QueueProcess[]> {
	const folderFor = (name: string) => {
		const folder = path.join(base, name);
		mkdirSync(path.join(folder, '.n8n'), { recursive: true });
		symlinkSync(path.join(main.userFolder, '.n8n', 'nodes'), path.join(folder, '.n8n', 'nodes'));
		return folder;
	};
	const specs: Array<{ name: string; command: 'start' | 'webhook' | 'worker' }> = [
		{ name: 'main', command: 'start' },
		...Array.from({ length: opts.webhookProcesses ?? 2 }, (_, i) => ({
			name: `webhook-${i + 1}`,
			command: 'webhook' as const,
		})),
		...Array.from({ length: opts.workers ?? 2 }, (_, i) => ({
			name: `worker-${i + 1}`,
			command: 'worker' as const,
		})),
	];
	log(`Starting ${specs.map((s) => s.name).join(', ')} in parallel...`);
	const settled = await Promise.allSettled(
		specs.map((spec) =>
			startN8n({
				userFolder: spec.name === 'main' ? main.userFolder : folderFor(spec.name),
				command: spec.command,
				logName: `${spec.name}.log`,
				log,
				timeoutMs: 300_000,
				env: {
					...main.env,
					// With webhook processes, they alone serve production webhooks (as a scaled setup has it).
					...(spec.name === 'main' && (opts.webhookProcesses ?? 2) > 0
						? { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' }
						: {}),
				},
			}),
		),
	);
	const started: QueueProcess[] = [];
	settled.forEach((s, i) => {
		if (s.status === 'fulfilled') {
			started.push({ ...specs[i], instance: s.value });
			n8nStops.push(() => s.value.stop());
		}
	});
	const failed = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
	if (failed) throw failed.reason;
	return started;
}

/** The last lines of every process's log (when the stack did not come up). */
function printLogs(base: string): void {
	for (const file of existsSync(base) ? readdirSync(base) : []) {
		const log = path.join(base, file, `${file}.log`);
		if (existsSync(log))
			process.stderr.write(
				`[queue] ${file}:\n${readFileSync(log, 'utf8').split('\n').slice(-30).join('\n')}\n`,
			);
	}
}

/** Execution id → the worker that ran it (from the workers' "Worker started execution" lines). */
function executionsByWorker(workers: N8nInstance[]): Map<string, string> {
	const map = new Map<string, string>();
	workers.forEach((w, i) => {
		const text = readFileSync(w.logFile, 'utf8');
		for (const m of text.matchAll(/Worker started execution (\d+)/g))
			map.set(m[1], `worker-${i + 1}`);
	});
	return map;
}

/** An ended execution of a workflow: who ran it, and which trigger nodes started it with which scanRefs. */
export interface QueueRun {
	id: string;
	status: string;
	mode: string;
	worker?: string;
	/** The trigger nodes (of those asked about) that emitted items. */
	triggers: string[];
	scanRefs: string[];
}

/** The workflow's ended executions, with the items of the trigger nodes named. */
export async function endedRuns(
	stack: QueueStack,
	workflowId: string,
	triggerNames: string[],
): Promise<QueueRun[]> {
	const rows = await stack.query<{ id: string; status: string; mode: string }>(
		'SELECT id::text AS id, status, mode FROM execution_entity WHERE "workflowId" = $1',
		[workflowId],
	);
	const ended = rows.filter((r) => !['new', 'running'].includes(r.status));
	return await Promise.all(
		ended.map(async (row) => {
			const runData = (await stack.rest.getExecution(row.id)).data.resultData.runData;
			const itemsOf = (name: string): Array<{ json: { scanRef: string } }> =>
				runData[name]?.[0]?.data?.main?.[0] ?? [];
			const triggers = triggerNames.filter((name) => itemsOf(name).length > 0);
			return {
				...row,
				worker: stack.executionsByWorker().get(row.id),
				triggers,
				scanRefs: triggers.flatMap((name) => itemsOf(name).map((item) => item.json.scanRef)),
			};
		}),
	);
}

/**
 * Waits until the runs hold `count` scanRefs, then for one poll more (counted by `polls`), which
 * must start nothing, and a moment after it.
 */
export async function afterOnePollMore(
	runs: () => Promise<QueueRun[]>,
	count: number,
	polls: () => number,
	deadline: number,
): Promise<void> {
	const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
	const found = async () => (await runs()).flatMap((run) => run.scanRefs).length;
	while ((await found()) < count && Date.now() < deadline) await pause(2000);
	const seen = polls();
	while (polls() === seen && Date.now() < deadline) await pause(1000);
	await pause(5000);
}

/**
 * Starts Postgres, Redis, the sandbox and n8n in queue mode: the main process (with production
 * webhooks switched off there, as behind a load balancer that sends /webhook/ to the webhook
 * processes), `webhookProcesses` × `n8n webhook` and `workers` × `n8n worker`, in parallel.
 */
export async function startQueueStack(opts: QueueStackOptions = {}): Promise<QueueStack> {
	const log = opts.log ?? ((m: string) => process.stderr.write(`[queue] ${m}\n`));
	ensureN8n({ log });
	const base = mkdtempSync(path.join(tmpdir(), 'idv-queue-'));
	chmodSync(base, 0o755); // the postgres user must reach its data folder inside
	// Stopped in reverse order of start; the n8n processes all at once (each may take seconds).
	const stops: Array<() => Promise<unknown>> = [];
	const n8nStops: Array<() => Promise<unknown>> = [];
	const stopAll = async () => {
		await Promise.allSettled(n8nStops.splice(0).map((stop) => stop()));
		for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
		if (process.env.IDV_KEEP_N8N !== '1') rmSync(base, { recursive: true, force: true });
	};
	try {
		const services = await startServices(base, log, stops);
		const main = await prepareMain(base, services, opts, log);
		const started = await startProcesses(base, main, opts, log, n8nStops);
		const byName = (prefix: string) =>
			started.filter((p) => p.name.startsWith(prefix)).map((p) => p.instance);
		const rest = new RestClient(byName('main')[0].url);
		await rest.setupOwnerOrLogin(DEFAULT_OWNER);
		const pg = requireFromN8n<any>('pg');
		const pool = new pg.Pool({
			host: '127.0.0.1',
			port: services.postgres.port,
			user: 'postgres',
			database: 'postgres',
			max: 2,
		});
		stops.push(() => pool.end());
		const workers = byName('worker-');
		return {
			sandbox: services.sandbox,
			main: byName('main')[0],
			webhooks: byName('webhook-'),
			workers,
			rest,
			userFolder: main.userFolder,
			env: main.env,
			postgresPort: services.postgres.port,
			redisPort: services.redis.port,
			query: async (sql, params) => (await pool.query(sql, params)).rows,
			executionsByWorker: () => executionsByWorker(workers),
			stop: stopAll,
		};
	} catch (error) {
		printLogs(base);
		await stopAll();
		throw error;
	}
}
