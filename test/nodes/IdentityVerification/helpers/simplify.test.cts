/**
 * "Simplify" on the operations whose answer has more than ten fields (POA check, verification
 * token, a KYB company and the list of them): off by default on the canvas, on by default in the
 * AI tool variant (n8n's `@tool`). List Transactions has one too, off everywhere
 * (bank/listTransactions.test.cts).
 */
import type { INodeProperties } from 'n8n-workflow';
import { IdentityVerification } from '../../../../nodes/IdentityVerification/IdentityVerification.node';
import {
	binaryItem,
	expectPaired,
	poaParams as poa,
	simplifyDefault,
	useSandbox,
} from '../util.cjs';

const ctx = useSandbox();
const PNG = Buffer.concat([
	Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
	Buffer.alloc(64, 1),
]);

describe('Simplify', () => {
	test('POA check: off returns the whole answer (more than ten fields), on the fields a workflow routes on', async () => {
		const input = [binaryItem(PNG, 'scan.png', 'image/png')];
		const full = await ctx.run(poa(), { input });
		expect(full.error).toBeUndefined();
		expect(Object.keys(full.items[0].json).length).toBeGreaterThan(10);
		const simple = await ctx.run(poa({ simplify: true }), { input });
		expect(simple.error).toBeUndefined();
		expect(Object.keys(simple.items[0].json).length).toBeLessThanOrEqual(10);
		expect(simple.items[0].json).toMatchObject({
			overallStatus: full.items[0].json.overallStatus,
			nameMatch: full.items[0].json.nameMatch,
			addressMatch: full.items[0].json.addressMatch,
			id: expect.any(String),
		});
		expect(simple.items[0].json).not.toHaveProperty('providedName');
		expectPaired(simple.items);
	});

	test.each([
		['proofOfAddress', 'createCheck'],
		['identification', 'createVerificationToken'],
		['kybCompany', 'get'],
		['kybCompany', 'getAll'],
	])('%s / %s: default off on the canvas, on in the AI tool variant', (resource, operation) => {
		expect(simplifyDefault(resource, operation, 'identityVerification')).toBe(false);
		expect(simplifyDefault(resource, operation, 'identityVerificationTool')).toBe(true);
	});
});

describe('the Simplify switch', () => {
	/** The Simplify declarations of the node, by the `resource:operation` they belong to. */
	const byOperation = () => {
		const simplify = new IdentityVerification().description.properties.filter(
			(p: INodeProperties) => p.name === 'simplify',
		);
		const groups = new Map<string, INodeProperties[]>();
		for (const p of simplify) {
			const operations = p.displayOptions?.show?.operation as string[] | undefined;
			const resources = p.displayOptions?.show?.resource as string[] | undefined;
			// Each declaration belongs to exactly one operation of one resource.
			expect(operations).toHaveLength(1);
			expect(resources).toHaveLength(1);
			const key = `${String(resources?.[0])}:${String(operations?.[0])}`;
			groups.set(key, [...(groups.get(key) ?? []), p]);
		}
		return groups;
	};

	test('every operation that has it from the start declares it twice: off on the canvas, on in the AI tool', () => {
		const groups = byOperation();
		for (const operation of [
			'proofOfAddress:createCheck',
			'identification:createVerificationToken',
			'identification:getAll',
			'kybCompany:get',
			'kybCompany:getAll',
		]) {
			const declarations = groups.get(operation) ?? [];
			expect(declarations).toHaveLength(2);
			const [canvas, tool] = declarations;
			for (const p of [canvas, tool]) {
				expect(p).toMatchObject({ displayName: 'Simplify', type: 'boolean' });
				expect(p.description).toEqual(expect.any(String));
			}
			expect(canvas.default).toBe(false);
			expect(canvas.displayOptions?.show?.['@tool']).toEqual([false]);
			expect(tool.default).toBe(true);
			expect(tool.displayOptions?.show?.['@tool']).toEqual([true]);
		}
	});

	test('List Transactions and Get Questionnaire Answers, which gained it later, declare it once: off everywhere, so saved nodes keep their output', () => {
		const groups = byOperation();
		expect([...groups.keys()].sort()).toEqual([
			'bank:listTransactions',
			'identification:createVerificationToken',
			'identification:getAll',
			'kyb:getAnswers',
			'kybCompany:get',
			'kybCompany:getAll',
			'proofOfAddress:createCheck',
		]);
		for (const operation of ['kyb:getAnswers', 'bank:listTransactions']) {
			const declarations = groups.get(operation) ?? [];
			expect(declarations).toHaveLength(1);
			expect(declarations[0]).toMatchObject({
				displayName: 'Simplify',
				type: 'boolean',
				default: false,
			});
			expect(declarations[0].displayOptions?.show?.['@tool']).toBeUndefined();
		}
	});
});
