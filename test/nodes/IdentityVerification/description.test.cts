/** What a user sees in n8n's node panel and parameter pane, read from the node class itself. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';
import { BANK_COUNTRIES } from '../../../nodes/shared/contract';

const { description } = new IdentityVerification();
const operationsOf = (resource: string) =>
	description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	)!;

describe('Identity Verification node description', () => {
	it('is an action node usable as an AI tool, with the agreed name, subtitle and credentials', () => {
		expect(description.name).toBe('identityVerification');
		expect(description.displayName).toBe('Identity Verification');
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toBe(
			'={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		);
		expect(description.credentials?.map((c) => c.name)).toEqual([
			'identityVerificationApi',
			'identityVerificationKybFormTokenApi',
		]);
	});

	it('lists every operation of the contract as an action with a sentence', () => {
		const expected: Record<string, string[]> = {
			identification: ['createVerificationToken', 'requestInformation'],
			bank: ['createToken', 'listTransactions'],
			proofOfAddress: ['createCheck'],
			aml: ['downloadProfilePdf'],
			kyb: ['deleteAnswers', 'getAnswers', 'submitForm'],
		};
		const resources = (
			description.properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
		).map((o) => o.value);
		expect([...resources].sort()).toEqual(Object.keys(expected).sort());
		for (const [resource, operations] of Object.entries(expected)) {
			const options = operationsOf(resource).options as INodePropertyOptions[];
			expect(options.map((o) => o.value).sort()).toEqual([...operations].sort());
			for (const option of options) expect(option.action).toMatch(/^[A-Z][a-z]+ .+/);
		}
	});

	it('explains every field (a description or hint), including the fields inside Options', () => {
		const unexplained: string[] = [];
		const walk = (props: INodeProperties[]) => {
			for (const p of props) {
				if (['resource', 'operation'].includes(p.name)) continue;
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

	it('offers the 28 bank countries by name plus Any', () => {
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

	it('has the documented defaults (lifetime 3600, limit 50, max parallel 4, binary field data)', () => {
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
});
