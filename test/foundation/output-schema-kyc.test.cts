/**
 * The output schemas the build writes (gulpfile.js) for the operations on a verification's records,
 * against what they emit from the sandbox: every field of an item is in its schema (n8n's schema
 * preview shows no other), and every field the schema requires is there.
 */
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { resources } from '../../nodes/IdentityVerification/actions/resources';
import * as contract from '../../nodes/shared/contract';
import { useKycSandbox } from '../nodes/IdentityVerification/kyc-util.cjs';

interface JsonSchema {
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
	required?: string[];
}

// Tests run compiled from .build/test/foundation/; the gulpfile stays at the repository root.
const gulpfile = require(path.resolve(__dirname, '..', '..', '..', 'gulpfile.js')) as {
	outputSchemas(source: typeof contract, list: typeof resources): Record<string, JsonSchema>;
};
const SCHEMAS = gulpfile.outputSchemas(contract, resources);
const schemaOf = (operation: string) =>
	SCHEMAS[`IdentityVerification/__schema__/v1.0.0/identification/${operation}.json`];

/** Fields of the item (and of the objects in its described lists) its schema lacks. */
function missingFields(item: IDataObject, schema: JsonSchema): string[] {
	return Object.entries(item).flatMap(([key, value]) => {
		const field = schema.properties?.[key];
		if (!field) return [key];
		if (!Array.isArray(value) || !field.items?.properties) return [];
		return value.flatMap((entry) =>
			missingFields(entry as IDataObject, field.items!).map((name) => `${key}[].${name}`),
		);
	});
}

const ctx = useKycSandbox();

const CASES: Array<[string, INodeParameters, string]> = [
	['getAll', { clientId: 'customer-schema' }, ''],
	['getAll', { clientId: 'customer-schema', simplify: true }, ''],
	['getData', {}, ''],
	['getData', { personalData: 'leaveOut' }, ''],
	['downloadFiles', {}, ''],
	['downloadReportPdf', {}, ''],
	['deletePersonalData', {}, ''],
	['deletePersonalData', {}, 'twice'],
	['addToBlocklist', { blocklist: 'DOCUMENT_INFO', reason: 'Fraud' }, ''],
	['removeFromBlocklist', { blocklist: 'SELFIE' }, 'after adding'],
	['requestInformation', { options: { lifetime: 600 } }, ''],
];

test.each(CASES)(
	'identification / %s %j %s: every field is in its schema',
	async (operation, extra, when) => {
		const scanRef = await ctx.finished('customer-schema');
		const base = { resource: 'identification', scanRef };
		if (when === 'twice') await ctx.run({ ...base, operation });
		if (when === 'after adding') await ctx.run({ ...base, operation: 'addToBlocklist' });
		const { items, error } = await ctx.run({ ...base, operation, ...extra });
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		const schema = schemaOf(operation);
		for (const { json } of items) {
			expect(missingFields(json, schema)).toEqual([]);
			expect((schema.required ?? []).filter((key) => !(key in json))).toEqual([]);
		}
	},
);
