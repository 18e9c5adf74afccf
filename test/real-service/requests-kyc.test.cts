/**
 * The requests of the operations on a verification's records, checked against what the provider
 * publishes (ajv), as requests.test.cts checks the others: each operation runs on n8n's engine (the
 * harness) with a set of parameters against a loopback server that records every request and
 * answers as the provider does. The operations of kyc.yaml are checked against its schemas (path,
 * query, auth scheme, JSON body, no field it does not name); the four endpoints no OpenAPI document
 * has against a schema written here from the provider's pages, quoted below, which the published
 * request examples must pass too. The provider's answers (published examples, and values generated
 * from its schemas) pass through each operation.
 */
import type { INodeParameters } from 'n8n-workflow';

import { verificationEventItemSchema } from '../../nodes/shared/contract';
import { runNode } from '../harness/index.cjs';
import {
	operationOf as operationIn,
	useRecordingServer,
	type Captured,
	type Reply,
} from './recordingServer.cjs';
import {
	authSchemes,
	corpusJson,
	fakeInstances,
	parametersSchema,
	requestBodySchema,
	responseSchema,
	schemaErrors,
	webhookSchemas,
	type JsonSchema,
} from './provider.cjs';

/** "accept only one JSON parameter `scanRef`" (former docs, IdentificationDataRetrieval.md; the deletion page: "The only required parameter is `scanRef`"). */
const SCAN_REF_ONLY: JsonSchema = {
	type: 'object',
	required: ['scanRef'],
	properties: { scanRef: { type: 'string', minLength: 1 } },
	additionalProperties: false,
};

/**
 * The PDF generation page: "`scanRef` — string (required)", "`language` — string (optional) …
 * Possible values: `en`, `lt`", "`includeMainStepFiles` — boolean (optional)",
 * "`includeAdditionalStepFiles` — boolean (optional)".
 */
const GENERATE_PDF: JsonSchema = {
	type: 'object',
	required: ['scanRef'],
	properties: {
		scanRef: { type: 'string', minLength: 1 },
		language: { enum: ['en', 'lt'] },
		includeMainStepFiles: { type: 'boolean' },
		includeAdditionalStepFiles: { type: 'boolean' },
	},
	additionalProperties: false,
};

/** The endpoints without an OpenAPI document: their body schema from the pages above (API key pair). */
const DOCUMENTED: Record<string, JsonSchema> = {
	'POST /api/v2/data': SCAN_REF_ONLY,
	// Its API reference page's request example: `{"scanRef": …}` (fixtures README).
	'POST /api/v2/full': SCAN_REF_ONLY,
	'POST /api/v2/files': SCAN_REF_ONLY,
	'POST /api/v2/delete': SCAN_REF_ONLY,
	'POST /api/v2/generate-pdf': GENERATE_PDF,
};

/** The provider's operations of kyc.yaml these operations call. */
const OPENAPI = [
	'GET /kyc/identifications/',
	'POST /kyc/identifications/{scanRef}/request-information/',
	'POST /kyc/identifications/{scanRef}/blocklists/{blocklistSource}/',
	'DELETE /kyc/identifications/{scanRef}/blocklists/{blocklistSource}/',
];

/** Status is asked once when a deletion is refused (requests.test.cts checks its request). */
const STATUS = 'POST /api/v2/status';

/** The operation a request went to, with its path parameters. */
const operationOf = (request: Captured) =>
	operationIn([...OPENAPI, ...Object.keys(DOCUMENTED), STATUS], request);

/** Every way a request differs from what the provider publishes for its operation. */
function mismatchesOf(request: Captured): string[] {
	const { key, params } = operationOf(request);
	const [method, apiPath] = key.split(' ');
	const found: string[] = [];
	const add = (where: string, errors: string[]) =>
		found.push(...errors.map((error) => `${where} ${error}`));
	const scheme = request.authorization.split(' ')[0].toLowerCase();
	let body: JsonSchema | undefined = DOCUMENTED[key];
	if (OPENAPI.includes(key)) {
		add('path', schemaErrors(parametersSchema(apiPath, method, 'path'), params));
		add('query', schemaErrors(parametersSchema(apiPath, method, 'query'), request.query, true));
		if (!authSchemes(apiPath, method).includes(scheme)) found.push(`auth ${scheme}`);
		body = requestBodySchema(apiPath, method)?.schema;
	} else if (scheme !== 'basic') found.push(`auth ${scheme}`);
	if (request.body === '') return found;
	if (!body) return [...found, 'body: the operation takes no body'];
	if (!request.contentType.startsWith('application/json')) found.push('body content-type');
	const sent = JSON.parse(request.body) as Record<string, unknown>;
	add('body', schemaErrors(body, sent));
	const named = Object.keys((body.properties ?? {}) as object);
	for (const field of Object.keys(sent).filter((name) => !named.includes(name)))
		found.push(`body /${field}: not a field of the provider's schema`);
	return found;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const PNG = Buffer.concat([
	Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
	Buffer.alloc(32),
]);

/** The answer of a generated value of a kyc.yaml response schema (a fixed seed). */
const generated = (apiPath: string, method: string, status: number, seed: number) =>
	fakeInstances(responseSchema(apiPath, method, status) as JsonSchema, {
		seed,
		count: 1,
		alwaysFakeOptionals: true,
	})[0];

/** The `data` of the provider's identification webhook: what /api/v2/data answers (the same fields). */
const DATA_SCHEMA = (webhookSchemas().get('IDENTIFICATION') as { properties: JsonSchema })
	.properties.data as JsonSchema;

/** The provider's identification webhook, which /api/v2/full answers "in the same structure". */
const WEBHOOK_SCHEMA = webhookSchemas().get('IDENTIFICATION') as JsonSchema;

/** How the recording server answers each operation unless a test says otherwise. */
function answerFor(
	key: string,
	request: Captured,
): { status: number; body?: unknown; raw?: Buffer } {
	switch (key) {
		case 'GET /kyc/identifications/': {
			// A generated page; its count and links made to agree with it (the generator's are random).
			const page = generated('/kyc/identifications/', 'get', 200, 7) as { results: unknown[] };
			return {
				status: 200,
				body: { ...page, count: page.results.length, next: null, previous: null },
			};
		}
		case 'POST /kyc/identifications/{scanRef}/request-information/':
			return {
				status: 200,
				body: generated('/kyc/identifications/{scanRef}/request-information/', 'post', 200, 8),
			};
		case 'POST /kyc/identifications/{scanRef}/blocklists/{blocklistSource}/':
			return {
				status: 201,
				body: generated(
					'/kyc/identifications/{scanRef}/blocklists/{blocklistSource}/',
					'post',
					201,
					9,
				),
			};
		case 'POST /api/v2/data':
			return {
				status: 200,
				body: fakeInstances(DATA_SCHEMA, { seed: 10, count: 1, alwaysFakeOptionals: true })[0],
			};
		case 'POST /api/v2/full':
			// "`final` always reads `false`" (its API reference page).
			return {
				status: 200,
				body: {
					...(fakeInstances(WEBHOOK_SCHEMA, {
						seed: 11,
						count: 1,
						alwaysFakeOptionals: true,
					})[0] as object),
					final: false,
				},
			};
		case 'POST /api/v2/files':
			// The shape of the webhook's file links (former docs, "File urls table").
			return {
				status: 200,
				body: {
					FRONT: `${server.url}/photo/FRONT.png`,
					FACE: `${server.url}/photo/FACE.png`,
					BACK: null,
				},
			};
		case 'POST /api/v2/generate-pdf':
			// "a PDF file in Base64 format" (the PDF generation page).
			return { status: 200, raw: Buffer.from(PDF.toString('base64')) };
		case 'POST /api/v2/delete':
			return { status: 200 };
		default:
			return { status: 204 };
	}
}

const server = useRecordingServer((request) => answerFor(operationOf(request).key, request), {
	'/photo/FRONT.png': PNG,
	'/photo/FACE.png': PNG,
});
beforeEach(() => {
	server.clear();
	server.replies.length = 0;
});

const run = async (operation: string, parameters: INodeParameters) =>
	await runNode({
		node: 'identityVerification',
		parameters: { resource: 'identification', operation, ...parameters },
		credentials: {
			identityVerificationApi: { apiKey: 'key', apiSecret: 'secret', baseUrl: server.url },
		},
	});

const SCAN_REF = '3af8e5b2-5a7c-11ee-8c99-0242ac120002';
const ODD_REF = 'skenas/Ž-1';

const CASES: Array<[string, string, INodeParameters]> = [
	['Get Many: a Client ID, Limit', 'getAll', { clientId: 'customer-12345', limit: 3 }],
	[
		'Get Many: non-ASCII Client ID, Return All, Per Page',
		'getAll',
		{ clientId: 'klientas-Žemaitė', returnAll: true, options: { perPage: 500 } },
	],
	['Get Data', 'getData', { scanRef: SCAN_REF }],
	['Get Data: Leave Out', 'getData', { scanRef: ODD_REF, personalData: 'leaveOut' }],
	['Get Result', 'getResult', { scanRef: SCAN_REF }],
	['Get Result: Leave Out', 'getResult', { scanRef: ODD_REF, personalData: 'leaveOut' }],
	['Download Files', 'downloadFiles', { scanRef: SCAN_REF }],
	['Download Report PDF: the defaults', 'downloadReportPdf', { scanRef: SCAN_REF }],
	[
		'Download Report PDF: every option',
		'downloadReportPdf',
		{
			scanRef: SCAN_REF,
			language: 'lt',
			options: { includeMainStepFiles: false, includeAdditionalStepFiles: false },
		},
	],
	['Delete Personal Data', 'deletePersonalData', { scanRef: SCAN_REF }],
	...['SELFIE', 'DOCUMENT', 'DOCUMENT_INFO'].flatMap(
		(blocklist): Array<[string, string, INodeParameters]> => [
			[`Add to Blocklist ${blocklist}`, 'addToBlocklist', { scanRef: SCAN_REF, blocklist }],
			[
				`Remove From Blocklist ${blocklist}`,
				'removeFromBlocklist',
				{ scanRef: SCAN_REF, blocklist },
			],
		],
	),
	[
		'Add to Blocklist: a reason, an odd scan reference',
		'addToBlocklist',
		{ scanRef: ODD_REF, reason: 'Forged document: Ž' },
	],
	['Request Information: no options (no body)', 'requestInformation', { scanRef: SCAN_REF }],
	[
		'Request Information: every option at its bounds',
		'requestInformation',
		{
			scanRef: SCAN_REF,
			options: {
				lifetime: 2_592_000,
				questionnaire: 'q',
				riskAssessmentProfile: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
				additionalStepUploadRequired: false,
				bankCardVerification: true,
				bankCardExpectedLastFour: '0042',
			},
		},
	],
	[
		'Request Information: lifetime 0',
		'requestInformation',
		{ scanRef: SCAN_REF, options: { lifetime: 0 } },
	],
];

describe('the schemas written from the provider’s pages accept its published request examples', () => {
	test.each([
		['requests/delete.idenfy-docs-deletion.json', SCAN_REF_ONLY],
		['requests/delete.idenfy-docs-2021.json', SCAN_REF_ONLY],
		['requests/status.idenfy-docs-2021.json', SCAN_REF_ONLY],
		['requests/full.idenfy-api-reference.json', SCAN_REF_ONLY],
		['requests/generate-pdf.idenfy-docs-pdf-generation.json', GENERATE_PDF],
		['requests/generate-pdf.with-language.idenfy-docs-pdf-generation.json', GENERATE_PDF],
		['requests/generate-pdf.idenfy-docs-2021.json', GENERATE_PDF],
	])('%s', (file, schema) => {
		expect(schemaErrors(schema, corpusJson(file))).toEqual([]);
	});

	test('and refuse what the pages rule out', () => {
		expect(schemaErrors(GENERATE_PDF, { scanRef: 's', language: 'de' })).not.toEqual([]);
		expect(schemaErrors(SCAN_REF_ONLY, { scanRefs: ['s'] })).not.toEqual([]);
	});
});

describe('requests of the operations on a verification’s records', () => {
	test.each(CASES)('%s', async (_name, operation, parameters) => {
		const { error } = await run(operation, parameters);
		expect(error).toBeUndefined();
		expect(server.requests.length).toBeGreaterThan(0);
		expect(server.requests.flatMap(mismatchesOf)).toEqual([]);
	});

	test('every operation of the provider these call was called', async () => {
		const called = new Set<string>();
		for (const [, operation, parameters] of CASES) {
			await run(operation, parameters);
			for (const request of server.requests) called.add(operationOf(request).key);
		}
		expect([...called].sort()).toEqual([...OPENAPI, ...Object.keys(DOCUMENTED)].sort());
	});
});

describe('the provider’s answers, through the operations', () => {
	test('Get Many outputs each verification of the published example page', async () => {
		const example = corpusJson('responses/identifications-list.idenfy-api-reference.json') as {
			results: unknown[];
			next: string;
			previous: string;
		};
		// Its links name a placeholder host: the service writes its own address (the Base URL's).
		const here = (link: string) => link.replace('http://api.example.org', server.url);
		const page = { ...example, next: here(example.next), previous: here(example.previous) };
		server.replies.push({ status: 200, body: page });
		const { items, error } = await run('getAll', { clientId: 'c', limit: 1 });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual(example.results);
	});

	test('Get Many outputs the verifications of a generated page, and Simplify its fields', async () => {
		const { items } = await run('getAll', { clientId: 'c', returnAll: true });
		const page = server.answers[0] as { results: Array<Record<string, unknown>> };
		expect(page.results.length).toBeGreaterThan(0);
		expect(items.map((item) => item.json)).toEqual(page.results);
		const flat = await run('getAll', { clientId: 'c', returnAll: true, simplify: true });
		expect(flat.items.map((item) => item.json)).toEqual(
			page.results.map(({ scanRef, status, suspected }) => ({
				scanRef,
				clientId: 'c',
				status,
				suspected,
			})),
		);
	});

	test('Get Result outputs the trigger’s item of a generated webhook body (final false)', async () => {
		const { items, error } = await run('getResult', { scanRef: SCAN_REF });
		expect(error).toBeUndefined();
		const answer = server.answers[0] as Record<string, unknown>;
		expect(items[0].json).toMatchObject({
			eventType: 'IDENTIFICATION',
			final: false,
			body: answer,
		});
		expect(verificationEventItemSchema.safeParse(items[0].json).success).toBe(true);
	});

	test('Request Information outputs the published example with its scanRef', async () => {
		const example = corpusJson('responses/request-information.idenfy-api-reference.json') as object;
		server.replies.push({ status: 200, body: example });
		const { items } = await run('requestInformation', { scanRef: SCAN_REF });
		expect(items.map((item) => item.json)).toEqual([{ scanRef: SCAN_REF, ...example }]);
	});

	test('Add to Blocklist outputs a generated entry with the verification and the list', async () => {
		const { items } = await run('addToBlocklist', {
			scanRef: SCAN_REF,
			blocklist: 'DOCUMENT_INFO',
		});
		expect(items[0].json).toEqual({
			...(server.answers[0] as object),
			scanRef: SCAN_REF,
			blocklist: 'DOCUMENT_INFO',
		});
	});

	test('Get Data outputs generated document data whole, and Leave Out none of the names', async () => {
		const { items } = await run('getData', { scanRef: SCAN_REF });
		const data = server.answers[0] as Record<string, unknown>;
		expect(items[0].json).toEqual({ scanRef: SCAN_REF, ...data });
		const kept = await run('getData', { scanRef: SCAN_REF, personalData: 'leaveOut' });
		const left = Object.keys(kept.items[0].json);
		expect(left.filter((key) => /Name|Number|Dob|Code|ddress|birth|Birth/.test(key))).toEqual([]);
	});

	test('Download Report PDF decodes the base64 answer; Download Files follows the links of the file table', async () => {
		const pdf = await run('downloadReportPdf', { scanRef: SCAN_REF });
		expect(Buffer.from(pdf.items[0].binary?.data?.data ?? '', 'base64')).toEqual(PDF);
		const files = await run('downloadFiles', { scanRef: SCAN_REF });
		expect(files.items[0].json).toMatchObject({ notAvailable: ['BACK'] });
		expect(Object.keys(files.items[0].binary ?? {})).toEqual(['FRONT', 'FACE']);
	});

	test.each([
		'errors/delete.token-not-expired.idenfy-docs-deletion.json',
		'errors/delete.token-not-expired.idenfy-docs-2021.json',
		'errors/delete.token-not-expired.idenfy-docs-2019-06-11.json',
	])('Delete Personal Data words the published refusal %s', async (file) => {
		// No status is published: 400, as the service's other errors; then Get Status says ACTIVE.
		server.replies.push(
			{ status: 400, body: corpusJson(file) },
			{ status: 200, body: { status: 'ACTIVE', scanRef: SCAN_REF } },
		);
		const { error } = await run('deletePersonalData', { scanRef: SCAN_REF });
		expect(error?.message).toContain('cannot be deleted yet');
		expect(error?.description).toContain('Run this step again');
	});
});
