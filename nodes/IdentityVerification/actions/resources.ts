/**
 * The one registry of the action node's resources: their entries in the Resource selector, their
 * operations, and each resource's Operation selector. The node's fields, the router, the output
 * schemas (gulpfile.js loads `resources` from dist/) and the description test read it.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import type { ZodTypeAny } from 'zod';

import * as amlCheck from './amlCheck';
import * as amlMonitoring from './amlMonitoring';
import * as bank from './bank';
import * as identification from './identification';
import * as kybCompany from './kybCompany';
import * as kybForm from './kybForm';
import { authenticationProperty, formTokenProperty } from './kybForm/common';
import { withLocators } from './locators';
import * as proofOfAddress from './proofOfAddress';
import * as waitForResult from './identification/waitForResult.operation';

/** What an operation module exports (CONTRIBUTING.md, "Adding an operation"). */
export interface Operation {
	/** Its entry in the resource's Operation selector, with its action sentence. */
	option: INodePropertyOptions;
	/** Its fields, shown for its resource and operation only. */
	description: INodeProperties[];
	/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
	outputSchema: ZodTypeAny;
	/** The output items of one input item. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
}

/** A resource, as the Resource selector shows it, with the operations the router runs. */
interface Resource {
	/** Its entry in the Resource selector; its value is what saved workflows hold. */
	option: INodePropertyOptions & { value: string };
	operations: Record<string, Operation>;
	/** The operation of a saved workflow that leaves it out: the default it was made with. */
	defaultOperation: string;
	/** Fields of every operation of the resource, shown before their own. */
	fields?: INodeProperties[];
	/** An operation the node runs itself for all items, not offered to an AI agent (it pauses). */
	ownOperation?: { option: INodePropertyOptions; description: INodeProperties[] };
}

/** The resources in the Resource selector's order (by name). */
const REGISTRY: Resource[] = [
	{
		// `aml` was this resource's value before AML Monitoring came: saved workflows keep it.
		option: {
			name: 'AML Check',
			value: 'aml',
			description: 'Screen a person or company against sanctions, PEP and adverse media lists',
		},
		operations: amlCheck.operations,
		defaultOperation: 'downloadProfilePdf',
	},
	{
		option: {
			name: 'AML Monitoring',
			value: 'amlMonitoring',
			description: 'Screen a person or company again every day and act on new matches',
		},
		operations: amlMonitoring.operations,
		defaultOperation: 'getAll',
	},
	{
		option: {
			name: 'Bank',
			value: 'bank',
			description: 'Bank account verification and transactions',
		},
		operations: bank.operations,
		defaultOperation: 'createToken',
	},
	{
		option: {
			name: 'Identification (KYC)',
			value: 'identification',
			description: 'Identity verification of a person',
		},
		operations: identification.operations,
		defaultOperation: 'createVerificationToken',
		ownOperation: { option: waitForResult.option, description: waitForResult.description },
	},
	{
		option: {
			name: 'KYB Company',
			value: 'kybCompany',
			description: 'Companies onboarding through KYB: their record, review decision, PDF report',
		},
		operations: kybCompany.operations,
		defaultOperation: 'get',
	},
	{
		// `kyb` was this resource's value before KYB Company came: saved workflows keep it.
		option: {
			name: 'KYB Form',
			value: 'kyb',
			description: 'A company’s KYB session and the form it fills: link, answers, beneficiaries',
		},
		operations: kybForm.operations,
		defaultOperation: 'getAnswers',
		fields: [authenticationProperty, formTokenProperty],
	},
	{
		option: {
			name: 'Proof of Address',
			value: 'proofOfAddress',
			description: 'Check an address document',
		},
		operations: proofOfAddress.operations,
		defaultOperation: 'createCheck',
	},
];

/** Every resource by its value, with the operations the router runs, by theirs. */
export const resources: Record<string, Resource> = Object.fromEntries(
	REGISTRY.map((resource) => [resource.option.value, resource]),
);

/** The Resource selector's entries. */
export const RESOURCE_OPTIONS = REGISTRY.map((resource) => resource.option);

/**
 * A resource's Operation selector. One with an operation of its own has two, told apart by n8n's
 * `@tool` display option: the AI tool variant does not offer it (a tool call cannot pause).
 */
function operationSelectors(resource: Resource): INodeProperties[] {
	const { option, defaultOperation } = resource;
	const value = option.value;
	const options = Object.values(resource.operations).map((operation) => operation.option);
	const selector = (shown: INodePropertyOptions[], tool?: boolean): INodeProperties => ({
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: {
			show: { resource: [value], ...(tool === undefined ? {} : { '@tool': [tool] }) },
		},
		options: shown,
		default: defaultOperation,
	});
	const own = resource.ownOperation;
	if (!own) return [selector(options)];
	return [selector([...options, own.option], false), selector(options, true)];
}

/**
 * A resource's fields: its Operation selector, its shared fields, then each operation's own, an ID
 * field as text before version 2 and as a resource locator from it.
 */
function resourceFields(resource: Resource): INodeProperties[] {
	return [
		...operationSelectors(resource),
		...(resource.fields ?? []),
		...Object.values(resource.operations).flatMap((operation) =>
			withLocators(operation.description),
		),
		...withLocators(resource.ownOperation?.description ?? []),
	];
}

/** Every resource's fields, in the registry's order. */
export const RESOURCE_FIELDS: INodeProperties[] = REGISTRY.flatMap(resourceFields);
