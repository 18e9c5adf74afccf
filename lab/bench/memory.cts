// memory: peak (heap + external) above a GC'd baseline while the node runs, each case in a fresh
// child process (see memory-case.cts), against the payload size: Return All of 100,000
// transactions (and n8n's HTTP Request node paginating the same pages), the AML PDF of 50 MB, a
// proof-of-address check of a 20 MB document.
import { spawn } from 'node:child_process';
import path from 'node:path';

import { startSandbox, type Sandbox } from '../../test/sandbox/index.cjs';
import {
	load,
	log,
	median,
	round,
	MB,
	type MemoryFigure,
	type MemoryFigures,
	type Options,
} from './common.cjs';

interface MemoryRun extends MemoryFigure {
	retainedAfterGcBytes: number;
	peakHeapDelta: number;
	peakExternalDelta: number;
	peakArrayBuffersDelta: number;
	elapsedMs: number;
	check: string;
}

async function runMemoryChild(name: string, args: object, flags: string[]): Promise<MemoryRun> {
	const script = path.join(__dirname, 'memory-case.cjs');
	return await new Promise((resolve, reject) => {
		const argv = ['--expose-gc', ...flags, script, name, JSON.stringify(args)];
		const child = spawn(process.execPath, argv, {
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env },
		});
		let out = '';
		let err = '';
		child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
		child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
		child.on('error', reject);
		child.on('close', (code) => {
			const line = out.trim().split('\n').pop() ?? '';
			if (code !== 0)
				return reject(new Error(`memory case ${name} failed (exit ${code}):\n${err.slice(-3000)}`));
			try {
				resolve(JSON.parse(line) as MemoryRun);
			} catch {
				reject(
					new Error(
						`memory case ${name} printed no result:\n${out.slice(-2000)}\n${err.slice(-2000)}`,
					),
				);
			}
		});
	});
}

/**
 * Diagnostic cases of full runs: another case run with other Node flags. With V8's young
 * generation capped (16 MB semi-spaces), the peak shows what the node holds rather than how much
 * garbage Node 24's default young generation lets pile up between scavenges.
 */
const VARIANTS: Record<string, { of: string; flags: string[] }> = {
	transactions100kOneAtATime: { of: 'transactions100k', flags: [] },
	transactions100kSemiSpace16: { of: 'transactions100k', flags: ['--max-semi-space-size=16'] },
	transactions100kHttpRequestSemiSpace16: {
		of: 'transactions100kHttpRequest',
		flags: ['--max-semi-space-size=16'],
	},
};

/** The cases and their arguments, over data seeded in the sandbox (which runs in this process). */
function memoryCases(sandbox: Sandbox, opts: Options): Array<[string, object]> {
	const account = sandbox.bank.seedAccount({ transactions: 100_000 });
	const pdf = sandbox.aml.seedProfile({ sizeBytes: 50 * MB });
	const warmPdf = sandbox.aml.seedProfile({ sizeBytes: 64 * 1024 });
	const base = {
		sandboxUrl: sandbox.url,
		credentials: { apiKey: sandbox.credentials.apiKey, apiSecret: sandbox.credentials.apiSecret },
	};
	const cases: Array<[string, object]> = [
		['transactions100k', { ...base, ...account, perPage: 500 }],
		['transactions100kHttpRequest', { ...base, ...account, perPage: 500 }],
		[
			'amlPdf50MB',
			{ ...base, ...pdf, warmCheckId: warmPdf.checkId, warmProfileId: warmPdf.profileId },
		],
		['poa20MB', { ...base, fileBytes: 20 * MB }],
	];
	// Diagnostics (full runs): the node reading one page at a time, like HTTP Request does; both
	// with V8's young generation capped.
	if (!opts.quick)
		cases.splice(
			2,
			0,
			['transactions100kOneAtATime', { ...base, ...account, perPage: 500, maxParallelRequests: 1 }],
			['transactions100kSemiSpace16', { ...base, ...account, perPage: 500 }],
			['transactions100kHttpRequestSemiSpace16', { ...base, ...account, perPage: 500 }],
		);
	return cases;
}

const mib = (bytes: number) => (bytes / MB).toFixed(1);

function logRun(name: string, round: string, r: MemoryRun): void {
	log(
		`memory ${name} run ${round}: payload ${mib(r.payloadBytes)} MiB, peak +${mib(r.peakDeltaBytes)} MiB ` +
			`(heap +${mib(r.peakHeapDelta)}, external +${mib(r.peakExternalDelta)} of which array buffers +${mib(r.peakArrayBuffersDelta)}), ` +
			`ratio ${r.ratio.toFixed(2)}, retained after GC +${mib(r.retainedAfterGcBytes)} MiB, ${Math.round(r.elapsedMs)} ms; ${r.check}; load ${load()}`,
	);
}

/** The median run of a case as a figure, its runs described in `details`. */
function figureOf(name: string, runs: MemoryRun[], details: string[]): MemoryFigure {
	const peak = median(runs.map((r) => r.peakDeltaBytes));
	const payloadBytes = runs[0].payloadBytes;
	const mid = [...runs].sort((a, b) => a.peakDeltaBytes - b.peakDeltaBytes)[
		Math.floor(runs.length / 2)
	];
	details.push(
		`memory.${name}: peaks ${runs.map((r) => mib(r.peakDeltaBytes)).join(', ')} MiB; median run heap +${mib(mid.peakHeapDelta)} MiB, external +${mib(mid.peakExternalDelta)} MiB ` +
			`(array buffers +${mib(mid.peakArrayBuffersDelta)} MiB, inside external), retained after GC +${mib(mid.retainedAfterGcBytes)} MiB, node ran ${Math.round(mid.elapsedMs)} ms; ${mid.check}`,
	);
	return { payloadBytes, peakDeltaBytes: Math.round(peak), ratio: round(peak / payloadBytes) };
}

export async function benchMemory(opts: Options, details: string[]): Promise<MemoryFigures> {
	const sandbox = await startSandbox();
	try {
		const cases = memoryCases(sandbox, opts);
		const runs = opts.quick ? 1 : 3;
		const results: Record<string, MemoryRun[]> = Object.fromEntries(cases.map(([n]) => [n, []]));
		// Rounds: every case once per round (the node and the HTTP Request node side by side).
		for (let i = 0; i < runs; i++) {
			for (const [name, args] of cases) {
				const variant = VARIANTS[name];
				const r = await runMemoryChild(variant?.of ?? name, args, variant?.flags ?? []);
				results[name].push(r);
				logRun(name, `${i + 1}/${runs}`, r);
			}
		}
		const ours = figureOf('transactions100k', results.transactions100k, details);
		const http = figureOf(
			'transactions100kHttpRequest',
			results.transactions100kHttpRequest,
			details,
		);
		for (const variant of Object.keys(VARIANTS))
			if (results[variant]) figureOf(variant, results[variant], details);
		const retained = median(results.transactions100k.map((r) => r.retainedAfterGcBytes));
		return {
			transactions100k: {
				...ours,
				httpRequestNode: http.peakDeltaBytes,
				vsHttpRequestNode: round(ours.peakDeltaBytes / http.peakDeltaBytes),
				retainedAfterGcBytes: Math.round(retained),
				retainedAfterGcRatio: round(retained / ours.payloadBytes),
			},
			amlPdf50MB: figureOf('amlPdf50MB', results.amlPdf50MB, details),
			poa20MB: figureOf('poa20MB', results.poa20MB, details),
		};
	} finally {
		await sandbox.close();
	}
}
