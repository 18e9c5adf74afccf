// End-to-end: the operations on a verification's records, in the real n8n this process drives (run
// once per n8n line), each workflow run with `n8n execute`. Against the sandbox, with its state (a
// deleted verification then answers as deleted): files go through n8n's binary store on disk and
// come back byte for byte. Against the provider's answers: a loopback service answering with its
// published examples and with values generated from its schemas.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { execute, nodeOutput } from '../n8n/runtime.cjs';
import { CREDENTIALS, startStack, type Stack } from '../n8n/stack.cjs';
import {
	corpusJson,
	fakeInstances,
	responseSchema,
	webhookSchemas,
	type JsonSchema,
} from '../real-service/provider.cjs';
import { expectSuccess, runAction } from './helpers.cjs';
import { ACTION, actionWorkflow } from './workflows.cjs';

let stack: Stack;
let sink: Server;
let sinkUrl: string;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
	sink = createServer((req, res) => {
		req.resume();
		req.on('end', () => res.writeHead(200).end());
	});
	await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
	sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/sink`;
	await startProvider();
	stack = await startStack({ log: (m) => process.stderr.write(`[e2e kyc] ${m}\n`) });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	sink?.closeAllConnections();
	provider.server?.closeAllConnections();
	await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()));
	await new Promise<void>((resolve) =>
		provider.server ? provider.server.close(() => resolve()) : resolve(),
	);
}, 60_000);

/** A finished verification of `clientId` at the sandbox (its webhook goes to a sink). */
async function finished(clientId: string, overall = 'APPROVED'): Promise<string> {
	stack.sandbox.webhooks.configure({ url: sinkUrl, retryDelaysMs: [] });
	const { scanRef } = stack.sandbox.kyc.createSession(clientId);
	await stack.sandbox.kyc.autoFinish(scanRef, { final: true, overall });
	return scanRef;
}

const identification = (operation: string, parameters: Record<string, unknown>) => ({
	resource: 'identification',
	operation,
	...parameters,
});

/** Runs one operation in n8n and returns its output items (the run must succeed). */
async function output(name: string, operation: string, parameters: Record<string, unknown>) {
	const result = await runAction(stack, name, identification(operation, parameters));
	expectSuccess(result);
	return nodeOutput(result, ACTION);
}

/** A file n8n stored, as its editor's Download button serves it. */
async function stored(file: { id?: string } | undefined): Promise<Buffer> {
	expect(file?.id).toEqual(expect.any(String));
	const download = await stack.rest.downloadBinary(file!.id!);
	expect(download.status).toBe(200);
	return download.bytes;
}

/** The bytes the sandbox answers for a request with its key pair. */
async function fromSandbox(path: string, body: object): Promise<Buffer> {
	const { apiKey, apiSecret } = stack.sandbox.credentials;
	const res = await fetch(`${stack.sandbox.url}${path}`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`,
			'content-type': 'application/json',
		},
		body: JSON.stringify(body),
	});
	return Buffer.from(await res.arrayBuffer());
}

describe('against the sandbox', () => {
	test('Get Many lists every verification of the client over several pages, in order; Simplify flattens', async () => {
		const refs: string[] = [];
		for (let i = 0; i < 5; i++) refs.push(await finished('e2e-many'));
		const items = await output('Get Many', 'getAll', {
			clientId: 'e2e-many',
			returnAll: true,
			simplify: true,
			options: { perPage: 2 },
		});
		expect(items.map((item) => item.json)).toEqual(
			[...refs].reverse().map((scanRef) => ({
				scanRef,
				clientId: 'e2e-many',
				status: 'APPROVED',
				suspected: false,
			})),
		);
	});

	test('Download Files stores each photo by its kind and real type; the bytes are the sandbox’s', async () => {
		const scanRef = await finished('e2e-files');
		const [item] = await output('Download Files', 'downloadFiles', { scanRef });
		expect(Object.keys(item.binary ?? {})).toEqual(['FRONT', 'BACK', 'FACE']);
		expect(item.binary?.FACE).toMatchObject({
			fileName: `${scanRef}-FACE.jpg`,
			mimeType: 'image/jpeg',
		});
		const links = JSON.parse((await fromSandbox('/api/v2/files', { scanRef })).toString());
		for (const kind of ['FRONT', 'BACK', 'FACE']) {
			const sent = Buffer.from(await (await fetch(links[kind])).arrayBuffer());
			expect(sha256(await stored(item.binary?.[kind]))).toBe(sha256(sent));
		}
	});

	test('Download Report PDF decodes the base64 answer into the very PDF the service makes', async () => {
		const scanRef = await finished('e2e-report');
		const [item] = await output('Report PDF', 'downloadReportPdf', { scanRef, language: 'lt' });
		const pdf = await stored(item.binary?.data);
		const text = await fromSandbox('/api/v2/generate-pdf', { scanRef, language: 'lt' });
		expect(pdf.equals(Buffer.from(text.toString(), 'base64'))).toBe(true);
		expect(item.json).toMatchObject({ scanRef, mimeType: 'application/pdf', fileSize: pdf.length });
	});

	test('Delete Personal Data erases at the service: Get Data then has nothing; again it says already deleted; an active link is not deleted yet', async () => {
		const scanRef = await finished('e2e-erase');
		const [deleted] = await output('Delete', 'deletePersonalData', { scanRef });
		expect(deleted.json).toMatchObject({ scanRef, deleted: true, alreadyDeleted: false });
		const [data] = await output('Get Data', 'getData', { scanRef });
		expect(data.json).toMatchObject({ scanRef, docFirstName: null, docNumber: null });
		const [again] = await output('Delete again', 'deletePersonalData', { scanRef });
		expect(again.json).toEqual({ scanRef, deleted: true, alreadyDeleted: true, status: 'DELETED' });

		const { scanRef: active } = stack.sandbox.kyc.createSession('e2e-erase');
		const refused = await runAction(
			stack,
			'Delete active',
			identification('deletePersonalData', { scanRef: active }),
		);
		expect(refused.ok).toBe(false);
		expect(refused.run?.data.resultData.error?.message).toContain('cannot be deleted yet');
	});

	test('Get Data Leave Out, Add to and Remove From Blocklist, Request Information with options', async () => {
		const scanRef = await finished('e2e-more');
		const [data] = await output('Get Data', 'getData', { scanRef, personalData: 'leaveOut' });
		expect(Object.keys(data.json).sort()).toEqual(
			['clientId', 'clientIpProxyRiskLevel', 'docType', 'manuallyDataChanged', 'scanRef'].sort(),
		);
		const [entry] = await output('Blocklist', 'addToBlocklist', { scanRef, reason: 'Forged' });
		expect(entry.json).toMatchObject({ scanRef, blocklist: 'SELFIE', reason: 'Forged' });
		const [removed] = await output('Unblock', 'removeFromBlocklist', {
			scanRef,
			blocklist: 'SELFIE',
		});
		expect(removed.json).toEqual({ scanRef, blocklist: 'SELFIE', removed: true });
		const [asked] = await output('Request information', 'requestInformation', {
			scanRef,
			options: { lifetime: 3600, additionalStepUploadRequired: true },
		});
		const token = stack.sandbox.kyc.get(scanRef)?.authToken;
		expect(asked.json).toEqual({
			scanRef,
			sessionUrl: `${stack.sandbox.url}/api/v2/redirect?authToken=${token}`,
			tokenString: token,
		});
	});
});

// The provider's answers: published examples, values generated from its schemas.

const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const PNG = Buffer.concat([
	Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
	Buffer.alloc(32),
]);

const provider = {
	url: '',
	server: undefined as Server | undefined,
	/** The answer to the next request (status, and a JSON body or raw bytes). */
	next: undefined as { status: number; body?: unknown; raw?: Buffer } | undefined,
};

async function startProvider(): Promise<void> {
	provider.server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			if (req.url?.startsWith('/photo/')) return void res.writeHead(200).end(PNG);
			const reply = provider.next ?? { status: 500 };
			if (reply.raw) return void res.writeHead(reply.status).end(reply.raw);
			res.writeHead(reply.status, { 'content-type': 'application/json' });
			res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
		});
	});
	await new Promise<void>((resolve) => provider.server!.listen(0, '127.0.0.1', resolve));
	provider.url = `http://127.0.0.1:${(provider.server!.address() as AddressInfo).port}`;
}

/** Runs one operation against the provider's answer `reply`, with a credential naming its address. */
async function againstProvider(
	operation: string,
	parameters: Record<string, unknown>,
	reply: { status: number; body?: unknown; raw?: Buffer },
) {
	provider.next = reply;
	const { body: credential } = await stack.rest.request<{ id: string }>('POST', '/credentials', {
		name: `The provider (${operation})`,
		type: CREDENTIALS.api.type,
		// A secret of real length: one of a letter would leave every service text holding it out of messages.
		data: { apiKey: 'provider-key', apiSecret: 'provider-secret', baseUrl: provider.url },
	});
	const workflow = actionWorkflow(`Provider: ${operation}`, identification(operation, parameters));
	const action = workflow.nodes.find((n) => n.name === ACTION)!;
	action.credentials = {
		[CREDENTIALS.api.type]: { id: credential.id, name: `The provider (${operation})` },
	};
	return await execute(stack.userFolder, await stack.rest.createWorkflow(workflow));
}

const generated = (apiPath: string, method: string, status: number) =>
	fakeInstances(responseSchema(apiPath, method, status)!, {
		seed: 41,
		count: 1,
		alwaysFakeOptionals: true,
	})[0] as Record<string, unknown>;

describe('against the provider’s answers', () => {
	test('Get Many: the published page, its links the service’s own address', async () => {
		const page = corpusJson('responses/identifications-list.idenfy-api-reference.json') as any;
		const here = (link: string) => link.replace('http://api.example.org', provider.url);
		const result = await againstProvider(
			'getAll',
			{ clientId: 'c', limit: 1 },
			{ status: 200, body: { ...page, next: here(page.next), previous: here(page.previous) } },
		);
		expectSuccess(result);
		expect(nodeOutput(result, ACTION).map((i) => i.json)).toEqual(page.results);
	});

	test('Request Information: the published answer, with its scanRef', async () => {
		const body = corpusJson('responses/request-information.idenfy-api-reference.json') as object;
		const result = await againstProvider(
			'requestInformation',
			{ scanRef: 's-1' },
			{ status: 200, body },
		);
		expectSuccess(result);
		expect(nodeOutput(result, ACTION)[0].json).toEqual({ scanRef: 's-1', ...body });
	});

	test('Add to Blocklist: a generated entry', async () => {
		const body = generated(
			'/kyc/identifications/{scanRef}/blocklists/{blocklistSource}/',
			'post',
			201,
		);
		const result = await againstProvider(
			'addToBlocklist',
			{ scanRef: 's-1', blocklist: 'DOCUMENT_INFO' },
			{ status: 201, body },
		);
		expectSuccess(result);
		expect(nodeOutput(result, ACTION)[0].json).toEqual({
			...body,
			scanRef: 's-1',
			blocklist: 'DOCUMENT_INFO',
		});
	});

	test('Get Data: generated document data (the webhook’s data fields), whole', async () => {
		const schema = (webhookSchemas().get('IDENTIFICATION') as { properties: { data: JsonSchema } })
			.properties.data;
		const body = fakeInstances(schema, { seed: 43, count: 1, alwaysFakeOptionals: true })[0];
		const result = await againstProvider('getData', { scanRef: 's-1' }, { status: 200, body });
		expectSuccess(result);
		expect(nodeOutput(result, ACTION)[0].json).toEqual({ scanRef: 's-1', ...(body as object) });
	});

	test.each([
		['base64 text (as the page says)', Buffer.from(PDF.toString('base64'))],
		['the PDF’s bytes (as it said before)', PDF],
	])('Download Report PDF: %s becomes the PDF', async (_name, raw) => {
		const result = await againstProvider(
			'downloadReportPdf',
			{ scanRef: 's-1' },
			{ status: 200, raw },
		);
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		expect((await stored(item.binary?.data)).equals(PDF)).toBe(true);
	});

	test('Download Files: the file table’s links, followed without credentials', async () => {
		const body = { FRONT: `${provider.url}/photo/FRONT.png`, BACK: null, FACE: null };
		const result = await againstProvider(
			'downloadFiles',
			{ scanRef: 's-1' },
			{ status: 200, body },
		);
		expectSuccess(result);
		const [item] = nodeOutput(result, ACTION);
		expect(item.json).toMatchObject({ notAvailable: ['BACK', 'FACE'] });
		expect((await stored(item.binary?.FRONT)).equals(PNG)).toBe(true);
	});

	test('Delete Personal Data: the published refusal is in words that say when', async () => {
		const body = corpusJson('errors/delete.token-not-expired.idenfy-docs-deletion.json');
		const result = await againstProvider(
			'deletePersonalData',
			{ scanRef: 's-1' },
			{ status: 400, body },
		);
		expect(result.ok).toBe(false);
		const error = result.run?.data.resultData.error;
		expect(error?.message).toContain('cannot be deleted yet');
		expect(error?.description).toContain('1 hour unless set');
	});
});
