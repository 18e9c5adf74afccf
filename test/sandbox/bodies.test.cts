/**
 * The default webhook bodies against the service's published body schemas
 * (test/fixtures/real-service/openapi/): for every kind a document's `webhooks:` name, each field the
 * schema requires is there and each value has the declared type and one of the declared enum
 * values. The few places where the sandbox knowingly differs are listed with their reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { parse as parseYaml } from 'yaml';

import type { EventType } from '../../nodes/shared/contract';
import { identificationBody, SANDBOX_EVENT_TYPES, sampleBody } from './bodies.cjs';

// Tests run compiled from .build/test/sandbox/; the corpus is in the source tree.
const OPENAPI = path.resolve(
	__dirname,
	'..',
	'..',
	'..',
	'test',
	'fixtures',
	'real-service',
	'openapi',
);

interface Schema {
	$ref?: string;
	allOf?: Schema[];
	oneOf?: Schema[];
	anyOf?: Schema[];
	type?: string;
	nullable?: boolean;
	enum?: unknown[];
	properties?: Record<string, Schema>;
	required?: string[];
	items?: Schema;
}

interface Document {
	components: { schemas: Record<string, Schema> };
	webhooks?: Record<
		string,
		{
			post: {
				parameters?: Array<{ name: string; schema?: { enum?: string[] } }>;
				requestBody?: { content: { 'application/json': { schema: Schema } } };
			};
		}
	>;
}

const documents: Document[] = readdirSync(OPENAPI).map(
	(file) => parseYaml(readFileSync(path.join(OPENAPI, file), 'utf8')) as Document,
);

/** The body schema of each event kind, with the document its references resolve in. */
const schemaOfKind = new Map<string, { doc: Document; schema: Schema }>();
for (const doc of documents) {
	for (const { post } of Object.values(doc.webhooks ?? {})) {
		const header = post.parameters?.find((p) => p.name === 'Idenfy-Event-Type');
		const schema = post.requestBody?.content['application/json'].schema;
		for (const kind of header?.schema?.enum ?? [])
			if (schema) schemaOfKind.set(kind, { doc, schema });
	}
}

/** A `#/components/schemas/...` reference resolved; undefined when the copy lacks the schema. */
function resolve(doc: Document, schema: Schema): Schema | undefined {
	if (!schema.$ref) return schema;
	return doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
	string: (value) => typeof value === 'string',
	integer: (value) => Number.isInteger(value),
	number: (value) => typeof value === 'number',
	boolean: (value) => typeof value === 'boolean',
	array: Array.isArray,
	object: isPlainObject,
};

/** What in `value` the schema does not allow, as `path: problem` lines. */
function problems(doc: Document, raw: Schema, value: unknown, at: string): string[] {
	const schema = resolve(doc, raw);
	if (!schema || schema.oneOf || schema.anyOf) return [];
	if (value === null) {
		const allowed = schema.nullable || schema.enum?.includes(null);
		return allowed ? [] : [`${at}: null`];
	}
	if (schema.allOf) return schema.allOf.flatMap((part) => problems(doc, part, value, at));
	if (schema.enum && !schema.enum.includes(value))
		return [`${at}: ${JSON.stringify(value)} not in enum`];
	const type = schema.type ?? (schema.properties ? 'object' : undefined);
	if (type && TYPE_CHECKS[type] && !TYPE_CHECKS[type](value)) return [`${at}: not ${type}`];
	if (Array.isArray(value) && schema.items) {
		const items = schema.items;
		return value.flatMap((item, i) => problems(doc, items, item, `${at}[${i}]`));
	}
	if (!isPlainObject(value)) return [];
	const missing = (schema.required ?? [])
		.filter((key) => !(key in value))
		.map((key) => `${at}.${key}: missing`);
	const fields = Object.entries(schema.properties ?? {}).flatMap(([key, inner]) =>
		key in value ? problems(doc, inner, value[key], `${at}.${key}`) : [],
	);
	return [...missing, ...fields];
}

function problemsOf(kind: EventType, body: unknown): string[] {
	const found = schemaOfKind.get(kind);
	if (!found) throw new Error(`no published schema for ${kind}`);
	return problems(found.doc, found.schema, body, 'body').sort();
}

/** The schema types a plain KYC session's company links as non-null strings; the sandbox sends null. */
const NO_COMPANY = ['body.companyId: null', 'body.beneficiaryId: null'];
/** Manual statuses are "empty if not reviewed yet" (the service's docs); the schema has no null. */
const NOT_REVIEWED = ['body.status.manualFace: null', 'body.status.manualDocument: null'];
/** A session nobody went through has no automatic statuses either. */
const NOT_CHECKED = ['body.status.autoFace: null', 'body.status.autoDocument: null'];

const KNOWN_DIFFERENCES: Partial<Record<EventType, string[]>> = {
	IDENTIFICATION_AUTO_FINISHED: [...NO_COMPANY, ...NOT_REVIEWED],
	IDENTIFICATION_MANUAL_FINISHED: NO_COMPANY,
	IDENTIFICATION_RESUBMITTED: [...NO_COMPANY, ...NOT_REVIEWED],
	IDENTIFICATION_EXPIRED: [...NO_COMPANY, ...NOT_REVIEWED, ...NOT_CHECKED],
	IDENTIFICATION_CANCELLED: [...NO_COMPANY, ...NOT_REVIEWED, ...NOT_CHECKED],
	IDENTIFICATION: [...NO_COMPANY, ...NOT_REVIEWED],
};

describe('default webhook bodies against the service’s published schemas', () => {
	const published = SANDBOX_EVENT_TYPES.filter((kind) => schemaOfKind.has(kind));

	test('every kind has a published body schema but the three whose schema is not in the corpus', () => {
		expect(SANDBOX_EVENT_TYPES.filter((kind) => !schemaOfKind.has(kind))).toEqual([
			// In the provider's face authentication and age estimation documents (not copied).
			'FACIAL_AUTHENTICATION',
			'AGE_ESTIMATION',
			// Declared without a body.
			'VIDEO_CALL_FINISHED',
		]);
	});

	test.each(published)('%s has every required field, with the declared types and enums', (kind) => {
		expect(problemsOf(kind, sampleBody(kind))).toEqual([...(KNOWN_DIFFERENCES[kind] ?? [])].sort());
	});

	test.each([
		[
			'expiry after failed attempts',
			'IDENTIFICATION_EXPIRED',
			{ overall: 'DENIED', checked: true },
			NOT_REVIEWED,
		],
		[
			'preliminary result',
			'IDENTIFICATION_AUTO_FINISHED',
			{ overall: 'SUSPECTED', final: false },
			NOT_REVIEWED,
		],
		['manual denial', 'IDENTIFICATION_MANUAL_FINISHED', { overall: 'DENIED', manual: true }, []],
	] as const)('the KYC state machine’s %s is shaped the same', (_name, kind, ctx, differences) => {
		const body = identificationBody(kind, ctx);
		expect(problemsOf(kind, body)).toEqual([...NO_COMPANY, ...differences].sort());
	});

	test('the checker sees a missing field, a wrong type and a value outside an enum', () => {
		const body = sampleBody('BANK_CARD_VERIFICATION_COMPLETED');
		delete body.lastFour;
		expect(
			problemsOf('BANK_CARD_VERIFICATION_COMPLETED', {
				...body,
				status: 'APPROVED',
				nameMatch: 'yes',
			}),
		).toEqual([
			'body.lastFour: missing',
			'body.nameMatch: not boolean',
			'body.status: "APPROVED" not in enum',
		]);
	});

	test('identification bodies never carry a CANCELLED status, which the service does not have', () => {
		for (const kind of SANDBOX_EVENT_TYPES)
			expect(JSON.stringify(sampleBody(kind))).not.toMatch(/"overall":"CANCEL/);
	});
});
