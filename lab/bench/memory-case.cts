// One memory case of the bench, run in a fresh child process (`node --expose-gc memory-case.cjs
// <case> <json-args>`) so that cases do not pollute each other. The sandbox runs in the parent
// process: only the node (through n8n-core's real WorkflowExecute, via the test harness) allocates
// here.
//
// What is measured: the peak of (heapUsed + external) above a baseline taken after two full GCs,
// sampled every millisecond while the workflow runs. `external` already contains `arrayBuffers`
// (Node's docs: arrayBuffers "is also included in the external value"), so adding `arrayBuffers`
// on top would count every Buffer twice; the components are reported separately too. The sampler
// allocates about 100 bytes per sample (0.1 MB/s). An earlier version also sampled at every
// event-loop turn with setImmediate: while the node waited on I/O that busy-spun one core and
// allocated 15-20 MB/s of its own (an Immediate and a memoryUsage() object per turn), which every
// peak counted as the node's.
//
// Binary data: n8n 2.x stores binary data on disk by default (BinaryDataConfig: mode 'filesystem'
// unless queue mode), so this child switches the harness's BinaryDataService to that mode, as in
// real n8n. The in-memory mode would keep a base64 copy of every file in the execution data.
//
// `retainedAfterGcBytes`: (heap + external) above the baseline after the run and two full GCs,
// with the node's output still held: what the output really costs to keep.
//
// `transactions100kHttpRequest` runs n8n's own HTTP Request node (4.2, from the pinned n8n's
// n8n-nodes-base) with its "Response Contains Next URL" pagination over the same transactions,
// through the same harness and the same measure: what a user would run instead of Return All.
//
// Prints one line of JSON on stdout: { payloadBytes, peakDeltaBytes, ratio, ... }.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ICredentialType, INodeExecutionData, INodeParameters } from 'n8n-workflow';

const storage = mkdtempSync(path.join(os.tmpdir(), 'idv-bench-binary-'));
process.env.N8N_USER_FOLDER ??= storage;

import {
	credentialTypes,
	registerNodeType,
	runNode,
	useFilesystemBinaryMode,
} from '../../test/harness/index.cjs';
import { requireFromN8n } from '../../test/n8n/runtime.cjs';
import type { BinaryDataService } from 'n8n-core';

/** Downloads of one file by an ID (the sandbox pads the files of that ID to the case's size). */
const FILE_CASES: Record<string, (id: string) => Record<string, unknown>> = {
	kycReportPdf50MB: (scanRef) => ({
		resource: 'identification',
		operation: 'downloadReportPdf',
		scanRef,
	}),
	kycReportPdf50MBBase64: (scanRef) => ({
		resource: 'identification',
		operation: 'downloadReportPdf',
		scanRef,
	}),
	kycFiles50MB: (scanRef) => ({ resource: 'identification', operation: 'downloadFiles', scanRef }),
	amlCheckPdf50MB: (checkId) => ({ resource: 'aml', operation: 'downloadPdf', checkId }),
	amlMonitoringPdf50MB: (monitoringId) => ({
		resource: 'amlMonitoring',
		operation: 'downloadPdf',
		monitoringId,
	}),
	kybCompanyPdf50MB: (companyId) => ({
		resource: 'kybCompany',
		operation: 'downloadPdf',
		companyId,
	}),
};

/** Get Many with Return All, each beside n8n's HTTP Request node reading the same pages. */
const LIST_CASES: Record<string, { resource: string; path: string }> = {
	identifications: { resource: 'identification', path: '/kyc/identifications/' },
	amlMonitorings: { resource: 'amlMonitoring', path: '/aml/monitorings/' },
	kybCompanies: { resource: 'kybCompany', path: '/kyb/companies/' },
};

type CaseName = string;

interface CaseArgs {
	sandboxUrl: string;
	credentials: { apiKey: string; apiSecret: string };
	verificationId?: string;
	accountId?: string;
	perPage?: number;
	/** List Transactions' Max Parallel Requests (a diagnostic sets 1; default: the node's). */
	maxParallelRequests?: number;
	checkId?: string;
	profileId?: string;
	password?: string;
	fileBytes?: number;
	/** A small seeded profile for the warm-up run. */
	warmCheckId?: string;
	warmProfileId?: string;
	/** A file case's ID, and one whose file is small for the warm-up run. */
	id?: string;
	warmId?: string;
	/** A list case's filters (Get Many's own parameters and the same query for HTTP Request). */
	query?: Record<string, string>;
}

interface Sample {
	heapUsed: number;
	external: number;
	arrayBuffers: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
	process.stderr.write('memory-case must run with --expose-gc\n');
	process.exit(2);
}

function sample(): Sample {
	const m = process.memoryUsage();
	return { heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}
const total = (s: Sample) => s.heapUsed + s.external;

/** A 20 MB JPEG-looking file (real JPEG signature, then filler bytes). */
function jpegBytes(size: number): Buffer {
	const file = Buffer.alloc(size, 0x5a);
	Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]).copy(
		file,
		0,
	);
	file[size - 2] = 0xff;
	file[size - 1] = 0xd9;
	return file;
}

function warmParameters(
	name: CaseName,
	parameters: Record<string, unknown>,
	args: CaseArgs,
): Record<string, unknown> {
	if (name === 'transactions100k') return { ...parameters, returnAll: false, limit: 5 };
	if (name === 'transactions100kHttpRequest')
		return {
			...parameters,
			url: String(parameters.url).replace(/perPage=\d+/, 'perPage=5'),
			options: {},
		};
	if (name === 'amlPdf50MB')
		return { ...parameters, checkId: args.warmCheckId, profileId: args.warmProfileId };
	if (FILE_CASES[name]) return { ...parameters, ...FILE_CASES[name](args.warmId!) };
	if (LIST_CASES[name]) return { ...parameters, returnAll: false, limit: 5 };
	if (LIST_CASES[name.replace(/HttpRequest$/, '')])
		return {
			...parameters,
			url: String(parameters.url).replace(/perPage=\d+/, 'perPage=5'),
			options: {},
		};
	return parameters;
}

interface Case {
	node: string;
	typeVersion?: number;
	credentials: Record<string, Record<string, string>>;
	parameters: Record<string, unknown>;
	input?: INodeExecutionData[];
	/** The warm-up's input when it is not `input` (a small file stored the same way). */
	warmInput?: INodeExecutionData[];
	/** Known before the run (the uploaded file); else measured on the output. */
	payloadBytes: number;
}

const listPath = (args: CaseArgs) =>
	`/bank/verifications/${args.verificationId}/accounts/${args.accountId}/transactions/`;

/** n8n's own HTTP Request node (4.2) reading the same pages with its next-URL pagination. */
function httpRequestCase(args: CaseArgs, url: string): Case {
	const { HttpRequest } = requireFromN8n<{ HttpRequest: new () => never }>(
		'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js',
	);
	const { HttpBasicAuth } = requireFromN8n<{ HttpBasicAuth: new () => ICredentialType }>(
		'n8n-nodes-base/dist/credentials/HttpBasicAuth.credentials.js',
	);
	credentialTypes().set('httpBasicAuth', new HttpBasicAuth());
	// Under its own type name: n8n-core gives it (and only it) any credential type.
	registerNodeType('n8n-nodes-base.httpRequest', new HttpRequest());
	return {
		node: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		credentials: {
			httpBasicAuth: { user: args.credentials.apiKey, password: args.credentials.apiSecret },
		},
		parameters: {
			method: 'GET',
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBasicAuth',
			options: {
				pagination: {
					pagination: {
						paginationMode: 'responseContainsNextURL',
						nextURL: '={{ $response.body.next }}',
						paginationCompleteWhen: 'other',
						completeExpression: '={{ !$response.body.next }}',
					},
				},
			},
		},
		payloadBytes: 0,
	};
}

/** The file stored as n8n 2.x stores it (on disk, the item holding its id), as an input item. */
async function storedJpeg(
	binary: BinaryDataService,
	size: number,
	executionId: string,
): Promise<INodeExecutionData[]> {
	const stored = await binary.store(
		{ type: 'execution', workflowId: 'bench', executionId } as never,
		jpegBytes(size),
		{
			mimeType: 'image/jpeg',
			fileName: 'proof-of-address.jpg',
			fileExtension: 'jpg',
			data: '',
		} as never,
	);
	return [{ json: {}, binary: { data: stored } }];
}

/**
 * A POA check of a 20 MB document: the input file is an n8n binary item, stored before the baseline
 * (as a previous node, e.g. Read File or an HTTP download, would have left it). The warm-up checks
 * a small document stored the same way, so the measured run takes a path n8n has run before, as in
 * a long-running n8n.
 */
async function poaCase(args: CaseArgs, binary: BinaryDataService): Promise<Partial<Case>> {
	const payloadBytes = args.fileBytes ?? 20 * 1024 * 1024;
	return {
		input: await storedJpeg(binary, payloadBytes, 'bench-input'),
		warmInput: await storedJpeg(binary, 4096, 'bench-warm'),
		parameters: {
			resource: 'proofOfAddress',
			operation: 'createCheck',
			binaryPropertyName: 'data',
			providedName: 'Jonas Jonaitis',
			providedAddress: 'Gedimino pr. 1, 01103 Vilnius, Lithuania',
		},
		payloadBytes,
	};
}

/** The node, its credentials and parameters (and input) of a case. */
async function caseOf(name: CaseName, args: CaseArgs, binary: BinaryDataService): Promise<Case> {
	if (name === 'transactions100kHttpRequest')
		return httpRequestCase(
			args,
			`${args.sandboxUrl}${listPath(args)}?perPage=${args.perPage ?? 500}`,
		);
	const listed = LIST_CASES[name.replace(/HttpRequest$/, '')];
	if (listed && name.endsWith('HttpRequest')) {
		const query = new URLSearchParams({ ...args.query, perPage: String(args.perPage) });
		return httpRequestCase(args, `${args.sandboxUrl}${listed.path}?${query}`);
	}
	const ours: Case = {
		node: 'identityVerification',
		credentials: {
			identityVerificationApi: {
				apiKey: args.credentials.apiKey,
				apiSecret: args.credentials.apiSecret,
				baseUrl: args.sandboxUrl,
			},
		},
		parameters: {},
		payloadBytes: 0,
	};
	if (name === 'transactions100k') {
		ours.parameters = {
			resource: 'bank',
			operation: 'listTransactions',
			verificationId: args.verificationId,
			accountId: args.accountId,
			returnAll: true,
			options: {
				perPage: args.perPage ?? 500,
				...(args.maxParallelRequests ? { maxParallelRequests: args.maxParallelRequests } : {}),
			},
		};
		return ours;
	}
	if (name === 'amlPdf50MB') {
		ours.parameters = {
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: args.checkId,
			profileId: args.profileId,
			password: args.password,
			binaryPropertyName: 'data',
		};
		return ours;
	}
	if (name === 'poa20MB') return { ...ours, ...(await poaCase(args, binary)) };
	if (FILE_CASES[name]) {
		ours.parameters = { ...FILE_CASES[name](args.id!), binaryPropertyName: 'data' };
		return ours;
	}
	if (listed) {
		ours.parameters = {
			resource: listed.resource,
			operation: 'getAll',
			...args.query,
			returnAll: true,
			options: { perPage: args.perPage },
		};
		return ours;
	}
	throw new Error(`unknown memory case "${name}"`);
}

interface Measured {
	result: Awaited<ReturnType<typeof runNode>>;
	baseline: Sample;
	peak: Sample;
	elapsedMs: number;
	retainedAfterGcBytes: number;
}

/**
 * n8n is a long-running process: the node's modules are loaded and its code is warm before a real
 * run. So first a tiny run of the same operation (one small page / a small file), then two full
 * GCs, then the baseline; then the run, sampled every millisecond.
 */
async function measure(name: CaseName, c: Case, args: CaseArgs): Promise<Measured> {
	const { node, typeVersion, credentials } = c;
	const warm = await runNode({
		node,
		typeVersion,
		parameters: warmParameters(name, c.parameters, args) as INodeParameters,
		credentials,
		input: c.warmInput ?? c.input,
	});
	if (warm.error)
		throw new Error(`warm-up run failed: ${warm.error.message} ${warm.error.description ?? ''}`);
	gc!();
	gc!();
	const baseline = sample();
	let peak = baseline;
	const take = () => {
		const s = sample();
		if (total(s) > total(peak)) peak = s;
	};
	const timer = setInterval(take, 1);
	const started = process.hrtime.bigint();
	const result = await runNode({
		node,
		typeVersion,
		parameters: c.parameters as INodeParameters,
		credentials,
		input: c.input,
	});
	take();
	const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
	clearInterval(timer);
	if (result.error)
		throw new Error(`the node failed: ${result.error.message} ${result.error.description ?? ''}`);
	// What the output holds once the run's garbage is gone (`result` is still referenced).
	gc!();
	gc!();
	const retainedAfterGcBytes = total(sample()) - total(baseline);
	return { result, baseline, peak, elapsedMs, retainedAfterGcBytes };
}

/** The payload of a case (measured on the output unless known before) and a check of what ran. */
function describe(
	name: CaseName,
	c: Case,
	result: Measured['result'],
): { payloadBytes: number; check: string } {
	if (name === 'transactions100k') {
		const payloadBytes = Buffer.byteLength(JSON.stringify(result.items.map((i) => i.json)));
		return { payloadBytes, check: `${result.items.length} items` };
	}
	if (LIST_CASES[name]) {
		const payloadBytes = Buffer.byteLength(JSON.stringify(result.items.map((i) => i.json)));
		return { payloadBytes, check: `${result.items.length} items` };
	}
	if (name === 'transactions100kHttpRequest' || name.endsWith('HttpRequest')) {
		// One item per page; the payload counted is the transactions, as for the node.
		const transactions = result.items.flatMap((i) => (i.json.results as unknown[]) ?? []);
		return {
			payloadBytes: Buffer.byteLength(JSON.stringify(transactions)),
			check: `${result.items.length} page items, ${transactions.length} results`,
		};
	}
	if (name === 'amlPdf50MB') {
		const data = result.items[0]?.binary?.data;
		return {
			payloadBytes: Number(data?.bytes ?? result.items[0]?.json?.fileSize ?? 0),
			check: `binary ${data?.mimeType} ${data?.bytes} bytes (${data?.id ? 'stored by id' : 'inline'})`,
		};
	}
	if (FILE_CASES[name]) {
		// The size of the file (the largest, for Download Files), which the target is a multiple of.
		const files = result.items.flatMap((i) => Object.values(i.binary ?? {}));
		const sizes = files.map((f) => Number(f.bytes ?? 0));
		return {
			payloadBytes: Math.max(0, ...sizes),
			check: `${files.length} file(s) ${files.map((f) => `${f.mimeType} ${f.bytes} bytes`).join(', ')} (${files.every((f) => f.id) ? 'stored by id' : 'inline'})`,
		};
	}
	const json = JSON.stringify(result.items[0]?.json ?? {});
	return { payloadBytes: c.payloadBytes, check: `check ${json.slice(0, 80)}` };
}

async function main(): Promise<void> {
	const name = process.argv[2] as CaseName;
	const args = JSON.parse(process.argv[3]) as CaseArgs;
	const binary = await useFilesystemBinaryMode(storage);
	const c = await caseOf(name, args, binary);
	const m = await measure(name, c, args);
	const { payloadBytes, check } = describe(name, c, m.result);
	const peakDeltaBytes = total(m.peak) - total(m.baseline);
	process.stdout.write(
		`${JSON.stringify({
			payloadBytes,
			peakDeltaBytes,
			ratio: peakDeltaBytes / payloadBytes,
			retainedAfterGcBytes: m.retainedAfterGcBytes,
			peakHeapDelta: m.peak.heapUsed - m.baseline.heapUsed,
			peakExternalDelta: m.peak.external - m.baseline.external,
			peakArrayBuffersDelta: m.peak.arrayBuffers - m.baseline.arrayBuffers,
			elapsedMs: m.elapsedMs,
			check,
		})}\n`,
	);
}

main()
	.then(
		() => 0,
		(error: unknown) => {
			process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
			return 1;
		},
	)
	.then((code) => {
		rmSync(storage, { recursive: true, force: true });
		process.exit(code);
	});
