/**
 * What a user sees in n8n's node panel and parameter pane, read from the node class itself (its
 * resources and operations: actions/resources.ts and each resource's index.ts).
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';
import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import { resources } from '../../../nodes/IdentityVerification/actions/resources';
import { BANK_COUNTRIES, KYC_DOCUMENT_TYPES } from '../../../nodes/shared/contract';
import { SEED } from '../../sandbox/index.cjs';

const node = new IdentityVerification();
const { description } = node;
const RESOURCES = Object.keys(resources);

/** The subtitle as n8n's editor evaluates it (getNodeSubtitle) for a node with these parameters. */
function subtitleOf(parameters: INodeParameters): unknown {
	const onCanvas: INode = {
		id: 'node-1',
		name: 'Identity Verification',
		type: 'n8n-nodes-identity-verification.identityVerification',
		typeVersion: 1.1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [onCanvas],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => node,
			getByNameAndVersion: () => node,
			getKnownTypes: () => ({}),
		},
	});
	return workflow.expression.getSimpleParameterValue(
		onCanvas,
		description.subtitle,
		'internal',
		{},
	);
}
const operationsOf = (resource: string) =>
	description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	)!;

/** The action node's codex (its .node.json), whose `alias` n8n's nodes panel searches. */
const codex = JSON.parse(
	readFileSync(
		path.join(__dirname, '../../../../nodes/IdentityVerification/IdentityVerification.node.json'),
		'utf8',
	),
) as { alias: string[] };

describe('Identity Verification node description', () => {
	// n8n's nodes panel lists the two nodes as one entry with the action node's codex: its search
	// reads the display name and that entry's aliases (the editor's e2e test searches the real panel).
	test.each(['idenfy', 'KYC', 'KYB', 'AML', 'wait for verification result', 'verification result'])(
		'is found in the nodes panel by "%s": an alias holds those words',
		(words) => {
			const aliases = codex.alias.map((alias) => alias.toLowerCase());
			expect(aliases.some((alias) => alias.includes(words.toLowerCase()))).toBe(true);
		},
	);

	test('the nodes panel\'s one entry for both nodes shows what the action node does, also under "What happens next?"', () => {
		// The editor gives that entry the trigger's description (useActionsGeneration: "default to
		// trigger description"), so both nodes share one that says what each does.
		const trigger = new IdentityVerificationTrigger().description;
		expect(trigger.description).toBe(description.description);
		expect(description.description).toMatch(/KYC.*KYB.*AML/);
		expect(description.description).toMatch(/start workflows on their results/);
	});

	test('is an action node usable as an AI tool, with the agreed name and credentials', () => {
		expect(description.name).toBe('identityVerification');
		expect(description.displayName).toBe('Identity Verification');
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials?.map((c) => c.name)).toEqual([
			'identityVerificationApi',
			'identityVerificationWebhookSigningApi',
			'identityVerificationKybFormTokenApi',
		]);
	});

	test('asks for the signing key on Wait for Result only, and for no API key there (it sends no request)', () => {
		const byName = Object.fromEntries(description.credentials!.map((c) => [c.name, c]));
		expect(byName.identityVerificationWebhookSigningApi.displayOptions).toEqual({
			show: { operation: ['waitForResult'] },
		});
		expect(byName.identityVerificationApi.displayOptions?.hide?.operation).toEqual([
			'waitForResult',
		]);
		// n8n's editor treats a parameter a credential lists under `show` as the main auth field when
		// it is named `authentication`, or when every value of it is listed: neither may happen here.
		for (const credential of description.credentials!) {
			const shown = credential.displayOptions?.show ?? {};
			expect(Object.keys(shown)).not.toContain('authentication');
			for (const [field, values] of Object.entries(shown)) {
				for (const property of description.properties.filter((p) => p.name === field)) {
					const all = (property.options as INodePropertyOptions[]).map((o) => o.value);
					expect(all.every((value) => values!.includes(value))).toBe(false);
				}
			}
		}
	});

	test("does not offer Wait for Result in the AI tool variant (n8n's @tool display option)", () => {
		const selectors = description.properties.filter(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('identification'),
		);
		const forTool = selectors.find((p) => p.displayOptions?.show?.['@tool']?.[0] === true)!;
		const forCanvas = selectors.find((p) => p.displayOptions?.show?.['@tool']?.[0] === false)!;
		const values = (p: INodeProperties) =>
			(p.options as INodePropertyOptions[]).map((o) => o.value);
		expect(values(forCanvas)).toContain('waitForResult');
		expect(values(forTool)).not.toContain('waitForResult');
		expect(values(forTool)).toHaveLength(values(forCanvas).length - 1);
	});

	test('shows the selected operation on the canvas by its display name, not its internal values', () => {
		const shown: string[] = [];
		for (const resource of RESOURCES) {
			for (const option of operationsOf(resource).options as INodePropertyOptions[]) {
				const subtitle = subtitleOf({ resource, operation: option.value });
				expect(subtitle).toBe(option.name);
				shown.push(String(subtitle));
			}
		}
		expect(shown).toContain('Create Verification Token');
		expect(shown).toContain('List Transactions');
		// an operation the list does not know (n8n's Custom API Call) is shown as it is
		expect(subtitleOf({ resource: 'bank', operation: '__CUSTOM_API_CALL__' })).toBe(
			'__CUSTOM_API_CALL__',
		);
	});

	test('Documents: from version 1.1 a list of the service’s document types that takes other values too; before, the text field', () => {
		const tokenFields = description.properties.find((p) => p.name === 'tokenFields')!;
		const documentsAt = (typeVersion: number) => {
			const shown = (tokenFields.options as INodeProperties[]).filter(
				(option) =>
					option.name === 'documents' &&
					NodeHelpers.displayParameter({}, option, { typeVersion } as INode, description),
			);
			expect(shown).toHaveLength(1);
			return shown[0];
		};
		expect(documentsAt(1).type).toBe('string');
		const list = documentsAt(1.1);
		expect(list.type).toBe('multiOptions');
		expect(list.allowArbitraryValues).toBe(true);
		expect(list.default).toEqual([]);
		const options = list.options as INodePropertyOptions[];
		expect(options.map((o) => o.value).sort()).toEqual([...KYC_DOCUMENT_TYPES].sort());
		expect(options.find((o) => o.value === 'ID_CARD')?.name).toBe('ID Card');
		expect(documentsAt(2).type).toBe('multiOptions');
		expect(description.version).toEqual([1, 1.1, 2]);
	});

	test('lists every operation of the contract as an action with a sentence', () => {
		// The node's one list of operations, and Wait for Result, which runs outside the router.
		const expected: Record<string, string[]> = Object.fromEntries(
			Object.entries(resources).map(([resource, { operations }]) => [
				resource,
				Object.keys(operations),
			]),
		);
		expected.identification.push('waitForResult');
		const offered = (
			description.properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
		).map((o) => o.value);
		expect([...offered].sort()).toEqual(Object.keys(expected).sort());
		for (const [resource, operations] of Object.entries(expected)) {
			const options = operationsOf(resource).options as INodePropertyOptions[];
			expect(options.map((o) => o.value).sort()).toEqual([...operations].sort());
			for (const option of options) expect(option.action).toMatch(/^[A-Z][a-z]+ .+/);
		}
	});

	test('explains every field (a description or hint), including the fields inside Options', () => {
		const unexplained: string[] = [];
		const walk = (props: INodeProperties[]) => {
			for (const p of props) {
				if (['resource', 'operation'].includes(p.name) || p.type === 'notice') continue;
				if (p.type === 'collection') {
					walk(p.options as INodeProperties[]);
					continue;
				}
				if ((p.description ?? p.hint ?? '').length < 15) unexplained.push(p.name);
			}
		};
		walk(description.properties);
		expect(unexplained).toEqual([]);
	});

	test('offers the 28 bank countries by name plus Any', () => {
		const country = description.properties.find((p) => p.name === 'country')!;
		const options = country.options as INodePropertyOptions[];
		expect(options).toHaveLength(29);
		expect(
			options
				.map((o) => o.value)
				.filter((v) => v !== 'any')
				.sort(),
		).toEqual([...BANK_COUNTRIES].sort());
		expect(options.find((o) => o.value === 'LT')?.name).toBe('Lithuania (LT)');
		expect(country.default).toBe('any');
	});

	test('has the documented defaults (lifetime 3600, limit 50, max parallel 4, binary field data)', () => {
		const find = (name: string, resource: string) =>
			description.properties.find(
				(p) => p.name === name && p.displayOptions?.show?.resource?.includes(resource),
			)!;
		expect(find('lifetime', 'bank').default).toBe(3600);
		expect(find('lifetime', 'bank').hint).toContain('2,592,000');
		expect(find('limit', 'bank').default).toBe(50);
		const options = find('options', 'bank').options as INodeProperties[];
		expect(options.find((o) => o.name === 'maxParallelRequests')?.default).toBe(4);
		expect(find('binaryPropertyName', 'proofOfAddress').default).toBe('data');
		expect(find('binaryPropertyName', 'aml').default).toBe('data');
		expect(find('password', 'aml').typeOptions?.password).toBe(true);
	});

	test('numbers with a range the service sets carry no editor bounds: the editor would change a typed value without a word, the node names the range', () => {
		const bounded: string[] = [];
		const walk = (props: INodeProperties[]) => {
			for (const p of props) {
				if (p.type === 'collection') walk(p.options as INodeProperties[]);
				const bounds = p.typeOptions?.maxValue ?? p.typeOptions?.minValue;
				if (['lifetime', 'expiryTime', 'sessionLength'].includes(p.name) && bounds !== undefined) {
					bounded.push(p.name);
				}
			}
		};
		walk(description.properties);
		expect(bounded).toEqual([]);
	});
});

/** Every property of the node, also inside collections, with the operation each shows for. */
function allFields(props = description.properties): INodeProperties[] {
	return props.flatMap((p) =>
		p.type === 'collection' ? [p, ...allFields(p.options as INodeProperties[])] : [p],
	);
}
const fieldOf = (name: string, operation?: string) =>
	allFields().find(
		(p) =>
			p.name === name &&
			(operation === undefined || p.displayOptions?.show?.operation?.includes(operation)),
	)!;

describe('hints where a new user hesitates (visible under the field, not only in its tooltip)', () => {
	test('no placeholder is one of the sandbox’s IDs: an example must not look like a value to keep', () => {
		// The seeded IDs (verificationId, checkId, companyId, …), not its sample name and address.
		const seeded = new Set(
			Object.values(SEED).flatMap((area) =>
				Object.entries(area)
					.filter(([key]) => key.endsWith('Id'))
					.map(([, id]) => String(id)),
			),
		);
		const looksSeeded = allFields().filter((p) =>
			[...seeded].some((id) => (p.placeholder ?? '').includes(id)),
		);
		expect(looksSeeded.map((p) => `${p.name}: ${p.placeholder}`)).toEqual([]);
	});

	test('Wait for Result › Scan Reference says to leave it empty after the token step, and suggests no expression for a node name', () => {
		const scanRef = fieldOf('scanRef', 'waitForResult');
		expect(scanRef.hint).toMatch(/^Leave empty when a Create Verification Token step/);
		expect(scanRef.hint).toContain('Send the Result to This Workflow');
		expect(scanRef.placeholder).not.toMatch(/\$\(/);
	});

	test('Create Verification Token says which output is the link, how long it works, and what each time counts', () => {
		const notice = fieldOf('linkNotice', 'createVerificationToken');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/verificationUrl.*Expiry Time.*redirectUrl/s);
		expect(fieldOf('expiryTime').hint).toMatch(/3600 = 1 hour.*2592000 \(30 days\)/);
		expect(fieldOf('expiryTime').hint).toMatch(/e-mail/);
		expect(fieldOf('sessionLength').hint).toMatch(/opens the link: 600 = 10 minutes/);
	});

	test('AML › Password says the user chooses it and needs it to open the file', () => {
		const password = fieldOf('password', 'downloadProfilePdf');
		expect(password.hint).toMatch(/^A password you choose/);
		expect(password.hint).toMatch(/opens the file needs it/);
	});
});

describe('AML in the editor, the nodes panel and the AI tool', () => {
	// Two resources named as n8n's own nodes name theirs (the object, then Create, Get, Get Many,
	// Update, Delete and a few verbs of its own), each operation with a one-line description and an
	// action sentence, and saved workflows unchanged.
	const { properties } = description;
	const resourceOptions = properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	const amlOptionsOf = (resource: string) =>
		operationsOf(resource).options as INodePropertyOptions[];

	test('AML is two resources: AML Check keeps the value saved workflows hold, AML Monitoring is new', () => {
		expect(resourceOptions.filter((r) => String(r.value).startsWith('aml'))).toEqual([
			expect.objectContaining({ name: 'AML Check', value: 'aml' }),
			expect.objectContaining({ name: 'AML Monitoring', value: 'amlMonitoring' }),
		]);
	});

	test.each([
		['aml', ['Create', 'Download PDF', 'Download Profile PDF', 'Get Profile']],
		[
			'amlMonitoring',
			[
				'Create',
				'Delete',
				'Download PDF',
				'Get',
				'Get Many',
				'Remove Profile',
				'Start',
				'Stop',
				'Update',
			],
		],
	])('%s: n8n’s operation names, in the alphabetical order n8n lists them', (resource, names) => {
		expect(amlOptionsOf(resource).map((o) => o.name)).toEqual(names);
	});

	test.each(['aml', 'amlMonitoring'])(
		'%s: each operation has a one-line description an agent can act on and a sentence for the nodes panel',
		(resource) => {
			for (const option of amlOptionsOf(resource)) {
				expect([option.name, option.description]).toEqual([
					option.name,
					expect.stringMatching(/^[A-Z][^\n]{30,150}$/),
				]);
				expect([option.name, option.action]).toEqual([
					option.name,
					expect.stringMatching(/^[A-Z][a-z]+ .*AML (check|monitoring|profile)/),
				]);
			}
		},
	);

	test('Get Many is n8n’s getAll; the monitoring ID field is the same on every monitoring operation', () => {
		expect(amlOptionsOf('amlMonitoring').find((o) => o.name === 'Get Many')?.value).toBe('getAll');
		// Version 1's text field and version 2's resource locator alike.
		for (const type of ['string', 'resourceLocator']) {
			const ids = properties.filter(
				(p) =>
					p.name === 'monitoringId' &&
					p.type === type &&
					p.displayOptions?.show?.resource?.includes('amlMonitoring'),
			);
			expect(ids.flatMap((p) => p.displayOptions?.show?.operation ?? []).sort()).toEqual(
				['delete', 'downloadPdf', 'get', 'removeProfile', 'start', 'stop', 'update'].sort(),
			);
			expect(new Set(ids.map((p) => p.hint))).toEqual(
				new Set([expect.stringContaining('body.monitoringId')]),
			);
		}
	});

	test('a saved AML node without an operation (n8n leaves a default out) stays Download Profile PDF', () => {
		expect(operationsOf('aml').default).toBe('downloadProfilePdf');
	});

	test('the IDs a step needs are the ones the step before outputs: hints name {{ $json.checkId }} and {{ $json.profileId }}', () => {
		const hintsOf = (name: string) =>
			properties
				.filter((p) => p.name === name && p.displayOptions?.show?.resource?.includes('aml'))
				.map((p) => p.hint);
		for (const hint of hintsOf('checkId')) expect(hint).toContain('{{ $json.checkId }}');
		for (const hint of hintsOf('profileId')) expect(hint).toContain('{{ $json.profileId }}');
		// Three operations, each with version 1's text field and version 2's locator.
		expect(hintsOf('checkId')).toHaveLength(6);
	});
});
