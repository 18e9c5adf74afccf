/**
 * The trigger stays eligible for skipping n8n's expression isolate per delivery (docs/upstream/):
 * n8n 2.x acquires a V8 isolate for every webhook request unless nothing in the webhook phase can
 * evaluate an expression, which costs a community trigger about 0.6 of n8n's Webhook node's
 * throughput (docs/performance.md). The conditions, at version 1.1 and later: the node's
 * parameters are static (no `=` value, no resource locator), every field of its webhook
 * descriptions resolves without the engine, the version is not 1, and the node type declares the
 * `webhookEvaluatesNoExpressions` feature (the proposal). A default that became an expression
 * would cost every new workflow the skip without any error: these tests fail instead.
 */
import {
	Expression,
	NodeHelpers,
	Workflow,
	nodeParametersAreStatic,
	webhookDescriptionIsNativelyResolvable,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypes,
} from 'n8n-workflow';

import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import { FINAL_BODY, postSigned, useTriggerHosts } from './util.cjs';

const trigger = new IdentityVerificationTrigger();
const { description } = trigger;
const FEATURE = 'webhookEvaluatesNoExpressions';
const versions = ([] as number[]).concat(description.version);
const eligibleVersions = versions.filter((v) => v >= 1.1);

const nodeTypes: INodeTypes = {
	getByName: () => trigger,
	getByNameAndVersion: () => trigger,
	getKnownTypes: () => ({}),
};

/** The node as n8n holds it during a request: the saved parameters with the defaults applied. */
function nodeInWorkflow(typeVersion: number, parameters: INodeParameters = {}): INode {
	const workflow = new Workflow({
		id: 'isolate-skip',
		nodes: [
			{
				id: 'trigger',
				name: 'Trigger',
				type: 'n8n-nodes-identity-verification.identityVerificationTrigger',
				typeVersion,
				position: [0, 0],
				parameters,
			},
		],
		connections: {},
		active: true,
		nodeTypes,
	});
	return workflow.getNode('Trigger')!;
}

/** The conditions of n8n's webhookPhaseNeedsIsolate with the proposed change, as the trigger meets them. */
function webhookPhaseCanSkipIsolate(node: INode): boolean {
	const declared = NodeHelpers.getNodeFeatures(description.features, node.typeVersion);
	return (
		declared[FEATURE] === true &&
		node.typeVersion !== 1 &&
		nodeParametersAreStatic(node) &&
		(description.webhooks ?? []).length > 0 &&
		(description.webhooks ?? []).every(webhookDescriptionIsNativelyResolvable)
	);
}

/** Every default of the properties, nested ones included (an option's default is what Add Option stores). */
function defaultsOf(properties: INodeProperties[], at = ''): Array<[string, unknown]> {
	return properties.flatMap((property) => {
		const here = `${at}${property.name}`;
		const nested = (property.options ?? []).flatMap((option) =>
			'displayName' in option && 'type' in option
				? defaultsOf([option as INodeProperties], `${here}.`)
				: 'values' in option
					? defaultsOf(option.values, `${here}.${option.name}.`)
					: [],
		);
		return [[here, property.default] as [string, unknown], ...nested];
	});
}

/** A value n8n would evaluate: a string starting with `=`, at any depth. */
function expressionsIn(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(expressionsIn);
	if (value !== null && typeof value === 'object') return Object.values(value).some(expressionsIn);
	return false;
}

describe('eligibility for the webhook-phase isolate skip', () => {
	test('the versions users create are eligible; version 1 is not', () => {
		expect(eligibleVersions).toContain(Math.max(...versions));
		expect(versions.filter((v) => v < 1.1)).toEqual([1]);
	});

	test.each(eligibleVersions)(
		'version %s, as the editor saves it, meets every condition',
		(typeVersion) => {
			const node = nodeInWorkflow(typeVersion);
			expect(nodeParametersAreStatic(node)).toBe(true);
			expect(webhookPhaseCanSkipIsolate(node)).toBe(true);
		},
	);

	test.each(eligibleVersions)(
		'version %s with every option added at its default still does',
		(typeVersion) => {
			const options = Object.fromEntries(
				defaultsOf(description.properties)
					.filter(([name]) => name.startsWith('options.'))
					.map(([name, value]) => [name.slice('options.'.length), value]),
			) as INodeParameters;
			expect(Object.keys(options).length).toBeGreaterThan(0);
			expect(webhookPhaseCanSkipIsolate(nodeInWorkflow(typeVersion, { options }))).toBe(true);
		},
	);

	test('no default anywhere in the properties is an expression', () => {
		const defaults = defaultsOf(description.properties);
		expect(defaults.length).toBeGreaterThan(5);
		expect(defaults.filter(([, value]) => expressionsIn(value))).toEqual([]);
	});

	test('every webhook description resolves without the expression engine', () => {
		expect(description.webhooks?.length).toBeGreaterThan(0);
		for (const webhook of description.webhooks ?? [])
			expect(webhookDescriptionIsNativelyResolvable(webhook)).toBe(true);
	});

	test('the node declares the feature for the eligible versions only', () => {
		for (const v of versions)
			expect(NodeHelpers.getNodeFeatures(description.features, v)[FEATURE] === true).toBe(v >= 1.1);
	});

	test('the conditions fail where n8n must keep the isolate', () => {
		expect(webhookPhaseCanSkipIsolate(nodeInWorkflow(1))).toBe(false);
		// A value a user writes as an expression: that workflow keeps the isolate, as it must.
		expect(webhookPhaseCanSkipIsolate(nodeInWorkflow(1.1, { events: '={{ [] }}' }))).toBe(false);
	});
});

describe('what the declared feature promises', () => {
	const KEY = 'whsec-isolate-skip';
	const host = useTriggerHosts(KEY);
	let rendered: jest.SpyInstance;
	beforeEach(() => {
		// Private in n8n's typings: every evaluation, on either engine, goes through it.
		const prototype = Expression.prototype as unknown as { renderExpression: () => unknown };
		rendered = jest.spyOn(prototype, 'renderExpression');
	});
	afterEach(() => rendered.mockRestore());

	test('a delivery to version 1.1 with its defaults evaluates no expression', async () => {
		const h = await host({ typeVersion: 1.1 });
		const res = await postSigned(h.url, FINAL_BODY, { key: KEY, eventType: 'IDENTIFICATION' });
		expect(res.status).toBe(200);
		expect(h.emitted).toHaveLength(1);
		expect(rendered).not.toHaveBeenCalled();
	});

	test('the same delivery with an option written as an expression does evaluate it', async () => {
		const h = await host({
			typeVersion: 1.1,
			parameters: { options: { onlyFinal: '={{ false }}' } },
		});
		const res = await postSigned(h.url, FINAL_BODY, { key: KEY, eventType: 'IDENTIFICATION' });
		expect(res.status).toBe(200);
		expect(rendered).toHaveBeenCalled();
	});
});
