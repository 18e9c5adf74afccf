/**
 * AML in the editor, the nodes panel and the AI tool: two resources named as n8n's own nodes name
 * theirs (the object, then Create, Get, Get Many, Update, Delete and a few verbs of its own), each
 * operation with a one-line description and an action sentence, and saved workflows unchanged.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';

const { properties } = new IdentityVerification().description;
const resources = properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[];
const selectorOf = (resource: string): INodeProperties =>
	properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	)!;
const optionsOf = (resource: string) => selectorOf(resource).options as INodePropertyOptions[];

test('AML is two resources: AML Check keeps the value saved workflows hold, AML Monitoring is new', () => {
	expect(resources.filter((r) => String(r.value).startsWith('aml'))).toEqual([
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
	expect(optionsOf(resource).map((o) => o.name)).toEqual(names);
});

test.each(['aml', 'amlMonitoring'])(
	'%s: each operation has a one-line description an agent can act on and a sentence for the nodes panel',
	(resource) => {
		for (const option of optionsOf(resource)) {
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
	expect(optionsOf('amlMonitoring').find((o) => o.name === 'Get Many')?.value).toBe('getAll');
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
	expect(selectorOf('aml').default).toBe('downloadProfilePdf');
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
