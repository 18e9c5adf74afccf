/**
 * Version 2: every ID field is a resource locator (From List, By URL, By ID), read per item through
 * n8n's engine; expressions work in every mode, By ID keeps version 1's checks before any request,
 * and version 1 keeps its text fields.
 */
import path from 'node:path';
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';
import { resources } from '../../../nodes/IdentityVerification/actions/resources';
import * as contract from '../../../nodes/shared/contract';
import { runNode, sandboxCredentials } from '../../harness/index.cjs';
import { company, registryOrder, useKybSandbox } from './kyb-util.cjs';
import { expectError, serviceRequests } from './util.cjs';

const ctx = useKybSandbox();
const rl = (mode: string, value: string) => ({ __rl: true, mode, value });

/** The ID fields the operations ask for, by the names saved workflows hold. */
const ID_FIELDS = [
	'scanRef',
	'checkId',
	'profileId',
	'monitoringId',
	'companyId',
	'formId',
	'questionnaireId',
	'verificationId',
	'accountId',
	'documentId',
];

const shownFrom = (property: INodeProperties) =>
	JSON.stringify(property.displayOptions?.show?.['@version'] ?? []);

describe('version 2: the ID fields', () => {
	const { properties, version } = new IdentityVerification().description;

	test('the node offers version 2 beside 1 and 1.1', () => {
		expect(version).toEqual([1, 1.1, 2]);
	});

	test('every ID field of every operation is a text field before version 2 and a resource locator from it', () => {
		const idFields = properties.filter((p) => ID_FIELDS.includes(p.name));
		const text = idFields.filter((p) => p.type === 'string');
		const locators = idFields.filter((p) => p.type === 'resourceLocator');
		expect(text.length).toBeGreaterThan(20);
		expect(locators).toHaveLength(text.length);
		for (const field of text) expect(shownFrom(field)).toBe('[{"_cnd":{"lt":2}}]');
		for (const field of locators) {
			expect(shownFrom(field)).toBe('[{"_cnd":{"gte":2}}]');
			expect(field.modes?.map((mode) => mode.name)).toContain('id');
		}
	});

	test.each([
		['companyId', ['list', 'url', 'id'], 'companySearch'],
		['monitoringId', ['list', 'url', 'id'], 'monitoringSearch'],
		['scanRef', ['list', 'url', 'id'], 'verificationSearch'],
		['questionnaireId', ['list', 'id'], 'questionnaireSearch'],
		['formId', ['list', 'id'], 'formSearch'],
		['documentId', ['list', 'id'], 'orderedDocumentSearch'],
	])('%s: modes %j, its list loaded by %s', (name, modes, method) => {
		const locators = properties.filter((p) => p.name === name && p.type === 'resourceLocator');
		expect(locators.length).toBeGreaterThan(0);
		for (const field of locators) {
			expect(field.modes?.map((mode) => mode.name)).toEqual(modes);
			expect(field.modes?.[0].typeOptions?.searchListMethod).toBe(method);
		}
		const listSearch = new IdentityVerification().methods.listSearch as Record<string, unknown>;
		expect(typeof listSearch[method]).toBe('function');
	});

	test.each([
		[
			'scanRef',
			'https://dashboard.example/verifications/3af8e5b2-5a7c-11ee-8c99-0242ac120002/details',
			'3af8e5b2-5a7c-11ee-8c99-0242ac120002',
		],
		[
			'monitoringId',
			'https://dashboard.example/aml/monitorings/7c9e6679-7425-40de-944b-e07fc1f90ae7',
			'7c9e6679-7425-40de-944b-e07fc1f90ae7',
		],
		[
			'companyId',
			'https://dashboard.example/kyb/companies/company-001/?tab=answers',
			'company-001',
		],
		['scanRef', 'https://dashboard.example/verifications/', undefined],
		['monitoringId', 'not a link 7c9e6679-7425-40de-944b-e07fc1f90ae7', undefined],
		['companyId', 'https://dashboard.example', undefined],
	])('By URL of %s: %s gives %s', (name, url, id) => {
		const field = properties.find((p) => p.name === name && p.type === 'resourceLocator');
		const mode = field?.modes?.find((m) => m.name === 'url');
		const validation = mode?.validation?.[0] as unknown as { properties: { regex: string } };
		const extract = mode?.extractValue as { regex: string };
		// As n8n checks a mode's value (validateResourceLocatorParameter): the whole text.
		expect(new RegExp(`^${validation.properties.regex}$`).test(url)).toBe(id !== undefined);
		if (id) expect(new RegExp(extract.regex).exec(url)?.[1]).toBe(id);
	});

	test('From List says what its search finds, and keeps the field’s own hint (n8n shows the mode’s instead)', () => {
		const deleteCompany = properties.find(
			(p) =>
				p.name === 'companyId' &&
				p.type === 'resourceLocator' &&
				p.displayOptions?.show?.operation?.includes('delete'),
		);
		expect(deleteCompany?.modes?.[0].hint).toBe(
			`From List: search by registration number. ${deleteCompany?.hint}`,
		);
		expect(deleteCompany?.hint).toMatch(/cannot be undone/);
	});

	test('the operations keep their text fields (the router’s references and messages name them)', () => {
		for (const resource of Object.values(resources)) {
			for (const operation of Object.values(resource.operations)) {
				const ids = operation.description.filter((p) => ID_FIELDS.includes(p.name));
				for (const field of ids) expect(field.type).toBe('string');
			}
		}
	});
});

describe('version 2: the schema preview', () => {
	// The build's output schemas (gulpfile.js): n8n reads them by the node's version.
	const gulpfile = require(path.resolve(__dirname, '..', '..', '..', '..', 'gulpfile.js')) as {
		outputSchemas(source: typeof contract, list: typeof resources): Record<string, unknown>;
	};
	const schemas = gulpfile.outputSchemas(contract, resources);

	test('every operation has the same output schema in version 2 as in version 1', () => {
		const v1 = Object.keys(schemas).filter((file) =>
			file.startsWith('IdentityVerification/__schema__/v1.0.0/'),
		);
		expect(v1.length).toBeGreaterThan(30);
		for (const file of v1) expect(schemas[file.replace('v1.0.0', 'v2.0.0')]).toEqual(schemas[file]);
	});
});

describe('version 2: an ID in each mode', () => {
	test('From List: the chosen company', async () => {
		const companyId = await ctx.submitted();
		const { items, error } = await ctx.run(
			company('get', { companyId: rl('list', companyId), simplify: true }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(companyId);
		expect(ctx.sb.requests).toMatchObject([{ path: `/kyb/companies/${companyId}/` }]);
	});

	test('From List: the chosen ordered document, its file downloaded; an error item names its Document ID', async () => {
		await ctx.run(registryOrder());
		const [documentId] = ctx.sb.kyb.govOrders();
		ctx.sb.kyb.deliverGovOrder(documentId);
		const got = await ctx.run(
			company('getOrderedDocument', { documentId: rl('list', documentId) }),
		);
		expect(got.error).toBeUndefined();
		expect(got.items[0].json).toMatchObject({ id: documentId, status: 'FINISHED' });
		expect(got.items[0].binary?.data?.mimeType).toBe('application/pdf');
		const missing = '3c90c3cc-0d44-4b50-8888-8dd25736052a';
		const { items } = await ctx.run(
			company('getOrderedDocument', { documentId: rl('list', missing) }),
			{ continueOnFail: true },
		);
		expect(items[0].json).toMatchObject({ documentId: missing, httpCode: '404' });
	});

	test('By URL: the company’s ID is the last segment of its address', async () => {
		const companyId = await ctx.submitted();
		const url = `https://dashboard.example/kyb/companies/${companyId}/?tab=answers`;
		const { items, error } = await ctx.run(company('get', { companyId: rl('url', url) }));
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(companyId);
	});

	test('By URL: the scanRef of a verification anywhere in its address', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-1');
		const url = `https://dashboard.example/verifications/${scanRef}/details`;
		const { items, error } = await ctx.run({
			resource: 'identification',
			operation: 'getStatus',
			scanRef: rl('url', url),
		});
		expect(error).toBeUndefined();
		expect(items[0].json.scanRef).toBe(scanRef);
	});

	test('By URL: an expression giving a link without the ID is refused with the field’s name, before any request', async () => {
		const result = await ctx.run({
			resource: 'amlMonitoring',
			operation: 'get',
			monitoringId: rl('url', '={{ "https://dashboard.example/monitorings/" }}'),
		});
		expectError(result, 'Monitoring ID');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test.each(['list', 'url', 'id'])(
		'an expression in mode %s reads the item (after the trigger: {{ $json.scanRef }})',
		async (mode) => {
			const { scanRef } = ctx.sb.kyc.createSession('customer-2');
			const value =
				mode === 'url'
					? '={{ "https://dashboard.example/verifications/" + $json.scanRef }}'
					: '={{ $json.scanRef }}';
			const { items, error } = await ctx.run(
				{ resource: 'identification', operation: 'getStatus', scanRef: rl(mode, value) },
				{ input: [{ json: { scanRef } }] },
			);
			expect(error).toBeUndefined();
			expect(items[0].json.scanRef).toBe(scanRef);
		},
	);

	test('By ID, empty: n8n flags the required field before the run, as in version 1', async () => {
		await expect(ctx.run(company('get', { companyId: rl('id', '') }))).rejects.toThrow(
			'Parameter "Company ID" is required.',
		);
	});

	test('By ID, an expression that gives nothing: the same message as version 1, before any request', async () => {
		const empty = '={{ $json.companyId ?? "" }}';
		const v2 = await ctx.run(company('get', { companyId: rl('id', empty) }));
		const v1 = await runNode({
			node: 'identityVerification',
			typeVersion: 1.1,
			parameters: company('get', { companyId: empty }),
			credentials: sandboxCredentials(ctx.sb),
		});
		const error = expectError(v2, 'Company ID');
		expect(error.message).toBe(v1.error?.message);
		expect(error.description).toBe(v1.error?.description);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('By ID: a Monitoring ID that is no UUID is refused as in version 1', async () => {
		const parameters = (monitoringId: unknown): INodeParameters => ({
			resource: 'amlMonitoring',
			operation: 'get',
			monitoringId: monitoringId as string,
		});
		const v2 = await ctx.run(parameters(rl('id', 'not-a-uuid')));
		const v1 = await runNode({
			node: 'identityVerification',
			typeVersion: 1,
			parameters: parameters('not-a-uuid'),
			credentials: sandboxCredentials(ctx.sb),
		});
		expect(v2.error?.message).toBe(v1.error?.message);
		expect(v2.error?.message).toMatch(/^Monitoring ID: /);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('an error item names the ID it was about, read from the locator', async () => {
		const missing = 'company-that-does-not-exist';
		const { items } = await ctx.run(company('get', { companyId: rl('list', missing) }), {
			continueOnFail: true,
		});
		expect(items[0].json).toMatchObject({ companyId: missing, httpCode: '404' });
	});

	test('version 1.1 still takes the ID as text', async () => {
		const companyId = await ctx.submitted();
		const result = await runNode({
			node: 'identityVerification',
			typeVersion: 1.1,
			parameters: company('get', { companyId }),
			credentials: sandboxCredentials(ctx.sb),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.id).toBe(companyId);
	});
});
