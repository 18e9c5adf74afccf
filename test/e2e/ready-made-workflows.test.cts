// End-to-end: the example workflows users import (workflows/*.json), which the demo also runs.
//
// 1. Each n8n line installed here (the pin and the 1.x release, when its cache exists) imports them
//    with its own CLI, and its own `n8n export:nodes` knows every node type and typeVersion they use
//    and every parameter they set (as n8n reads a node's parameters: a name its description does not
//    show for that version, resource and operation is dropped by the editor, so it fails here), with
//    option values among the node's options.
// 2. Each runs end to end in the n8n this process drives (the pin, or IDV_N8N_VERSION's; one stack
//    for the file) against the sandbox (the one-workflow onboarding in onboarding.test.cts), with
//    only the nodes of outside services (Slack, HubSpot, Google Sheets, Send Email) replaced by HTTP
//    Request nodes of the same name and connections that
//    post the original node's parameters, expressions resolved by n8n, to a recorder here (the
//    e-mail's attachments and Slack's uploads as files). The tests read what reached it. The
//    recorder keeps the Google Sheets stand-ins' sheets as Google would: an append adds its rows, a
//    read returns the rows its filters match, so a workflow that reads what it appended earlier
//    sees it. A send-and-wait message (Slack's approval) becomes its stand-in, which also posts the
//    execution's resume address, then n8n's Wait node and a Set node of the original's name that
//    outputs what the original does (`data.approved`): a test answers as the reviewer would, by
//    posting `{ approved }` to that address.
import { randomUUID } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resources } from '../../nodes/IdentityVerification/actions/resources';
import type { BankTransaction } from '../../nodes/shared/contract';
import { kybFormLink } from '../../nodes/shared/contract';
import { identificationBody } from '../sandbox/bodies.cjs';
import { SEED, sign } from '../sandbox/index.cjs';
import { call } from '../sandbox/test-helpers.cjs';
import {
	CACHE_DIR,
	N8N_VERSION,
	ROOT,
	execute,
	nodeOutput,
	packPackage,
	postWhenRegistered,
	waitForWebhook,
} from '../n8n/runtime.cjs';
import { OUTSIDE_SERVICES, withSandboxCredentials } from '../n8n/examples.cjs';
import {
	NODE_TYPES,
	nodeId,
	productionWebhookUrl,
	startStack,
	type Stack,
	type WorkflowNode,
} from '../n8n/stack.cjs';
import { expectSuccess } from './helpers.cjs';

interface Workflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
}

const FILES = {
	link: 'verification-link-by-email.json',
	results: 'verification-results-to-slack-and-hubspot.json',
	bank: 'nightly-bank-transactions-to-sheets.json',
	amlScreening: 'aml-screening-on-entry-and-monthly.json',
	amlTriage: 'aml-monitoring-alert-triage.json',
	proofOfAddress: 'proof-of-address-check-file.json',
	kyb: 'kyb-answers-then-submit.json',
	erasure: 'erasure-request-by-form.json',
	evidence: 'evidence-on-approval-to-drive.json',
	reverification: 'reverification-on-document-expiry.json',
	kybEvents: 'kyb-company-events.json',
	bankOnConnect: 'bank-transactions-on-connect.json',
	reupload: 'reupload-request-on-denied.json',
	catchUp: 'verification-results-with-nightly-catch-up.json',
	retention: 'retention-purge.json',
	evidencePack: 'evidence-pack-per-customer.json',
	abandonment: 'abandonment-reminder.json',
} as const;
const DIR = path.join(ROOT, 'workflows');
const ALL_FILES = readdirSync(DIR)
	.filter((f) => f.endsWith('.json'))
	.sort();
const read = (file: string): Workflow => JSON.parse(readFileSync(path.join(DIR, file), 'utf8'));

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// 1. Every node type, typeVersion and parameter as each installed n8n line knows them
// ---------------------------------------------------------------------------------------------

interface NodeTypeDescription {
	name: string;
	version: number | number[];
	properties: any[];
	[key: string]: unknown;
}

interface NodeHelpers {
	getNodeParameters(
		properties: any[],
		values: object,
		returnDefaults: boolean,
		returnNoneDisplayed: boolean,
		node: object,
		description: object,
	): Record<string, unknown> | null;
	displayParameter(
		values: object,
		parameter: object,
		node: object,
		description: object,
		root?: object,
	): boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const isExpression = (v: unknown) => typeof v === 'string' && v.startsWith('=');

/**
 * Paths of the parameters n8n does not keep when it reads the node (`getNodeParameters`, as the
 * editor does on opening it): names the description lacks, or does not show for this version,
 * resource and operation. Values n8n keeps whole (resource locators, conditions, assignments,
 * column mappings) are not looked into.
 */
function unknownParameters(helpers: NodeHelpers, description: NodeTypeDescription, node: any) {
	const kept = helpers.getNodeParameters(
		description.properties,
		node.parameters,
		true,
		false,
		node,
		description,
	);
	const unknown: string[] = [];
	const walk = (given: unknown, known: unknown, at: string): void => {
		if (Array.isArray(given)) {
			if (!Array.isArray(known)) unknown.push(at);
			else given.forEach((v, i) => walk(v, known[i], `${at}[${i}]`));
		} else if (isObject(given) && !('__rl' in given)) {
			if (!isObject(known)) {
				unknown.push(at);
				return;
			}
			for (const [key, value] of Object.entries(given)) {
				const where = at === '' ? key : `${at}.${key}`;
				if (!(key in known)) unknown.push(where);
				else walk(value, known[key], where);
			}
		}
	};
	walk(node.parameters, kept ?? {}, '');
	return unknown;
}

/** Paths of options (and multi-options) parameters whose fixed value is not one of the node's. */
function invalidOptionValues(helpers: NodeHelpers, description: NodeTypeDescription, node: any) {
	const invalid: string[] = [];
	const root = node.parameters;
	const check = (properties: any[], values: Record<string, unknown>, at: string) => {
		for (const [key, value] of Object.entries(values)) {
			const where = at === '' ? key : `${at}.${key}`;
			const shown = properties.filter(
				(p) =>
					p.name === key && helpers.displayParameter(values, p, node, description, root) !== false,
			);
			for (const property of shown.slice(0, 1)) {
				const dynamic =
					property.typeOptions?.loadOptionsMethod || property.typeOptions?.loadOptions;
				if ((property.type === 'options' || property.type === 'multiOptions') && !dynamic) {
					const allowed = (property.options ?? []).map((o: any) => o.value);
					const given = Array.isArray(value) ? value : [value];
					for (const v of given)
						if (!isExpression(v) && !allowed.includes(v)) invalid.push(`${where}=${String(v)}`);
				} else if (property.type === 'collection' && isObject(value)) {
					check(property.options ?? [], value, where);
				} else if (property.type === 'fixedCollection' && isObject(value)) {
					for (const [group, entries] of Object.entries(value)) {
						const option = (property.options ?? []).find((o: any) => o.name === group);
						for (const [i, entry] of [entries].flat().entries())
							if (option && isObject(entry))
								check(option.values ?? [], entry, `${where}.${group}[${i}]`);
					}
				}
			}
		}
	};
	check(description.properties, root, '');
	return invalid;
}

const RUNTIME = path.join(__dirname, '..', 'n8n', 'runtime.cjs');

/** The n8n version the driver runs for IDV_N8N_VERSION=`line` (`2`: the pin, `1`: its 1.x release). */
function versionOfLine(line: '1' | '2'): string {
	const res = spawnSync(
		process.execPath,
		['-p', `require(${JSON.stringify(RUNTIME)}).N8N_VERSION`],
		{
			env: { ...process.env, IDV_N8N_VERSION: line },
			encoding: 'utf8',
		},
	);
	if (res.status !== 0) throw new Error(`IDV_N8N_VERSION=${line}: ${res.stderr}`);
	return res.stdout.trim();
}

/** Whether an n8n version is installed in the cache (the pin always is once a stack ran). */
const installed = (version: string) =>
	existsSync(path.join(CACHE_DIR, `n8n-${version}`, 'node_modules', 'n8n', 'package.json'));

/** n8n-workflow's NodeHelpers of an installed n8n version. */
function nodeHelpersOf(version: string): NodeHelpers {
	const n8nPackage = path.join(CACHE_DIR, `n8n-${version}`, 'node_modules', 'n8n', 'package.json');
	return createRequire(n8nPackage)('n8n-workflow').NodeHelpers;
}

interface ImportReport {
	version: string;
	types: NodeTypeDescription[];
	/** The workflows as n8n stored them (`n8n export:workflow --all`). */
	stored: Workflow[];
}

/**
 * In a child process driving `version` (IDV_N8N_VERSION): a fresh user folder with the packed
 * package installed, `n8n import:workflow` of every file in workflows/ (throws on an error),
 * `n8n export:workflow --all` and `n8n export:nodes`.
 */
async function importInto(version: string, tarball: string): Promise<ImportReport> {
	const out = mkdtempSync(path.join(tmpdir(), 'idv-ready-made-'));
	const script = `
		const fs = require('node:fs');
		const path = require('node:path');
		const rt = require(${JSON.stringify(RUNTIME)});
		(async () => {
			const folder = rt.makeUserFolder('idv-ready-made-n8n-');
			try {
				rt.installPackage(folder, { tarball: ${JSON.stringify(tarball)}, log: () => {} });
				const files = ${JSON.stringify(ALL_FILES.map((f) => path.join(DIR, f)))};
				await rt.importWorkflow(folder, files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8'))));
				const stored = path.join(${JSON.stringify(out)}, 'stored.json');
				const res = await rt.n8nCli(folder, ['export:workflow', '--all', '--output=' + stored]);
				if (res.status !== 0) throw new Error('export:workflow failed: ' + res.stdout + res.stderr);
				const types = await rt.exportNodes(folder);
				fs.writeFileSync(path.join(${JSON.stringify(out)}, 'types.json'), JSON.stringify(types));
				fs.writeFileSync(path.join(${JSON.stringify(out)}, 'version'), rt.N8N_VERSION);
			} finally {
				fs.rmSync(folder, { recursive: true, force: true });
			}
		})().catch((e) => { console.error(e && e.stack ? e.stack : e); process.exit(1); });`;
	try {
		const { code, output } = await new Promise<{ code: number | null; output: string }>(
			(resolve, reject) => {
				const child = spawn(process.execPath, ['-e', script], {
					env: { ...process.env, IDV_N8N_VERSION: version },
					stdio: ['ignore', 'pipe', 'pipe'],
				});
				let output = '';
				child.stdout.on('data', (d) => (output += d));
				child.stderr.on('data', (d) => (output += d));
				child.on('error', reject);
				child.on('close', (c) => resolve({ code: c, output }));
			},
		);
		if (code !== 0)
			throw new Error(`importing into n8n ${version} failed:\n${output.slice(-4000)}`);
		const stored = JSON.parse(readFileSync(path.join(out, 'stored.json'), 'utf8'));
		return {
			version: readFileSync(path.join(out, 'version'), 'utf8'),
			types: JSON.parse(readFileSync(path.join(out, 'types.json'), 'utf8')),
			stored: Array.isArray(stored) ? stored : [stored],
		};
	} finally {
		rmSync(out, { recursive: true, force: true });
	}
}

// ---------------------------------------------------------------------------------------------
// 2. The recorder and the stand-ins for outside services
// ---------------------------------------------------------------------------------------------

interface RecordedFile {
	field: string;
	name: string;
	type: string;
	size: number;
	head: string;
}

/** What a stand-in sent: the original node's name, type and parameters (expressions resolved). */
interface Recorded {
	node: string;
	type: string;
	parameters: Record<string, any>;
	files: RecordedFile[];
}

/** A sheet's rows below its header, each by column name (values as the stand-ins sent them: text). */
type SheetRows = Array<Record<string, string>>;

interface Recorder {
	url: string;
	received: Recorded[];
	/** The Google Sheets stand-ins' sheets, by sheet name (a test clears or fills them). */
	sheets: Map<string, SheetRows>;
	/** Stand-ins (by node name) answered 500 and not recorded, for as long as they are listed. */
	failing: Set<string>;
	close(): Promise<void>;
}

/** Parameters from their `a/b/0/c` paths (segments URI-encoded) back to objects and arrays. */
function unflatten(entries: Array<[string, string]>): Record<string, any> {
	const out: Record<string, any> = {};
	for (const [key, value] of entries) {
		const parts = key.split('/').map(decodeURIComponent);
		let at: any = out;
		parts.forEach((part, i) => {
			const last = i === parts.length - 1;
			const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
			if (last) at[part] = value;
			else at = at[part] ??= nextIsIndex ? [] : {};
		});
	}
	return out;
}

/**
 * HubSpot's contact search answered as HubSpot does, with the contact whose `client_id` is the
 * searched value (e-mail `<client id>@example.com`), its deal search with the deal whose
 * `kyb_company_id` is (id `deal-<company id>`, contact `<company id>@example.com`); Google Sheets as
 * Google does (sheetAnswer); every other stand-in gets `{ ok: true }`.
 */
function answerFor(entry: Recorded, sheets: Map<string, SheetRows>): object {
	if (entry.type === 'n8n-nodes-base.hubspot' && entry.parameters.operation === 'search') {
		const value =
			entry.parameters.filterGroupsUi.filterGroupsValues[0].filtersUi.filterValues[0].value;
		if (entry.parameters.resource === 'deal')
			return {
				id: `deal-${value}`,
				properties: {
					dealname: 'Baltic Widgets – business account',
					kyb_contact_email: `${value}@example.com`,
					kyb_company_id: value,
				},
			};
		return { id: '1001', properties: { email: `${value}@example.com`, client_id: value } };
	}
	if (entry.type === 'n8n-nodes-base.googleSheets') return sheetAnswer(entry.parameters, sheets);
	// Google Drive's new folder: its id, which the uploads name as their parent.
	if (entry.type === 'n8n-nodes-base.googleDrive' && entry.parameters.resource === 'folder')
		return { id: `folder-${entry.parameters.name}`, name: entry.parameters.name };
	return { ok: true };
}

/**
 * One item's request of a Google Sheets stand-in on the sheet it names: `append` adds the row it
 * maps (the real node sends all its rows in one request, so all or none are added: a failing
 * stand-in adds none); `read` answers the rows every filter matches, with their `row_number`, as
 * the node's Get Row(s) does (none: an empty list).
 */
function sheetAnswer(parameters: Record<string, any>, sheets: Map<string, SheetRows>): object {
	const name = String(parameters.sheetName?.value);
	const rows = sheets.get(name) ?? [];
	sheets.set(name, rows);
	if (parameters.operation === 'append') {
		const row = { ...(parameters.columns.value as Record<string, string>) };
		rows.push(row);
		return row;
	}
	if (parameters.operation === 'read') {
		const filters = (parameters.filtersUI?.values ?? []) as Array<{
			lookupColumn: string;
			lookupValue: string;
		}>;
		return rows
			.map((row, index) => ({ row_number: String(index + 2), ...row }))
			.filter((row) =>
				filters.every((f) => (row as Record<string, string>)[f.lookupColumn] === f.lookupValue),
			);
	}
	throw new Error(`the Google Sheets stand-in has no ${String(parameters.operation)} operation`);
}

async function startRecorder(): Promise<Recorder> {
	const received: Recorded[] = [];
	const sheets = new Map<string, SheetRows>();
	const failing = new Set<string>();
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', async () => {
			try {
				const form = await new Request('http://recorder/', {
					method: 'POST',
					headers: { 'content-type': req.headers['content-type'] ?? '' },
					body: Buffer.concat(chunks),
				}).formData();
				const fields: Array<[string, string]> = [];
				const files: RecordedFile[] = [];
				for (const [name, value] of form.entries()) {
					if (typeof value === 'string') {
						if (name.startsWith('parameters/')) fields.push([name.slice(11), value]);
					} else {
						const bytes = Buffer.from(await value.arrayBuffer());
						files.push({
							field: name,
							name: value.name,
							type: value.type,
							size: bytes.length,
							head: bytes.subarray(0, 5).toString('latin1'),
						});
					}
				}
				const entry: Recorded = {
					node: String(form.get('node')),
					type: String(form.get('type')),
					parameters: unflatten(fields),
					files,
				};
				if (failing.has(entry.node)) {
					res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"failing"}');
					return;
				}
				received.push(entry);
				res
					.writeHead(200, { 'content-type': 'application/json' })
					.end(JSON.stringify(answerFor(entry, sheets)));
			} catch (error) {
				res.writeHead(400).end(String(error));
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		sheets,
		failing,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Each leaf of a parameter value with its path (`a/b/0/c`, segments URI-encoded). */
function leaves(value: unknown, at: string[] = []): Array<[string, unknown]> {
	if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...at, String(i)]));
	if (isObject(value))
		return Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, encodeURIComponent(k)]));
	return [[at.join('/'), value]];
}

/**
 * A form field value n8n resolves as the original node would: an expression stays one (a whole
 * `{{ }}` turned into text, so that a number, null or object reaches the form as text), any other
 * value is sent as its JSON text.
 */
function formValue(value: unknown): string {
	if (typeof value !== 'string') return JSON.stringify(value);
	const whole = /^=\s*\{\{([\s\S]*)\}\}\s*$/.exec(value);
	if (whole && !whole[1].includes('{{') && !whole[1].includes('}}'))
		return `={{ ((value) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)))(${whole[1]}) }}`;
	return value;
}

/**
 * The stand-in of an outside service's node: an HTTP Request node with its name, id, position
 * (so its connections stay) and settings (Always Output Data, Execute Once), posting multipart
 * form data to the recorder: the node's name and type, every parameter (`parameters/<path>`), for
 * Send Email every attachment it names, and for a Google Drive upload its file.
 */
function standIn(
	node: WorkflowNode & { alwaysOutputData?: boolean; executeOnce?: boolean },
	recorderUrl: string,
) {
	const parameters: Array<Record<string, string>> = [
		{ parameterType: 'formData', name: 'node', value: node.name },
		{ parameterType: 'formData', name: 'type', value: node.type },
		...leaves(node.parameters).map(([at, value]) => ({
			parameterType: 'formData',
			name: `parameters/${at}`,
			value: formValue(value),
		})),
	];
	for (const property of filesOf(node))
		parameters.push({
			parameterType: 'formBinaryData',
			name: `attachment/${property}`,
			inputDataFieldName: property,
		});
	// A send-and-wait message carries the links that resume the execution: its address.
	if (isSendAndWait(node))
		parameters.push({
			parameterType: 'formData',
			name: 'parameters/resumeUrl',
			value: '={{ $execution.resumeUrl }}',
		});
	// A Google Drive upload sends the file of its binary field (an expression n8n resolves per item).
	if (node.type === 'n8n-nodes-base.googleDrive' && node.parameters.inputDataFieldName) {
		parameters.push({
			parameterType: 'formBinaryData',
			name: 'upload',
			inputDataFieldName: String(node.parameters.inputDataFieldName),
		});
	}
	return {
		id: node.id,
		name: node.name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: node.position,
		...(node.alwaysOutputData ? { alwaysOutputData: true } : {}),
		...(node.executeOnce ? { executeOnce: true } : {}),
		parameters: {
			method: 'POST',
			url: `${recorderUrl}/record`,
			sendBody: true,
			contentType: 'multipart-form-data',
			bodyParameters: { parameters },
			options: {},
		},
	};
}

/** The binary fields a node sends as files: an e-mail's attachments, a Slack upload's file. */
function filesOf(node: WorkflowNode): string[] {
	const options = node.parameters.options as { attachments?: string } | undefined;
	if (node.type === 'n8n-nodes-base.emailSend' && options?.attachments)
		return options.attachments.split(',').map((p) => p.trim());
	if (node.type === 'n8n-nodes-base.slack' && node.parameters.resource === 'file')
		return [String(node.parameters.binaryPropertyName ?? 'data')];
	return [];
}

const isSendAndWait = (node: WorkflowNode) =>
	node.type in OUTSIDE_SERVICES && node.parameters.operation === 'sendAndWait';

/** The stand-in of a send-and-wait message's node, and the name its message is recorded under. */
const messageOf = (name: string) => `${name} (message)`;

/**
 * A send-and-wait node as three: its message's stand-in, n8n's Wait node for the answer posted to
 * the execution's resume address, and a Set node of its name giving what it outputs.
 */
function sendAndWaitStandIns(node: WorkflowNode, recorderUrl: string): WorkflowNode[] {
	const [x, y] = node.position;
	const message = standIn({ ...node, id: nodeId(), name: messageOf(node.name) }, recorderUrl);
	const wait = {
		id: nodeId(),
		name: `${node.name} (waiting)`,
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		position: [x, y + 120] as [number, number],
		webhookId: nodeId(),
		parameters: { resume: 'webhook', httpMethod: 'POST', options: {} },
	};
	const answer = {
		id: node.id,
		name: node.name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [x, y + 240] as [number, number],
		parameters: {
			assignments: {
				assignments: [
					{
						id: nodeId(),
						name: 'data.approved',
						value: '={{ $json.body.approved }}',
						type: 'boolean',
					},
				],
			},
			options: {},
		},
	};
	return [message as WorkflowNode, wait, answer];
}

/** Connections into a send-and-wait node go to its message; message → wait → the node. */
function rewired(connections: Record<string, unknown>, name: string): Record<string, unknown> {
	const text = JSON.stringify(connections).replaceAll(
		JSON.stringify({ node: name, type: 'main', index: 0 }),
		JSON.stringify({ node: messageOf(name), type: 'main', index: 0 }),
	);
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		...JSON.parse(text),
		[messageOf(name)]: link(`${name} (waiting)`),
		[`${name} (waiting)`]: link(name),
	};
}

/**
 * The workflow as a test runs it: outside services' nodes replaced by stand-ins, and this
 * package's nodes given the sandbox credentials (the files carry none).
 */
function runnable(workflow: Workflow, recorderUrl: string): Workflow {
	const copy = withSandboxCredentials(workflow);
	for (const node of copy.nodes.filter(isSendAndWait))
		copy.connections = rewired(copy.connections, node.name);
	copy.nodes = copy.nodes.flatMap((node) => {
		if (isSendAndWait(node)) return sendAndWaitStandIns(node, recorderUrl);
		return [node.type in OUTSIDE_SERVICES ? (standIn(node, recorderUrl) as WorkflowNode) : node];
	});
	return copy;
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

let stack: Stack;
let recorder: Recorder;
let tarball: string;
const WORKFLOWS = {
	link: read(FILES.link),
	results: read(FILES.results),
	bank: read(FILES.bank),
	amlScreening: read(FILES.amlScreening),
	amlTriage: read(FILES.amlTriage),
	proofOfAddress: read(FILES.proofOfAddress),
	kyb: read(FILES.kyb),
	erasure: read(FILES.erasure),
	evidence: read(FILES.evidence),
	reverification: read(FILES.reverification),
	kybEvents: read(FILES.kybEvents),
	bankOnConnect: read(FILES.bankOnConnect),
	reupload: read(FILES.reupload),
	catchUp: read(FILES.catchUp),
	retention: read(FILES.retention),
	evidencePack: read(FILES.evidencePack),
	abandonment: read(FILES.abandonment),
};

/** The client whose results the catch-up example's copy polls for (its poll's Client IDs). */
const CATCH_UP_CLIENT = 'kyc-catch-up';

/**
 * The catch-up example as its test runs it: its nightly poll every minute (n8n's shortest), for
 * one client only, so that it catches up within the test and no other test's verification.
 */
function pollingEveryMinute(workflow: Workflow): Workflow {
	const nodes = workflow.nodes.map((n) =>
		n.type === NODE_TYPES.pollingTrigger
			? {
					...n,
					parameters: {
						...n.parameters,
						pollTimes: { item: [{ mode: 'everyMinute' }] },
						clientIds: CATCH_UP_CLIENT,
					},
				}
			: n,
	);
	return { ...workflow, nodes };
}

/** What the recorder received since `mark` (an index into its log), for one node name. */
const sentBy = (name: string, mark: number) =>
	recorder.received.slice(mark).filter((r) => r.node === name);

/** Ids of a workflow's executions (n8n's list can name one twice: counted by id). */
async function executionIds(workflowId: string): Promise<Set<string>> {
	return new Set((await stack.rest.listExecutions(workflowId)).map((e) => e.id));
}

/** Waits (a minute at most) for an execution not in `before` to end; returns it with its data. */
async function nextFinished(workflowId: string, before: Set<string>): Promise<any> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const fresh = (await stack.rest.listExecutions(workflowId)).filter((e) => !before.has(e.id));
		const done = fresh.find((e) => !['new', 'running', 'waiting'].includes(e.status));
		if (done) return await stack.rest.getExecution(done.id);
		if (Date.now() > deadline) throw new Error(`no execution of ${workflowId} ended within 60 s`);
		await pause(250);
	}
}

/** POSTs JSON, again while n8n answers 404 (it registers published webhooks asynchronously). */
async function post(
	url: string,
	body: string,
	headers: Record<string, string> = {},
): Promise<number> {
	return await postWhenRegistered(url, {
		headers: { 'content-type': 'application/json', ...headers },
		body,
	});
}

beforeAll(async () => {
	recorder = await startRecorder();
	tarball = packPackage({ log: () => {} });
	// Successful runs are kept here (the files keep none that hold personal data) so that the tests
	// can read the runs a webhook started.
	const workflows = Object.values(WORKFLOWS).map((w) => ({
		...runnable(w === WORKFLOWS.catchUp ? pollingEveryMinute(w) : w, recorder.url),
		settings: { ...(w as { settings?: object }).settings, saveDataSuccessExecution: 'all' },
	}));
	stack = await startStack({
		tarball,
		workflows,
		publish: [
			WORKFLOWS.results.id,
			WORKFLOWS.link.id,
			WORKFLOWS.amlScreening.id,
			WORKFLOWS.amlTriage.id,
			WORKFLOWS.evidence.id,
			WORKFLOWS.reverification.id,
			WORKFLOWS.kybEvents.id,
			WORKFLOWS.bankOnConnect.id,
			WORKFLOWS.reupload.id,
			WORKFLOWS.catchUp.id,
			WORKFLOWS.abandonment.id,
		],
		log: (m) => process.stderr.write(`[e2e ready-made] ${m}\n`),
	});
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	await recorder?.close();
	if (tarball) rmSync(path.dirname(tarball), { recursive: true, force: true });
}, 60_000);

describe('each installed n8n line imports them and knows every node, version and parameter', () => {
	const versions = [...new Set([N8N_VERSION, versionOfLine('2'), versionOfLine('1')])];
	test.each(versions)(
		'n8n %s',
		async (version) => {
			if (!installed(version)) {
				// The n8n the stack runs must be found; another line is checked where it is installed.
				if (version === N8N_VERSION)
					throw new Error(`n8n ${version} runs the stack but is not found in ${CACHE_DIR}`);
				process.stderr.write(
					`[e2e ready-made] n8n ${version} is not installed in ${CACHE_DIR}: not checked\n`,
				);
				return;
			}
			const report = await importInto(version, tarball);
			expect(report.version).toBe(version);
			const helpers = nodeHelpersOf(version);
			const problems: string[] = [];
			for (const file of ALL_FILES) {
				const workflow = read(file);
				const stored = report.stored.find((w) => w.id === workflow.id);
				if (!stored) problems.push(`${file}: not stored by the import`);
				for (const node of workflow.nodes) {
					const where = `${file} › ${node.name} (${node.type} ${node.typeVersion})`;
					const description = report.types.find(
						(t) => t.name === node.type && [t.version].flat().includes(node.typeVersion),
					);
					if (!description) {
						problems.push(`${where}: n8n ${version} has no such node type and version`);
						continue;
					}
					for (const p of unknownParameters(helpers, description, node))
						problems.push(`${where}: unknown parameter ${p}`);
					for (const p of invalidOptionValues(helpers, description, node))
						problems.push(`${where}: not one of the options: ${p}`);
					const kept = stored?.nodes.find((n) => n.name === node.name);
					if (
						stored &&
						(!kept || JSON.stringify(kept.parameters) !== JSON.stringify(node.parameters))
					)
						problems.push(`${where}: stored differently by the import`);
				}
			}
			expect(problems).toEqual([]);
		},
		240_000,
	);
});

describe(`${FILES.results}: verification results to Slack and HubSpot`, () => {
	const url = () =>
		productionWebhookUrl(
			stack.n8n.url,
			WORKFLOWS.results.nodes.find((n) => n.type === NODE_TYPES.trigger) as { webhookId: string },
		);

	/** Delivers a signed identification result of `kind`; resolves with the trigger's answer. */
	async function deliver(body: object, kind = 'IDENTIFICATION_AUTO_FINISHED'): Promise<number> {
		const payload = JSON.stringify(body);
		return await post(url(), payload, {
			'service-event-type': kind,
			'service-signature': sign(payload, stack.sandbox.credentials.signingKey),
		});
	}

	test.each(['DENIED', 'SUSPECTED'])(
		'%s: Slack gets the client ID, scan reference and status; the HubSpot contact gets the status',
		async (overall) => {
			const clientId = `kyc-${overall.toLowerCase()}`;
			const body = identificationBody('IDENTIFICATION_AUTO_FINISHED', {
				final: true,
				clientId,
				overall,
			});
			const mark = recorder.received.length;
			const before = await executionIds(WORKFLOWS.results.id);
			expect(await deliver(body)).toBe(200);
			expect((await nextFinished(WORKFLOWS.results.id, before)).status).toBe('success');

			const [slack, ...moreSlack] = sentBy('Alert compliance on Slack', mark);
			expect(moreSlack).toEqual([]);
			expect(slack.parameters).toMatchObject({
				resource: 'message',
				operation: 'post',
				channelId: { mode: 'name', value: '#compliance' },
			});
			expect(slack.parameters.text).toContain(clientId);
			expect(slack.parameters.text).toContain(body.scanRef);
			expect(slack.parameters.text).toContain(overall);

			expect(sentBy('Find the contact in HubSpot', mark).map((r) => r.parameters)).toEqual([
				expect.objectContaining({
					operation: 'search',
					filterGroupsUi: {
						filterGroupsValues: [
							{
								filtersUi: {
									filterValues: [
										{ propertyName: 'client_id|string', operator: 'EQ', value: clientId },
									],
								},
							},
						],
					},
				}),
			]);
			expect(sentBy('Save the status in HubSpot', mark).map((r) => r.parameters)).toEqual([
				expect.objectContaining({
					operation: 'upsert',
					email: `${clientId}@example.com`,
					additionalFields: {
						customPropertiesUi: {
							customPropertiesValues: [
								{ property: 'identity_verification_status', value: overall },
								{ property: 'identity_verification_scan_ref', value: body.scanRef },
							],
						},
					},
				}),
			]);
		},
	);

	test('the legacy IDENTIFICATION kind (one notification for every outcome) is routed as the new kinds: DENIED to Slack and HubSpot; a preliminary one starts nothing', async () => {
		const clientId = 'kyc-legacy-denied';
		const mark = recorder.received.length;
		const before = await executionIds(WORKFLOWS.results.id);
		const preliminary = identificationBody('IDENTIFICATION', {
			final: false,
			clientId: 'kyc-legacy-preliminary',
			overall: 'SUSPECTED',
		});
		expect(await deliver(preliminary, 'IDENTIFICATION')).toBe(200);
		const body = identificationBody('IDENTIFICATION', { final: true, clientId, overall: 'DENIED' });
		expect(await deliver(body, 'IDENTIFICATION')).toBe(200);
		const exec = await nextFinished(WORKFLOWS.results.id, before);
		expect(exec.status).toBe('success');
		const fresh = [...(await executionIds(WORKFLOWS.results.id))].filter((id) => !before.has(id));
		expect(fresh).toEqual([exec.id]);

		const [slack, ...moreSlack] = sentBy('Alert compliance on Slack', mark);
		expect(moreSlack).toEqual([]);
		expect(slack.parameters.text).toContain(clientId);
		expect(slack.parameters.text).toContain(body.scanRef);
		expect(slack.parameters.text).toContain('*Event:* IDENTIFICATION\n');
		const [save, ...moreSaves] = sentBy('Save the status in HubSpot', mark);
		expect(moreSaves).toEqual([]);
		expect(save.parameters.email).toBe(`${clientId}@example.com`);
		expect(save.parameters.additionalFields.customPropertiesUi.customPropertiesValues).toEqual([
			{ property: 'identity_verification_status', value: 'DENIED' },
			{ property: 'identity_verification_scan_ref', value: body.scanRef },
		]);
	});

	test('an account with both the legacy and the new notifications: the same result, sent as both kinds, runs once', async () => {
		const mark = recorder.received.length;
		const before = await executionIds(WORKFLOWS.results.id);
		stack.sandbox.webhooks.configure({
			url: url(),
			retryDelaysMs: [],
			sendLegacyIdentification: true,
		});
		const { scanRef } = stack.sandbox.kyc.createSession('kyc-both-kinds');
		await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall: 'SUSPECTED' });
		const sent = stack.sandbox.webhooks.log.filter((d) => d.payload.includes(scanRef));
		expect(sent.map((d) => [d.eventType, d.status])).toEqual([
			['IDENTIFICATION_AUTO_FINISHED', 'delivered'],
			['IDENTIFICATION', 'delivered'],
		]);
		const exec = await nextFinished(WORKFLOWS.results.id, before);
		expect(exec.status).toBe('success');
		await pause(1000);
		const fresh = [...(await executionIds(WORKFLOWS.results.id))].filter((id) => !before.has(id));
		expect(fresh).toEqual([exec.id]);
		expect(sentBy('Alert compliance on Slack', mark)).toHaveLength(1);
	});

	test('APPROVED: only the HubSpot contact is updated, nothing goes to Slack; a preliminary result starts nothing', async () => {
		const mark = recorder.received.length;
		const before = await executionIds(WORKFLOWS.results.id);
		const preliminary = identificationBody('IDENTIFICATION_AUTO_FINISHED', {
			final: false,
			clientId: 'kyc-preliminary',
			overall: 'DENIED',
		});
		expect(await deliver(preliminary)).toBe(200);
		const approved = identificationBody('IDENTIFICATION_AUTO_FINISHED', {
			final: true,
			clientId: 'kyc-approved',
			overall: 'APPROVED',
		});
		expect(await deliver(approved)).toBe(200);
		const exec = await nextFinished(WORKFLOWS.results.id, before);
		expect(exec.status).toBe('success');
		// One execution: the approved result's (the preliminary one was acknowledged and skipped).
		const fresh = [...(await executionIds(WORKFLOWS.results.id))].filter((id) => !before.has(id));
		expect(fresh).toEqual([exec.id]);

		expect(sentBy('Alert compliance on Slack', mark)).toEqual([]);
		expect(recorder.received.slice(mark).map((r) => r.node)).toEqual([
			'Find the contact in HubSpot',
			'Save the status in HubSpot',
		]);
		const [save] = sentBy('Save the status in HubSpot', mark);
		expect(save.parameters.email).toBe('kyc-approved@example.com');
		expect(save.parameters.additionalFields.customPropertiesUi.customPropertiesValues[0]).toEqual({
			property: 'identity_verification_status',
			value: 'APPROVED',
		});
	});
});

// ---------------------------------------------------------------------------------------------
// The nightly bank templates: one booking day per run, the sheet as the record of days appended
// ---------------------------------------------------------------------------------------------

const APPEND = 'Append to Google Sheets';
const ROWS_OF_THE_DAY = 'Rows of that day already in the sheet';
const DAY_MS = 86_400_000;

/** The UTC day `offset` days from today's, as `yyyy-mm-dd`. */
const utcDay = (offset: number) =>
	new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * The days that can be yesterday in n8n's time zone (anything from UTC-12 to UTC+14): the day
 * before today's UTC day, and the days before and after it.
 */
const canBeYesterday = () => [utcDay(-2), utcDay(-1), utcDay(0)];

const CARD_PAYMENT = '-42.00';

/**
 * An account's bookings (newest first) from the day after any possible yesterday to two days
 * before, and one not booked yet. Each day: the same card payment twice (two genuine payments
 * alike in every field) and a salary, named after `owner` so that accounts differ.
 */
function bookingsAround(owner: string): BankTransaction[] {
	const pending: BankTransaction = {
		creditor: { fullName: 'Bolt Operations OÜ' },
		debtor: { fullName: owner },
		bookingDate: null,
		transactionDate: utcDay(0),
		transactionAmount: { amount: '-7.90', currency: 'EUR' },
	};
	const card = (day: string): BankTransaction => ({
		creditor: { fullName: 'Maxima LT, UAB' },
		debtor: { fullName: owner },
		bookingDate: day,
		transactionDate: day,
		transactionAmount: { amount: CARD_PAYMENT, currency: 'EUR' },
	});
	const salary = (day: string): BankTransaction => ({
		creditor: { fullName: owner },
		debtor: { fullName: 'UAB „Šviesos tinklai“' },
		bookingDate: day,
		transactionDate: null,
		transactionAmount: { amount: '1250.75', currency: 'EUR' },
	});
	const days = [1, 0, -1, -2, -3].map(utcDay);
	return [pending, ...days.flatMap((day) => [card(day), card(day), salary(day)])];
}

/** The row a transaction of that account must become in the sheet (as the stand-in sends it: text). */
function sheetRow(
	transaction: BankTransaction,
	account: { verificationId: string; accountId: string },
): Record<string, string> {
	const amount = Number(transaction.transactionAmount.amount);
	return {
		'Booking date': transaction.bookingDate ?? '',
		'Transaction date': transaction.transactionDate ?? '',
		Direction: amount < 0 ? 'out' : 'in',
		Amount: String(amount),
		'Amount as sent': transaction.transactionAmount.amount,
		Currency: transaction.transactionAmount.currency,
		Creditor: transaction.creditor.fullName ?? '',
		Debtor: transaction.debtor.fullName ?? '',
		'Verification ID': account.verificationId,
		'Account ID': account.accountId,
	};
}

/** The rows an account's bookings of `day` must become, in the order the service lists them. */
const rowsOf = (
	bookings: BankTransaction[],
	day: string,
	account: { verificationId: string; accountId: string },
) => bookings.filter((t) => t.bookingDate === day).map((t) => sheetRow(t, account));

/**
 * Rows in a fixed order: the stand-in of a node sends one request per item, all at once, so they
 * reach the sheet in any order (the real node sends them in one). Identical rows stay, side by side.
 */
const sorted = (rows: Array<Record<string, string>>) =>
	rows
		.map((row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b))))
		.sort();

/** The stand-ins' sheet of transactions, as the runs so far left it. */
const ledger = () => sorted(recorder.sheets.get('Transactions') ?? []);

/**
 * One run of a nightly workflow (`n8n execute`, from its manual trigger) that must succeed: the
 * day it pulled, what List Transactions listed, and the rows it appended.
 */
async function runNightly(workflowId: string) {
	const mark = recorder.received.length;
	const result = await execute(stack.userFolder, workflowId);
	expectSuccess(result);
	const day = nodeOutput(result, 'Day to pull')[0]?.json.bookingDate as string;
	const reads = sentBy(ROWS_OF_THE_DAY, mark);
	// The sheet is asked once, for the rows of that day.
	expect(reads.map((r) => r.parameters.filtersUI.values)).toEqual([
		[{ lookupColumn: 'Booking date', lookupValue: day }],
	]);
	const rows = sentBy(APPEND, mark).map((r) => {
		expect(r.parameters).toMatchObject({
			operation: 'append',
			sheetName: { mode: 'name', value: 'Transactions' },
			columns: { mappingMode: 'defineBelow' },
		});
		return r.parameters.columns.value as Record<string, string>;
	});
	return { day, listed: nodeOutput(result, 'List Transactions').map((i) => i.json), rows };
}

/**
 * A form trigger as a submitted form runs: a manual trigger named "Submit the form", then a Set
 * node of the form's name giving `item` (`n8n execute` starts at a manual trigger).
 */
function formSubmitted(form: WorkflowNode, item: Record<string, string>): WorkflowNode[] {
	const assignments = Object.entries(item).map(([name, value]) => ({
		id: `${name}-${value}`.replace(/\W/g, '-'),
		name,
		value,
		type: 'string',
	}));
	return [
		{
			id: randomUUID(),
			name: 'Submit the form',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [form.position[0] - 240, form.position[1]],
			parameters: {},
		},
		{
			id: form.id,
			name: form.name,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: form.position,
			parameters: { assignments: { assignments }, options: {} },
		},
	];
}

/** The labels of a form trigger's fields, in order. */
function formLabels(workflow: Workflow, formName: string): string[] {
	const form = workflow.nodes.find((n) => n.name === formName)!;
	expect(form.type).toBe('n8n-nodes-base.formTrigger');
	return (form.parameters as any).formFields.values.map((f: any) => f.fieldLabel);
}

/** The workflow as it runs when its form `formName` is submitted with `item` (formSubmitted). */
function formRun(
	workflow: Workflow,
	formName: string,
	suffix: string,
	item: Record<string, string>,
) {
	const form = workflow.nodes.find((n) => n.name === formName)!;
	const nodes: WorkflowNode[] = [
		...workflow.nodes.filter((n) => n.name !== formName),
		...formSubmitted(form, item),
	];
	const connections = {
		...workflow.connections,
		'Submit the form': { main: [[{ node: formName, type: 'main', index: 0 }]] },
	};
	const copy = runnable({ ...workflow, nodes, connections }, recorder.url);
	return {
		name: `${workflow.name} ${suffix}`,
		nodes: copy.nodes,
		connections: copy.connections,
		settings: (workflow as Workflow & { settings?: object }).settings,
	};
}

/**
 * The workflow as it runs when its form "Pull a missed day" is submitted with `bookingDate`: the
 * form trigger is a Set node of the same name giving the form's item, after a manual trigger
 * (`n8n execute` starts at the first manual trigger, so the workflow's own one is taken out).
 */
function submittedForm(workflow: Workflow, bookingDate: string) {
	const MANUAL = 'When clicking ‘Execute workflow’';
	const FORM = 'Pull a missed day';
	const form = workflow.nodes.find((n) => n.name === FORM)!;
	expect(form.type).toBe('n8n-nodes-base.formTrigger');
	// Every other trigger is taken out too: n8n 1.x's `execute` may start at the schedule instead.
	const nodes: WorkflowNode[] = [
		...workflow.nodes.filter(
			(n) => n.name !== MANUAL && n.name !== FORM && n.type !== 'n8n-nodes-base.scheduleTrigger',
		),
		...formSubmitted(form, {
			[(form.parameters as any).formFields.values[0].fieldLabel]: bookingDate,
		}),
	];
	const connections: Record<string, unknown> = { ...workflow.connections };
	delete connections[MANUAL];
	for (const trigger of workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.scheduleTrigger'))
		delete connections[trigger.name];
	connections['Submit the form'] = { main: [[{ node: FORM, type: 'main', index: 0 }]] };
	const copy = runnable({ ...workflow, nodes, connections }, recorder.url);
	return {
		name: `${workflow.name} (form submitted with ${bookingDate})`,
		nodes: copy.nodes,
		connections: copy.connections,
		settings: (workflow as Workflow & { settings?: object }).settings,
	};
}

describe(`${FILES.catchUp}: results by webhook, the lost ones caught up by the poll`, () => {
	const url = () =>
		productionWebhookUrl(
			stack.n8n.url,
			WORKFLOWS.catchUp.nodes.find((n) => n.type === NODE_TYPES.trigger) as { webhookId: string },
		);
	/** The poll's reads of its client's list, answered. */
	const polls = () =>
		stack.sandbox.requests.filter(
			(r) =>
				r.path === '/kyc/identifications/' && r.query.clientId === CATCH_UP_CLIENT && r.status > 0,
		).length;
	let lostReceiver: Server;

	beforeAll(async () => {
		// Where a dropped notification goes: answered, and no part of n8n.
		lostReceiver = createServer((req, res) => {
			req.resume();
			req.on('end', () => res.writeHead(200).end());
		});
		await new Promise<void>((resolve) => lostReceiver.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => lostReceiver.close(() => resolve()));
	});

	const sendTo = (target: string) =>
		stack.sandbox.webhooks.configure({
			url: target,
			signingKey: stack.sandbox.credentials.signingKey,
			retryDelaysMs: [],
		});
	async function finished(overall: string): Promise<string> {
		const { scanRef } = stack.sandbox.kyc.createSession(CATCH_UP_CLIENT);
		await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall });
		return scanRef;
	}
	/** The scan references the workflow saved in HubSpot since `mark`, one entry per run of a result. */
	const saved = (mark: number) =>
		sentBy('Save the status in HubSpot', mark)
			.map((r) => r.parameters.additionalFields.customPropertiesUi.customPropertiesValues)
			.filter((values) => values[0].value !== undefined)
			.map((values) => `${values[1].value} ${values[0].value}`);

	test(
		'each result runs once: the delivered ones by the webhook, the dropped ones by the next poll',
		async () => {
			sendTo(url());
			expect(await waitForWebhook(url())).toBe(401);
			const mark = recorder.received.length;
			const delivered = [await finished('DENIED'), await finished('APPROVED')];
			const { port } = lostReceiver.address() as AddressInfo;
			sendTo(`http://127.0.0.1:${port}/`);
			const lost = [await finished('SUSPECTED'), await finished('APPROVED')];
			sendTo(url());
			const expected = [
				`${delivered[0]} DENIED`,
				`${delivered[1]} APPROVED`,
				`${lost[0]} SUSPECTED`,
				`${lost[1]} APPROVED`,
			].sort();

			// A poll a minute: the lost two are in HubSpot within two and a half minutes.
			const deadline = Date.now() + 150_000;
			while (saved(mark).length < expected.length && Date.now() < deadline) await pause(2000);
			expect(saved(mark).sort()).toEqual(expected);
			// The poll after that one runs nothing again.
			const after = polls();
			while (polls() === after && Date.now() < deadline + 90_000) await pause(2000);
			expect(polls()).toBeGreaterThan(after);
			await pause(5000);
			expect(saved(mark).sort()).toEqual(expected);
			// The two not approved went to Slack, each once.
			const alerts = sentBy('Alert compliance on Slack', mark).map((r) => r.parameters.text);
			expect(alerts).toHaveLength(2);
			for (const scanRef of [delivered[0], lost[0]])
				expect(alerts.filter((text: string) => text.includes(scanRef))).toHaveLength(1);
		},
		5 * 60_000,
	);
});

describe(`${FILES.bank}: nightly bank transactions to Google Sheets, one account`, () => {
	const account = { verificationId: SEED.bank.verificationId, accountId: SEED.bank.accountId };
	const bookings = bookingsAround('Jonas Jonaitis');

	beforeEach(() => {
		recorder.sheets.clear();
		recorder.failing.clear();
		stack.sandbox.bank.seedAccount({ ...account, transactions: bookings });
		// One account to pull: one row of the sheet Accounts.
		recorder.sheets.set('Accounts', [{ ...account }]);
	});

	test('appends every transaction booked yesterday once, two identical payments as two rows; running that night again appends nothing', async () => {
		const first = await runNightly(WORKFLOWS.bank.id);
		expect(canBeYesterday()).toContain(first.day);
		const expected = rowsOf(bookings, first.day, account);
		expect(expected).toHaveLength(3);
		expect(sorted(first.rows)).toEqual(sorted(expected));
		expect(first.rows.filter((r) => r['Amount as sent'] === CARD_PAYMENT)).toHaveLength(2);
		expect(ledger()).toEqual(sorted(expected));

		const again = await runNightly(WORKFLOWS.bank.id);
		expect(again.day).toBe(first.day);
		// The day is read again, and skipped whole: it is in the sheet.
		expect(again.listed).toHaveLength(3);
		expect(again.rows).toEqual([]);
		expect(ledger()).toEqual(sorted(expected));
	});

	test('a run whose append failed leaves nothing in the sheet; running that day again appends it whole, once', async () => {
		recorder.failing.add(APPEND);
		const failed = await execute(stack.userFolder, WORKFLOWS.bank.id);
		expect(failed.ok).toBe(false);
		expect(failed.run?.data.resultData.lastNodeExecuted).toBe(APPEND);
		expect(ledger()).toEqual([]);
		recorder.failing.clear();

		const retry = await runNightly(WORKFLOWS.bank.id);
		const expected = rowsOf(bookings, retry.day, account);
		expect(sorted(retry.rows)).toEqual(sorted(expected));
		expect(ledger()).toEqual(sorted(expected));
		expect((await runNightly(WORKFLOWS.bank.id)).rows).toEqual([]);
		expect(ledger()).toEqual(sorted(expected));
	});

	test('after a missed night, "Pull a missed day" appends that day once; a day not over yet is refused', async () => {
		const missed = utcDay(-3);
		const pullMissed = await stack.rest.createWorkflow(submittedForm(WORKFLOWS.bank, missed));
		const first = await runNightly(pullMissed);
		expect(first.day).toBe(missed);
		expect(sorted(first.rows)).toEqual(sorted(rowsOf(bookings, missed, account)));
		expect(first.rows.filter((r) => r['Amount as sent'] === CARD_PAYMENT)).toHaveLength(2);
		expect((await runNightly(pullMissed)).rows).toEqual([]);

		// Tomorrow's UTC day is today or later in every time zone.
		const notOver = await stack.rest.createWorkflow(submittedForm(WORKFLOWS.bank, utcDay(1)));
		const mark = recorder.received.length;
		const refused = await execute(stack.userFolder, notOver);
		expect(refused.ok).toBe(false);
		expect(refused.run?.data.resultData.lastNodeExecuted).toBe('Stop: that day is not over');
		expect(refused.run?.data.resultData.error?.message).toContain('is not a day that is over');
		expect(nodeOutput(refused, 'List Transactions')).toEqual([]);
		expect(recorder.received.slice(mark)).toEqual([]);
		expect(ledger()).toEqual(sorted(rowsOf(bookings, missed, account)));
	});
});

describe(`${FILES.bank}: several accounts, read from the sheet Accounts`, () => {
	test('appends yesterday of every account in the sheet once; an account added later gets that day, the others nothing again', async () => {
		recorder.sheets.clear();
		recorder.failing.clear();
		const owners = ['Ana María Núñez', 'Łukasz Wiśniewski', 'Ελένη Παπαδοπούλου'];
		const accounts = owners.map((owner) => {
			const transactions = bookingsAround(owner);
			return { ...stack.sandbox.bank.seedAccount({ transactions }), transactions };
		});
		const idsOf = (a: (typeof accounts)[number]) => ({
			verificationId: a.verificationId,
			accountId: a.accountId,
		});
		recorder.sheets.set('Accounts', accounts.slice(0, 2).map(idsOf));

		const first = await runNightly(WORKFLOWS.bank.id);
		expect(canBeYesterday()).toContain(first.day);
		const expectedOf = (a: (typeof accounts)[number]) =>
			rowsOf(a.transactions, first.day, idsOf(a));
		const expected = [...expectedOf(accounts[0]), ...expectedOf(accounts[1])];
		expect(expected).toHaveLength(6);
		expect(sorted(first.rows)).toEqual(sorted(expected));

		expect((await runNightly(WORKFLOWS.bank.id)).rows).toEqual([]);

		recorder.sheets.get('Accounts')!.push(idsOf(accounts[2]));
		const third = await runNightly(WORKFLOWS.bank.id);
		expect(third.day).toBe(first.day);
		expect(third.listed).toHaveLength(9);
		expect(sorted(third.rows)).toEqual(sorted(expectedOf(accounts[2])));
		expect(ledger()).toEqual(sorted([...expected, ...expectedOf(accounts[2])]));
	});
});

describe(`${FILES.bankOnConnect}: bank transactions when a person connects their bank`, () => {
	const url = () =>
		productionWebhookUrl(
			stack.n8n.url,
			WORKFLOWS.bankOnConnect.nodes.find((n) => n.type === NODE_TYPES.trigger) as {
				webhookId: string;
			},
		);

	/** The sandbox's BANK_VERIFICATION of `verificationId` with these accounts, sent to the workflow. */
	async function bankConnected(
		verificationId: string,
		accounts: Array<{ accountId: string; owner: string; transactions: BankTransaction[] }>,
	) {
		// n8n registers a published workflow's webhook asynchronously: a delivery before is a 404
		// (the probe, unsigned, is refused and starts nothing).
		await waitForWebhook(url());
		stack.sandbox.webhooks.configure({ url: url(), retryDelaysMs: [] });
		const body = {
			...(stack.sandbox.webhooks.sampleBody('BANK_VERIFICATION') as object),
			id: verificationId,
			accounts: accounts.map((a, i) => ({
				id: a.accountId,
				name: a.owner,
				iban: `LT60101001234567890${i}`,
				currency: 'EUR',
				balancesOverview: { bookedBalance: 1520.35, availableBalance: 1480.1 },
				transactionsCount: a.transactions.length,
			})),
		};
		const before = await executionIds(WORKFLOWS.bankOnConnect.id);
		const delivery = await stack.sandbox.webhooks.send('BANK_VERIFICATION', body);
		expect(delivery.status).toBe('delivered');
		expect((await nextFinished(WORKFLOWS.bankOnConnect.id, before)).status).toBe('success');
		return delivery;
	}

	beforeEach(() => {
		recorder.sheets.clear();
		recorder.failing.clear();
	});

	test('every transaction of each account booked up to yesterday is appended once, two identical payments as two rows; the same delivery again appends nothing', async () => {
		const verificationId = randomUUID();
		const accounts = ['Ana María Núñez', 'Łukasz Wiśniewski'].map((owner) => {
			const transactions = bookingsAround(owner);
			const { accountId } = stack.sandbox.bank.seedAccount({ verificationId, transactions });
			return { accountId, owner, transactions };
		});
		const mark = recorder.received.length;
		const delivery = await bankConnected(verificationId, accounts);

		const rows = sentBy(APPEND, mark).map((r) => {
			expect(r.parameters).toMatchObject({
				operation: 'append',
				sheetName: { mode: 'name', value: 'Transactions' },
				columns: { mappingMode: 'defineBelow' },
			});
			return r.parameters.columns.value as Record<string, string>;
		});
		// The rows of the nightly workflow: every booked transaction up to yesterday in n8n's time
		// zone (today's and those not booked yet are the nightly run's), of both accounts.
		const upTo = (day: string) =>
			accounts.flatMap((a) =>
				a.transactions
					.filter((t) => typeof t.bookingDate === 'string' && t.bookingDate <= day)
					.map((t) => sheetRow(t, { verificationId, accountId: a.accountId })),
			);
		const yesterday = canBeYesterday().find(
			(day) => JSON.stringify(sorted(upTo(day))) === JSON.stringify(sorted(rows)),
		);
		expect([yesterday, rows.length]).toEqual([expect.any(String), upTo(yesterday ?? '').length]);
		const before = utcDay(-3);
		expect(
			rows.filter((r) => r['Booking date'] === before && r['Amount as sent'] === CARD_PAYMENT),
		).toHaveLength(4);
		expect(rows.filter((r) => r['Booking date'] > utcDay(0) || r['Booking date'] === '')).toEqual(
			[],
		);
		expect(ledger()).toEqual(sorted(rows));

		// The service sends it again (or the dashboard resends it): acknowledged, nothing appended.
		const again = recorder.received.length;
		const runs = await executionIds(WORKFLOWS.bankOnConnect.id);
		expect((await stack.sandbox.webhooks.resend(delivery.id)).status).toBe('delivered');
		await pause(1500);
		expect(await executionIds(WORKFLOWS.bankOnConnect.id)).toEqual(runs);
		expect(recorder.received.slice(again)).toEqual([]);
		expect(ledger()).toEqual(sorted(rows));
	});

	test('a delivery without accounts appends nothing', async () => {
		const mark = recorder.received.length;
		await bankConnected(randomUUID(), []);
		expect(recorder.received.slice(mark)).toEqual([]);
	});
});

// ---------------------------------------------------------------------------------------------
// AML: screening new contacts and every month; monitoring alerts triaged in Slack, renewals
// ---------------------------------------------------------------------------------------------

/** Waits (a minute at most) for the stand-in of `name` to have recorded something since `mark`. */
async function recorded(name: string, mark: number): Promise<Recorded> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const [entry] = sentBy(name, mark);
		if (entry) return entry;
		if (Date.now() > deadline) throw new Error(`nothing from "${name}" within 60 s`);
		await pause(250);
	}
}

/** The hit lines the workflows post: `• name (datasets, score n)`. */
const hitLine = (name: string, datasets: string, score: number) =>
	`• ${name} (${datasets}, score ${score})`;

describe(`${FILES.amlScreening}: AML screening of new contacts and every month`, () => {
	const AUDIT = 'AML screening log';
	const SLACK = 'Send the hits to compliance on Slack';
	const webhook = WORKFLOWS.amlScreening.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!;
	const contactUrl = () => `${stack.n8n.url}/webhook/${webhook.parameters.path as string}`;

	beforeEach(() => {
		recorder.sheets.clear();
		recorder.failing.clear();
	});

	/** Posts a new contact as a CRM does; resolves with its execution once it ended. */
	async function newContact(contact: object): Promise<any> {
		const before = await executionIds(WORKFLOWS.amlScreening.id);
		expect(await post(contactUrl(), JSON.stringify(contact))).toBe(200);
		return await nextFinished(WORKFLOWS.amlScreening.id, before);
	}

	test('a new contact on a sanctions list: a row in the audit sheet, and the hits with the check report on Slack', async () => {
		const mark = recorder.received.length;
		const exec = await newContact({
			customerId: 'crm-1001',
			fullName: 'Aleksandr Volkov',
			dateOfBirth: '1968-02-11',
			nationality: 'RU',
		});
		expect(exec.status).toBe('success');
		const [row, ...more] = recorder.sheets.get(AUDIT) ?? [];
		expect(more).toEqual([]);
		expect(row).toMatchObject({
			'Client ID': 'crm-1001',
			Name: 'Aleksandr Volkov',
			Result: 'FLAGS_FOUND',
			Hits: '1',
			'Adverse media': '0',
		});
		const fileName = `aml-check-${row['Check ID']}.pdf`;
		const [slack, ...again] = sentBy(SLACK, mark);
		expect(again).toEqual([]);
		expect(slack.parameters).toMatchObject({
			resource: 'file',
			operation: 'upload',
			options: { fileName, title: 'AML check of Aleksandr Volkov' },
		});
		expect(slack.parameters.options.initialComment).toContain(
			'*Aleksandr Volkov* (Client ID crm-1001): *FLAGS_FOUND*, 1 hit(s)',
		);
		expect(slack.parameters.options.initialComment).toContain(
			hitLine('Aleksandr Volkov', 'SAN_CURRENT, PEP_FORMER', 100),
		);
		expect(slack.files).toEqual([
			{
				field: 'attachment/data',
				name: fileName,
				type: 'application/pdf',
				size: expect.any(Number),
				head: '%PDF-',
			},
		]);
	});

	test('a contact on no list: the audit row says NO_FLAGS, and nothing goes to Slack', async () => {
		const mark = recorder.received.length;
		const exec = await newContact({ customerId: 'crm-1002', fullName: 'Ona Petraitė' });
		expect(exec.status).toBe('success');
		expect(recorder.sheets.get(AUDIT)).toEqual([
			expect.objectContaining({ 'Client ID': 'crm-1002', Result: 'NO_FLAGS', Hits: '0' }),
		]);
		expect(sentBy(SLACK, mark)).toEqual([]);
	});

	test('every month (and Execute workflow): every customer of the sheet screened and recorded; only the one with a hit goes to Slack', async () => {
		recorder.sheets.set('Customers', [
			{ clientId: 'c-1', fullName: 'Ona Petraitė', dateOfBirth: '', nationality: 'LT' },
			{
				clientId: 'c-2',
				fullName: 'Łukasz Müller-Wiśniewski',
				dateOfBirth: '1990-03-17',
				nationality: 'PL',
			},
		]);
		const mark = recorder.received.length;
		const result = await execute(stack.userFolder, WORKFLOWS.amlScreening.id);
		expectSuccess(result);
		expect(
			Object.fromEntries((recorder.sheets.get(AUDIT) ?? []).map((r) => [r['Client ID'], r.Result])),
		).toEqual({ 'c-1': 'NO_FLAGS', 'c-2': 'FLAGS_FOUND' });
		const slack = sentBy(SLACK, mark);
		expect(slack).toHaveLength(1);
		expect(slack[0].parameters.options.initialComment).toContain(
			hitLine('Łukasz Müller-Wiśniewski', 'PEP_CURRENT', 100),
		);
	});
});

describe(`${FILES.amlTriage}: AML monitoring alerts triaged in Slack, renewed on expiry`, () => {
	const ASK = 'Ask the reviewer: stop or keep?';
	const REPORT = 'Post the report to compliance';
	const id = () => WORKFLOWS.amlTriage.id;

	beforeAll(() => {
		const trigger = WORKFLOWS.amlTriage.nodes.find((n) => n.type === NODE_TYPES.trigger)!;
		const url = productionWebhookUrl(stack.n8n.url, trigger as { webhookId: string });
		stack.sandbox.webhooks.configure({ url, retryDelaysMs: [] });
	});

	/** A monitoring of `fullName` seeded, then screened: the service sends AML Monitoring Update. */
	async function screened(fullName: string) {
		const { monitoringId } = stack.sandbox.aml.seedMonitoring({
			isSubscribed: false,
			amlCheck: { clientId: 'crm-2002', userType: 'PERSON', input: { fullName } },
		});
		const before = await executionIds(id());
		const mark = recorder.received.length;
		const delivery = await stack.sandbox.aml.screenMonitoring(monitoringId);
		expect(delivery.status).toBe('delivered');
		return { monitoringId, before, mark };
	}

	/** The reviewer answers the Slack message: posts `{ approved }` to the execution's resume address. */
	async function reviewerAnswers(message: Recorded, approved: boolean): Promise<void> {
		const res = await fetch(message.parameters.resumeUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ approved }),
		});
		await res.arrayBuffer();
		expect(res.status).toBe(200);
	}

	test('a new match: the report goes to Slack, the execution waits for the reviewer, who answers Stop: the monitoring lists as STOPPED', async () => {
		const { monitoringId, before, mark } = await screened('Łukasz Müller-Wiśniewski');
		const message = await recorded(messageOf(ASK), mark);
		expect(message.parameters).toMatchObject({
			operation: 'sendAndWait',
			channelId: { mode: 'name', value: '#compliance' },
			approvalOptions: {
				values: {
					approvalType: 'double',
					approveLabel: 'Stop monitoring',
					disapproveLabel: 'Keep monitoring',
				},
			},
		});
		expect(message.parameters.message).toContain(
			`*Łukasz Müller-Wiśniewski* (monitoring ${monitoringId}) is on ALERT`,
		);
		const [report] = sentBy(REPORT, mark);
		expect(report.parameters.options.initialComment).toContain(
			hitLine('Łukasz Müller-Wiśniewski', 'PEP_CURRENT', 100),
		);
		expect(report.files).toEqual([
			expect.objectContaining({
				name: `aml-monitoring-${monitoringId}.pdf`,
				type: 'application/pdf',
				head: '%PDF-',
			}),
		]);
		// Waiting for the reviewer, as long as it takes.
		const waiting = (await stack.rest.listExecutions(id())).filter((e) => !before.has(e.id));
		expect(waiting.map((e) => e.status)).toEqual(['waiting']);
		expect(stack.sandbox.aml.monitoring(monitoringId)).toMatchObject({ status: 'ALERT' });

		await reviewerAnswers(message, true);
		expect((await nextFinished(id(), before)).status).toBe('success');
		expect(stack.sandbox.aml.monitoring(monitoringId)).toMatchObject({ status: 'STOPPED' });
	});

	test('the reviewer answers Keep: the monitoring stays on ALERT', async () => {
		const { monitoringId, before, mark } = await screened('Łukasz Müller-Wiśniewski');
		await reviewerAnswers(await recorded(messageOf(ASK), mark), false);
		expect((await nextFinished(id(), before)).status).toBe('success');
		expect(stack.sandbox.aml.monitoring(monitoringId)).toMatchObject({ status: 'ALERT' });
	});

	test('a screening that found nothing new asks nobody', async () => {
		const { before, mark } = await screened('Ona Petraitė');
		expect((await nextFinished(id(), before)).status).toBe('success');
		expect(recorder.received.slice(mark)).toEqual([]);
	});

	test('expiring: those that do not renew themselves and expire within 30 days are renewed for a year; the others stay as they are', async () => {
		const in5Days = new Date(Date.now() + 5 * 86_400_000).toISOString();
		const seed = (isSubscribed: boolean, expiration?: string) =>
			stack.sandbox.aml.seedMonitoring(
				{
					isSubscribed,
					amlCheck: {
						clientId: 'crm-3003',
						userType: 'COMPANY',
						input: { companyName: 'Baltic Widgets UAB' },
					},
				},
				{ expiration },
			).monitoringId;
		const expiring = seed(false, in5Days);
		const renewing = seed(true, in5Days);
		const later = seed(false);
		const before = await executionIds(id());
		const delivery = await stack.sandbox.aml.sendExpiration();
		expect(delivery.status).toBe('delivered');
		expect((await nextFinished(id(), before)).status).toBe('success');
		const renewed = stack.sandbox.aml.monitoring(expiring)!;
		expect(renewed.isSubscribed).toBe(true);
		expect(Date.parse(String(renewed.expiration))).toBeGreaterThan(
			Date.parse(in5Days) + 360 * 86_400_000,
		);
		expect(stack.sandbox.aml.monitoring(renewing)).toMatchObject({
			isSubscribed: true,
			expiration: in5Days,
		});
		expect(stack.sandbox.aml.monitoring(later)).toMatchObject({ isSubscribed: false });
	});
});

describe(`${FILES.link}: a verification link by e-mail`, () => {
	const signup = WORKFLOWS.link.nodes.find((n) => n.type === 'n8n-nodes-base.webhook')!;
	const signupUrl = () => `${stack.n8n.url}/webhook/${signup.parameters.path as string}`;

	test('a sign-up creates the token with its customer id and e-mails the person the verificationUrl', async () => {
		const customerId = 'link-by-email';
		const email = `${customerId}@example.com`;
		const mark = recorder.received.length;
		const before = await executionIds(WORKFLOWS.link.id);
		expect(await post(signupUrl(), JSON.stringify({ customerId, email }))).toBe(200);
		const exec = await nextFinished(WORKFLOWS.link.id, before);
		expect(exec.status).toBe('success');
		const token = exec.data.resultData.runData['Create Verification Token'][0].data.main[0][0].json;
		expect(stack.sandbox.kyc.get(token.scanRef)?.clientId).toBe(customerId);
		// The sandbox's page for this token, which the person opens.
		expect(token.verificationUrl).toBe(
			`${stack.sandbox.url}/api/v2/redirect?authToken=${encodeURIComponent(token.authToken)}`,
		);
		expect(sentBy('E-mail the verification link', mark).map((r) => r.parameters)).toEqual([
			expect.objectContaining({
				toEmail: email,
				text: expect.stringContaining(`\n${token.verificationUrl}\n`),
			}),
		]);
	});
});

describe.each([
	[FILES.proofOfAddress, 'Check Proof of Address'],
	[FILES.kyb, 'Submit Form'],
])('%s', (file, last) => {
	test(`runs to ${last} without error, as the demo runs it`, async () => {
		const workflow = Object.values(WORKFLOWS).find((w) => w.id === read(file).id)!;
		const result = await execute(stack.userFolder, workflow.id);
		expectSuccess(result);
		expect(result.run?.data.resultData.lastNodeExecuted).toBe(last);
		expect(nodeOutput(result, last)).toHaveLength(1);
	});
});

// ---------------------------------------------------------------------------------------------
// A person's records: an erasure request, evidence on approval, re-verification
// ---------------------------------------------------------------------------------------------

/** A receiver that takes the sandbox's webhooks when no workflow should (answers 200). */
async function startSink(): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => {
		req.resume();
		req.on('end', () => res.writeHead(200).end());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sink`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A finished verification of `clientId` at the sandbox (its webhook goes to `url`). */
async function finishedVerification(clientId: string, url: string, overall = 'APPROVED') {
	stack.sandbox.webhooks.configure({ url, retryDelaysMs: [] });
	const { scanRef } = stack.sandbox.kyc.createSession(clientId);
	const delivery = await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall });
	return { scanRef, delivery };
}

describe(`${FILES.erasure}: an erasure request`, () => {
	const FORM = 'Erasure request';
	const AUDIT = 'Add to the audit sheet';
	const CONFIRM = 'Confirm to the requester';
	let sink: Awaited<ReturnType<typeof startSink>>;
	beforeAll(async () => {
		sink = await startSink();
	});
	afterAll(async () => {
		await sink?.close();
	});

	/** The workflow as it runs when its form is submitted (its fields and submittedAt). */
	function submitted(clientId: string, requester: string) {
		expect(formLabels(WORKFLOWS.erasure, FORM)).toEqual(['Client ID', "Requester's e-mail"]);
		return formRun(WORKFLOWS.erasure, FORM, `(${clientId})`, {
			'Client ID': clientId,
			"Requester's e-mail": requester,
			submittedAt: '2026-11-27T10:00:00.000+00:00',
		});
	}

	/** Submits the request once; returns the audit rows and the e-mails it sent. */
	async function request(workflowId: string) {
		const mark = recorder.received.length;
		const result = await execute(stack.userFolder, workflowId);
		expectSuccess(result);
		const rows = sentBy(AUDIT, mark).map((r) => {
			expect(r.parameters).toMatchObject({
				operation: 'append',
				sheetName: { mode: 'name', value: 'Erasures' },
			});
			return r.parameters.columns.value as Record<string, string>;
		});
		return { rows, mails: sentBy(CONFIRM, mark).map((r) => r.parameters) };
	}

	test('erases every verification of the client: a row each, one e-mail; again: already deleted; a link still in use is not deleted yet and says so', async () => {
		const clientId = 'erase-me';
		const first = await finishedVerification(clientId, sink.url);
		const second = await finishedVerification(clientId, sink.url, 'DENIED');
		const { scanRef: active } = stack.sandbox.kyc.createSession(clientId);
		await finishedVerification('someone-else', sink.url);
		const id = await stack.rest.createWorkflow(submitted(clientId, 'dpo@example.com'));

		const { rows, mails } = await request(id);
		const byRef = Object.fromEntries(rows.map((row) => [row['Scan reference'], row]));
		expect(Object.keys(byRef).sort()).toEqual([first.scanRef, second.scanRef, active].sort());
		for (const scanRef of [first.scanRef, second.scanRef]) {
			expect(byRef[scanRef]).toMatchObject({
				'Requested at': '2026-11-27T10:00:00.000+00:00',
				'Client ID': clientId,
				Requester: 'dpo@example.com',
				Result: 'deleted',
				Workflow: expect.stringContaining(WORKFLOWS.erasure.name),
			});
			expect(byRef[scanRef]['Erased at']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
			expect(byRef[scanRef].Execution).toMatch(/^\d+$/);
			expect(stack.sandbox.kyc.get(scanRef)?.deletedAt).toBeDefined();
		}
		expect(byRef[active].Result).toContain('not deleted: ');
		expect(byRef[active].Result).toContain('link has not expired');
		expect(byRef[active]['Erased at']).toBe('');
		expect(stack.sandbox.kyc.get(active)?.deletedAt).toBeUndefined();
		expect(mails).toHaveLength(1);
		expect(mails[0]).toMatchObject({
			toEmail: 'dpo@example.com',
			subject: `Your erasure request for client ${clientId}`,
		});
		expect(mails[0].text).toContain(`- verification ${first.scanRef}: deleted`);
		expect(mails[0].text).toContain(`- verification ${active}: not deleted`);

		// Once the link has expired, the same request erases the rest; the others were deleted before.
		await stack.sandbox.kyc.expire(active);
		const again = await request(id);
		const results = Object.fromEntries(
			again.rows.map((row) => [row['Scan reference'], row.Result]),
		);
		expect(results).toEqual({
			[first.scanRef]: 'already deleted',
			[second.scanRef]: 'already deleted',
			[active]: 'deleted',
		});
		expect(again.mails).toHaveLength(1);
	});

	test('a client without verifications: one row and an e-mail saying so, nothing deleted', async () => {
		const id = await stack.rest.createWorkflow(submitted('never-verified', 'dpo@example.com'));
		const { rows, mails } = await request(id);
		expect(rows).toEqual([
			expect.objectContaining({
				'Client ID': 'never-verified',
				'Scan reference': '',
				Result: 'no verification of this client',
			}),
		]);
		expect(mails).toHaveLength(1);
		expect(mails[0].text).toContain('- no verification of this client');
	});
});

describe(`${FILES.retention}: the retention purge`, () => {
	const AUDIT = 'Add to the audit sheet';

	/** A verification of `clientId` the person started `days` days ago, finished with `overall`. */
	function verifiedDaysAgo(clientId: string, days: number, overall = 'APPROVED') {
		const startedAt = Date.now() - days * DAY_MS;
		const { scanRef } = stack.sandbox.kyc.seedFinished(clientId, { startedAt, overall });
		return { scanRef, startedAt };
	}

	/** One run (`n8n execute`) that must succeed; its audit rows by scan reference. */
	async function purge(workflowId: string) {
		const mark = recorder.received.length;
		expectSuccess(await execute(stack.userFolder, workflowId));
		const rows = sentBy(AUDIT, mark).map((r) => {
			expect(r.parameters).toMatchObject({
				operation: 'append',
				sheetName: { mode: 'name', value: 'Retention purge' },
			});
			return r.parameters.columns.value as Record<string, string>;
		});
		return Object.fromEntries(rows.map((row) => [row['Scan reference'], row]));
	}

	/** The workflow with another value in its Retention (days) field. */
	function withRetention(days: number) {
		const copy = runnable(WORKFLOWS.retention, recorder.url);
		const retention = copy.nodes.find((n) => n.name === 'Retention') as any;
		retention.parameters.assignments.assignments[0].value = days;
		return {
			name: `${copy.name} (${days} days)`,
			nodes: copy.nodes,
			connections: copy.connections,
			settings: (WORKFLOWS.retention as Workflow & { settings?: object }).settings,
		};
	}

	test('erases exactly the verifications older than the retention, a row each; one not deletable yet says why and does not stop the others; erased ones are not read again', async () => {
		const old = verifiedDaysAgo('retention-old', 2000);
		const oldDenied = verifiedDaysAgo('retention-old-denied', 1900, 'DENIED');
		// An old verification whose re-upload link is in use: the service refuses to delete it yet.
		const reupload = verifiedDaysAgo('retention-reupload', 2000);
		stack.sandbox.kyc.requestInformation(reupload.scanRef);
		const erasedBefore = verifiedDaysAgo('retention-erased-before', 2100);
		const erase = await call(stack.sandbox, 'POST', '/api/v2/delete', {
			body: { scanRef: erasedBefore.scanRef },
		});
		expect(erase.status).toBe(200);
		const recent = verifiedDaysAgo('retention-recent', 1000);
		const today = verifiedDaysAgo('retention-today', 0);

		const rows = await purge(WORKFLOWS.retention.id);
		expect(Object.keys(rows).sort()).toEqual(
			[old.scanRef, oldDenied.scanRef, reupload.scanRef].sort(),
		);
		for (const [verification, clientId] of [
			[old, 'retention-old'],
			[oldDenied, 'retention-old-denied'],
		] as const) {
			const row = rows[verification.scanRef];
			expect(row).toMatchObject({
				'Client ID': clientId,
				Result: 'erased',
				Workflow: WORKFLOWS.retention.name,
			});
			// The service's start time, to the second.
			expect(Math.abs(Date.parse(row['Verified on']) - verification.startedAt)).toBeLessThan(1000);
			expect(row['Erased at']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
			expect(row.Execution).toMatch(/^\d+$/);
			expect(stack.sandbox.kyc.get(verification.scanRef)?.deletedAt).toBeDefined();
		}
		expect(rows[reupload.scanRef]['Client ID']).toBe('retention-reupload');
		expect(rows[reupload.scanRef].Result).toContain('not erased: ');
		expect(rows[reupload.scanRef].Result).toContain('link has not expired');
		expect(rows[reupload.scanRef]['Erased at']).toBe('');
		for (const kept of [reupload, recent, today])
			expect(stack.sandbox.kyc.get(kept.scanRef)?.deletedAt).toBeUndefined();

		// The next day: only the one not erased yet is tried again.
		expect(Object.keys(await purge(WORKFLOWS.retention.id))).toEqual([reupload.scanRef]);

		// A shorter retention set in the Retention field: the 1000-day-old one goes too.
		const shorter = await stack.rest.createWorkflow(withRetention(900));
		expect(Object.keys(await purge(shorter)).sort()).toEqual(
			[recent.scanRef, reupload.scanRef].sort(),
		);
		expect(stack.sandbox.kyc.get(recent.scanRef)?.deletedAt).toBeDefined();
		expect(stack.sandbox.kyc.get(today.scanRef)?.deletedAt).toBeUndefined();
	});
});

describe(`${FILES.evidence}: evidence on approval`, () => {
	const trigger = () =>
		WORKFLOWS.evidence.nodes.find((n) => n.type === NODE_TYPES.trigger) as { webhookId: string };

	test('an approved result: a folder named after it gets the report PDF and each photo, by its real type', async () => {
		const url = productionWebhookUrl(stack.n8n.url, trigger());
		const mark = recorder.received.length;
		const before = await executionIds(WORKFLOWS.evidence.id);
		const { scanRef, delivery } = await finishedVerification('evidence-client', url);
		expect(delivery.status).toBe('delivered');
		expect((await nextFinished(WORKFLOWS.evidence.id, before)).status).toBe('success');

		const [folder, ...moreFolders] = sentBy('Create a folder for the verification', mark);
		expect(moreFolders).toEqual([]);
		expect(folder.parameters).toMatchObject({
			resource: 'folder',
			name: `evidence-client ${scanRef}`,
		});
		const folderId = `folder-evidence-client ${scanRef}`;
		const [report, ...moreReports] = sentBy('Upload the report', mark);
		expect(moreReports).toEqual([]);
		expect(report.parameters).toMatchObject({
			name: `report-${scanRef}.pdf`,
			folderId: { mode: 'id', value: folderId },
		});
		expect(report.files).toEqual([
			expect.objectContaining({
				name: `report-${scanRef}.pdf`,
				type: 'application/pdf',
				head: '%PDF-',
			}),
		]);
		const photos = sentBy('Upload each photo', mark).map((r) => {
			expect(r.parameters.folderId).toMatchObject({ mode: 'id', value: folderId });
			return [r.parameters.name, r.files.map((f) => [f.name, f.type])];
		});
		expect(photos.sort()).toEqual(
			[
				// Named with the scanRef, so photos kept together in a folder still say whose they are.
				[`${scanRef}-BACK.png`, [[`${scanRef}-BACK.png`, 'image/png']]],
				[`${scanRef}-FACE.jpg`, [[`${scanRef}-FACE.jpg`, 'image/jpeg']]],
				[`${scanRef}-FRONT.png`, [[`${scanRef}-FRONT.png`, 'image/png']]],
			].sort(),
		);
	});

	test('a result that is not approved keeps nothing', async () => {
		const url = productionWebhookUrl(stack.n8n.url, trigger());
		const mark = recorder.received.length;
		const before = await executionIds(WORKFLOWS.evidence.id);
		await finishedVerification('denied-client', url, 'DENIED');
		expect((await nextFinished(WORKFLOWS.evidence.id, before)).status).toBe('success');
		expect(recorder.received.slice(mark)).toEqual([]);
	});
});

describe(`${FILES.evidencePack}: the evidence pack of one customer`, () => {
	const FORM = 'Evidence pack request';
	let sink: Awaited<ReturnType<typeof startSink>>;
	beforeAll(async () => {
		sink = await startSink();
	});
	afterAll(async () => {
		await sink?.close();
	});

	/** The workflow as it runs when its form is submitted with `clientId`. */
	function submitted(clientId: string) {
		expect(formLabels(WORKFLOWS.evidencePack, FORM)).toEqual(['Client ID']);
		return formRun(WORKFLOWS.evidencePack, FORM, `(${clientId})`, { 'Client ID': clientId });
	}

	test('one folder named after the Client ID gets the report and every photo of each finished verification of that client, none of another client', async () => {
		const clientId = 'pack-client';
		const approved = await finishedVerification(clientId, sink.url);
		const denied = await finishedVerification(clientId, sink.url, 'DENIED');
		const { scanRef: inProgress } = stack.sandbox.kyc.createSession(clientId);
		const other = await finishedVerification('pack-someone-else', sink.url);

		const mark = recorder.received.length;
		expectSuccess(
			await execute(stack.userFolder, await stack.rest.createWorkflow(submitted(clientId))),
		);

		expect(sentBy('Create the client’s folder', mark).map((r) => r.parameters)).toEqual([
			expect.objectContaining({ resource: 'folder', name: clientId }),
		]);
		const inFolder = (name: string) =>
			sentBy(name, mark).map((r) => {
				expect(r.parameters.folderId).toMatchObject({ mode: 'id', value: `folder-${clientId}` });
				return [r.parameters.name, r.files.map((f) => [f.name, f.type, f.head.slice(0, 4)])];
			});
		const mine = [approved.scanRef, denied.scanRef];
		expect(inFolder('Upload the report').sort()).toEqual(
			mine
				.map((ref) => [`report-${ref}.pdf`, [[`report-${ref}.pdf`, 'application/pdf', '%PDF']]])
				.sort(),
		);
		expect(
			inFolder('Upload each photo')
				.map(([name]) => name)
				.sort(),
		).toEqual(
			mine.flatMap((ref) => [`${ref}-BACK.png`, `${ref}-FACE.jpg`, `${ref}-FRONT.png`]).sort(),
		);
		const everything = JSON.stringify(recorder.received.slice(mark));
		expect(everything).not.toContain(other.scanRef);
		expect(everything).not.toContain(inProgress);
	});
});

describe(`${FILES.reverification}: re-verification when a document expires`, () => {
	const url = () =>
		productionWebhookUrl(
			stack.n8n.url,
			WORKFLOWS.reverification.nodes.find((n) => n.type === NODE_TYPES.trigger) as {
				webhookId: string;
			},
		);

	/** Delivers a signed DOCUMENT_EXPIRATION of `clientId` at `threshold`; waits for its run. */
	async function documentExpires(clientId: string, threshold: string) {
		const body = {
			...(stack.sandbox.webhooks.sampleBody('DOCUMENT_EXPIRATION') as object),
			clientId,
			expirationThreshold: threshold,
			documentExpiration: '2026-12-24',
		};
		const payload = JSON.stringify(body);
		const before = await executionIds(WORKFLOWS.reverification.id);
		const status = await post(url(), payload, {
			'service-event-type': 'DOCUMENT_EXPIRATION',
			'service-signature': sign(payload, stack.sandbox.credentials.signingKey),
		});
		expect(status).toBe(200);
		const exec = await nextFinished(WORKFLOWS.reverification.id, before);
		expect(exec.status).toBe('success');
		return exec as { id: string };
	}

	test('the first notice creates a new verification of that client and e-mails its link; a later notice sends nothing', async () => {
		const clientId = 'document-expires';
		const mark = recorder.received.length;
		const last = await documentExpires(clientId, 'DOCUMENT_EXPIRES_WITHIN_30_DAYS');
		const [mail, ...more] = sentBy('E-mail the new verification link', mark);
		expect(more).toEqual([]);
		expect(mail.parameters.toEmail).toBe(`${clientId}@example.com`);
		// The link of a new verification of that client at the service.
		const exec = await stack.rest.getExecution(last.id);
		const token = exec.data.resultData.runData['Create Verification Token'][0].data.main[0][0].json;
		expect(stack.sandbox.kyc.get(token.scanRef)?.clientId).toBe(clientId);
		expect(mail.parameters.text).toContain(`\n${token.verificationUrl}\n`);
		expect(token.verificationUrl).toBe(
			`${stack.sandbox.url}/api/v2/redirect?authToken=${encodeURIComponent(token.authToken)}`,
		);
		expect(mail.parameters.text).toContain('expires on 2026-12-24');

		const later = recorder.received.length;
		await documentExpires(clientId, 'DOCUMENT_EXPIRES_WITHIN_7_DAYS');
		expect(recorder.received.slice(later)).toEqual([]);
	});
});

describe(`${FILES.abandonment}: a reminder when a verification is abandoned`, () => {
	const MAIL = 'E-mail the new verification link';
	const url = () =>
		productionWebhookUrl(
			stack.n8n.url,
			WORKFLOWS.abandonment.nodes.find((n) => n.type === NODE_TYPES.trigger) as {
				webhookId: string;
			},
		);

	// The sandbox delivers once: wait until n8n has registered the published webhook.
	beforeAll(async () => {
		await waitForWebhook(url());
	});

	/** A verification of `clientId` the sandbox ends (expired or cancelled); its run's e-mails. */
	async function abandoned(clientId: string, how: 'expire' | 'cancel') {
		stack.sandbox.webhooks.configure({ url: url(), retryDelaysMs: [] });
		const { scanRef } = stack.sandbox.kyc.createSession(clientId);
		const mark = recorder.received.length;
		const before = await executionIds(WORKFLOWS.abandonment.id);
		const delivery = await stack.sandbox.kyc[how](scanRef);
		expect(delivery.status).toBe('delivered');
		const exec = await nextFinished(WORKFLOWS.abandonment.id, before);
		expect(exec.status).toBe('success');
		return { exec, mails: sentBy(MAIL, mark).map((r) => r.parameters) };
	}

	/** The token the run created, checked to be a new verification of that client. */
	function newToken(exec: any, clientId: string) {
		const token = exec.data.resultData.runData['Create Verification Token'][0].data.main[0][0].json;
		expect(stack.sandbox.kyc.get(token.scanRef)?.clientId).toBe(clientId);
		return token as { verificationUrl: string; scanRef: string };
	}

	test('three expirations of one client: a new link e-mailed twice, then nothing; a cancelled verification of another client gets its own', async () => {
		const clientId = 'abandons-thrice';
		for (const n of [1, 2]) {
			const { exec, mails } = await abandoned(clientId, 'expire');
			expect([n, mails.length]).toEqual([n, 1]);
			expect(mails[0].toEmail).toBe(`${clientId}@example.com`);
			expect(mails[0].text).toContain(`\n${newToken(exec, clientId).verificationUrl}\n`);
		}
		const third = await abandoned(clientId, 'expire');
		expect(third.mails).toEqual([]);
		expect(third.exec.data.resultData.runData['Create Verification Token']).toBeUndefined();

		const other = await abandoned('abandons-once', 'cancel');
		expect(other.mails).toHaveLength(1);
		expect(other.mails[0].toEmail).toBe('abandons-once@example.com');
		const otherToken = newToken(other.exec, 'abandons-once');
		expect(other.mails[0].text).toContain(otherToken.verificationUrl);

		// The sheet the workflow counts by: a row per reminder sent.
		const rows = recorder.sheets.get('Reminders') ?? [];
		expect(rows.filter((r) => r['Client ID'] === clientId).map((r) => r.Reason)).toEqual([
			'expired',
			'expired',
		]);
		expect(rows.filter((r) => r['Client ID'] === 'abandons-once')).toEqual([
			expect.objectContaining({ Reason: 'cancelled', 'New scan reference': otherToken.scanRef }),
		]);
		expect(rows.at(-1)?.['Sent at']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
	});
});

describe(`${FILES.kybEvents}: the company events a compliance team acts on`, () => {
	const id = () => WORKFLOWS.kybEvents.id;

	beforeAll(() => {
		const trigger = WORKFLOWS.kybEvents.nodes.find((n) => n.type === NODE_TYPES.trigger)!;
		const url = productionWebhookUrl(stack.n8n.url, trigger as { webhookId: string });
		// Retried while n8n registers the published webhook (it answers 404 until then).
		stack.sandbox.webhooks.configure({ url, retryDelaysMs: [1000, 2000, 4000] });
	});

	/** The run `act` starts (a delivery the sandbox sends), which must succeed; what it sent. */
	async function runOf(act: () => Promise<unknown>) {
		const mark = recorder.received.length;
		const before = await executionIds(id());
		await act();
		const exec = await nextFinished(id(), before);
		expect([exec.status, exec.data?.resultData?.error?.message]).toEqual(['success', undefined]);
		return { exec, sent: recorder.received.slice(mark) };
	}

	/** The output of a node in a run. */
	const outputOf = (exec: any, name: string) =>
		exec.data.resultData.runData[name][0].data.main[0].map((i: { json: any }) => i.json);

	/** A company that submitted its form from a session of the deal `clientId`: its ID. */
	async function submittedCompany(clientId: string): Promise<string> {
		const session = await call(stack.sandbox, 'POST', '/kyb/tokens/', {
			body: { tokenType: 'FORM', clientId },
		});
		expect(session.status).toBe(201);
		const { tokenString } = session.json as { tokenString: string };
		const { companyId } = await stack.sandbox.kyb.submitSession(tokenString, {
			companyName: 'UAB Baltic Widgets',
		});
		return companyId;
	}

	test('Company Reviewed: the PDF report goes to Google Drive, the decision and the company to the deal', async () => {
		const companyId = await submittedCompany('deal-2001');
		const { sent } = await runOf(async () => {
			const res = await call(stack.sandbox, 'POST', `/kyb/companies/${companyId}/change-status/`, {
				body: {
					status: 'COMPLETED',
					reviewInfo: { approvalStatus: 'DENIED', denyReason: 'Owner not verified' },
				},
			});
			expect(res.status).toBe(200);
		});
		expect(sent.map((r) => r.node)).toEqual([
			'Archive the PDF in Google Drive',
			'Save the decision in HubSpot',
		]);
		const [pdf, deal] = sent;
		expect(pdf.files).toEqual([
			expect.objectContaining({ type: 'application/pdf', head: '%PDF-' }),
		]);
		expect(pdf.parameters.name).toBe(pdf.files[0].name);
		expect(deal.parameters).toMatchObject({
			resource: 'deal',
			operation: 'update',
			dealId: { mode: 'id', value: 'deal-2001' },
			updateFields: {
				customPropertiesUi: {
					customPropertiesValues: [
						{ property: 'kyb_status', value: 'DENIED' },
						{ property: 'kyb_deny_reason', value: 'Owner not verified' },
						{ property: 'kyb_company_id', value: companyId },
					],
				},
			},
		});
	});

	test('Company AML Review: the company’s AML result, each owner’s statuses, goes to the reviewer on Slack', async () => {
		const companyId = stack.sandbox.kyb.addCompany({ companyName: 'UAB Šiaurės Prekyba' });
		const body = {
			...(stack.sandbox.webhooks.sampleBody('COMPANY_AML_REVIEW') as object),
			companyId,
		};
		const { sent } = await runOf(() => stack.sandbox.webhooks.send('COMPANY_AML_REVIEW', body));
		const [slack, ...more] = sent;
		expect(more).toEqual([]);
		expect(slack).toMatchObject({
			node: 'Tell the reviewer on Slack',
			parameters: { operation: 'post', channelId: { mode: 'name', value: '#kyb-review' } },
		});
		const text = slack.parameters.text as string;
		expect(text).toContain('AML review of *UAB Šiaurės Prekyba* (305123456, LT)');
		expect(text).toContain("the beneficiary's AML status to *FALSE_POSITIVE*");
		expect(text).toContain('*Company screening:* not screened');
		expect(text).toContain('• Jonas Jonaitis: NOT_CHECKED, NOT_CHECKED, NOT_CHECKED\n');
		expect(text).toContain('• Ona Onaitė: NOT_CHECKED, NOT_CHECKED, NOT_CHECKED\n');
		expect(text).toContain(`Company ID: ${companyId}`);
	});

	test('Company Information Requested: the company is e-mailed its form link, built from the token as Create Session builds it; a cancelled request sends nothing', async () => {
		const body = stack.sandbox.webhooks.sampleBody('COMPANY_INFO_REQUEST') as {
			token: string;
			email: string;
		};
		const { sent } = await runOf(() => stack.sandbox.webhooks.send('COMPANY_INFO_REQUEST', body));
		const [mail, ...more] = sent;
		expect(more).toEqual([]);
		expect(mail.node).toBe('E-mail the company its form link');
		expect(mail.parameters.toEmail).toBe(body.email);
		expect(mail.parameters.text).toContain(`\n${kybFormLink(body.token)}\n`);

		const cancelled = { ...body, status: 'CANCELED' };
		const later = await runOf(() => stack.sandbox.webhooks.send('COMPANY_INFO_REQUEST', cancelled));
		expect(later.sent).toEqual([]);
	});

	test('Company Verification Expiring: a new KYB session for the company’s deal, its link e-mailed to the deal’s contact', async () => {
		const companyId = stack.sandbox.kyb.addCompany({ clientId: 'deal-expiring' });
		const { exec, sent } = await runOf(() =>
			stack.sandbox.webhooks.send('COMPANY_EXPIRATION', {
				id: companyId,
				expirationStatus: 'PENDING',
			}),
		);
		expect(sent.map((r) => r.node)).toEqual([
			'Find the deal of the company',
			'E-mail the new KYB link',
		]);
		const [search, mail] = sent;
		expect(search.parameters).toMatchObject({
			resource: 'deal',
			operation: 'search',
			filterGroupsUi: {
				filterGroupsValues: [
					{
						filtersUi: {
							filterValues: [
								{ propertyName: 'kyb_company_id|string', operator: 'EQ', value: companyId },
							],
						},
					},
				],
			},
		});
		const [session] = outputOf(exec, 'Create a new KYB session');
		expect(session.clientId).toBe(`deal-${companyId}`);
		expect(session.formUrl).toBe(kybFormLink(session.tokenString));
		expect(mail.parameters).toMatchObject({
			toEmail: `${companyId}@example.com`,
			subject: 'Please renew the business verification of Baltic Widgets – business account',
		});
		expect(mail.parameters.text).toContain('expires soon');
		expect(mail.parameters.text).toContain(`\n${session.formUrl}\n`);
	});

	test('Company Deleted: the company’s deal is marked DELETED', async () => {
		const companyId = await submittedCompany('deal-2002');
		const { sent } = await runOf(async () => {
			const res = await call(stack.sandbox, 'DELETE', `/kyb/companies/${companyId}/`);
			expect(res.status).toBe(204);
		});
		expect(sent.map((r) => r.node)).toEqual([
			'Find the deal of the deleted company',
			'Mark the deal: company deleted',
		]);
		expect(sent[0].parameters.filterGroupsUi.filterGroupsValues[0].filtersUi.filterValues).toEqual([
			{ propertyName: 'kyb_company_id|string', operator: 'EQ', value: companyId },
		]);
		expect(sent[1].parameters).toMatchObject({
			operation: 'update',
			dealId: { mode: 'id', value: `deal-${companyId}` },
			updateFields: {
				customPropertiesUi: {
					customPropertiesValues: [{ property: 'kyb_status', value: 'DELETED' }],
				},
			},
		});
	});

	test('Registry Document Delivered: the document is downloaded and uploaded to Google Drive', async () => {
		const documentId = stack.sandbox.kyb.orderGovDocument();
		const { exec, sent } = await runOf(async () => stack.sandbox.kyb.deliverGovOrder(documentId));
		// The trigger names no company for it: the body's id is the document's.
		const [event] = outputOf(exec, 'Identity Verification Trigger');
		expect(event).toMatchObject({ eventType: 'GOV_ORDERED_DOCUMENT', body: { id: documentId } });
		expect(event).not.toHaveProperty('companyId');
		const [upload, ...more] = sent;
		expect(more).toEqual([]);
		expect(upload.node).toBe('Upload the document to Google Drive');
		expect(upload.files).toEqual([
			expect.objectContaining({ type: 'application/pdf', head: '%PDF-' }),
		]);
		expect(upload.parameters.name).toBe(upload.files[0].name);
		expect(upload.parameters.name).toContain(documentId);
	});

	test('SOS Filing Report Delivered: a message on Slack', async () => {
		const body = stack.sandbox.webhooks.sampleBody('SOS_REPORT') as { reportFile: string };
		const { sent } = await runOf(() => stack.sandbox.webhooks.send('SOS_REPORT', body));
		const [slack, ...more] = sent;
		expect(more).toEqual([]);
		expect(slack.node).toBe('Post the SOS report to Slack');
		expect(slack.parameters.text).toContain(
			'Secretary of State filing report of *Müller & Søn Trading LLC* (LLC, formed 2016-08-01): FINISHED, 0 watchlist hits.',
		);
		expect(slack.parameters.text).toContain(`Report: ${body.reportFile}`);
	});
});

describe(`${FILES.reupload}: a re-upload request when a result is denied or suspected`, () => {
	const MAIL = 'E-mail the re-upload link';
	const FIND = 'Find the customer in HubSpot';
	const url = () =>
		productionWebhookUrl(
			stack.n8n.url,
			WORKFLOWS.reupload.nodes.find((n) => n.type === NODE_TYPES.trigger) as {
				webhookId: string;
			},
		);

	/**
	 * A verification of `clientId` the service finishes with `overall` (`byReviewer`: a preliminary
	 * automated result, then the reviewer's), its results sent to the workflow; waits for the run.
	 */
	async function finished(clientId: string, overall: string, byReviewer = false) {
		await waitForWebhook(url());
		stack.sandbox.webhooks.configure({ url: url(), retryDelaysMs: [] });
		const { scanRef } = stack.sandbox.kyc.createSession(clientId);
		const before = await executionIds(WORKFLOWS.reupload.id);
		let delivery;
		if (byReviewer) {
			await stack.sandbox.kyc.autoFinish(scanRef, { final: false, overall: 'SUSPECTED' });
			delivery = await stack.sandbox.kyc.manualFinish(scanRef, { overall });
		} else {
			delivery = await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall });
		}
		expect(delivery?.status).toBe('delivered');
		const exec = await nextFinished(WORKFLOWS.reupload.id, before);
		expect(exec.status).toBe('success');
		// One run: a preliminary result was acknowledged and skipped.
		const fresh = [...(await executionIds(WORKFLOWS.reupload.id))].filter((id) => !before.has(id));
		expect(fresh).toEqual([exec.id]);
		return { scanRef, exec };
	}

	test('DENIED: information is requested and the person is e-mailed its re-upload link, valid 7 days; nothing is blocklisted', async () => {
		const clientId = 'reupload-denied';
		const mark = recorder.received.length;
		const { scanRef, exec } = await finished(clientId, 'DENIED');
		const session = stack.sandbox.kyc.get(scanRef)!;
		expect(session.state).toBe('REUPLOAD_REQUESTED');
		expect(session.blocklists).toEqual({});
		expect(session.expiresAt - Date.now()).toBeGreaterThan(6.9 * DAY_MS);
		const asked = exec.data.resultData.runData['Request Information'][0].data.main[0][0].json;
		// The sandbox's page for the new token, which the person opens to upload again.
		expect(asked.sessionUrl).toBe(
			`${stack.sandbox.url}/api/v2/redirect?authToken=${encodeURIComponent(session.authToken)}`,
		);
		expect(sentBy(FIND, mark).map((r) => r.parameters.filterGroupsUi)).toEqual([
			{
				filterGroupsValues: [
					{
						filtersUi: {
							filterValues: [{ propertyName: 'client_id|string', operator: 'EQ', value: clientId }],
						},
					},
				],
			},
		]);
		expect(sentBy(MAIL, mark).map((r) => r.parameters)).toEqual([
			expect.objectContaining({
				toEmail: `${clientId}@example.com`,
				text: expect.stringContaining(`\n${asked.sessionUrl}\n`),
			}),
		]);
	});

	test('SUSPECTED by the reviewer, with fraud tags: added to the selfie blocklist, nobody asked to upload again; the same person caught by it later is added too', async () => {
		const clientId = 'reupload-fraud';
		const mark = recorder.received.length;
		const { scanRef } = await finished(clientId, 'SUSPECTED', true);
		const session = stack.sandbox.kyc.get(scanRef)!;
		expect(Object.keys(session.blocklists)).toEqual(['SELFIE']);
		expect(session.blocklists.SELFIE?.reason).toContain('SUSPECTED with fraud tags FACE_SUSPECTED');
		expect(session.state).toBe('FINISHED');
		expect(recorder.received.slice(mark)).toEqual([]);

		// Approved by the checks, then caught by the blocklist: SUSPECTED, tagged Face_Blacklisted.
		const repeat = await finished(clientId, 'APPROVED');
		const item =
			repeat.exec.data.resultData.runData['Identity Verification Trigger'][0].data.main[0][0].json;
		expect(item).toMatchObject({
			overallStatus: 'SUSPECTED',
			decision: { fraudTags: ['Face_Blacklisted'] },
		});
		expect(Object.keys(stack.sandbox.kyc.get(repeat.scanRef)!.blocklists)).toEqual(['SELFIE']);
		expect(recorder.received.slice(mark)).toEqual([]);
	});

	test('APPROVED: nothing is requested, blocklisted or sent', async () => {
		const mark = recorder.received.length;
		const { scanRef } = await finished('reupload-approved', 'APPROVED');
		expect(stack.sandbox.kyc.get(scanRef)).toMatchObject({ state: 'FINISHED', blocklists: {} });
		expect(recorder.received.slice(mark)).toEqual([]);
	});
});
