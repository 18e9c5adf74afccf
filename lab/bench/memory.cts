// memory: peak (heap + external) above a GC'd baseline while the node runs, each case in a fresh
// child process (see memory-case.cts), against the payload size: Return All of 100,000
// transactions and of each Get Many (beside n8n's HTTP Request node paginating the same pages),
// a verification's report PDF (as bytes and as base64 text) and files of 20 MB, the PDFs of 50 MB
// (AML profile, AML check, AML monitoring, KYB company), a proof-of-address check of a 20 MB
// document.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { startSandbox, type Sandbox } from '../../test/sandbox/index.cjs';
import {
	load,
	log,
	median,
	round,
	MB,
	type ListFigure,
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

/** A case: its name, its arguments, and what the sandbox must do before it runs. */
type MemoryCase = [name: string, args: object, prepare?: () => void];

/**
 * Sizes of the downloads: a verification's files, and the PDFs the service makes. At 50 MB a peak
 * shows the node: below V8's external-memory GC threshold (64 MB) every chunk a download passed on
 * is still uncollected garbage, so a 20 MB file peaks at about 2x whatever the node does (retained
 * after GC stays under 1 MB).
 */
const KYC_FILE_BYTES = 50 * MB;
const PDF_BYTES = 50 * MB;
/** Records of each Get Many case, read 100 per page (the KYB companies' most). */
const LIST_RECORDS = { identifications: 20_000, amlMonitorings: 5_000, kybCompanies: 20_000 };
const LIST_PER_PAGE = 100;

/** A finished verification of `clientId` (the service has its data and files). */
async function finishedVerification(sandbox: Sandbox, clientId: string): Promise<string> {
	// Its result is delivered, as the service would: to a receiver that only answers 200.
	const receiver = createServer((req, res) => req.resume().on('end', () => res.end()));
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const { port } = receiver.address() as AddressInfo;
	sandbox.webhooks.configure({ url: `http://127.0.0.1:${port}/`, retryDelaysMs: [] });
	const { scanRef } = sandbox.kyc.createSession(clientId);
	await sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
	await new Promise((resolve) => receiver.close(resolve));
	return scanRef;
}

/** A monitoring of a person (its first screening run is an AML check of its own). */
const monitoringOf = (sandbox: Sandbox, fullName: string) =>
	sandbox.aml.seedMonitoring({
		isSubscribed: false,
		amlCheck: { clientId: 'bench', userType: 'PERSON', input: { fullName } } as never,
	});

/** Downloads of one file by ID: the large file's ID and a small one's for the warm-up. */
async function fileCases(sandbox: Sandbox, base: object): Promise<MemoryCase[]> {
	const big = (id: string, size: number) => (sandbox.setFileSize(id, size), id);
	const scanRef = big(await finishedVerification(sandbox, 'bench-files'), KYC_FILE_BYTES);
	const warmScanRef = await finishedVerification(sandbox, 'bench-files');
	const kyc = { ...base, id: scanRef, warmId: warmScanRef };
	const [checked, monitored, warm] = ['Ona Petraitė', 'Jonas Jonaitis', 'Petras Petraitis'].map(
		(name) => monitoringOf(sandbox, name),
	);
	const pdfCase = (name: string, id: string, warmId: string): MemoryCase => [
		name,
		{ ...base, id: big(id, PDF_BYTES), warmId },
	];
	return [
		['kycReportPdf50MB', kyc, () => sandbox.kyc.setReportEncoding('bytes')],
		['kycReportPdf50MBBase64', kyc, () => sandbox.kyc.setReportEncoding('base64')],
		['kycFiles50MB', kyc],
		pdfCase('amlCheckPdf50MB', checked.checkId, warm.checkId),
		pdfCase('amlMonitoringPdf50MB', monitored.monitoringId, warm.monitoringId),
		pdfCase('kybCompanyPdf50MB', sandbox.kyb.addCompany(), sandbox.kyb.addCompany()),
	];
}

/** Get Many with Return All over many records, and HTTP Request over the same pages. */
async function listCases(sandbox: Sandbox, base: object): Promise<MemoryCase[]> {
	const clientId = 'bench-list';
	for (let i = 0; i < LIST_RECORDS.identifications; i++) sandbox.kyc.createSession(clientId);
	for (let i = 0; i < LIST_RECORDS.amlMonitorings; i++) monitoringOf(sandbox, `Person ${i}`);
	for (let i = 0; i < LIST_RECORDS.kybCompanies; i++) sandbox.kyb.addCompany();
	const list = (name: string, query: Record<string, string> = {}): MemoryCase[] => {
		const args = { ...base, query, perPage: LIST_PER_PAGE };
		return [
			[name, args],
			[`${name}HttpRequest`, args],
		];
	};
	return [
		...list('identifications', { clientId }),
		...list('amlMonitorings'),
		...list('kybCompanies'),
	];
}

/** The cases and their arguments, over data seeded in the sandbox (which runs in this process). */
async function memoryCases(sandbox: Sandbox, opts: Options): Promise<MemoryCase[]> {
	const account = sandbox.bank.seedAccount({ transactions: 100_000 });
	const pdf = sandbox.aml.seedProfile({ sizeBytes: 50 * MB });
	const warmPdf = sandbox.aml.seedProfile({ sizeBytes: 64 * 1024 });
	const base = {
		sandboxUrl: sandbox.url,
		credentials: { apiKey: sandbox.credentials.apiKey, apiSecret: sandbox.credentials.apiSecret },
	};
	const cases: MemoryCase[] = [
		['transactions100k', { ...base, ...account, perPage: 500 }],
		['transactions100kHttpRequest', { ...base, ...account, perPage: 500 }],
		[
			'amlPdf50MB',
			{ ...base, ...pdf, warmCheckId: warmPdf.checkId, warmProfileId: warmPdf.profileId },
		],
		['poa20MB', { ...base, fileBytes: 20 * MB }],
		...(await fileCases(sandbox, base)),
		...(await listCases(sandbox, base)),
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

/** A Get Many case beside the HTTP Request node's run over the same pages. */
function listFigureOf(
	name: string,
	results: Record<string, MemoryRun[]>,
	details: string[],
): ListFigure {
	const ours = figureOf(name, results[name], details);
	const http = figureOf(`${name}HttpRequest`, results[`${name}HttpRequest`], details);
	return {
		...ours,
		httpRequestNode: http.peakDeltaBytes,
		vsHttpRequestNode: round(ours.peakDeltaBytes / http.peakDeltaBytes),
	};
}

export async function benchMemory(opts: Options, details: string[]): Promise<MemoryFigures> {
	const sandbox = await startSandbox();
	try {
		const cases = await memoryCases(sandbox, opts);
		const runs = opts.quick ? 1 : 3;
		const results: Record<string, MemoryRun[]> = Object.fromEntries(cases.map(([n]) => [n, []]));
		// Rounds: every case once per round (the node and the HTTP Request node side by side).
		for (let i = 0; i < runs; i++) {
			for (const [name, args, prepare] of cases) {
				prepare?.();
				const variant = VARIANTS[name];
				const r = await runMemoryChild(variant?.of ?? name, args, variant?.flags ?? []);
				results[name].push(r);
				logRun(name, `${i + 1}/${runs}`, r);
			}
		}
		const transactions = listFigureOf('transactions100k', results, details);
		for (const variant of Object.keys(VARIANTS))
			if (results[variant]) figureOf(variant, results[variant], details);
		const retained = median(results.transactions100k.map((r) => r.retainedAfterGcBytes));
		const file = (name: keyof MemoryFigures) => figureOf(name, results[name], details);
		return {
			transactions100k: {
				...transactions,
				retainedAfterGcBytes: Math.round(retained),
				retainedAfterGcRatio: round(retained / transactions.payloadBytes),
			},
			amlPdf50MB: file('amlPdf50MB'),
			poa20MB: file('poa20MB'),
			kycReportPdf50MB: file('kycReportPdf50MB'),
			kycReportPdf50MBBase64: file('kycReportPdf50MBBase64'),
			kycFiles50MB: file('kycFiles50MB'),
			amlCheckPdf50MB: file('amlCheckPdf50MB'),
			amlMonitoringPdf50MB: file('amlMonitoringPdf50MB'),
			kybCompanyPdf50MB: file('kybCompanyPdf50MB'),
			identifications: listFigureOf('identifications', results, details),
			amlMonitorings: listFigureOf('amlMonitorings', results, details),
			kybCompanies: listFigureOf('kybCompanies', results, details),
		};
	} finally {
		await sandbox.close();
	}
}
