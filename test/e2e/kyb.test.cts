// End-to-end: the KYB operations and the KYB onboarding workflow in real n8n (the pin, or the 1.x
// line with IDV_N8N_VERSION=1), against the sandbox and against the provider's own answers.
//
// 1. Every new operation in one run against the sandbox: Create Session, the company's record,
//    list, owners (with the Form Token field), all answers, PDF, decision, and a deletion after
//    which the company is gone.
// 2. The provider's answers (generated from kyb.yaml, fixed seeds) pass through each operation as
//    the node outputs them, in n8n.
// 3. The AI tool variant of each new operation behind n8n's MCP Server Trigger, called by a real
//    MCP client: each tool is offered with its action sentence and is callable.
// 4. workflows/kyb-onboarding-with-slack-approval.json end to end: a HubSpot deal gets its link by
//    e-mail; the company submits (the sandbox sends COMPANY_SUBMIT to the published trigger); its
//    PDF goes to Slack, its owners are screened, a reviewer answers n8n's own send-and-wait and the
//    decision reaches the service and the deal. Outside services are stood in for as in
//    ready-made-workflows.test.cts (HTTP Request nodes of the same name posting their parameters to
//    a recorder here), except the Slack approval: it becomes n8n's Send Email send-and-wait to an
//    SMTP server here, so that n8n's own signed approve and deny links are what the test clicks.
//    Each owner is screened by AML Check → Create against the sandbox.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

import { kybFormLink } from '../../nodes/shared/contract';
import {
	exampleWorkflow,
	OUTSIDE_SERVICES,
	withSandboxCredentials,
	type ExampleWorkflow,
} from '../n8n/examples.cjs';
import { execute, nodeOutput, requireFromN8n } from '../n8n/runtime.cjs';
import {
	connectTrigger,
	credentialRef,
	CREDENTIALS,
	NODE_TYPES,
	startStack,
	type Stack,
	type WorkflowNode,
} from '../n8n/stack.cjs';
import { lineUp, node } from '../n8n/workflow.cjs';
import { fakeInstances, responseSchema } from '../real-service/provider.cjs';
import { expectSuccess } from './helpers.cjs';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (m: string) => process.stderr.write(`[e2e kyb] ${m}\n`);

let stack: Stack;

/** A manual trigger and the nodes after it, each run once, saved and run with `n8n execute`. */
async function runChain(name: string, steps: WorkflowNode[]) {
	const manual = node('Start', 'n8n-nodes-base.manualTrigger', 1, {});
	const nodes = [manual, ...steps.map((step) => ({ ...step, executeOnce: true }))];
	const id = await stack.rest.createWorkflow({ name, nodes, connections: lineUp(nodes) });
	return await execute(stack.userFolder, id);
}

/** This package's action node with a credential: the sandbox API key unless given another. */
const action = (
	name: string,
	parameters: Record<string, unknown>,
	credential: { id: string; name: string } = CREDENTIALS.api,
): WorkflowNode =>
	node(name, NODE_TYPES.action, 1.1, parameters, {
		credentials: { [CREDENTIALS.api.type]: { id: credential.id, name: credential.name } },
	});

// ---------------------------------------------------------------------------------------------
// Outside services: the recorder, the SMTP server, the stand-ins
// ---------------------------------------------------------------------------------------------

interface Recorded {
	node: string;
	type: string;
	/** The original node's parameters by their `a/b/0/c` paths, expressions resolved, as text. */
	parameters: Record<string, string>;
	files: Array<{ name: string; type: string; size: number; head: string }>;
}

interface Recorder {
	url: string;
	received: Recorded[];
	/** HubSpot's deals its search answers (a test sets them). */
	deals: object[];
	close(): Promise<void>;
}

/** What a stand-in gets back: HubSpot's deals, else `{ ok: true }`. */
function recorderAnswer(entry: Recorded, deals: object[]): unknown {
	if (entry.type === 'n8n-nodes-base.hubspot' && entry.parameters.operation === 'search')
		return deals;
	return { ok: true };
}

async function startRecorder(): Promise<Recorder> {
	const recorder = { received: [] as Recorded[], deals: [] as object[] };
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', async () => {
			try {
				const entry = await recordedOf(req, Buffer.concat(chunks));
				recorder.received.push(entry);
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(recorderAnswer(entry, recorder.deals)));
			} catch (error) {
				res.writeHead(400).end(String(error));
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		...recorder,
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A stand-in's multipart post: the node's name, type, parameters and files. */
async function recordedOf(req: IncomingMessage, body: Buffer): Promise<Recorded> {
	const form = await new Request('http://recorder/', {
		method: 'POST',
		headers: { 'content-type': req.headers['content-type'] ?? '' },
		body,
	}).formData();
	const entry: Recorded = {
		node: String(form.get('node')),
		type: String(form.get('type')),
		parameters: {},
		files: [],
	};
	for (const [name, value] of form.entries()) {
		if (typeof value === 'string') {
			if (name.startsWith('parameters/')) entry.parameters[name.slice(11)] = value;
			continue;
		}
		const bytes = Buffer.from(await value.arrayBuffer());
		entry.files.push({
			name: value.name,
			type: value.type,
			size: bytes.length,
			head: bytes.subarray(0, 5).toString('latin1'),
		});
	}
	return entry;
}

interface Mail {
	raw: string;
	/** The HTML body, quoted-printable decoded. */
	html: string;
}

interface SmtpServer {
	port: number;
	mails: Mail[];
	close(): Promise<void>;
}

/** Quoted-printable (RFC 2045) back to text: soft line breaks out, `=XX` as the byte it names. */
function fromQuotedPrintable(text: string): string {
	const bytes = text
		.replace(/=\r?\n/g, '')
		.replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
	return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The body of a one-part mail, decoded as its Content-Transfer-Encoding says. */
function bodyOf(raw: string): string {
	const split = raw.indexOf('\r\n\r\n');
	const head = raw.slice(0, split);
	const body = raw.slice(split + 4);
	if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) return fromQuotedPrintable(body);
	if (/content-transfer-encoding:\s*base64/i.test(head))
		return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	return body;
}

/** A loopback SMTP server that accepts every mail (no TLS, no authentication) and keeps it. */
async function startSmtp(): Promise<SmtpServer> {
	const mails: Mail[] = [];
	const sockets = new Set<Socket>();
	const server = createTcpServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		let buffer = '';
		let inData = false;
		socket.write('220 localhost ESMTP test\r\n');
		socket.on('data', (chunk) => {
			buffer += chunk.toString('latin1');
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end < 0) return;
					const raw = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
					buffer = buffer.slice(end + 5);
					inData = false;
					mails.push({ raw, html: bodyOf(raw) });
					socket.write('250 OK queued\r\n');
					continue;
				}
				const line = buffer.indexOf('\r\n');
				if (line < 0) return;
				const command = buffer.slice(0, line).toUpperCase();
				buffer = buffer.slice(line + 2);
				if (command.startsWith('EHLO')) socket.write('250-localhost\r\n250 8BITMIME\r\n');
				else if (command.startsWith('DATA')) {
					inData = true;
					socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
				} else if (command.startsWith('QUIT')) socket.end('221 Bye\r\n');
				else socket.write('250 OK\r\n');
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		mails,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** Each leaf of a parameter value with its path (`a/b/0/c`, segments URI-encoded). */
function leaves(value: unknown, at: string[] = []): Array<[string, unknown]> {
	if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...at, String(i)]));
	if (typeof value === 'object' && value !== null)
		return Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, encodeURIComponent(k)]));
	return [[at.join('/'), value]];
}

/** A parameter as the form sends it: an expression resolved by n8n (a whole one as text). */
function formValue(value: unknown): string {
	if (typeof value !== 'string') return JSON.stringify(value);
	const whole = /^=\s*\{\{([\s\S]*)\}\}\s*$/.exec(value);
	if (whole && !whole[1].includes('{{'))
		return `={{ ((value) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)))(${whole[1]}) }}`;
	return value;
}

/** An HTTP Request node of the same name posting the node's parameters (and its file) here. */
function standIn(original: WorkflowNode, recorderUrl: string): WorkflowNode {
	const parameters: Array<Record<string, string>> = [
		{ parameterType: 'formData', name: 'node', value: original.name },
		{ parameterType: 'formData', name: 'type', value: original.type },
		...leaves(original.parameters).map(([at, value]) => ({
			parameterType: 'formData',
			name: `parameters/${at}`,
			value: formValue(value),
		})),
	];
	// Slack's file upload: the file goes with the parameters.
	if (original.parameters.operation === 'upload')
		parameters.push({
			parameterType: 'formBinaryData',
			name: 'file',
			inputDataFieldName: String(original.parameters.binaryPropertyName),
		});
	return {
		id: original.id,
		name: original.name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: original.position,
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

/**
 * The Slack approval as n8n's Send Email send-and-wait of the same name: the same message and
 * buttons, n8n's own signed resume links, the same output (`data.approved`).
 */
function approvalByMail(original: WorkflowNode, smtp: { id: string; name: string }): WorkflowNode {
	const { message, approvalOptions } = original.parameters;
	const channel = (original.parameters.channelId as { value: string }).value;
	return {
		id: original.id,
		name: original.name,
		type: 'n8n-nodes-base.emailSend',
		typeVersion: 2.1,
		position: original.position,
		webhookId: randomUUID(),
		parameters: {
			operation: 'sendAndWait',
			fromEmail: 'n8n@example.com',
			toEmail: 'reviewers@example.com',
			subject: `Slack ${channel}`,
			message,
			approvalOptions,
			options: { appendAttribution: false },
		},
		credentials: { smtp },
	};
}

/** The workflow as the test runs it: sandbox credentials, outside services stood in for. */
function runnable(
	workflow: ExampleWorkflow,
	recorderUrl: string,
	smtp: { id: string; name: string },
) {
	const copy = withSandboxCredentials(workflow);
	copy.nodes = copy.nodes.map((original) => {
		if (original.parameters.operation === 'sendAndWait') return approvalByMail(original, smtp);
		if (original.type in OUTSIDE_SERVICES) return standIn(original, recorderUrl);
		return original;
	});
	return copy;
}

// ---------------------------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------------------------

let recorder: Recorder;
let smtp: SmtpServer;
let provider: { url: string; answers: Map<string, unknown>; close(): Promise<void> };

/** kyb.yaml's answer of an operation from a fixed seed (see requests-kyb.test.cts). */
function generated(apiPath: string, method: string, status: number, seed: number): unknown {
	const schema = responseSchema(apiPath, method, status)!;
	const values = [true, false].flatMap((alwaysFakeOptionals) =>
		fakeInstances(schema, { seed, count: 10, alwaysFakeOptionals }).filter(
			(value) => (value as { tokenString?: unknown }).tokenString !== '',
		),
	);
	return values[0];
}

const PROVIDER_COMPANY = 'c0ffee00-0000-4000-8000-000000000001';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

/** The provider's answer to each KYB request, by `METHOD path`: generated once, kept to compare. */
function providerAnswer(method: string, path: string): { status: number; body?: unknown } {
	const company = `/kyb/companies/${PROVIDER_COMPANY}/`;
	const form = `/kyb/forms/${PROVIDER_COMPANY}/`;
	const routes: Record<string, () => { status: number; body?: unknown }> = {
		'POST /kyb/tokens/': () => ({ status: 201, body: generated('/kyb/tokens/', 'POST', 201, 41) }),
		'GET /kyb/companies/': () => {
			const page = generated('/kyb/companies/', 'GET', 200, 42) as { results: unknown[] };
			return {
				status: 200,
				body: { count: page.results.length, next: null, results: page.results },
			};
		},
		[`GET ${company}`]: () => ({
			status: 200,
			body: generated('/kyb/companies/{id}/', 'GET', 200, 43),
		}),
		[`POST ${company}change-status/`]: () => ({
			status: 200,
			body: generated('/kyb/companies/{id}/change-status/', 'POST', 200, 44),
		}),
		[`GET ${form}beneficiaries/`]: () => ({
			status: 200,
			body: generated('/kyb/forms/{companyId}/beneficiaries/', 'GET', 200, 45),
		}),
		[`GET ${form}questionnaires/answers/detail/`]: () => ({
			status: 200,
			body: generated('/kyb/forms/{companyId}/questionnaires/answers/detail/', 'GET', 200, 46),
		}),
	};
	const route = routes[`${method} ${path}`];
	return route ? route() : { status: 404, body: { detail: 'Not found.' } };
}

async function startProvider() {
	const answers = new Map<string, unknown>();
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		req.resume();
		req.on('end', () => {
			const path = new URL(req.url ?? '/', 'http://provider').pathname;
			const key = `${req.method} ${path}`;
			if (key === `POST /kyb/companies/${PROVIDER_COMPANY}/pdf/`) {
				res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF);
				return;
			}
			if (key === `DELETE /kyb/companies/${PROVIDER_COMPANY}/`) {
				res.writeHead(204).end();
				return;
			}
			const reply = providerAnswer(req.method ?? '', path);
			answers.set(key, reply.body);
			res.writeHead(reply.status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(reply.body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		answers,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

beforeAll(async () => {
	[recorder, smtp, provider] = await Promise.all([startRecorder(), startSmtp(), startProvider()]);
	stack = await startStack({ log });
}, 20 * 60_000);

afterAll(async () => {
	await stack?.stop();
	await Promise.all([recorder?.close(), smtp?.close(), provider?.close()]);
}, 60_000);

// ---------------------------------------------------------------------------------------------
// 1. Every new operation against the sandbox, in one run
// ---------------------------------------------------------------------------------------------

test('every new KYB operation in real n8n against the sandbox: a company from its session to its deletion', async () => {
	const session = await fetch(`${stack.sandbox.url}/kyb/tokens/`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			authorization: `Basic ${Buffer.from(`${stack.sandbox.credentials.apiKey}:${stack.sandbox.credentials.apiSecret}`).toString('base64')}`,
		},
		body: JSON.stringify({ tokenType: 'FORM', clientId: 'e2e-deal' }),
	}).then((res) => res.json() as Promise<{ tokenString: string }>);
	const { companyId } = await stack.sandbox.kyb.submitSession(session.tokenString);
	const c = { companyId };
	const result = await runChain('KYB operations', [
		action('Create Session', {
			resource: 'kyb',
			operation: 'createSession',
			clientId: 'e2e-deal-2',
			sessionFields: { tags: 'e2e, n8n' },
		}),
		action('Get', { resource: 'kybCompany', operation: 'get', ...c, simplify: true }),
		action('Get Many', {
			resource: 'kybCompany',
			operation: 'getAll',
			returnAll: true,
			filters: { registrationNumber: '305123456' },
		}),
		action('Owners with the form token', {
			resource: 'kyb',
			operation: 'getBeneficiaries',
			authentication: 'formToken',
			formToken: session.tokenString,
			...c,
		}),
		action('All answers', { resource: 'kyb', operation: 'getAllAnswers', ...c }),
		action('PDF', { resource: 'kybCompany', operation: 'downloadPdf', ...c }),
		action('Deny', {
			resource: 'kybCompany',
			operation: 'setReviewDecision',
			...c,
			decision: 'DENIED',
			denyReason: 'Owner could not be verified',
		}),
		action('Get after the decision', { resource: 'kybCompany', operation: 'get', ...c }),
		action('Delete', { resource: 'kybCompany', operation: 'delete', ...c }),
		{
			...action('Get after the deletion', { resource: 'kybCompany', operation: 'get', ...c }),
			onError: 'continueRegularOutput',
		} as WorkflowNode,
	]);
	expectSuccess(result);
	const one = (name: string) => nodeOutput(result, name).map((item) => item.json);
	const [created] = one('Create Session');
	expect(created.formUrl).toBe(kybFormLink(created.tokenString));
	expect(created).toMatchObject({ clientId: 'e2e-deal-2', tags: ['e2e', 'n8n'] });
	expect(one('Get')).toEqual([
		expect.objectContaining({ id: companyId, status: 'NEED_TO_REVIEW', approvalStatus: null }),
	]);
	expect(one('Get Many').map((company) => company.id)).toContain(companyId);
	expect(one('Owners with the form token').map((owner) => owner.info.surname)).toEqual([
		'Jonaitis',
		'Onaitė',
	]);
	expect(one('All answers')).toHaveLength(1);
	const [pdf] = nodeOutput(result, 'PDF');
	expect(pdf.json).toMatchObject({ companyId, mimeType: 'application/pdf' });
	expect(pdf.binary?.data).toMatchObject({ mimeType: 'application/pdf', fileExtension: 'pdf' });
	expect(one('Deny')).toEqual([
		{
			companyId,
			status: 'COMPLETED',
			reviewInfo: { approvalStatus: 'DENIED', denyReason: 'Owner could not be verified' },
		},
	]);
	expect(one('Get after the decision')[0].meta).toMatchObject({
		status: 'COMPLETED',
		approvalStatus: 'DENIED',
	});
	expect(one('Delete')).toEqual([{ deleted: true, companyId }]);
	expect(String(one('Get after the deletion')[0].error)).toMatch(/no company with this Company ID/);
	expect(stack.sandbox.kyb.company(companyId)).toBeUndefined();
	// The form token went as Bearer, to the Base URL of the API credential.
	const owners = stack.sandbox.requests.filter((r) => r.path.endsWith('/beneficiaries/'));
	expect(owners.map((r) => [r.authScheme, r.authorized])).toEqual([['bearer', true]]);
});

/** This package's action node at version 2 (the ID fields are resource locators). */
const actionV2 = (name: string, parameters: Record<string, unknown>): WorkflowNode =>
	node(name, NODE_TYPES.action, 2, parameters, {
		credentials: { [CREDENTIALS.api.type]: { id: CREDENTIALS.api.id, name: CREDENTIALS.api.name } },
	});

/** A KYB session's form token, as Create Session makes it. */
async function formToken(clientId: string): Promise<string> {
	const session = await fetch(`${stack.sandbox.url}/kyb/tokens/`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			authorization: `Basic ${Buffer.from(`${stack.sandbox.credentials.apiKey}:${stack.sandbox.credentials.apiSecret}`).toString('base64')}`,
		},
		body: JSON.stringify({ tokenType: 'FORM', clientId }),
	}).then((res) => res.json() as Promise<{ tokenString: string }>);
	return session.tokenString;
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

test('the rest of the KYB lifecycle in real n8n (version 2): a form prefilled, the checks re-run, a company sent back, a registry document ordered and read', async () => {
	const token = await formToken('e2e-prefill');
	const { companyId: submitted } = await stack.sandbox.kyb.submitSession(
		await formToken('e2e-rerun'),
	);
	const result = await runChain('KYB lifecycle', [
		actionV2('Create Form', {
			resource: 'kyb',
			operation: 'createForm',
			authentication: 'formToken',
			formToken: token,
			companyName: 'UAB Šiaurės Prekyba',
			companyCountry: 'LT',
		}),
		actionV2('Update Form', {
			resource: 'kyb',
			operation: 'updateForm',
			companyId: byId("={{ $('Create Form').item.json.id }}"),
			companyName: 'UAB Šiaurės Prekyba',
			companyCountry: 'LT',
			companyDetails: { phone: '+37060000000' },
		}),
		actionV2('Add Beneficiary', {
			resource: 'kyb',
			operation: 'addBeneficiary',
			companyId: byId("={{ $('Create Form').item.json.id }}"),
			name: 'Rūta',
			surname: 'Žukauskienė',
			beneficiaryTypes: ['UBO'],
		}),
		actionV2('Re-Run Automated Checks', {
			resource: 'kybCompany',
			operation: 'rerunAutomation',
			companyId: byId(submitted),
		}),
		actionV2('Send Back', {
			resource: 'kybCompany',
			operation: 'setReviewDecision',
			companyId: byId(submitted),
			decision: 'NEED_TO_PROCESS',
		}),
		actionV2('Available Documents', {
			resource: 'kybCompany',
			operation: 'getAvailableDocuments',
			countryCode: 'LT',
			registrationNumber: '305123456',
		}),
		actionV2('Order', {
			resource: 'kybCompany',
			operation: 'orderDocument',
			countryCode: 'LT',
			registrationNumber: '305123456',
			companyName: 'UAB Baltic Widgets',
			productKey: "={{ $('Available Documents').item.json.id }}",
		}),
		actionV2('Orders', { resource: 'kybCompany', operation: 'getOrderedDocuments' }),
		actionV2('Ordered Document', {
			resource: 'kybCompany',
			operation: 'getOrderedDocument',
			documentId: byId('={{ $json.id }}'),
		}),
	]);
	expectSuccess(result);
	const one = (name: string) => nodeOutput(result, name).map((item) => item.json);
	const [form] = one('Create Form');
	expect(form).toMatchObject({ company: { companyName: 'UAB Šiaurės Prekyba' } });
	expect(one('Update Form')[0]).toMatchObject({
		companyId: form.id,
		company: { companyName: 'UAB Šiaurės Prekyba', phone: '+37060000000' },
	});
	expect(one('Add Beneficiary')[0]).toMatchObject({ info: { surname: 'Žukauskienė' } });
	expect(one('Re-Run Automated Checks')).toEqual([{ started: true, companyId: submitted }]);
	expect(stack.sandbox.kyb.company(submitted)?.automationRuns).toBe(1);
	expect(one('Send Back')).toEqual([{ companyId: submitted, status: 'NEED_TO_PROCESS' }]);
	expect(one('Available Documents').map((document) => document.id)).toEqual([
		'REGISTER_EXTRACT',
		'HISTORIC_EXTRACT',
	]);
	expect(one('Order')[0]).toMatchObject({ ordered: true, productKey: 'REGISTER_EXTRACT' });
	const [ordered] = stack.sandbox.kyb.govOrders();
	expect(one('Orders').map((order) => order.id)).toEqual([ordered]);
	expect(one('Ordered Document')).toEqual([
		expect.objectContaining({ id: ordered, status: 'IN_PROGRESS', file: null }),
	]);
});

// ---------------------------------------------------------------------------------------------
// 2. The provider's answers through n8n
// ---------------------------------------------------------------------------------------------

test('the provider’s answers (kyb.yaml, generated) pass through each operation in n8n as the node outputs them', async () => {
	const { body } = await stack.rest.request<{ id: string }>('POST', '/credentials', {
		name: 'Provider answers',
		type: CREDENTIALS.api.type,
		// A secret of real length: one of a letter would leave every service text holding it out of messages.
		data: { apiKey: 'provider-key', apiSecret: 'provider-secret', baseUrl: provider.url },
	});
	const credential = { id: body.id, name: 'Provider answers' };
	const c = { companyId: PROVIDER_COMPANY };
	const result = await runChain('KYB: the provider’s answers', [
		action(
			'Create Session',
			{ resource: 'kyb', operation: 'createSession', clientId: 'x' },
			credential,
		),
		action('Get', { resource: 'kybCompany', operation: 'get', ...c }, credential),
		action(
			'Get Many',
			{ resource: 'kybCompany', operation: 'getAll', returnAll: true },
			credential,
		),
		action('Owners', { resource: 'kyb', operation: 'getBeneficiaries', ...c }, credential),
		action('All answers', { resource: 'kyb', operation: 'getAllAnswers', ...c }, credential),
		action(
			'Decision',
			{ resource: 'kybCompany', operation: 'setReviewDecision', ...c, decision: 'APPROVED' },
			credential,
		),
		action('PDF', { resource: 'kybCompany', operation: 'downloadPdf', ...c }, credential),
		action('Delete', { resource: 'kybCompany', operation: 'delete', ...c }, credential),
	]);
	expectSuccess(result);
	const out = (name: string) => nodeOutput(result, name).map((item) => item.json);
	const answer = (key: string) => provider.answers.get(key) as any;
	const company = `/kyb/companies/${PROVIDER_COMPANY}/`;
	const form = `/kyb/forms/${PROVIDER_COMPANY}/`;
	const session = answer('POST /kyb/tokens/');
	expect(out('Create Session')).toEqual([
		{ formUrl: kybFormLink(session.tokenString), ...session },
	]);
	expect(out('Get')).toEqual([answer(`GET ${company}`)]);
	expect(out('Get Many')).toEqual(answer('GET /kyb/companies/').results);
	expect(out('Owners')).toEqual(answer(`GET ${form}beneficiaries/`));
	expect(out('All answers')).toEqual(answer(`GET ${form}questionnaires/answers/detail/`));
	expect(out('Decision')).toEqual([
		{ companyId: PROVIDER_COMPANY, ...answer(`POST ${company}change-status/`) },
	]);
	expect(out('PDF')[0]).toMatchObject({ mimeType: 'application/pdf', fileSize: PDF.length });
	expect(out('Delete')).toEqual([{ deleted: true, companyId: PROVIDER_COMPANY }]);
});

// ---------------------------------------------------------------------------------------------
// 3. The AI tool variant behind n8n's MCP Server Trigger
// ---------------------------------------------------------------------------------------------

const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', '${description}', 'string') }}`;
const COMPANY_ID = fromAI('companyId', 'The company ID of a KYB event');

/** One tool per new operation, with the action sentence the agent is offered. */
const TOOLS: Array<{ name: string; action: string; parameters: Record<string, unknown> }> = [
	{
		name: 'Create KYB session',
		action: 'Create a KYB session',
		parameters: {
			resource: 'kyb',
			operation: 'createSession',
			clientId: fromAI('clientId', 'Your own ID for the company'),
		},
	},
	{
		name: 'Get KYB company',
		action: 'Get a KYB company',
		parameters: { resource: 'kybCompany', operation: 'get', companyId: COMPANY_ID },
	},
	{
		name: 'Find KYB companies',
		action: 'Get many KYB companies',
		parameters: {
			resource: 'kybCompany',
			operation: 'getAll',
			limit: 5,
			filters: { registrationNumber: fromAI('registrationNumber', 'The registration number') },
		},
	},
	{
		name: 'Get KYB beneficiaries',
		action: 'Get many KYB beneficiaries',
		parameters: { resource: 'kyb', operation: 'getBeneficiaries', companyId: COMPANY_ID },
	},
	{
		name: 'Get all KYB answers',
		action: 'Get all answers of a KYB form',
		parameters: { resource: 'kyb', operation: 'getAllAnswers', companyId: COMPANY_ID },
	},
	{
		name: 'Decide KYB company',
		action: 'Set a KYB review decision',
		parameters: {
			resource: 'kybCompany',
			operation: 'setReviewDecision',
			companyId: COMPANY_ID,
			decision: fromAI('decision', 'APPROVED or DENIED'),
			denyReason: fromAI('denyReason', 'Why it is denied (empty when approved)'),
		},
	},
	{
		name: 'Download KYB company PDF',
		action: 'Download a KYB company PDF',
		parameters: { resource: 'kybCompany', operation: 'downloadPdf', companyId: COMPANY_ID },
	},
	{
		name: 'Delete KYB company',
		action: 'Delete a KYB company',
		parameters: { resource: 'kybCompany', operation: 'delete', companyId: COMPANY_ID },
	},
];

interface McpClient {
	connect(transport: unknown): Promise<void>;
	listTools(): Promise<{ tools: Array<{ name: string; description?: string; inputSchema: any }> }>;
	callTool(request: {
		name: string;
		arguments: Record<string, unknown>;
	}): Promise<{ content: Array<{ type: string; text?: string }>; isError?: boolean }>;
	close(): Promise<void>;
}

describe('the KYB operations as AI tools behind n8n’s MCP Server Trigger, called by a real MCP client', () => {
	const MCP_PATH = 'kyb-tools';
	let client: McpClient;
	const toolName = (nodeName: string) => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
	const textOf = (result: { content: Array<{ type: string; text?: string }> }) =>
		result.content.map((c) => c.text ?? '').join('\n');

	beforeAll(async () => {
		const trigger = node(
			'MCP Server Trigger',
			'@n8n/n8n-nodes-langchain.mcpTrigger',
			2,
			{ path: MCP_PATH, authentication: 'none' },
			{ webhookId: randomUUID() },
		);
		const tools = TOOLS.map((tool, index) => ({
			...node(tool.name, NODE_TYPES.tool, 1, tool.parameters, {
				credentials: credentialRef('api'),
			}),
			position: [index * 200, 240] as [number, number],
		}));
		const connections = Object.fromEntries(
			tools.map((tool) => [
				tool.name,
				{ ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] },
			]),
		);
		const id = await stack.rest.createWorkflow({
			name: 'KYB tools for AI agents',
			nodes: [trigger, ...tools],
			connections,
		});
		await stack.rest.activate(id);
		const { Client } = requireFromN8n<{ Client: new (info: object) => McpClient }>(
			'@modelcontextprotocol/sdk/client/index.js',
		);
		const { StreamableHTTPClientTransport } = requireFromN8n<{
			StreamableHTTPClientTransport: new (url: URL) => unknown;
		}>('@modelcontextprotocol/sdk/client/streamableHttp.js');
		const deadline = Date.now() + 60_000;
		for (;;) {
			client = new Client({ name: 'idv-e2e-kyb', version: '1.0.0' });
			try {
				await client.connect(
					new StreamableHTTPClientTransport(new URL(`${stack.n8n.url}/mcp/${MCP_PATH}`)),
				);
				break;
			} catch (error) {
				// n8n registers a published trigger a moment later: 404 until then.
				if (Date.now() > deadline) throw error;
				await pause(500);
			}
		}
	}, 120_000);

	afterAll(async () => {
		await client?.close();
	});

	test('offers each operation with its action sentence, and each is callable with what an agent fills in', async () => {
		const { tools } = await client.listTools();
		expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.description]))).toEqual(
			Object.fromEntries(
				TOOLS.map((tool) => [toolName(tool.name), `${tool.action} in Identity Verification`]),
			),
		);
		const call = async (name: string, args: Record<string, unknown>) => {
			const result = await client.callTool({ name: toolName(name), arguments: args });
			return { name, isError: Boolean(result.isError), text: textOf(result) };
		};
		const session = await call('Create KYB session', { clientId: 'agent-deal-1' });
		expect(session).toMatchObject({ isError: false, text: expect.stringContaining('formUrl') });
		const token = /"tokenString":\s*"([^"]+)"/.exec(session.text)?.[1];
		expect(token).toBeDefined();
		const { companyId } = await stack.sandbox.kyb.submitSession(token!);
		const company = { companyId };
		const calls: Array<[string, Record<string, unknown>, RegExp]> = [
			['Get KYB company', company, /NEED_TO_REVIEW/],
			['Find KYB companies', { registrationNumber: '305123456' }, new RegExp(companyId)],
			['Get KYB beneficiaries', company, /Jonaitis/],
			['Get all KYB answers', company, /beneficialOwners/],
			['Decide KYB company', { ...company, decision: 'APPROVED', denyReason: '' }, /APPROVED/],
			['Download KYB company PDF', company, /application\/pdf/],
			['Delete KYB company', company, /"deleted":\s*true/],
		];
		for (const [name, args, expected] of calls)
			expect(await call(name, args)).toMatchObject({
				name,
				isError: false,
				text: expect.stringMatching(expected),
			});
		// A wrong decision: the field and the rule, in words a model can act on.
		const wrong = await call('Decide KYB company', { ...company, decision: 'yes', denyReason: '' });
		expect(wrong.text).toMatch(/Decision: must be APPROVED or DENIED/);
	});
});

// ---------------------------------------------------------------------------------------------
// 4. The ready-made KYB onboarding workflow
// ---------------------------------------------------------------------------------------------

describe('kyb-onboarding-with-slack-approval.json end to end', () => {
	const FILE = 'kyb-onboarding-with-slack-approval.json';
	let workflowId: string;
	let workflow: ReturnType<typeof runnable>;

	beforeAll(async () => {
		const { body } = await stack.rest.request<{ id: string }>('POST', '/credentials', {
			name: 'Test SMTP',
			type: 'smtp',
			data: {
				user: '',
				password: '',
				host: '127.0.0.1',
				port: smtp.port,
				secure: false,
				disableStartTls: true,
			},
		});
		workflow = runnable(exampleWorkflow(FILE), recorder.url, {
			id: body.id,
			name: 'Test SMTP',
		});
		workflowId = await stack.rest.createWorkflow({
			name: workflow.name,
			nodes: workflow.nodes,
			connections: workflow.connections,
			settings: exampleWorkflow(FILE).settings,
		});
		await stack.rest.activate(workflowId);
		await connectTrigger(stack, { workflow: { id: workflowId, nodes: workflow.nodes } });
	}, 5 * 60_000);

	const sentBy = (name: string, mark: number) =>
		recorder.received.slice(mark).filter((entry) => entry.node === name);

	/** Waits (a minute at most) until `check` gives a value. */
	async function eventually<T>(what: string, check: () => T | undefined): Promise<T> {
		const deadline = Date.now() + 60_000;
		for (;;) {
			const value = check();
			if (value !== undefined) return value;
			if (Date.now() > deadline) throw new Error(`${what}: not within 60 s${await failures()}`);
			await pause(250);
		}
	}

	/** The workflow's failed runs, to say why something did not happen. */
	async function failures(): Promise<string> {
		const runs = await stack.rest.listExecutions(workflowId);
		const failed = runs.filter((run) => run.status === 'error');
		if (failed.length === 0) return '';
		const run = await stack.rest.getExecution(failed[0].id);
		return `; the run failed: ${JSON.stringify(run.data?.resultData?.error ?? run).slice(0, 1500)}`;
	}

	/** The deal's link (part 1, by hand): the e-mail's link, and the session it opens. */
	async function sendLink(dealId: string) {
		const mark = recorder.received.length;
		recorder.deals.splice(0, recorder.deals.length, {
			id: dealId,
			properties: {
				dealname: 'Baltic Widgets – business account',
				kyb_contact_email: 'cfo@baltic-widgets.example',
				kyb_status: 'REQUESTED',
			},
		});
		expectSuccess(await execute(stack.userFolder, workflowId));
		const [mail] = sentBy('E-mail the KYB link', mark);
		expect(mail.parameters.toEmail).toBe('cfo@baltic-widgets.example');
		const link = /https:\/\/kyb\.ui\.idenfy\.com\/welcome\?authToken=[\w%-]+/.exec(
			mail.parameters.text,
		)?.[0];
		expect(link).toBeDefined();
		const [marked] = sentBy('Mark the deal: link sent', mark);
		expect(marked.parameters).toMatchObject({
			operation: 'update',
			'dealId/value': dealId,
			'updateFields/customPropertiesUi/customPropertiesValues/0/value': 'LINK_SENT',
		});
		return decodeURIComponent(new URL(link!).searchParams.get('authToken')!);
	}

	/** The company submits its form; resolves with the reviewer's mail once the run waits for it. */
	async function submitAndAwaitReview(token: string) {
		const mailsBefore = smtp.mails.length;
		const mark = recorder.received.length;
		const { companyId, delivery } = await stack.sandbox.kyb.submitSession(token);
		expect(delivery?.status).toBe('delivered');
		const mail = await eventually('the reviewer’s approval request', () => smtp.mails[mailsBefore]);
		return { companyId, mail, mark };
	}

	/**
	 * A reviewer clicks a button of the mail: n8n's signed resume link, once the run waits (n8n 1.x
	 * sends the mail before it has saved the run as waiting, and answers 409 until then).
	 */
	async function click(mail: { html: string }, approved: boolean) {
		const runs = () => stack.rest.listExecutions(workflowId);
		const deadline = Date.now() + 60_000;
		while (!(await runs()).some((run) => run.status === 'waiting')) {
			if (Date.now() > deadline) throw new Error(`no run waits for the review${await failures()}`);
			await pause(250);
		}
		const links = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) =>
			m[1].replace(/&amp;/g, '&'),
		);
		const link = links.find((href) => href.includes(`approved=${approved}`));
		expect(link).toBeDefined();
		const res = await fetch(link!, {
			headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120' },
		});
		await res.text();
		expect(res.status).toBe(200);
	}

	test('approved in Slack: the link by e-mail, the PDF and the screening to the reviewer, the decision to the service and the deal', async () => {
		const token = await sendLink('deal-1001');
		const { companyId, mail, mark } = await submitAndAwaitReview(token);
		// The reviewer sees the company, its screened owners and the buttons.
		expect(mail.html).toContain('UAB Baltic Widgets');
		expect(mail.html).toMatch(/Jonas Jonaitis: NO_FLAGS \(0 hits\)/);
		expect(mail.html).toMatch(/Ona Onait(ė|&#279;|&#x117;): NO_FLAGS/);
		const [upload] = sentBy('Post the PDF to Slack', mark);
		expect(upload.files).toEqual([
			expect.objectContaining({ name: `kyb-company-${companyId}.pdf`, head: '%PDF-' }),
		]);
		expect(stack.sandbox.kyb.company(companyId)?.status).toBe('NEED_TO_REVIEW');

		await click(mail, true);
		const [saved] = await eventually('the decision in HubSpot', () => {
			const entries = sentBy('Save the decision in HubSpot', mark);
			return entries.length > 0 ? entries : undefined;
		});
		expect(saved.parameters).toMatchObject({
			'dealId/value': 'deal-1001',
			'updateFields/customPropertiesUi/customPropertiesValues/0/value': 'APPROVED',
		});
		expect(stack.sandbox.kyb.company(companyId)).toMatchObject({
			status: 'COMPLETED',
			approvalStatus: 'APPROVED',
		});
	});

	test('denied in Slack: the company is denied with the workflow’s reason, and the deal says DENIED', async () => {
		const token = await sendLink('deal-1002');
		const { companyId, mail, mark } = await submitAndAwaitReview(token);
		await click(mail, false);
		const [saved] = await eventually('the decision in HubSpot', () => {
			const entries = sentBy('Save the decision in HubSpot', mark);
			return entries.length > 0 ? entries : undefined;
		});
		expect(saved.parameters['updateFields/customPropertiesUi/customPropertiesValues/0/value']).toBe(
			'DENIED',
		);
		expect(stack.sandbox.kyb.company(companyId)).toMatchObject({
			approvalStatus: 'DENIED',
			denyReason: 'Declined by the reviewer in Slack',
		});
	});
});
