/** KYB Company → Delete: the company is gone afterwards (Get 404, not listed). */
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../../../nodes/IdentityVerification/actions/resources';
import * as contract from '../../../../nodes/shared/contract';
import { expectError, useSandbox } from '../util.cjs';

const ctx = useSandbox();

const company = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'kybCompany',
	operation,
	...extra,
});

/** A company whose form was submitted from a session's link (waiting for the review). */
async function submitted(input: Parameters<typeof ctx.sb.kyb.submitSession>[1] = {}) {
	const { items } = await ctx.run({
		resource: 'kyb',
		operation: 'createSession',
		clientId: 'deal-42',
	});
	const { companyId } = await ctx.sb.kyb.submitSession(items[0].json.tokenString as string, input);
	ctx.sb.resetLog();
	return companyId;
}

// The output schemas the build writes (gulpfile.js), read as output-schema.test.cts reads them.
const GULPFILE = path.resolve(__dirname, '..', '..', '..', '..', '..', 'gulpfile.js');
const SCHEMAS = (
	require(GULPFILE) as {
		outputSchemas(
			source: typeof contract,
			list: typeof resources,
		): Record<string, { properties?: Record<string, unknown> }>;
	}
).outputSchemas(contract, resources);

/** The fields of an item that n8n's schema preview of the operation does not list. */
function unlisted(operation: string, item: IDataObject): string[] {
	const schema = SCHEMAS[`IdentityVerification/__schema__/v1.0.0/kybCompany/${operation}.json`];
	if (!schema) throw new Error(`the build writes no schema for ${operation}`);
	return Object.keys(item).filter((key) => !schema.properties?.[key]);
}

describe('KYB Company → Delete', () => {
	test('deletes the company: then it is gone (Get 404, not listed), and a second Delete says so', async () => {
		const companyId = await submitted();
		const { items, error } = await ctx.run(company('delete', { companyId }));
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: { deleted: true, companyId }, pairedItem: { item: 0 } }]);
		expect(unlisted('delete', items[0].json)).toEqual([]);
		expectError(await ctx.run(company('get', { companyId })), 'HTTP 404');
		const listed = await ctx.run(company('getAll', { returnAll: true }));
		expect(listed.items.map((i) => i.json.id)).not.toContain(companyId);
		const again = expectError(await ctx.run(company('delete', { companyId })), 'HTTP 404');
		expect(again.message).toMatch(/it may have been deleted already/);
	});
});
