/**
 * One mixed batch per resource, and per newer operation (Get Result, the registry, the KYB
 * form's prefill), for the On Error tests (engine and real n8n): an item that succeeds,
 * one the node or the service refuses, and one about something the service does not have. Each
 * operation takes its IDs from the item (`{{ $json.… }}`), as after a trigger or a sheet.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SEED } from '../../sandbox/index.cjs';
import type { Sandbox } from '../../sandbox/index.cjs';

export interface ErrorCase {
	resource: string;
	/** What the case is known by where a resource has several (its operation); the resource else. */
	name?: string;
	/** The operation's parameters; IDs are expressions over the input item. */
	parameters: INodeParameters;
	/** The three input items' JSON, in order: good, refused, not found (or refused by the service). */
	inputs(sb: Sandbox): Promise<IDataObject[]>;
	/** What each failing item's error says, in input order after the good one. */
	failures: Array<{ error: RegExp; httpCode?: string }>;
	/** The IDs an error item repeats, by input index, beside its words. */
	references(inputs: IDataObject[], index: number): IDataObject;
}

/** A verification whose automated review finished (its data can be deleted). */
async function finished(sb: Sandbox, clientId: string): Promise<string> {
	const { scanRef } = sb.kyc.createSession(clientId);
	await sb.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
	return scanRef;
}

/** A KYB session's form token, as Create Session makes it (POST /kyb/tokens/ with the API key). */
async function kybFormToken(sb: Sandbox, clientId: string): Promise<string> {
	const { apiKey, apiSecret } = sb.credentials;
	const response = await fetch(`${sb.url}/kyb/tokens/`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`,
		},
		body: JSON.stringify({ tokenType: 'FORM', clientId }),
	});
	if (!response.ok) throw new Error(`POST /kyb/tokens/ answered HTTP ${response.status}`);
	return ((await response.json()) as { tokenString: string }).tokenString;
}

/** A PNG's first bytes: the sandbox, as the service, judges a file by its content. */
const PNG_BASE64 = Buffer.from(
	`89504e470d0a1a0a0000000d49484452${'01'.repeat(64)}`,
	'hex',
).toString('base64');

const NOT_FOUND = { error: /./, httpCode: '404' };
/** Refused before anything is sent, naming the field. */
const REFUSED = (label: string) => ({ error: new RegExp(`^${label}: `) });

/** What a case is known by: its name, else its resource. */
export const caseName = (errorCase: ErrorCase): string => errorCase.name ?? errorCase.resource;

/** A company the sandbox's registry knows, as Get Available Registry Documents and Order Document take it. */
const REGISTRY_COMPANY = { countryCode: 'LT', registrationNumber: '305123456' };

export const ERROR_CASES: ErrorCase[] = [
	{
		resource: 'identification',
		parameters: {
			resource: 'identification',
			operation: 'deletePersonalData',
			scanRef: '={{ $json.scanRef }}',
		},
		inputs: async (sb) => [
			{ scanRef: await finished(sb, 'erase-good') },
			// Its link has not expired: the service refuses the deletion.
			{ scanRef: sb.kyc.createSession('erase-active').scanRef },
			{ scanRef: 'no-such-verification' },
		],
		failures: [{ error: /cannot be deleted yet/, httpCode: '400' }, NOT_FOUND],
		references: (inputs, index) => ({ scanRef: inputs[index].scanRef }),
	},
	{
		resource: 'bank',
		parameters: {
			resource: 'bank',
			operation: 'listTransactions',
			verificationId: '={{ $json.verificationId }}',
			accountId: '={{ $json.accountId }}',
			returnAll: false,
			limit: 2,
		},
		inputs: async () => [
			{ verificationId: SEED.bank.verificationId, accountId: SEED.bank.accountId },
			{ verificationId: SEED.bank.verificationId, accountId: '' },
			{ verificationId: SEED.bank.verificationId, accountId: 'no-such-account' },
		],
		failures: [REFUSED('Account ID'), NOT_FOUND],
		references: (inputs, index) => ({
			verificationId: inputs[index].verificationId,
			...(inputs[index].accountId ? { accountId: inputs[index].accountId } : {}),
		}),
	},
	{
		resource: 'aml',
		parameters: {
			resource: 'aml',
			operation: 'getProfile',
			checkId: '={{ $json.checkId }}',
			profileId: '={{ $json.profileId }}',
		},
		inputs: async () => [
			{ checkId: SEED.aml.checkId, profileId: SEED.aml.profileId },
			{ checkId: '', profileId: SEED.aml.profileId },
			{ checkId: SEED.aml.checkId, profileId: 'no-such-profile' },
		],
		failures: [REFUSED('Check ID'), NOT_FOUND],
		references: (inputs, index) => ({
			...(inputs[index].checkId ? { checkId: inputs[index].checkId } : {}),
			profileId: inputs[index].profileId,
		}),
	},
	{
		resource: 'amlMonitoring',
		parameters: {
			resource: 'amlMonitoring',
			operation: 'get',
			monitoringId: '={{ $json.monitoringId }}',
		},
		inputs: async () => [
			{ monitoringId: SEED.aml.monitoringId },
			{ monitoringId: '' },
			{ monitoringId: '00000000-0000-4000-8000-000000000000' },
		],
		failures: [REFUSED('Monitoring ID'), NOT_FOUND],
		references: (inputs, index) =>
			inputs[index].monitoringId ? { monitoringId: inputs[index].monitoringId } : {},
	},
	{
		resource: 'kyb',
		parameters: {
			resource: 'kyb',
			operation: 'getAnswers',
			companyId: '={{ $json.companyId }}',
			questionnaireId: '={{ $json.questionnaireId }}',
		},
		inputs: async () => [
			{ companyId: SEED.kyb.companyId, questionnaireId: SEED.kyb.questionnaireId },
			{ companyId: '', questionnaireId: SEED.kyb.questionnaireId },
			{ companyId: SEED.kyb.companyId, questionnaireId: 'no-such-questionnaire' },
		],
		failures: [REFUSED('Company ID'), NOT_FOUND],
		references: (inputs, index) => ({
			...(inputs[index].companyId ? { companyId: inputs[index].companyId } : {}),
			questionnaireId: inputs[index].questionnaireId,
		}),
	},
	{
		resource: 'kybCompany',
		parameters: { resource: 'kybCompany', operation: 'get', companyId: '={{ $json.companyId }}' },
		inputs: async () => [
			{ companyId: SEED.kyb.companyId },
			{ companyId: '' },
			{ companyId: 'no-such-company' },
		],
		failures: [REFUSED('Company ID'), NOT_FOUND],
		references: (inputs, index) =>
			inputs[index].companyId ? { companyId: inputs[index].companyId } : {},
	},
	{
		resource: 'identification',
		name: 'identification.getResult',
		parameters: {
			resource: 'identification',
			operation: 'getResult',
			scanRef: '={{ $json.scanRef }}',
		},
		inputs: async (sb) => [
			{ scanRef: await finished(sb, 'result-good') },
			{ scanRef: '' },
			{ scanRef: 'no-such-verification' },
		],
		failures: [REFUSED('Scan Reference'), NOT_FOUND],
		references: (inputs, index) =>
			inputs[index].scanRef ? { scanRef: inputs[index].scanRef } : {},
	},
	{
		resource: 'kybCompany',
		name: 'kybCompany.getAvailableDocuments',
		parameters: {
			resource: 'kybCompany',
			operation: 'getAvailableDocuments',
			countryCode: '={{ $json.countryCode }}',
			registrationNumber: '={{ $json.registrationNumber }}',
		},
		inputs: async () => [
			REGISTRY_COMPANY,
			{ countryCode: 'XX', registrationNumber: '305123456' },
			{ countryCode: 'LT', registrationNumber: '999' },
		],
		failures: [REFUSED('Country'), NOT_FOUND],
		references: (inputs, index) => ({ registrationNumber: inputs[index].registrationNumber }),
	},
	{
		resource: 'kybCompany',
		name: 'kybCompany.orderDocument',
		parameters: {
			resource: 'kybCompany',
			operation: 'orderDocument',
			countryCode: '={{ $json.countryCode }}',
			registrationNumber: '={{ $json.registrationNumber }}',
			companyName: 'UAB Baltic Widgets',
			productKey: '={{ $json.productKey }}',
		},
		inputs: async () => [
			{ ...REGISTRY_COMPANY, productKey: 'REGISTER_EXTRACT' },
			{ ...REGISTRY_COMPANY, productKey: ' ' },
			// A product the registry does not offer: the service refuses the order.
			{ ...REGISTRY_COMPANY, productKey: 'NO_SUCH' },
		],
		failures: [REFUSED('Product Key'), { error: /./, httpCode: '400' }],
		references: (inputs, index) => ({ registrationNumber: inputs[index].registrationNumber }),
	},
	{
		resource: 'kybCompany',
		name: 'kybCompany.getOrderedDocument',
		parameters: {
			resource: 'kybCompany',
			operation: 'getOrderedDocument',
			documentId: '={{ $json.documentId }}',
		},
		inputs: async (sb) => [
			{ documentId: sb.kyb.orderGovDocument() },
			{ documentId: '' },
			{ documentId: '00000000-0000-4000-8000-000000000000' },
		],
		failures: [REFUSED('Document ID'), NOT_FOUND],
		references: (inputs, index) =>
			inputs[index].documentId ? { documentId: inputs[index].documentId } : {},
	},
	{
		resource: 'kybCompany',
		name: 'kybCompany.getOrderedDocuments',
		parameters: {
			resource: 'kybCompany',
			operation: 'getOrderedDocuments',
			filters: { status: '={{ $json.status }}', title: '={{ $json.title }}' },
		},
		inputs: async (sb) => {
			sb.kyb.orderGovDocument('REGISTER_EXTRACT');
			// The sandbox's list refuses nothing the node lets through: a fault stands for the
			// service refusing this one request (as it does an account without registry documents).
			sb.faults.add({
				method: 'GET',
				path: '/api/v2/gov-ordered-documents/',
				query: { title: 'Historic extract (changes of officers)' },
				status: 403,
				body: { identifier: 'PERMISSIONS_ERROR', message: 'You do not have permission.' },
			});
			return [
				{ status: 'IN_PROGRESS', title: 'Extract from the Register of Legal Entities' },
				// A status as a sheet may word it, not one of the list's.
				{ status: 'DELIVERED', title: 'Extract from the Register of Legal Entities' },
				{ status: 'IN_PROGRESS', title: 'Historic extract (changes of officers)' },
			];
		},
		failures: [REFUSED('Status'), { error: /HTTP 403/, httpCode: '403' }],
		references: () => ({}),
	},
	{
		resource: 'kybCompany',
		name: 'kybCompany.rerunAutomation',
		parameters: {
			resource: 'kybCompany',
			operation: 'rerunAutomation',
			companyId: '={{ $json.companyId }}',
		},
		inputs: async (sb) => [
			{ companyId: (await sb.kyb.submitSession(await kybFormToken(sb, 'rerun-good'))).companyId },
			// Its form is still being filled: the service has nothing to check yet.
			{ companyId: sb.kyb.addCompany({ clientId: 'rerun-pending' }) },
			{ companyId: 'no-such-company' },
		],
		failures: [{ error: /in the current state/, httpCode: '409' }, NOT_FOUND],
		references: (inputs, index) => ({ companyId: inputs[index].companyId }),
	},
	{
		resource: 'kyb',
		name: 'kyb.createForm',
		parameters: {
			resource: 'kyb',
			operation: 'createForm',
			authentication: 'formToken',
			formToken: '={{ $json.formToken }}',
			companyName: 'UAB Šiaurės Prekyba',
			companyCountry: '={{ $json.country }}',
		},
		inputs: async (sb) => {
			// Its company already submitted the form: a session has one form, the service refuses another.
			const submitted = await kybFormToken(sb, 'create-form-submitted');
			await sb.kyb.submitSession(submitted);
			return [
				{ formToken: await kybFormToken(sb, 'create-form-good'), country: 'LT' },
				{ formToken: await kybFormToken(sb, 'create-form-country'), country: 'Lithuania' },
				{ formToken: submitted, country: 'LT' },
			];
		},
		failures: [REFUSED('Country'), { error: /in the current state/, httpCode: '409' }],
		// Nothing to name: the form token is a secret, and the company has no ID before its form.
		references: () => ({}),
	},
	{
		resource: 'kyb',
		name: 'kyb.updateForm',
		parameters: {
			resource: 'kyb',
			operation: 'updateForm',
			companyId: '={{ $json.companyId }}',
			companyName: '={{ $json.companyName }}',
			companyCountry: 'LT',
		},
		inputs: async () => [
			{ companyId: SEED.kyb.companyId, companyName: 'UAB Baltic Widgets' },
			{ companyId: '', companyName: 'UAB Baltic Widgets' },
			{ companyId: 'no-such-company', companyName: 'UAB Baltic Widgets' },
		],
		failures: [REFUSED('Company ID'), NOT_FOUND],
		references: (inputs, index) =>
			inputs[index].companyId ? { companyId: inputs[index].companyId } : {},
	},
	{
		resource: 'kyb',
		name: 'kyb.addBeneficiary',
		parameters: {
			resource: 'kyb',
			operation: 'addBeneficiary',
			companyId: '={{ $json.companyId }}',
			name: '={{ $json.name }}',
			surname: 'Žukauskienė',
		},
		inputs: async () => [
			{ companyId: SEED.kyb.companyId, name: 'Rūta' },
			{ companyId: SEED.kyb.companyId, name: 'r'.repeat(101) },
			{ companyId: 'no-such-company', name: 'Rūta' },
		],
		failures: [REFUSED('First Name'), NOT_FOUND],
		references: (inputs, index) => ({ companyId: inputs[index].companyId }),
	},
	{
		resource: 'proofOfAddress',
		parameters: {
			resource: 'proofOfAddress',
			operation: 'createCheck',
			binaryPropertyName: 'data',
			providedName: '={{ $json.name }}',
			providedAddress: SEED.poa.address,
		},
		// Each item's file as base64 in `fileBase64` (Convert to File makes it binary in real n8n).
		inputs: async () => [
			{ name: SEED.poa.name, fileBase64: PNG_BASE64 },
			{ name: 'x'.repeat(300), fileBase64: PNG_BASE64 },
			{ name: SEED.poa.name, fileBase64: Buffer.from('just words').toString('base64') },
		],
		failures: [{ error: /^Provided Name:/ }, { error: /./ }],
		references: () => ({}),
	},
];
