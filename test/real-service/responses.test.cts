/**
 * What the provider says the nodes will receive, read with the package's contract: values generated
 * (json-schema-faker, fixed seeds) from the provider's response schemas and from every webhook body
 * schema, and the provider's published examples, parsed with the contract's zod schema for them.
 *
 * Where the two disagree the contract wins; each disagreement is in EXPECTED_DIFFERENCES with its
 * reason (docs/service-interface.md has the same table), and must still occur.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

import {
	amlCheckRequestSchema,
	amlCheckSchema,
	amlMonitoringListEntrySchema,
	amlMonitoringRequestSchema,
	amlMonitoringSchema,
	amlMonitoringStartStopSchema,
	amlMonitoringUpdateSchema,
	amlPdfRequestSchema,
	amlProfileSchema,
	bankTokenRequestSchema,
	bankTokenSchema,
	bankTransactionSchema,
	blocklistEntrySchema,
	EVENT_TYPES,
	kybAnswersDetailSchema,
	kybBeneficiarySchema,
	kybCompanyDetailSchema,
	kybCompanyListItemSchema,
	kybCompanyPdfRequestSchema,
	kybCompanyStatusRequestSchema,
	kybCompanyStatusSchema,
	kybSessionRequestSchema,
	kybSessionSchema,
	listPageSchema,
	identificationListPageSchema,
	poaCheckSchema,
	questionnaireAnswersSchema,
	reportPdfRequestSchema,
	requestInformationParamsSchema,
	requestInformationResponseSchema,
	scanRefRequestSchema,
	transactionPageSchema,
	verificationStatusSchema,
	verificationTokenRequestSchema,
	verificationTokenResponseSchema,
	webhookBodySchemas,
	type EventType,
} from '../../nodes/shared/contract';
import {
	CORPUS,
	corpusJson,
	fakeInstances,
	responseSchema,
	webhookSchemas,
	type JsonSchema,
} from './provider.cjs';

/** A provider schema or example, and the contract's zod schema that reads it. */
interface Reading {
	name: string;
	zod: z.ZodTypeAny;
	values: unknown[];
}

/**
 * Where the provider's published schemas or examples and the contract disagree, as `<name>:
 * <field> <zod issue code>`. The contract wins; the reason says why.
 */
const EXPECTED_DIFFERENCES: Array<{ difference: string; reason: string }> = [
	{
		difference: 'GET transactions 200: count too_small',
		reason:
			'The provider’s `count` is any integer; the contract takes a whole number of 0 or more (it counts transactions).',
	},
	{
		difference: 'webhook VIDEO_CALL_FINISHED: (body) invalid_type',
		reason:
			'The provider declares no body schema for VIDEO_CALL_FINISHED (any JSON); the contract takes a JSON object, like every body the provider does declare.',
	},
	{
		difference: 'GET /kyb/companies/ 200: count too_small',
		reason:
			'The provider’s `count` is any integer; the contract takes a whole number of 0 or more (it counts companies), as for transactions.',
	},
	{
		difference:
			'requests/kyb-company-status.idenfy-api-reference.json: status invalid_union_discriminator',
		reason:
			'The API reference generates its change-status example with PENDING, which the provider’s own discriminator does not map (NEED_TO_PROCESS, NEED_TO_REVIEW, COMPLETED) and its description forbids ("the status cannot be changed from PENDING"); the node sends only COMPLETED with the decision.',
	},
	{
		difference: 'GET AML monitorings 200: count too_small',
		reason:
			'The provider’s `count` is any integer; the contract takes a whole number of 0 or more (it counts monitorings).',
	},
	...[
		'requests/aml-check.idenfy-api-reference.json: input.companyName invalid_type',
		'requests/aml-check.idenfy-api-reference.json: filter.datasets custom',
		'requests/aml-monitoring.idenfy-api-reference.json: amlCheck.input.companyName invalid_type',
	].map((difference) => ({
		difference,
		reason:
			'The API reference generates these examples with `userType` COMPANY and a person’s `input` (and datasets): its converter dropped the discriminator. The provider’s schema maps COMPANY to a company’s input (companyName) and datasets; the contract keeps that pairing.',
	})),
	{
		difference: 'GET /kyc/identifications/ 200: count too_small',
		reason:
			'The provider’s `count` is any integer; the contract takes a whole number of 0 or more (it counts verifications).',
	},
	...['scanRef invalid_type', 'status invalid_union', 'score invalid_type'].map((field) => ({
		difference: `webhooks/ACCOUNT_CHECK.idenfy-api-reference.json: ${field}`,
		reason:
			'The example the provider’s API reference generates leaves out the read-only fields scanRef, status and score that its schema requires; the contract requires them too.',
	})),
];

/**
 * Published examples of operations the nodes do not call yet: the contract has no schema for them
 * (collected for the engineers who will add them; see the corpus README).
 */
const NOT_YET_CALLED = ['responses/full-status.idenfy-docs-2021.json'];

/** Published examples the nodes never send or receive, with why none of the contract's schemas reads them. */
const NOT_READ: Record<string, string> = {
	'errors/400.bad-value.idenfy-docs-error-messages.json':
		'error bodies are not a contract schema: the transport reads `detail`, `message` or DRF field errors',
	'webhooks/index.json': 'the corpus’s own index, not a published body',
	...Object.fromEntries(
		[
			'errors/delete.token-not-expired.idenfy-docs-2019-06-11.json',
			'errors/delete.token-not-expired.idenfy-docs-2021.json',
			'errors/delete.token-not-expired.idenfy-docs-deletion.json',
		].map((file) => [
			file,
			'an error body: requests-kyc.test.cts answers Delete Personal Data with it and checks its words',
		]),
	),
	...Object.fromEntries(
		NOT_YET_CALLED.map((file) => [
			file,
			'an operation the nodes do not call yet: no contract schema',
		]),
	),
};

const TRANSACTIONS = '/bank/verifications/{verificationId}/accounts/{accountId}/transactions/';

/** Generated values of a schema: 20 with every optional field, 20 with some left out. */
function generated(schema: JsonSchema, seed: number): unknown[] {
	return [true, false].flatMap((alwaysFakeOptionals) =>
		fakeInstances(schema, { seed, count: 20, alwaysFakeOptionals }),
	);
}

function responseOf(apiPath: string, method: string, status: number): JsonSchema {
	const schema = responseSchema(apiPath, method, status);
	if (!schema) throw new Error(`${method} ${apiPath} publishes no JSON answer ${status}`);
	return schema;
}

const transactionPage = responseOf(TRANSACTIONS, 'get', 200);

/** AML: a page of monitorings is the service's paged list whose results are monitorings. */
const amlMonitoringPage = listPageSchema.extend({ results: z.array(amlMonitoringListEntrySchema) });

/** The AML answers the nodes read (aml.yaml), each with the contract's schema for it. */
const AML_READINGS: Reading[] = [
	['POST /aml/checks/ 201', '/aml/checks/', 'post', 201, amlCheckSchema],
	[
		'GET AML check profile 200',
		'/aml/checks/{id}/profiles/{profileId}/',
		'get',
		200,
		amlProfileSchema,
	],
	['POST /aml/monitorings/ 201', '/aml/monitorings/', 'post', 201, amlMonitoringSchema],
	['GET AML monitoring 200', '/aml/monitorings/{id}/', 'get', 200, amlMonitoringSchema],
	['PATCH AML monitoring 200', '/aml/monitorings/{id}/', 'patch', 200, amlMonitoringSchema],
	[
		'POST AML monitoring start/stop 200',
		'/aml/monitorings/{id}/{action}/',
		'post',
		200,
		amlMonitoringSchema,
	],
	['GET AML monitorings 200', '/aml/monitorings/', 'get', 200, amlMonitoringPage],
].map(([name, apiPath, method, status, zod], index) => ({
	name: name as string,
	zod: zod as z.ZodTypeAny,
	values: generated(
		responseOf(apiPath as string, method as string, status as number),
		600 + 50 * index,
	),
}));

const RESPONSES: Reading[] = [
	{
		name: 'POST /api/v2/token 201',
		zod: verificationTokenResponseSchema,
		values: generated(responseOf('/api/v2/token', 'post', 201), 100),
	},
	{
		name: 'POST /bank/tokens/ 201',
		zod: bankTokenSchema,
		values: generated(responseOf('/bank/tokens/', 'post', 201), 200),
	},
	{
		name: 'GET transactions 200',
		zod: transactionPageSchema,
		values: generated(transactionPage, 300),
	},
	{
		name: 'a transaction of the page',
		zod: bankTransactionSchema,
		values: generated(transactionPage, 350).flatMap(
			(page) => (page as { results?: unknown[] }).results ?? [],
		),
	},
	{
		name: 'POST /api/v2/poa-checks/ 201',
		zod: poaCheckSchema,
		values: generated(responseOf('/api/v2/poa-checks/', 'post', 201), 400),
	},
	...AML_READINGS,
	{
		name: 'POST /kyb/tokens/ 201',
		zod: kybSessionSchema,
		values: generated(responseOf('/kyb/tokens/', 'post', 201), 600),
	},
	{
		name: 'GET /kyb/companies/ 200',
		zod: listPageSchema.extend({ results: z.array(kybCompanyListItemSchema) }),
		values: generated(responseOf('/kyb/companies/', 'get', 200), 700),
	},
	{
		// The generator rarely makes a company's details its schema accepts (file links that must be
		// URIs ending in pdf or json): many are made, the few accepted ones read.
		name: 'GET /kyb/companies/{id}/ 200',
		zod: kybCompanyDetailSchema,
		values: fakeInstances(responseOf('/kyb/companies/{id}/', 'get', 200), {
			seed: 800,
			count: 80,
			alwaysFakeOptionals: false,
		}),
	},
	{
		name: 'POST /kyb/companies/{id}/change-status/ 200',
		zod: kybCompanyStatusSchema,
		values: generated(responseOf('/kyb/companies/{id}/change-status/', 'post', 200), 900),
	},
	{
		name: 'GET /kyb/forms/{companyId}/beneficiaries/ 200',
		zod: z.array(kybBeneficiarySchema),
		values: generated(responseOf('/kyb/forms/{companyId}/beneficiaries/', 'get', 200), 950),
	},
	{
		name: 'GET /kyb/forms/{companyId}/questionnaires/answers/detail/ 200',
		zod: z.array(kybAnswersDetailSchema),
		values: generated(
			responseOf('/kyb/forms/{companyId}/questionnaires/answers/detail/', 'get', 200),
			980,
		),
	},
	{
		name: 'GET /kyc/identifications/ 200',
		zod: identificationListPageSchema,
		values: generated(responseOf('/kyc/identifications/', 'get', 200), 600),
	},
	{
		name: 'POST request-information 200',
		zod: requestInformationResponseSchema,
		values: generated(
			responseOf('/kyc/identifications/{scanRef}/request-information/', 'post', 200),
			700,
		),
	},
	{
		name: 'POST blocklists 201',
		zod: blocklistEntrySchema,
		values: generated(
			responseOf('/kyc/identifications/{scanRef}/blocklists/{blocklistSource}/', 'post', 201),
			800,
		),
	},
	{
		name: 'GET KYB questionnaire answers 200',
		zod: questionnaireAnswersSchema,
		values: generated(
			responseOf('/kyb/forms/{companyId}/questionnaires/{id}/answers/', 'get', 200),
			500,
		),
	},
];

const WEBHOOK_SCHEMAS = webhookSchemas();

/**
 * One reading per webhook body schema and contract schema: the six identification kinds share
 * both, so their bodies are generated and read once.
 */
function webhookReadings(): Reading[] {
	const groups = new Map<string, { kinds: string[]; schema: JsonSchema; zod: z.ZodTypeAny }>();
	const ids = new Map<unknown, number>();
	const idOf = (value: unknown) => ids.get(value) ?? (ids.set(value, ids.size), ids.size - 1);
	for (const [kind, schema] of WEBHOOK_SCHEMAS) {
		const zod = webhookBodySchemas[kind as EventType];
		const key = `${idOf(schema)}:${idOf(zod)}`;
		const group = groups.get(key) ?? { kinds: [], schema, zod };
		group.kinds.push(kind);
		groups.set(key, group);
	}
	return [...groups.values()].map((group, index) => ({
		name: `webhook ${group.kinds.join(', ')}`,
		zod: group.zod,
		values: generated(group.schema, 1000 + 100 * index),
	}));
}
const WEBHOOKS = webhookReadings();

/** Each published example, read with the contract's schema for what it is. */
const EXAMPLE_SCHEMAS: Record<string, z.ZodTypeAny> = {
	'webhooks/IDENTIFICATION.idenfy-docs-2021-01-15.json': webhookBodySchemas.IDENTIFICATION,
	'webhooks/IDENTIFICATION.idenfy-docs-2019-04-18.json': webhookBodySchemas.IDENTIFICATION,
	'webhooks/ACCOUNT_CHECK.idenfy-api-reference.json': webhookBodySchemas.ACCOUNT_CHECK,
	'webhooks/DOCUMENT_EXPIRATION.idenfy-api-reference.json': webhookBodySchemas.DOCUMENT_EXPIRATION,
	'webhooks/COMPANY_INFO_REQUEST.idenfy-api-reference.json':
		webhookBodySchemas.COMPANY_INFO_REQUEST,
	'webhooks/COMPANY_SUBMIT.idenfy-api-reference.json': webhookBodySchemas.COMPANY_SUBMIT,
	'responses/kyb-questionnaire-answers.idenfy-api-reference.json': questionnaireAnswersSchema,
	'responses/token.all-fields.idenfy-docs-2021.json': verificationTokenResponseSchema,
	'responses/token.defaults.idenfy-docs-2021.json': verificationTokenResponseSchema,
	'responses/token.idenfy-docs-quickstart.json': verificationTokenResponseSchema,
	'responses/bank-token.idenfy-api-reference.json': bankTokenSchema,
	'requests/token.client-id-only.idenfy-docs-2021.json': verificationTokenRequestSchema,
	'requests/token.with-name.idenfy-docs-2021.json': verificationTokenRequestSchema,
	'requests/token.all-fields.idenfy-docs-2021.json': verificationTokenRequestSchema,
	'requests/bank-token.idenfy-api-reference.json': bankTokenRequestSchema,
	'requests/kyb-token.idenfy-api-reference.json': kybSessionRequestSchema,
	'requests/kyb-company-status.idenfy-api-reference.json': kybCompanyStatusRequestSchema,
	'requests/kyb-company-pdf.idenfy-api-reference.json': kybCompanyPdfRequestSchema,
	'responses/kyb-token.idenfy-api-reference.json': kybSessionSchema,
	'responses/kyb-company-status.idenfy-api-reference.json': kybCompanyStatusSchema,
	'responses/kyb-beneficiaries.idenfy-api-reference.json': z.array(kybBeneficiarySchema),
	'responses/kyb-questionnaires-answers-detail.idenfy-api-reference.json':
		z.array(kybAnswersDetailSchema),
	'requests/status.idenfy-docs-2021.json': scanRefRequestSchema,
	'requests/status.idenfy-docs-data-retrieval.json': scanRefRequestSchema,
	'responses/status.idenfy-docs-data-retrieval.json': verificationStatusSchema.strict(),
	'requests/aml-check.idenfy-api-reference.json': amlCheckRequestSchema,
	'requests/aml-monitoring.idenfy-api-reference.json': amlMonitoringRequestSchema,
	'requests/aml-monitoring-update.idenfy-api-reference.json': amlMonitoringUpdateSchema,
	'requests/aml-monitoring-start-stop.idenfy-api-reference.json': amlMonitoringStartStopSchema,
	'requests/aml-monitoring-pdf.idenfy-api-reference.json': amlPdfRequestSchema,
	'responses/aml-monitorings-list.idenfy-api-reference.json': amlMonitoringPage,
	'responses/identifications-list.idenfy-api-reference.json': identificationListPageSchema,
	'responses/request-information.idenfy-api-reference.json': requestInformationResponseSchema,
	'requests/request-information.idenfy-api-reference.json': requestInformationParamsSchema.omit({
		scanRef: true,
	}),
	'requests/delete.idenfy-docs-deletion.json': scanRefRequestSchema,
	'requests/delete.idenfy-docs-2021.json': scanRefRequestSchema,
	'requests/full.idenfy-api-reference.json': scanRefRequestSchema,
	'requests/generate-pdf.idenfy-docs-pdf-generation.json': reportPdfRequestSchema,
	'requests/generate-pdf.with-language.idenfy-docs-pdf-generation.json': reportPdfRequestSchema,
	'requests/generate-pdf.idenfy-docs-2021.json': reportPdfRequestSchema,
};
const EXAMPLES: Reading[] = Object.entries(EXAMPLE_SCHEMAS).map(([file, zod]) => ({
	name: file,
	zod,
	values: [corpusJson(file)],
}));

/** The contract's disagreements with a reading: `<name>: <field> <issue code>`, each once. */
function disagreements(reading: Reading): string[] {
	const found = new Set<string>();
	for (const value of reading.values) {
		const parsed = reading.zod.safeParse(value);
		for (const issue of parsed.success ? [] : parsed.error.issues) {
			const field = issue.path.map((key) => (typeof key === 'number' ? '*' : key)).join('.');
			found.add(`${reading.name}: ${field || '(body)'} ${issue.code}`);
		}
	}
	return [...found];
}

const seen = new Set<string>();
const EXPECTED = EXPECTED_DIFFERENCES.map((entry) => entry.difference);

/** Every JSON file of the corpus, relative to it. */
function corpusJsonFiles(): string[] {
	return readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.json'))
		.map((file) => file.split(path.sep).join('/'));
}

describe('generated answers and webhook bodies, read with the contract', () => {
	test.each([...RESPONSES, ...WEBHOOKS].map((reading) => [reading.name, reading] as const))(
		'%s',
		(_name, reading) => {
			// Enough values to mean something: the generator's misses are left out (provider.cts).
			expect(reading.values.length).toBeGreaterThanOrEqual(10);
			const found = disagreements(reading);
			found.filter((d) => EXPECTED.includes(d)).forEach((d) => seen.add(d));
			expect(found.filter((d) => !EXPECTED.includes(d))).toEqual([]);
		},
	);

	test('every webhook kind the provider declares has a body schema in the contract', () => {
		const kinds = [...WEBHOOK_SCHEMAS.keys()];
		expect(kinds.filter((kind) => !(EVENT_TYPES as readonly string[]).includes(kind))).toEqual([]);
	});
});

describe('published examples, read with the contract', () => {
	test.each(EXAMPLES.map((reading) => [reading.name, reading] as const))('%s', (_name, reading) => {
		const found = disagreements(reading);
		found.filter((d) => EXPECTED.includes(d)).forEach((d) => seen.add(d));
		expect(found.filter((d) => !EXPECTED.includes(d))).toEqual([]);
	});

	test('every JSON file of the corpus is read here or says why not', () => {
		const covered = [...Object.keys(EXAMPLE_SCHEMAS), ...Object.keys(NOT_READ)].sort();
		expect(covered).toEqual(corpusJsonFiles().sort());
	});
});

test('every expected difference still occurs', () => {
	expect(EXPECTED.filter((difference) => !seen.has(difference))).toEqual([]);
});
