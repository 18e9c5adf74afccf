/**
 * The KYB requests the action node sends for the operations the contract does not name (sessions,
 * companies, beneficiaries, all answers), and the existing form operations with the Form Token
 * field, checked against the provider's KYB OpenAPI document (kyb.yaml) as requests.test.cts checks
 * the others: method and path, path and query parameters, auth scheme, and a JSON body its schema
 * accepts (ajv) with only the fields it names. Where a discriminator picks the branch (the review
 * decision), the body must also pass that branch alone. Then the provider's answers (generated
 * from its schemas, fixed seeds) as the node outputs them.
 *
 * The kyb.yaml copy names schemas it does not define (e.g. UkAddress, reached from the company's
 * registry checks): provider.cts reads a missing schema as `{}` (anything), so those parts of an
 * answer are not checked and generated as any value; none of them is in a request the node sends.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { kybFormLink } from '../../nodes/shared/contract';
import { runNode } from '../harness/index.cjs';
import {
	operationOf as operationIn,
	useRecordingServer,
	type Captured,
	type Reply,
} from './recordingServer.cjs';
import {
	authSchemes,
	componentSchema,
	fakeInstances,
	parametersSchema,
	requestBodySchema,
	responseSchema,
	schemaErrors,
	type JsonSchema,
} from './provider.cjs';

/** The provider's operations these cases call, as `METHOD path` of kyb.yaml. */
const OPERATIONS = [
	'POST /kyb/tokens/',
	'GET /kyb/companies/',
	'GET /kyb/companies/{id}/',
	'DELETE /kyb/companies/{id}/',
	'POST /kyb/companies/{id}/change-status/',
	'POST /kyb/companies/{id}/pdf/',
	'POST /kyb/companies/{id}/automation/',
	'GET /kyb/forms/{companyId}/beneficiaries/',
	'GET /kyb/forms/{companyId}/questionnaires/answers/detail/',
	'GET /kyb/forms/{companyId}/questionnaires/{id}/answers/',
	'DELETE /kyb/forms/{companyId}/questionnaires/{id}/answers/',
	'POST /kyb/forms/{id}/submit/',
	'POST /kyb/forms/',
	'PATCH /kyb/forms/{id}/',
	'POST /kyb/forms/{companyId}/beneficiaries/',
	'GET /api/v2/gov-ordered-documents/available-documents/',
	'POST /api/v2/gov-ordered-documents/document-order/',
	'GET /api/v2/gov-ordered-documents/',
	'GET /api/v2/gov-ordered-documents/{id}/',
] as const;
type OperationKey = (typeof OPERATIONS)[number];

/** The fields of `body` its schema does not name, at the top level and inside named objects. */
function unnamedFields(schema: JsonSchema, body: Record<string, unknown>, at = ''): string[] {
	const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
	return Object.entries(body).flatMap(([field, value]) => {
		if (!(field in properties))
			return [`body ${at}/${field}: not a field of the provider's schema`];
		const inner = properties[field];
		if (typeof value !== 'object' || value === null || Array.isArray(value) || !inner.properties)
			return [];
		return unnamedFields(inner, value as Record<string, unknown>, `${at}/${field}`);
	});
}

/**
 * The branch of CompanyStatusRequest a body's `status` names (and of ManualReviewRequest its
 * `approvalStatus`), as the provider's discriminators map them.
 */
function statusBranch(body: Record<string, unknown>): JsonSchema {
	if (body.status !== 'COMPLETED') return componentSchema('NeedToStatusRequest');
	const completed = componentSchema('CompletedStatusRequest');
	const review = (body.reviewInfo ?? {}) as Record<string, unknown>;
	const manual = review.approvalStatus === 'DENIED' ? 'ManualDenyRequest' : 'ManualApproveRequest';
	const properties = completed.properties as Record<string, JsonSchema>;
	return { ...completed, properties: { ...properties, reviewInfo: componentSchema(manual) } };
}

/** The operation a request went to, with its path parameters. */
const operationOf = (request: Captured) => operationIn(OPERATIONS, request);

/** Every way a request differs from the provider's operation, one line each. */
function mismatchesOf(request: Captured): string[] {
	const { key, params } = operationOf(request);
	const [method, apiPath] = key.split(' ');
	const found: string[] = [];
	const add = (where: string, errors: string[]) =>
		found.push(...errors.map((error) => `${where} ${error}`));
	add('path', schemaErrors(parametersSchema(apiPath, method, 'path'), params));
	add('query', schemaErrors(parametersSchema(apiPath, method, 'query'), request.query, true));
	const schemes = authSchemes(apiPath, method);
	const scheme = request.authorization.split(' ')[0].toLowerCase();
	if (!schemes.includes(scheme))
		found.push(`auth ${scheme || 'none'}: the operation accepts ${schemes.join(' or ')}`);
	const declared = requestBodySchema(apiPath, method);
	if (request.body === '') {
		if (declared?.required) found.push('body: the operation requires a JSON body');
		return found;
	}
	if (!declared) return [...found, 'body: the operation takes no body'];
	if (!request.contentType.startsWith('application/json'))
		found.push(`body content-type ${request.contentType}: the operation takes application/json`);
	const body = JSON.parse(request.body) as Record<string, unknown>;
	add('body', schemaErrors(declared.schema, body));
	const branch = key === 'POST /kyb/companies/{id}/change-status/' ? statusBranch(body) : undefined;
	if (branch) add('body (its branch)', schemaErrors(branch, body));
	// A oneOf of one schema (KybTokenRequest): the fields are that schema's.
	const named = (declared.schema.anyOf as JsonSchema[] | undefined)?.[0] ?? declared.schema;
	found.push(...unnamedFields(branch ?? named, body));
	return found;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

/**
 * An answer the provider's schema generates from a fixed seed (with every optional field when the
 * generator can make such an answer the schema accepts: for a company's details it cannot, see
 * provider.cts). A session's token is never empty: the schema allows "", which opens no form, and
 * the node refuses it (the last test).
 */
function generated(apiPath: string, method: string, status: number, seed: number): unknown {
	const schema = responseSchema(apiPath, method, status);
	if (!schema) throw new Error(`${method} ${apiPath} publishes no JSON answer ${status}`);
	const usable = (value: unknown) => (value as { tokenString?: unknown }).tokenString !== '';
	const values = [true, false].flatMap((alwaysFakeOptionals) =>
		fakeInstances(schema, { seed, count: 10, alwaysFakeOptionals }).filter(usable),
	);
	if (values.length === 0) throw new Error(`no answer of ${method} ${apiPath} generated`);
	return values[0];
}

/** A one-page list of generated companies, its `count` and links consistent with it. */
function companyPage(seed: number) {
	const page = generated('/kyb/companies/', 'GET', 200, seed) as { results: unknown[] };
	return { count: page.results.length, next: null, previous: null, results: page.results };
}

function answerFor(key: OperationKey, seed: number): Reply {
	const [method, apiPath] = key.split(' ');
	switch (key) {
		case 'POST /kyb/tokens/':
			return { status: 201, body: generated(apiPath, method, 201, seed) };
		case 'GET /kyb/companies/':
			return { status: 200, body: companyPage(seed) };
		case 'POST /kyb/companies/{id}/pdf/':
			return { status: 200, pdf: PDF };
		case 'DELETE /kyb/companies/{id}/':
		case 'DELETE /kyb/forms/{companyId}/questionnaires/{id}/answers/':
			return { status: 204 };
		case 'POST /kyb/forms/{id}/submit/':
			return { status: 200 };
		case 'POST /kyb/companies/{id}/automation/':
			return { status: 202 };
		case 'POST /kyb/forms/':
		case 'POST /kyb/forms/{companyId}/beneficiaries/':
			return { status: 201, body: generated(apiPath, method, 201, seed) };
		case 'POST /api/v2/gov-ordered-documents/document-order/':
			return { status: 200 };
		case 'GET /api/v2/gov-ordered-documents/{id}/':
			// Not delivered yet: its generated `file` would be a link to anywhere.
			return {
				status: 200,
				body: { ...(generated(apiPath, method, 200, seed) as object), file: null },
			};
		case 'GET /api/v2/gov-ordered-documents/':
			return {
				status: 200,
				body: (generated(apiPath, method, 200, seed) as object[]).map((d) => ({
					...d,
					file: null,
				})),
			};
		default:
			return { status: 200, body: generated(apiPath, method, 200, seed) };
	}
}

/** The seed of the answers generated from the provider's schemas, set by each run. */
let seed = 1;
const server = useRecordingServer((request) => answerFor(operationOf(request).key, seed));

async function run(parameters: INodeParameters, input?: INodeExecutionData[], answersSeed = 1) {
	server.clear();
	seed = answersSeed;
	return await runNode({
		node: 'identityVerification',
		parameters,
		credentials: {
			identityVerificationApi: { apiKey: 'key', apiSecret: 'secret', baseUrl: server.url },
			identityVerificationKybFormTokenApi: { formToken: 'form-token', baseUrl: server.url },
		},
		input,
	});
}

const COMPANY = '3c90c3cc-0d44-4b50-8888-8dd25736052a';
const form = (operation: string, parameters: INodeParameters = {}) => ({
	resource: 'kyb',
	operation,
	...parameters,
});
const company = (operation: string, parameters: INodeParameters = {}) => ({
	resource: 'kybCompany',
	operation,
	companyId: COMPANY,
	...parameters,
});
const withFormToken = { authentication: 'formToken', formToken: 'session-token-1' };

const CASES: Array<[string, OperationKey, INodeParameters]> = [
	[
		'session: the Client ID only',
		'POST /kyb/tokens/',
		form('createSession', { clientId: 'deal-1' }),
	],
	[
		'session: every Additional Field',
		'POST /kyb/tokens/',
		form('createSession', {
			clientId: 'c'.repeat(100),
			sessionFields: {
				externalRef: 'r'.repeat(40),
				locale: 'pt',
				lifetime: 2592000,
				flow: COMPANY,
				theme: COMPANY,
				questionnaire: 'kyb-onboarding',
				questionnaireRequired: false,
				tags: ['t'.repeat(32), 'b', 'c', 'd', 'e'].join(','),
				scanRefs: `${'s'.repeat(40)},scan-2`,
			},
		}),
	],
	[
		'session: lifetime 0, non-ASCII Client ID and tags',
		'POST /kyb/tokens/',
		form('createSession', {
			clientId: 'įmonė-Žalgiris-客户',
			sessionFields: { lifetime: 0, tags: 'šaltinis, 客户' },
		}),
	],
	['companies: the first page', 'GET /kyb/companies/', company('getAll', { limit: 1 })],
	[
		'companies: by registration number, all pages',
		'GET /kyb/companies/',
		company('getAll', { returnAll: true, filters: { registrationNumber: '305123456' } }),
	],
	['company', 'GET /kyb/companies/{id}/', company('get')],
	[
		'company: an id with a slash and non-ASCII',
		'GET /kyb/companies/{id}/',
		company('get', { companyId: 'įmonė/1' }),
	],
	['delete company', 'DELETE /kyb/companies/{id}/', company('delete')],
	[
		'decision: approve (a deny reason typed is not sent)',
		'POST /kyb/companies/{id}/change-status/',
		company('setReviewDecision', { decision: 'APPROVED', denyReason: 'typed anyway' }),
	],
	[
		'decision: deny with a reason of 64 characters',
		'POST /kyb/companies/{id}/change-status/',
		company('setReviewDecision', { decision: 'DENIED', denyReason: 'Ž'.repeat(64) }),
	],
	[
		'decision: deny without a reason',
		'POST /kyb/companies/{id}/change-status/',
		company('setReviewDecision', { decision: 'DENIED' }),
	],
	...['NEED_TO_PROCESS', 'NEED_TO_REVIEW'].map(
		(decision): [string, OperationKey, INodeParameters] => [
			`decision: send back to ${decision} (a deny reason typed is not sent)`,
			'POST /kyb/companies/{id}/change-status/',
			company('setReviewDecision', { decision, denyReason: 'typed anyway' }),
		],
	),
	['re-run automation', 'POST /kyb/companies/{id}/automation/', company('rerunAutomation')],
	[
		'registry: available documents',
		'GET /api/v2/gov-ordered-documents/available-documents/',
		company('getAvailableDocuments', { countryCode: 'lt', registrationNumber: '305123456' }),
	],
	[
		'registry: available documents in a region',
		'GET /api/v2/gov-ordered-documents/available-documents/',
		company('getAvailableDocuments', {
			countryCode: 'US',
			registrationNumber: 'C1234567',
			registryFields: { region: 'CA' },
		}),
	],
	[
		'registry: an order with every field, non-ASCII name of 200 characters',
		'POST /api/v2/gov-ordered-documents/document-order/',
		company('orderDocument', {
			countryCode: 'LT',
			registrationNumber: '305123456',
			companyName: 'Ž'.repeat(200),
			productKey: 'REGISTER_EXTRACT',
			registryFields: { region: 'VL' },
		}),
	],
	['registry: the orders', 'GET /api/v2/gov-ordered-documents/', company('getOrderedDocuments')],
	[
		'registry: the orders, every filter',
		'GET /api/v2/gov-ordered-documents/',
		company('getOrderedDocuments', {
			filters: {
				status: 'TIMED_OUT',
				title: 'Išrašas',
				orderedAfter: '2026-01-02T03:04:05',
				orderedBefore: '2026-02-02T03:04:05Z',
			},
		}),
	],
	[
		'registry: one order',
		'GET /api/v2/gov-ordered-documents/{id}/',
		company('getOrderedDocument', { documentId: COMPANY }),
	],
	['PDF: the defaults', 'POST /kyb/companies/{id}/pdf/', company('downloadPdf')],
	[
		'PDF: a password and two sections',
		'POST /kyb/companies/{id}/pdf/',
		company('downloadPdf', {
			password: 'slaptažodis',
			sections: ['COMMENTS', 'BENEFICIARY_AML_CHECKS'],
		}),
	],
	...['apiKey', 'formToken'].flatMap(
		(authentication): Array<[string, OperationKey, INodeParameters]> => {
			const auth = authentication === 'formToken' ? withFormToken : { authentication };
			return [
				[
					`beneficiaries (${authentication})`,
					'GET /kyb/forms/{companyId}/beneficiaries/',
					form('getBeneficiaries', { companyId: COMPANY, ...auth }),
				],
				[
					`all answers (${authentication})`,
					'GET /kyb/forms/{companyId}/questionnaires/answers/detail/',
					form('getAllAnswers', { companyId: COMPANY, ...auth }),
				],
			];
		},
	),
	[
		'get answers (formToken)',
		'GET /kyb/forms/{companyId}/questionnaires/{id}/answers/',
		form('getAnswers', { companyId: COMPANY, questionnaireId: 'q-1', ...withFormToken }),
	],
	[
		'delete answers (formToken)',
		'DELETE /kyb/forms/{companyId}/questionnaires/{id}/answers/',
		form('deleteAnswers', { companyId: COMPANY, questionnaireId: 'q-1', ...withFormToken }),
	],
	[
		'create form: name and country (formToken)',
		'POST /kyb/forms/',
		form('createForm', { companyName: 'UAB Šiaurė', companyCountry: 'lt', ...withFormToken }),
	],
	[
		'create form: every detail at its bound (form token credential)',
		'POST /kyb/forms/',
		form('createForm', {
			authentication: 'kybFormToken',
			companyName: 'Ž'.repeat(200),
			companyCountry: 'XK',
			companyDetails: {
				activityCode: '46.52.00',
				brandNames: Array.from({ length: 10 }, (_, i) => `brand ${i}`).join(','),
				city: 'c'.repeat(100),
				email: 'info@example.com',
				operatingAddress: 'o'.repeat(255),
				phone: '+37060000000',
				postalAddress: 'p'.repeat(255),
				postcode: 'LT-01100',
				region: 'VL',
				registrationNumber: 'r'.repeat(100),
				street: 's'.repeat(100),
				tin: 't'.repeat(32),
				type: 'UAB',
				website: 'https://example.com/about',
			},
		}),
	],
	...['apiKey', 'formToken'].flatMap(
		(authentication): Array<[string, OperationKey, INodeParameters]> => {
			const auth = authentication === 'formToken' ? withFormToken : { authentication };
			return [
				[
					`update form (${authentication})`,
					'PATCH /kyb/forms/{id}/',
					form('updateForm', {
						companyId: COMPANY,
						companyName: 'UAB Šiaurė',
						companyCountry: 'LT',
						companyDetails: { city: 'Kaunas' },
						...auth,
					}),
				],
				[
					`add beneficiary: the name only (${authentication})`,
					'POST /kyb/forms/{companyId}/beneficiaries/',
					form('addBeneficiary', { companyId: COMPANY, name: 'Rūta', surname: 'Ž', ...auth }),
				],
			];
		},
	),
	[
		'add beneficiary: every field at its bound',
		'POST /kyb/forms/{companyId}/beneficiaries/',
		form('addBeneficiary', {
			companyId: COMPANY,
			name: 'n'.repeat(100),
			surname: 's'.repeat(100),
			beneficiaryTypes: ['ABO', 'CEO', 'REPRESENTATIVE', 'SHAREHOLDER', 'UBO'],
			beneficiaryFields: {
				countryOfResidence: 'LV',
				dateOfBirth: '1985-04-12',
				email: 'ruta@example.com',
				formFiller: false,
				nationality: 'LT',
				ownershipPercentage: 100,
				personalNumber: 'p'.repeat(50),
				phone: '+37060000000',
				positions: `${'d'.repeat(50)},owner,signatory`,
				residentialAddress: 'a'.repeat(255),
				scanRef: 'scan-1',
			},
		}),
	],
	// The provider accepts only the form token for a submit: the Form Token field sends it.
	[
		'submit form (formToken)',
		'POST /kyb/forms/{id}/submit/',
		form('submitForm', { formId: COMPANY, ...withFormToken }),
	],
];

describe('the check of a KYB request', () => {
	test('finds a decision whose body passes the loose union but not its own branch', () => {
		const request: Captured = {
			method: 'POST',
			path: `/kyb/companies/${COMPANY}/change-status/`,
			query: {},
			authorization: 'Basic a2V5OnNlY3JldA==',
			contentType: 'application/json',
			body: JSON.stringify({
				status: 'COMPLETED',
				reviewInfo: { approvalStatus: 'APPROVED', denyReason: 'x' },
			}),
		};
		expect(mismatchesOf(request)).toEqual([
			"body /reviewInfo/denyReason: not a field of the provider's schema",
		]);
		const tooLong = {
			...request,
			body: JSON.stringify({
				status: 'COMPLETED',
				reviewInfo: { approvalStatus: 'DENIED', denyReason: 'x'.repeat(65) },
			}),
		};
		expect(mismatchesOf(tooLong)).toContain(
			'body (its branch) /reviewInfo/denyReason maxLength: must NOT have more than 64 characters',
		);
		const bearer = { ...request, authorization: 'Bearer t', body: '' };
		expect(mismatchesOf({ ...bearer, method: 'GET', path: `/kyb/companies/${COMPANY}/` })).toEqual([
			'auth bearer: the operation accepts basic',
		]);
	});
});

describe('KYB requests of the action node against kyb.yaml', () => {
	test.each(CASES)('%s', async (_name, operation, parameters) => {
		const { error } = await run(parameters);
		expect(error).toBeUndefined();
		expect(server.requests.length).toBeGreaterThan(0);
		for (const request of server.requests) {
			expect(operationOf(request).key).toBe(operation);
			expect(mismatchesOf(request)).toEqual([]);
		}
	});
});

describe('the provider’s KYB answers, as the node outputs them', () => {
	test.each([1, 2, 3])(
		'Create Session (seed %i): the link first, then the answer unchanged',
		async (seed) => {
			const { items, error } = await run(
				form('createSession', { clientId: 'deal-1' }),
				undefined,
				seed,
			);
			expect(error).toBeUndefined();
			const answer = server.answers[0] as { tokenString: string };
			expect(items.map((item) => item.json)).toEqual([
				{ formUrl: kybFormLink(answer.tokenString), ...answer },
			]);
		},
	);

	test.each([
		['Get', company('get')],
		['Get All Answers', form('getAllAnswers', { companyId: COMPANY })],
		['Get Many Beneficiaries', form('getBeneficiaries', { companyId: COMPANY })],
	])('%s: the answer unchanged, one item per entry of a list', async (_name, parameters) => {
		for (const seed of [1, 2, 3]) {
			const { items, error } = await run(parameters, undefined, seed);
			expect(error).toBeUndefined();
			const answer = server.answers[0];
			expect(items.map((item) => item.json)).toEqual(Array.isArray(answer) ? answer : [answer]);
		}
	});

	test('Get Many: the page’s companies, one item each', async () => {
		for (const seed of [1, 2, 3]) {
			const { items, error } = await run(company('getAll', { returnAll: true }), undefined, seed);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual(
				(server.answers[0] as { results: unknown[] }).results,
			);
		}
	});

	test('Create Session: an answer whose token is empty (the schema allows it) is refused: it opens no form', async () => {
		const answer = generated('/kyb/tokens/', 'POST', 201, 1) as object;
		server.replies.push({ status: 201, body: { ...answer, tokenString: '' } });
		const { error } = await run(form('createSession', { clientId: 'deal-1' }));
		expect(error?.message).toBe('The service made the session, but its answer has no tokenString');
	});

	test('Set Review Decision: the company ID, then the answer unchanged', async () => {
		const { items, error } = await run(company('setReviewDecision', { decision: 'APPROVED' }));
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ companyId: COMPANY, ...(server.answers[0] as object) },
		]);
	});
});
