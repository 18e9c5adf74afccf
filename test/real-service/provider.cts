/**
 * The provider's published OpenAPI documents (test/fixtures/real-service/openapi/) as JSON Schema
 * for ajv and json-schema-faker: `$ref`s resolved (a schema the document does not define is `{}`),
 * `nullable` made a `null` type, `readOnly` fields left out of what is sent (requests) and
 * `writeOnly` fields out of what is received (responses, webhooks), `discriminator` dropped (its
 * `oneOf` becomes `anyOf`: without it, branches may overlap).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { generateSync } from 'json-schema-faker';
import { parse as parseYaml } from 'yaml';

// Tests run compiled from .build/test/real-service/; the corpus is in the source tree.
export const CORPUS = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'real-service');

export type JsonSchema = Record<string, unknown>;
type Direction = 'request' | 'response';

interface Parameter {
	in: string;
	name: string;
	required?: boolean;
	schema?: JsonSchema;
}
interface Operation {
	parameters?: Parameter[];
	security?: Array<Record<string, unknown>>;
	requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
	responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}
interface OpenApiDocument {
	paths: Record<string, Record<string, Operation>>;
	webhooks?: Record<string, { post?: Operation }>;
	components: {
		schemas: Record<string, JsonSchema>;
		securitySchemes?: Record<string, { scheme?: string }>;
	};
}

const DOCUMENTS: OpenApiDocument[] = ['kyc', 'kyb', 'aml', 'bank', 'bank-card'].map(
	(name) =>
		parseYaml(
			readFileSync(path.join(CORPUS, 'openapi', `${name}.yaml`), 'utf8'),
		) as OpenApiDocument,
);

/** Keywords whose value is a schema, a list of schemas, or (properties) a map of schemas. */
const ONE_SCHEMA = new Set(['items', 'additionalProperties', 'not']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf']);
/** OpenAPI keywords with no meaning for ajv or the generator. */
const DROPPED = new Set(['nullable', 'discriminator', 'readOnly', 'writeOnly', 'example']);

const isObject = (value: unknown): value is JsonSchema =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema a `$ref` names in the document, or `{}` (missing, or a cycle: anything). */
function target(document: OpenApiDocument, ref: string, seen: string[]): JsonSchema {
	const name = ref.replace('#/components/schemas/', '');
	return seen.includes(name) ? {} : (document.components.schemas[name] ?? {});
}

/** Whether a property is left out in this direction (marked on it or on the schema it names). */
function leftOut(document: OpenApiDocument, schema: JsonSchema, direction: Direction): boolean {
	const named = typeof schema.$ref === 'string' ? target(document, schema.$ref, []) : schema;
	const marker = direction === 'request' ? 'readOnly' : 'writeOnly';
	return schema[marker] === true || named[marker] === true;
}

function withNull(schema: JsonSchema): JsonSchema {
	if (typeof schema.type !== 'string') return { anyOf: [schema, { type: 'null' }] };
	const enumWithNull =
		Array.isArray(schema.enum) && !schema.enum.includes(null)
			? { enum: [...schema.enum, null] }
			: {};
	return { ...schema, type: [schema.type, 'null'], ...enumWithNull };
}

function convert(
	document: OpenApiDocument,
	schema: unknown,
	direction: Direction,
	seen: string[] = [],
): JsonSchema {
	if (!isObject(schema)) return {};
	if (typeof schema.$ref === 'string') {
		const name = schema.$ref.replace('#/components/schemas/', '');
		return convert(document, target(document, schema.$ref, seen), direction, [...seen, name]);
	}
	const out: JsonSchema = {};
	const left: string[] = [];
	for (const [key, value] of Object.entries(schema)) {
		if (DROPPED.has(key)) continue;
		if (key === 'properties' && isObject(value)) {
			const properties: JsonSchema = {};
			for (const [name, property] of Object.entries(value)) {
				if (isObject(property) && leftOut(document, property, direction)) left.push(name);
				else properties[name] = convert(document, property, direction, seen);
			}
			out.properties = properties;
		} else if (ONE_SCHEMA.has(key) && isObject(value)) {
			out[key] = convert(document, value, direction, seen);
		} else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
			// Without its discriminator a oneOf's branches may overlap: any one of them will do.
			const keyword = key === 'oneOf' && schema.discriminator ? 'anyOf' : key;
			out[keyword] = value.map((item) => convert(document, item, direction, seen));
		} else {
			out[key] = value;
		}
	}
	if (Array.isArray(out.required)) out.required = out.required.filter((n) => !left.includes(n));
	return schema.nullable === true ? withNull(out) : out;
}

/** An operation of the provider's documents by path and method, with the document it is in. */
function operationOf(
	apiPath: string,
	method: string,
): { document: OpenApiDocument; operation: Operation } {
	for (const document of DOCUMENTS) {
		const operation = document.paths[apiPath]?.[method.toLowerCase()];
		if (operation) return { document, operation };
	}
	throw new Error(`The provider publishes no ${method} ${apiPath}`);
}

/** The JSON request body of an operation: its schema, and whether a body is required. */
export function requestBodySchema(
	apiPath: string,
	method: string,
): { schema: JsonSchema; required: boolean } | undefined {
	const { document, operation } = operationOf(apiPath, method);
	const body = operation.requestBody;
	const schema = body?.content?.['application/json']?.schema;
	if (!body || !schema) return undefined;
	return { schema: convert(document, schema, 'request'), required: body.required === true };
}

/** The JSON schema of an operation's answer with that status (undefined: no JSON body). */
export function responseSchema(
	apiPath: string,
	method: string,
	status: number,
): JsonSchema | undefined {
	const { document, operation } = operationOf(apiPath, method);
	const schema = operation.responses?.[String(status)]?.content?.['application/json']?.schema;
	return schema === undefined ? undefined : convert(document, schema, 'response');
}

/**
 * A schema of the documents' components by name, converted for `direction`: the branch a
 * discriminator names, which the converted operation schemas no longer pick (their `oneOf` became
 * `anyOf`, so a body may pass by matching a looser branch).
 */
export function componentSchema(name: string, direction: Direction = 'request'): JsonSchema {
	const document = DOCUMENTS.find((d) => d.components.schemas[name] !== undefined);
	if (!document) throw new Error(`The provider's documents define no schema ${name}`);
	return convert(document, { $ref: `#/components/schemas/${name}` }, direction);
}

/** The path or query parameters of an operation as one object schema (nothing else allowed). */
export function parametersSchema(apiPath: string, method: string, where: 'path' | 'query') {
	const { document, operation } = operationOf(apiPath, method);
	const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === where);
	return {
		type: 'object',
		properties: Object.fromEntries(
			parameters.map((p) => [p.name, convert(document, p.schema ?? {}, 'request')]),
		),
		required: parameters.filter((p) => p.required === true).map((p) => p.name),
		additionalProperties: false,
	};
}

/** The HTTP auth schemes (`basic`, `bearer`) an operation accepts; empty when it names none. */
export function authSchemes(apiPath: string, method: string): string[] {
	const { document, operation } = operationOf(apiPath, method);
	const schemes = document.components.securitySchemes ?? {};
	return (operation.security ?? []).flatMap((requirement) =>
		Object.keys(requirement).map((name) => schemes[name]?.scheme ?? name),
	);
}

/**
 * The body schema of each webhook, by the `Idenfy-Event-Type` value it is sent with. Kinds that
 * share a body schema (the six identification kinds) share one object, so ajv compiles it once.
 */
export function webhookSchemas(): Map<string, JsonSchema> {
	const kinds = new Map<string, JsonSchema>();
	for (const document of DOCUMENTS) {
		const byRef = new Map<unknown, JsonSchema>();
		for (const webhook of Object.values(document.webhooks ?? {})) {
			const header = webhook.post?.parameters?.find((p) => p.name === 'Idenfy-Event-Type');
			const schema = webhook.post?.requestBody?.content?.['application/json']?.schema;
			const ref = schema?.$ref ?? schema;
			if (!byRef.has(ref)) byRef.set(ref, schema ? convert(document, schema, 'response') : {});
			for (const kind of (header?.schema?.enum ?? []) as string[]) {
				kinds.set(kind, byRef.get(ref) as JsonSchema);
			}
		}
	}
	return kinds;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('decimal', /^-?\d+(\.\d+)?$/);
// Query values arrive as text: `perPage=50` is the integer 50.
const ajvCoercing = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
addFormats(ajvCoercing);

/** What ajv finds wrong with a value, one line per error (`/path keyword: message`); [] if valid. */
export function schemaErrors(schema: JsonSchema, value: unknown, coerce = false): string[] {
	const validate = (coerce ? ajvCoercing : ajv).compile(schema);
	if (validate(value)) return [];
	return (validate.errors ?? []).map(
		(error) => `${error.instancePath || '/'} ${error.keyword}: ${error.message ?? ''}`,
	);
}

/**
 * Up to `count` values of the schema from a fixed seed (the same values on every run), each one the
 * schema accepts: the generator does not combine `format` with `pattern` (a `uri` that must end in
 * `json`), and the few values it gets wrong that way are left out.
 */
export function fakeInstances(
	schema: JsonSchema,
	opts: { seed: number; count: number; alwaysFakeOptionals: boolean },
): unknown[] {
	const values = Array.from({ length: opts.count }, (_, index) =>
		generateSync(schema as never, {
			seed: opts.seed + index,
			alwaysFakeOptionals: opts.alwaysFakeOptionals,
			maxDepth: 8,
			maxDefaultItems: 2,
		}),
	);
	return values.filter((value) => schemaErrors(schema, value).length === 0);
}

/** A JSON file of the corpus, parsed. */
export function corpusJson(file: string): unknown {
	return JSON.parse(readFileSync(path.join(CORPUS, file), 'utf8'));
}

/** Every value an `enum` of the provider's documents names: its statuses, tags, levels and kinds. */
export function providerEnumValues(): Set<unknown> {
	const values = new Set<unknown>();
	const visit = (node: unknown): void => {
		if (Array.isArray(node)) return node.forEach(visit);
		if (!isObject(node)) return;
		if (Array.isArray(node.enum)) node.enum.forEach((value) => values.add(value));
		Object.values(node).forEach(visit);
	};
	DOCUMENTS.forEach(visit);
	return values;
}
