/**
 * Answers nested deeper than n8n can store (n8n copies and saves an item by recursion: "Maximum
 * call stack size exceeded" from a few thousand levels on), through n8n's engine against the
 * sandbox: a whole answer, a list's page read element by element, and the Proof of Address answer
 * read around its echoed file. Each is refused with the limit named, not retried, and never output.
 */
import { MAX_JSON_DEPTH } from '../../../nodes/shared/jsonDepth';
import { SEED } from '../../sandbox/index.cjs';
import { binaryItem, expectError, poaParams, serviceRequests, useSandbox } from './util.cjs';

const ctx = useSandbox();

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

/** JSON text of arrays nested `levels` deep. */
function nested(levels: number): string {
	return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

const MESSAGE = `The service's answer is nested more than ${MAX_JSON_DEPTH} levels deep, which n8n cannot store; it was not used`;

const companyGet = { resource: 'kybCompany', operation: 'get', companyId: 'c-1' };

describe('an answer nested deeper than the limit is refused, naming it', () => {
	test.each([5_000, 1_000_000])('a whole answer %s levels deep', async (levels) => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"id":"c-1","deep":${nested(levels - 1)}}`,
		});
		const result = await ctx.run(companyGet);
		const error = expectError(result, MESSAGE);
		expect(error.description).toContain('/kyb/companies/c-1/');
		// Not retried: the same answer would come again.
		expect(serviceRequests(ctx.sb, '/kyb/companies/')).toBe(1);
	});

	test('a whole answer just past the limit; one at the limit is output', async () => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"id":"c-1","deep":${nested(MAX_JSON_DEPTH)}}`,
		});
		expectError(await ctx.run(companyGet), MESSAGE);
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"id":"c-1","deep":${nested(MAX_JSON_DEPTH - 1)}}`,
		});
		const { items, error } = await ctx.run(companyGet);
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe('c-1');
	});

	test.each([5_000, 1_000_000])('an element of a list page %s levels deep', async (levels) => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"count":2,"next":null,"previous":null,"results":[{"id":"c-1"},${nested(levels - 2)}]}`,
		});
		const result = await ctx.run({ resource: 'kybCompany', operation: 'getAll', returnAll: true });
		expectError(result, MESSAGE);
		expect(serviceRequests(ctx.sb, '/kyb/companies/')).toBe(1);
	});

	test('the Proof of Address answer around its echoed file', async () => {
		ctx.sb.faults.add({
			path: '/api/v2/poa-checks/',
			status: 200,
			jsonText: `{"id":"p-1","file":"QUJD","deep":${nested(5_000)}}`,
		});
		const result = await ctx.run(poaParams(), {
			input: [binaryItem(PDF, 'bill.pdf', 'application/pdf')],
		});
		expectError(result, MESSAGE);
	});

	test('with Continue On Fail the item becomes an error item and the others go on', async () => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 200,
			jsonText: `{"id":"c-1","deep":${nested(5_000)}}`,
		});
		const { items } = await ctx.run(
			{ ...companyGet, companyId: SEED.kyb.companyId },
			{ continueOnFail: true, input: [{ json: {} }, { json: {} }] },
		);
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toBe(MESSAGE);
		expect(items[1].json.error).toBeUndefined();
	});

	test('an error answer nested deep gives the status’s error, cut to a few levels', async () => {
		ctx.sb.faults.add({
			path: '/kyb/companies/',
			status: 404,
			jsonText: `{"detail":"Not found.","deep":${nested(30_000)}}`,
		});
		const result = await ctx.run(companyGet);
		expect(result.error).toBeDefined();
		expect(result.error!.message).not.toContain('nested');
		expect(result.error!.description).toContain('Not found.');
	});
});
