/**
 * The requests the action node sends, checked against the provider's published OpenAPI documents:
 * each operation runs on n8n's engine (the harness) with a set of parameter combinations against a
 * loopback server that records every request and answers as the provider's schemas say. Each
 * request must be the provider's operation (method and path), with path and query parameters, JSON
 * body and auth scheme that operation's schemas accept (ajv), and only fields the schema names.
 *
 * A mismatch is a defect of the node unless EXPECTED_DIFFERENCES lists it with the reason the
 * contract (docs/service-interface.md) deliberately differs there. KNOWN_DEFECTS pins the defects
 * found so far (the node is fixed separately).
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/index.cjs';
import {
	operationOf as operationIn,
	useRecordingServer,
	type Captured,
	type Reply,
} from './recordingServer.cjs';
import {
	authSchemes,
	fakeInstances,
	parametersSchema,
	requestBodySchema,
	responseSchema,
	schemaErrors,
} from './provider.cjs';

/** The provider's operations the node calls, as `METHOD path` of the OpenAPI documents. */
const OPERATIONS = [
	'POST /api/v2/token',
	'POST /kyc/identifications/{scanRef}/request-information/',
	'POST /bank/tokens/',
	'GET /bank/verifications/{verificationId}/accounts/{accountId}/transactions/',
	'POST /api/v2/poa-checks/',
	'POST /aml/checks/{id}/profiles/{profileId}/pdf/',
	'GET /kyb/forms/{companyId}/questionnaires/{id}/answers/',
	'DELETE /kyb/forms/{companyId}/questionnaires/{id}/answers/',
	'POST /kyb/forms/{id}/submit/',
] as const;
type OperationKey = (typeof OPERATIONS)[number];

/** The operations the node sends a JSON body to (the others it calls without one). */
const WITH_BODY: OperationKey[] = [
	'POST /api/v2/token',
	'POST /bank/tokens/',
	'POST /api/v2/poa-checks/',
	'POST /aml/checks/{id}/profiles/{profileId}/pdf/',
];

/**
 * Where the contract deliberately sends what the provider's schema does not accept. Each entry
 * must still occur (the last test), so a fixed difference is taken out of this list.
 */
const EXPECTED_DIFFERENCES: Array<{ operation: OperationKey; mismatch: string; reason: string }> = [
	{
		operation: 'POST /kyb/forms/{id}/submit/',
		mismatch: 'auth basic: the operation accepts bearer',
		reason:
			'The provider’s schema accepts only the KYB form token (Bearer) for submitting a form; the contract accepts the KYB form token or the API key pair for every KYB operation, and the contract wins. With the API key the service’s own answer says whether the account may submit.',
	},
	{
		operation: 'POST /api/v2/token',
		mismatch: "body / required: must have required property 'tokenType'",
		reason:
			'The schema requires tokenType, but the provider’s docs (kyc/generate-token) say "The only required field is clientId" and IDENTIFICATION is the default; every published request example leaves it out. The contract sends tokenType only when the user sets it (Custom Fields).',
	},
];

/**
 * Defects of the node these tests found, by case: the mismatches the case still shows. Once the node
 * is fixed the case's test fails: delete its entry.
 */
const KNOWN_DEFECTS: Record<string, { mismatches: string[]; defect: string }> = {};

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
	add('query', schemaErrors(parametersSchema(apiPath, method, 'query'), request.query, true));

	const schemes = authSchemes(apiPath, method);
	const scheme = request.authorization.split(' ')[0].toLowerCase();
	if (schemes.length > 0 && !schemes.includes(scheme)) {
		found.push(`auth ${scheme || 'none'}: the operation accepts ${schemes.join(' or ')}`);
	}

	const declared = requestBodySchema(apiPath, method);
	if (request.body === '') {
		if (declared?.required) found.push('body: the operation requires a JSON body');
		return found;
	}
	if (!declared) return [...found, 'body: the operation takes no body'];
	if (!request.contentType.startsWith('application/json')) {
		found.push(`body content-type ${request.contentType}: the operation takes application/json`);
	}
	const body = JSON.parse(request.body) as Record<string, unknown>;
	add('body', schemaErrors(declared.schema, body));
	const named = Object.keys((declared.schema.properties ?? {}) as object);
	for (const field of Object.keys(body).filter((name) => !named.includes(name))) {
		found.push(`body /${field}: not a field of the provider's schema`);
	}
	return found;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

/** An answer: a JSON body, a PDF, or no body. */
/** What the provider's schemas say the operation answers (generated from a fixed seed). */
function answerFor(key: OperationKey, request: Captured): Reply {
	const [method, apiPath] = key.split(' ');
	const generated = (status: number) => {
		const schema = responseSchema(apiPath, method, status);
		return schema && fakeInstances(schema, { seed: 11, count: 1, alwaysFakeOptionals: true })[0];
	};
	switch (key) {
		case 'POST /api/v2/token':
		case 'POST /bank/tokens/':
		case 'POST /api/v2/poa-checks/':
			return { status: 201, body: generated(201) };
		case 'GET /bank/verifications/{verificationId}/accounts/{accountId}/transactions/':
			return { status: 200, body: transactionPage(request) };
		case 'POST /aml/checks/{id}/profiles/{profileId}/pdf/':
			return { status: 200, pdf: PDF };
		case 'DELETE /kyb/forms/{companyId}/questionnaires/{id}/answers/':
			return { status: 204 };
		case 'POST /kyb/forms/{id}/submit/':
			return { status: 200 };
		default:
			return { status: 200, body: generated(200) };
	}
}

const TRANSACTIONS = 5;
/** A page of TRANSACTIONS transactions (2 a page unless perPage says), with a `next` link. */
function transactionPage(request: Captured) {
	const page = Number(request.query.page ?? 1);
	const perPage = Number(request.query.perPage ?? 2);
	const first = (page - 1) * perPage;
	const count = Math.max(0, Math.min(perPage, TRANSACTIONS - first));
	const next =
		first + count < TRANSACTIONS ? `${server.url}${request.path}?page=${page + 1}` : null;
	return {
		count: TRANSACTIONS,
		next,
		previous: null,
		results: Array.from({ length: count }, (_, index) => ({
			creditor: { fullName: `Gražina ${first + index}` },
			debtor: { fullName: null },
			bookingDate: '2024-03-01',
			transactionDate: null,
			transactionAmount: { amount: '-12.50', currency: 'EUR' },
		})),
	};
}

/** Records the request and answers it as the provider's schemas say. */

const server = useRecordingServer((request) => answerFor(operationOf(request).key, request));

interface Case {
	name: string;
	operation: OperationKey;
	parameters: INodeParameters;
	input?: INodeExecutionData[];
	/** Later steps of the node (a Wait for Result after "Send the Result to This Workflow"). */
	after?: Array<{ name: string; parameters: INodeParameters }>;
}

const SCAN_REF = '3af8e5b2-5a7c-11ee-8c99-0242ac120002';
const CHECK_ID = '3b1f8c2e-6d4a-4f0b-8e21-7a9c5d3e1f42';
const PNG = Buffer.concat([
	Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
	Buffer.alloc(64, 1),
]);
const pngItem = (): INodeExecutionData => ({
	json: {},
	binary: { data: { data: PNG.toString('base64'), mimeType: 'image/png', fileName: 'bill.png' } },
});

const token = (parameters: INodeParameters) => ({
	resource: 'identification',
	operation: 'createVerificationToken',
	...parameters,
});
const customFields = (...fields: Array<[string, unknown]>) => ({
	field: fields.map(([name, value]) => ({ name, value })),
});
const bankToken = (parameters: INodeParameters) => ({
	resource: 'bank',
	operation: 'createToken',
	...parameters,
});
const transactions = (parameters: INodeParameters) => ({
	resource: 'bank',
	operation: 'listTransactions',
	verificationId: '5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10',
	accountId: '9d3c2a51-0f7e-4c4b-9a8e-1b2c3d4e5f60',
	returnAll: true,
	...parameters,
});
const poa = (parameters: INodeParameters) => ({
	resource: 'proofOfAddress',
	operation: 'createCheck',
	...parameters,
});
const amlPdf = (parameters: INodeParameters) => ({
	resource: 'aml',
	operation: 'downloadProfilePdf',
	checkId: CHECK_ID,
	profileId: 'prof-001',
	password: 'report-password',
	...parameters,
});
const kyb = (operation: string, parameters: INodeParameters) => ({
	resource: 'kyb',
	operation,
	...parameters,
});
const answers = { companyId: 'company-001', questionnaireId: 'questionnaire-001' };

const EVERY_TOKEN_FIELD = {
	callbackUrl: 'https://example.com/kyc-result?source=n8n',
	country: 'lt',
	dateOfBirth: '1990-12-31',
	documents: 'ID_CARD, PASSPORT',
	errorUrl: 'https://example.com/verification-failed',
	expiryTime: 3600,
	externalRef: 'order-2024-0042',
	firstName: 'Jonas',
	lastName: 'Jonaitis',
	locale: 'en',
	sessionLength: 600,
	successUrl: 'https://example.com/thank-you',
	unverifiedUrl: 'https://example.com/try-again',
	checkAml: true,
	autoAmlMonitoring: true,
	checkFaceBlacklist: true,
	checkDocFaceBlacklist: false,
	checkPersonBlacklist: true,
	questionnaire: 'onboarding-questions',
	questionnaireRequired: false,
	theme: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
	riskAssessmentProfile: '5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10',
};

const CASES: Case[] = [
	// Identification → Create Verification Token
	...[
		['only the Client ID', { clientId: 'customer-12345' }],
		['every Additional Field set', { clientId: 'customer-1', tokenFields: EVERY_TOKEN_FIELD }],
		[
			'empty Additional Fields (left out)',
			{
				clientId: 'customer-2',
				tokenFields: { firstName: '', lastName: '', externalRef: '', locale: '', documents: '' },
			},
		],
		[
			'non-ASCII names and Client ID',
			{
				clientId: 'klientas-Žemaitė-客户',
				tokenFields: { firstName: 'Žydrūnė Ąžuolė', lastName: 'Šimkutė-Øvergård', locale: 'lt' },
			},
		],
		[
			'lower bounds (expiry 0, session 60 seconds, one document)',
			{ clientId: 'c', tokenFields: { expiryTime: 0, sessionLength: 60, documents: 'PASSPORT' } },
		],
		[
			'upper bounds (Client ID 100, reference 40 characters, 30 days, 1 hour)',
			{
				clientId: 'c'.repeat(100),
				tokenFields: {
					externalRef: 'r'.repeat(40),
					expiryTime: 2592000,
					sessionLength: 3600,
					locale: 'zh-Hant',
				},
			},
		],
		[
			'a language code of 7 characters (longer ones the node refuses)',
			{ clientId: 'customer-4', tokenFields: { locale: 'zh-Hans' } },
		],
		[
			'names of 100 characters (longer ones the node refuses)',
			{
				clientId: 'customer-5',
				tokenFields: { firstName: 'F'.repeat(100), lastName: 'L'.repeat(100) },
			},
		],
		[
			'Custom Fields of the provider’s schema, typed by expressions',
			{
				clientId: 'customer-3',
				additionalFields: customFields(
					['tokenType', 'DOCUMENT'],
					['generateDigitString', '={{ true }}'],
					['ageLimit', '={{ 18 }}'],
					['documentNumber', 'AB123456'],
					['sex', 'F'],
					['showInstructions', '={{ false }}'],
					['riskAssessmentProfile', '6f1c4a8e-2b3d-4e5f-8a9b-0c1d2e3f4a5b'],
					['additionalData', '={{ { "UTILITY_BILL": { "ssn": "123" } } }}'],
					['registryCentersCountries', '={{ ["LT", "LV"] }}'],
				),
			},
		],
	].map(([name, parameters]) => ({
		name: `token: ${name as string}`,
		operation: 'POST /api/v2/token' as const,
		parameters: token(parameters as INodeParameters),
	})),
	{
		name: 'token: Send the Result to This Workflow (the resume address as callbackUrl)',
		operation: 'POST /api/v2/token',
		parameters: token({ clientId: 'customer-6', sendResultToWorkflow: true }),
		after: [
			{ name: 'Wait', parameters: { resource: 'identification', operation: 'waitForResult' } },
		],
	},
	// Identification → Request Information
	...[
		['a UUID scan reference', SCAN_REF],
		['a scan reference with non-ASCII and a slash', 'skenas/Ž-1'],
	].map(([name, scanRef]) => ({
		name: `request information: ${name}`,
		operation: 'POST /kyc/identifications/{scanRef}/request-information/' as const,
		parameters: { resource: 'identification', operation: 'requestInformation', scanRef },
	})),
	// Bank → Create Token
	...[
		['the defaults', {}],
		[
			'every field set',
			{ country: 'LT', bank: 'SWEDBANK_LT', accounts: true, balances: true, transactions: true },
		],
		['lifetime 0 and a 32-character bank', { lifetime: 0, bank: 'B'.repeat(32), country: 'SE' }],
		['lifetime 30 days, country Any', { lifetime: 2592000, country: 'any', bank: '' }],
		['a non-ASCII bank identifier', { bank: 'ŠIAULIŲ_BANKAS', country: 'LT' }],
	].map(([name, parameters]) => ({
		name: `bank token: ${name as string}`,
		operation: 'POST /bank/tokens/' as const,
		parameters: bankToken(parameters as INodeParameters),
	})),
	// Bank → List Transactions
	...[
		['Per Page left unset (the service’s page size)', {}],
		['Per Page 1', { options: { perPage: 1 } }],
		['Per Page 2 and a Limit of 3', { returnAll: false, limit: 3, options: { perPage: 2 } }],
		['Per Page 500', { options: { perPage: 500, maxParallelRequests: 1 } }],
	].map(([name, parameters]) => ({
		name: `transactions: ${name as string}`,
		operation:
			'GET /bank/verifications/{verificationId}/accounts/{accountId}/transactions/' as const,
		parameters: transactions(parameters as INodeParameters),
	})),
	// Proof of Address → Create Check
	...[
		['plain names', { providedName: 'Jonas Jonaitis', providedAddress: 'Gedimino pr. 1, Vilnius' }],
		[
			'non-ASCII names',
			{ providedName: 'Žydrūnė Ąžuolė', providedAddress: 'Šv. Ignoto g. 5, 01120 Vilnius' },
		],
		[
			'255-character name and address',
			{ providedName: 'N'.repeat(255), providedAddress: 'Ą'.repeat(255) },
		],
	].map(([name, parameters]) => ({
		name: `POA check: ${name as string}`,
		operation: 'POST /api/v2/poa-checks/' as const,
		parameters: poa(parameters as INodeParameters),
		input: [pngItem()],
	})),
	// AML → Download Profile PDF
	...[
		['the documented ids', {}],
		['a one-character password', { password: 'x' }],
		['a non-ASCII profile id and password', { profileId: 'profilis-Ž/1', password: 'slaptažodis' }],
	].map(([name, parameters]) => ({
		name: `AML PDF: ${name as string}`,
		operation: 'POST /aml/checks/{id}/profiles/{profileId}/pdf/' as const,
		parameters: amlPdf(parameters as INodeParameters),
	})),
	// KYB
	...['apiKey', 'kybFormToken'].flatMap((authentication) => [
		{
			name: `KYB get answers (${authentication})`,
			operation: 'GET /kyb/forms/{companyId}/questionnaires/{id}/answers/' as const,
			parameters: kyb('getAnswers', { authentication, ...answers }),
		},
		{
			name: `KYB delete answers (${authentication})`,
			operation: 'DELETE /kyb/forms/{companyId}/questionnaires/{id}/answers/' as const,
			parameters: kyb('deleteAnswers', { authentication, ...answers }),
		},
		{
			name: `KYB submit form (${authentication})`,
			operation: 'POST /kyb/forms/{id}/submit/' as const,
			parameters: kyb('submitForm', { authentication, formId: 'form-001' }),
		},
	]),
	{
		name: 'KYB get answers: non-ASCII company and questionnaire ids',
		operation: 'GET /kyb/forms/{companyId}/questionnaires/{id}/answers/',
		parameters: kyb('getAnswers', { companyId: 'įmonė-1', questionnaireId: 'klausimynas ž' }),
	},
];

/** Differences seen across all cases, to check that every expected one still occurs. */
const seen = new Set<string>();

/** Runs the node against the recording server, with a fresh record. */
async function run(testCase: Pick<Case, 'parameters' | 'input' | 'after'>) {
	server.clear();
	return await runNode({
		node: 'identityVerification',
		parameters: testCase.parameters,
		credentials: {
			identityVerificationApi: { apiKey: 'key', apiSecret: 'secret', baseUrl: server.url },
			identityVerificationKybFormTokenApi: { formToken: 'form-token', baseUrl: server.url },
		},
		input: testCase.input,
		after: testCase.after,
	});
}

/** The mismatches of the case's requests that no expected difference explains. */
async function unexplainedMismatches(testCase: Case): Promise<string[]> {
	const { error } = await run(testCase);
	expect(error).toBeUndefined();
	expect(server.requests.length).toBeGreaterThan(0);
	const unexplained: string[] = [];
	for (const request of server.requests) {
		const { key } = operationOf(request);
		expect(key).toBe(testCase.operation);
		expect(request.body !== '').toBe(WITH_BODY.includes(key));
		for (const mismatch of mismatchesOf(request)) {
			const expected = EXPECTED_DIFFERENCES.find(
				(difference) => difference.operation === key && difference.mismatch === mismatch,
			);
			if (expected) seen.add(`${key} ${mismatch}`);
			else unexplained.push(mismatch);
		}
	}
	return unexplained;
}

describe('the check of a request', () => {
	test('finds a wrong path parameter, query, auth scheme, body field and limit', () => {
		const request: Captured = {
			method: 'POST',
			path: '/aml/checks/not-a-uuid/profiles/p/pdf/',
			query: { page: 'two' },
			authorization: 'Bearer t',
			contentType: 'text/plain',
			body: JSON.stringify({ password: '', extra: 1 }),
		};
		expect(mismatchesOf(request)).toEqual([
			'path /id format: must match format "uuid"',
			'query / additionalProperties: must NOT have additional properties',
			'auth bearer: the operation accepts basic',
			'body content-type text/plain: the operation takes application/json',
			'body /password minLength: must NOT have fewer than 1 characters',
			"body /extra: not a field of the provider's schema",
		]);
	});
});

describe('the provider’s answers, as the node outputs them', () => {
	test.each([
		[
			'Request Information (with the verification it is for)',
			{ resource: 'identification', operation: 'requestInformation', scanRef: SCAN_REF },
			{ scanRef: SCAN_REF },
		],
		['Get Questionnaire Answers', kyb('getAnswers', answers), {}],
	])('%s outputs the answer unchanged', async (_name, parameters, added) => {
		const { items, error } = await run({ parameters });
		expect(error).toBeUndefined();
		expect(server.answers[0]).toEqual(expect.any(Object));
		expect(items.map((item) => item.json)).toEqual([
			{ ...added, ...(server.answers[0] as object) },
		]);
	});

	test('Get Questionnaire Answers with Simplify: one row per question of the provider’s sections › question › {value}, naming the company and questionnaire', async () => {
		// The provider's shape (KybFormAnswers), written out: its generated instances have no sections.
		const body = {
			sections: {
				companyDetails: {
					legalName: { value: 'UAB Baltic Widgets' },
					registrationCountry: { value: 'LT' },
				},
				ownership: {
					ultimateBeneficialOwners: { value: [{ fullName: 'Jonas Jonaitis', share: 60 }] },
				},
				declarations: { sanctionsExposure: { value: false }, signedBy: { value: null } },
			},
		};
		const schema = responseSchema(
			'/kyb/forms/{companyId}/questionnaires/{id}/answers/',
			'GET',
			200,
		);
		expect(schemaErrors(schema!, body)).toEqual([]);
		server.replies.push({ status: 200, body });
		const { items, error } = await run({
			parameters: kyb('getAnswers', { ...answers, simplify: true }),
		});
		expect(error).toBeUndefined();
		const row = (section: string, question: string, value: unknown) => ({
			...answers,
			section,
			question,
			value,
		});
		expect(items.map((item) => item.json)).toEqual([
			row('companyDetails', 'legalName', 'UAB Baltic Widgets'),
			row('companyDetails', 'registrationCountry', 'LT'),
			row('ownership', 'ultimateBeneficialOwners', [{ fullName: 'Jonas Jonaitis', share: 60 }]),
			row('declarations', 'sanctionsExposure', false),
			row('declarations', 'signedBy', null),
		]);
		expect(items.map((item) => item.pairedItem)).toEqual(items.map(() => ({ item: 0 })));
	});

	test('Get Questionnaire Answers with Simplify keeps a section that is not an object of questions (outside the schema) as one row without a question', async () => {
		server.replies.push({
			status: 200,
			body: { sections: { notes: 'Checked by phone', a: { b: { value: 1 } } } },
		});
		const { items, error } = await run({
			parameters: kyb('getAnswers', { ...answers, simplify: true }),
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ ...answers, section: 'notes', question: '', value: 'Checked by phone' },
			{ ...answers, section: 'a', question: 'b', value: 1 },
		]);
	});

	test('Get Questionnaire Answers when the provider answers 204 without a body', async () => {
		server.replies.push({ status: 204 });
		const { items, error } = await run({ parameters: kyb('getAnswers', answers) });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([{}]);
		server.replies.push({ status: 204 });
		const simplified = await run({ parameters: kyb('getAnswers', { ...answers, simplify: true }) });
		expect(simplified.error).toBeUndefined();
		expect(simplified.items).toEqual([]);
	});
});

describe('requests of the action node against the provider’s OpenAPI documents', () => {
	test.each(CASES.map((testCase) => [testCase.name, testCase] as const))(
		'%s',
		async (name, testCase) => {
			expect(await unexplainedMismatches(testCase)).toEqual(KNOWN_DEFECTS[name]?.mismatches ?? []);
		},
	);

	test('every expected difference still occurs, and every known defect names a case', () => {
		const expected = EXPECTED_DIFFERENCES.map((d) => `${d.operation} ${d.mismatch}`);
		expect(expected.filter((difference) => !seen.has(difference))).toEqual([]);
		const names = CASES.map((testCase) => testCase.name);
		expect(Object.keys(KNOWN_DEFECTS).filter((name) => !names.includes(name))).toEqual([]);
	});
});
