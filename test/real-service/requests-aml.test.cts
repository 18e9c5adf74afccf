/**
 * The AML requests the action node sends (AML Check and AML Monitoring), checked against the
 * provider's AML OpenAPI document as requests.test.cts checks the others: each operation runs on
 * n8n's engine with a set of parameter combinations against a loopback server that records every
 * request and answers as the provider's schemas say (generated from a fixed seed). Each request
 * must be the provider's operation (method and path) with path and query parameters, JSON body and
 * auth scheme its schemas accept (ajv), and no field the schema does not name, at any depth. The
 * node's output must be the provider's answer, passed through (after the IDs and counts the node
 * puts first).
 */
import type { INodeParameters } from 'n8n-workflow';

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

import {
	AML_COMPANY_DATASETS,
	AML_COUNTRIES,
	AML_DATE_OF_BIRTH_MATCHING,
	AML_MONITORING_ORDER,
	AML_MONITORING_STATUSES,
	AML_PEP_TIERS,
	AML_PERSON_DATASETS,
	AML_SEXES,
} from '../../nodes/shared/contract';
import { runNode } from '../harness/index.cjs';
import {
	operationOf as operationIn,
	useRecordingServer,
	type Captured,
	type Reply,
} from './recordingServer.cjs';
import {
	authSchemes,
	CORPUS,
	corpusJson,
	fakeInstances,
	parametersSchema,
	requestBodySchema,
	responseSchema,
	schemaErrors,
	type JsonSchema,
} from './provider.cjs';

/** The provider's AML operations the node calls, as `METHOD path` of aml.yaml. */
const OPERATIONS = [
	'POST /aml/checks/',
	'GET /aml/checks/{id}/profiles/{profileId}/',
	'POST /aml/checks/{id}/pdf/',
	'POST /aml/checks/{id}/profiles/{profileId}/pdf/',
	'GET /aml/monitorings/',
	'POST /aml/monitorings/',
	'GET /aml/monitorings/{id}/',
	'PATCH /aml/monitorings/{id}/',
	'DELETE /aml/monitorings/{id}/',
	'POST /aml/monitorings/{id}/{action}/',
	'POST /aml/monitorings/{id}/pdf/',
	'DELETE /aml/monitorings/{id}/profiles/{profileId}/',
] as const;
type OperationKey = (typeof OPERATIONS)[number];

/** The operations the node calls without a JSON body. */
const WITHOUT_BODY: OperationKey[] = [
	'GET /aml/checks/{id}/profiles/{profileId}/',
	'GET /aml/monitorings/',
	'GET /aml/monitorings/{id}/',
	'DELETE /aml/monitorings/{id}/',
	'DELETE /aml/monitorings/{id}/profiles/{profileId}/',
];

/**
 * The schema with no field but those it names, at every depth (`additionalProperties: false` on
 * every object that lists its properties): a field the provider does not know is a mismatch. It
 * also tells a person's `input` from a company's where the discriminator was dropped.
 */
function strict(schema: unknown): JsonSchema {
	if (Array.isArray(schema)) return schema.map(strict) as unknown as JsonSchema;
	if (typeof schema !== 'object' || schema === null) return schema as JsonSchema;
	const out: JsonSchema = {};
	for (const [key, value] of Object.entries(schema)) {
		out[key] =
			key === 'properties'
				? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, strict(v)]))
				: strict(value);
	}
	if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
	return out;
}

/** The operation a request went to, with its path parameters. */
const operationOf = (request: Captured) => operationIn(OPERATIONS, request);

/** Every way the request differs from the provider's operation, one line each. */
function mismatchesOf(request: Captured): string[] {
	const { key, params } = operationOf(request);
	const [method, apiPath] = key.split(' ');
	const found: string[] = [];
	const add = (where: string, errors: string[]) =>
		found.push(...errors.map((error) => `${where} ${error}`));
	add('path', schemaErrors(parametersSchema(apiPath, method, 'path'), params));
	add(
		'query',
		schemaErrors(
			queryArraysSplit(parametersSchema(apiPath, method, 'query'), request.query),
			request.query,
			true,
		),
	);
	const schemes = authSchemes(apiPath, method);
	const scheme = request.authorization.split(' ')[0].toLowerCase();
	if (!schemes.includes(scheme))
		found.push(`auth ${scheme || 'none'}: not ${schemes.join(' or ')}`);
	const declared = requestBodySchema(apiPath, method);
	if (request.body === '') {
		if (declared?.required) found.push('body: the operation requires a JSON body');
		return found;
	}
	if (!declared) return [...found, 'body: the operation takes no body'];
	if (!request.contentType.startsWith('application/json'))
		found.push(`body content-type ${request.contentType}: not application/json`);
	add('body', schemaErrors(strict(declared.schema), JSON.parse(request.body)));
	return found;
}

/**
 * The query schema with its comma-separated arrays (`style: form, explode: false`) read as the
 * provider reads them: `tags=a,b` is the list ["a", "b"] (the value is split in `request.query`).
 */
function queryArraysSplit(
	schema: JsonSchema,
	query: Record<string, string | string[]>,
): JsonSchema {
	const properties = schema.properties as Record<string, JsonSchema>;
	for (const [name, property] of Object.entries(properties)) {
		if (property.type !== 'array' || typeof query[name] !== 'string') continue;
		const items = (property.items ?? {}) as JsonSchema;
		query[name] = (query[name] as string).split(',');
		// `tags` is a list of lists in the schema: one list of tags is sent.
		if (items.type === 'array') properties[name] = { type: 'array', items: items.items };
	}
	return schema;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

/** A value of the provider's answer schema, from a fixed seed. */
function generated(key: OperationKey, status: number, seed = 11): unknown {
	const [method, apiPath] = key.split(' ');
	const schema = responseSchema(apiPath, method, status);
	if (!schema) throw new Error(`${key} publishes no JSON answer ${status}`);
	return fakeInstances(schema, { seed, count: 1, alwaysFakeOptionals: true })[0];
}

/** What the provider's schemas say the operation answers. */
function answerFor(key: OperationKey): Reply {
	if (key.endsWith('/pdf/')) return { status: 200, pdf: PDF };
	if (key.startsWith('DELETE')) return { status: 204 };
	if (key === 'GET /aml/monitorings/') {
		// One page: the generated `next` links point anywhere, which the node refuses by design.
		const page = generated(key, 200) as { results: unknown[] };
		return {
			status: 200,
			body: { ...page, count: page.results.length, next: null, previous: null },
		};
	}
	const status =
		key.startsWith('POST /aml/checks/') || key === 'POST /aml/monitorings/' ? 201 : 200;
	return { status, body: generated(key, status) };
}

const server = useRecordingServer((request) => answerFor(operationOf(request).key));

async function run(parameters: INodeParameters) {
	server.clear();
	return await runNode({
		node: 'identityVerification',
		parameters,
		credentials: {
			identityVerificationApi: { apiKey: 'key', apiSecret: 'secret', baseUrl: server.url },
		},
	});
}

const CHECK_ID = '3b1f8c2e-6d4a-4f0b-8e21-7a9c5d3e1f42';
const MONITORING_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const check = (extra: INodeParameters = {}) => ({
	resource: 'aml',
	operation: 'create',
	clientId: 'customer-1',
	fullName: 'Jonas Jonaitis',
	...extra,
});
const monitoring = (operation: string, extra: INodeParameters = {}) => ({
	resource: 'amlMonitoring',
	operation,
	monitoringId: MONITORING_ID,
	...extra,
});

const CASES: Array<[string, OperationKey, INodeParameters]> = [
	['check: a person, the defaults', 'POST /aml/checks/', check()],
	[
		'check: a person, every field and option',
		'POST /aml/checks/',
		check({
			fullName: 'Žydrūnė Ąžuolė-Šimkutė',
			personFields: { nationality: 'LT', dateOfBirth: '1985-04-12T00:00:00', sex: 'FEMALE' },
			threshold: 75,
			personDatasets: ['PEP_CURRENT', 'SAN_CURRENT', 'DD'],
			options: {
				dateOfBirthMatching: 'WITHIN_FIVE_YEARS',
				pepTiers: ['PEP_TIER_1', 'PEP_TIER_3'],
				sanctionBodies: '1, 80',
			},
		}),
	],
	[
		'check: a company, every field, upper bounds',
		'POST /aml/checks/',
		check({
			userType: 'COMPANY',
			clientId: 'c'.repeat(100),
			companyName: 'C'.repeat(200),
			companyFields: { country: 'xk' },
			threshold: 100,
			companyDatasets: ['SOE_CURRENT', 'SOE_FORMER', 'PEP_LINKED'],
			options: { sanctionBodies: '40' },
		}),
	],
	[
		'get profile',
		'GET /aml/checks/{id}/profiles/{profileId}/',
		{ resource: 'aml', operation: 'getProfile', checkId: CHECK_ID, profileId: 'profilis/Ž 1' },
	],
	[
		'check PDF without a password',
		'POST /aml/checks/{id}/pdf/',
		{ resource: 'aml', operation: 'downloadPdf', checkId: CHECK_ID },
	],
	[
		'check PDF with a password',
		'POST /aml/checks/{id}/pdf/',
		{ resource: 'aml', operation: 'downloadPdf', checkId: CHECK_ID, password: 'slaptažodis' },
	],
	[
		'profile PDF',
		'POST /aml/checks/{id}/profiles/{profileId}/pdf/',
		{
			resource: 'aml',
			operation: 'downloadProfilePdf',
			checkId: CHECK_ID,
			profileId: 'prof-001',
			password: 'x',
		},
	],
	[
		'monitoring: a person with tags, renewed',
		'POST /aml/monitorings/',
		monitoring('create', {
			clientId: 'customer-2',
			fullName: 'Jonas Jonaitis',
			personFields: { nationality: 'LT', dateOfBirth: '1985-04-12', sex: 'MALE' },
			isSubscribed: true,
			tags: 'vip, ' + 't'.repeat(32) + ', a, b, c',
		}),
	],
	[
		'monitoring: a company, no tags',
		'POST /aml/monitorings/',
		monitoring('create', { userType: 'COMPANY', clientId: 'c', companyName: 'Baltic Widgets UAB' }),
	],
	['monitoring: get', 'GET /aml/monitorings/{id}/', monitoring('get')],
	['monitorings: the defaults (Limit 50)', 'GET /aml/monitorings/', monitoring('getAll')],
	[
		'monitorings: every filter and the order',
		'GET /aml/monitorings/',
		monitoring('getAll', {
			returnAll: true,
			filters: {
				status: 'ALERT',
				userType: 'COMPANY',
				name: 'Baltic',
				country: 'lt',
				isExpired: true,
				tags: 'vip, kyc',
			},
			options: { orderBy: '-expiration' },
		}),
	],
	[
		'monitoring: update both fields',
		'PATCH /aml/monitorings/{id}/',
		monitoring('update', { updateFields: { isSubscribed: true, tags: 'renewed' } }),
	],
	[
		'monitoring: update, tags removed',
		'PATCH /aml/monitorings/{id}/',
		monitoring('update', { updateFields: { tags: '' } }),
	],
	['monitoring: delete', 'DELETE /aml/monitorings/{id}/', monitoring('delete')],
	[
		'monitoring: stop with a comment',
		'POST /aml/monitorings/{id}/{action}/',
		monitoring('stop', { comment: 'c'.repeat(10_000) }),
	],
	[
		'monitoring: start without a comment',
		'POST /aml/monitorings/{id}/{action}/',
		monitoring('start'),
	],
	[
		'monitoring: PDF',
		'POST /aml/monitorings/{id}/pdf/',
		monitoring('downloadPdf', { password: 'p' }),
	],
	[
		'monitoring: remove a profile',
		'DELETE /aml/monitorings/{id}/profiles/{profileId}/',
		monitoring('removeProfile', { profileId: 'prof-pep-002' }),
	],
];

describe('the check of a request', () => {
	test('finds a field the provider does not name, deep in the body, and a wrong auth scheme', () => {
		const request: Captured = {
			method: 'POST',
			path: '/aml/checks/',
			query: {},
			authorization: 'Bearer t',
			contentType: 'application/json',
			body: JSON.stringify({
				clientId: 'c',
				userType: 'PERSON',
				input: { fullName: 'N', middleName: 'M' },
				filter: { datasets: ['PEP_CURRENT'] },
			}),
		};
		const found = mismatchesOf(request);
		expect(found[0]).toBe('auth bearer: not basic');
		expect(found.some((m) => m.includes('additionalProperties'))).toBe(true);
	});
});

describe('AML requests of the action node against the provider’s aml.yaml', () => {
	test.each(CASES)('%s', async (_name, operation, parameters) => {
		const { error } = await run(parameters);
		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(1);
		const [request] = server.requests;
		expect(operationOf(request).key).toBe(operation);
		expect(request.body !== '').toBe(!WITHOUT_BODY.includes(operation));
		expect(mismatchesOf(request)).toEqual([]);
	});

	test('every AML operation of the provider’s document is called by a case', () => {
		expect([...new Set(CASES.map(([, operation]) => operation))].sort()).toEqual(
			[...OPERATIONS].sort(),
		);
	});
});

describe('the provider’s answers, as the node outputs them', () => {
	test.each([
		['Create (check)', check(), ['overallStatus', 'hitCount', 'adverseMediaCount', 'checkId']],
		[
			'Get Profile',
			{ resource: 'aml', operation: 'getProfile', checkId: CHECK_ID, profileId: 'p-1' },
			['checkId', 'profileId'],
		],
		[
			'Create (monitoring)',
			monitoring('create', { clientId: 'c', fullName: 'N' }),
			['monitoringId', 'status'],
		],
		['Get', monitoring('get'), ['monitoringId', 'status']],
		[
			'Update',
			monitoring('update', { updateFields: { isSubscribed: true } }),
			['monitoringId', 'status'],
		],
		['Stop', monitoring('stop'), ['monitoringId', 'status']],
	])(
		'%s: the answer unchanged, after the fields the node puts first',
		async (_name, parameters, first) => {
			const { items, error } = await run(parameters as INodeParameters);
			expect(error).toBeUndefined();
			const answered = server.answers[0] as Record<string, unknown>;
			expect(Object.keys(items[0].json).slice(0, first.length)).toEqual(first);
			expect(items[0].json).toMatchObject(answered);
			expect(
				Object.keys(items[0].json).filter((k) => !(k in answered) && !first.includes(k)),
			).toEqual([]);
		},
	);

	test('Get Many outputs each monitoring of the page, with monitoringId', async () => {
		const { items, error } = await run(monitoring('getAll', { returnAll: true }));
		expect(error).toBeUndefined();
		const page = server.answers[0] as { results: Array<Record<string, unknown>> };
		expect(items.map((i) => i.json)).toEqual(
			page.results.map((m) => ({ monitoringId: m.id, ...m, status: m.status ?? null })),
		);
	});

	test('Get Many reads the provider’s published example page, and refuses its link to another host', async () => {
		const example = corpusJson('responses/aml-monitorings-list.idenfy-api-reference.json') as {
			results: Array<Record<string, unknown>>;
			next: string;
		};
		server.replies.push({ status: 200, body: { ...example, next: null, previous: null } });
		const read = await run(monitoring('getAll', { limit: 1 }));
		expect(read.error).toBeUndefined();
		expect(read.items[0].json).toEqual({
			monitoringId: example.results[0].id,
			...example.results[0],
		});
		// Its links point at http://api.example.org/…: a credential never follows a link off the Base URL.
		server.replies.push({ status: 200, body: example });
		const refused = await run(monitoring('getAll', { limit: 1 }));
		expect(refused.error?.message).toMatch(/link/i);
	});
});

describe('the lists the node offers and checks are the provider’s', () => {
	const document = parseYaml(readFileSync(path.join(CORPUS, 'openapi', 'aml.yaml'), 'utf8')) as {
		components: { schemas: Record<string, { enum?: string[] }> };
		paths: Record<string, { get: { parameters: Array<{ name: string; schema: any }> } }>;
	};
	const enumOf = (name: string) => document.components.schemas[name].enum;
	const query = (name: string) =>
		document.paths['/aml/monitorings/'].get.parameters.find((p) => p.name === name)!.schema;

	test.each([
		['CountryEnum', AML_COUNTRIES],
		['PersonAmlCheckFilterDatasetsEnum', AML_PERSON_DATASETS],
		['CompanyAmlCheckFilterDatasetsEnum', AML_COMPANY_DATASETS],
		['DateOfBirthMatchingEnum', AML_DATE_OF_BIRTH_MATCHING],
		['PepTierEnum', AML_PEP_TIERS],
		['MainSexEnum', AML_SEXES],
		['MonitoringStatusEnum', AML_MONITORING_STATUSES],
	])('%s', (name, values) => {
		expect([...values].sort()).toEqual([...(enumOf(name) ?? [])].sort());
	});

	test('the list’s status filter and sort order', () => {
		expect([...AML_MONITORING_STATUSES].sort()).toEqual([...query('status').enum].sort());
		expect([...AML_MONITORING_ORDER].sort()).toEqual([...query('orderBy').items.enum].sort());
	});
});
