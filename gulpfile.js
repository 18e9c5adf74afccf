// The build step that `n8n-node build` does not do: `node gulpfile.js`, after it (`npm run build`).
// Plain Node (the name is the template's build file's; one function needs no gulp). Icons need no
// step here: `n8n-node build` copies every *.png/*.svg (and the codex *.node.json comes with tsc).
//
// It writes the output schema of every operation (its `outputSchema`, from the zod contract) to
// dist/nodes/<Node>/__schema__/v<version>/<resource>/<operation>.json (JSON Schema, the format and
// path n8n's editor reads for its schema preview, see n8n-core's output-schema-resolver), and the
// trigger's per event kind, from the contract's one event schema (n8n 2.40.7's editor shows no
// schema preview for triggers; README).
const fs = require('node:fs');
const path = require('node:path');

/** zod (v3) to JSON Schema, for the subset the contract uses. */
function toJsonSchema(schema) {
	const def = schema._def;
	switch (def.typeName) {
		case 'ZodObject': {
			const shape = def.shape();
			const properties = {};
			const required = [];
			for (const [key, value] of Object.entries(shape)) {
				properties[key] = toJsonSchema(value);
				if (!value.isOptional()) required.push(key);
			}
			const out = { type: 'object', properties };
			if (required.length) out.required = required;
			return out;
		}
		case 'ZodString':
			return { type: 'string' };
		case 'ZodNumber':
			return { type: def.checks.some((c) => c.kind === 'int') ? 'integer' : 'number' };
		case 'ZodBoolean':
			return { type: 'boolean' };
		case 'ZodNull':
			return { type: 'null' };
		case 'ZodEnum':
			return { type: 'string', enum: [...def.values] };
		case 'ZodLiteral':
			return { type: typeof def.value, enum: [def.value] };
		case 'ZodUnion': {
			const options = def.options.map(toJsonSchema);
			const enums = options.every((o) => o.enum && o.type === options[0].type);
			return enums
				? { type: options[0].type, enum: options.flatMap((o) => o.enum) }
				: { anyOf: options };
		}
		case 'ZodArray':
			return { type: 'array', items: toJsonSchema(def.type) };
		case 'ZodRecord':
			return { type: 'object', additionalProperties: toJsonSchema(def.valueType) };
		case 'ZodNullable': {
			const inner = toJsonSchema(def.innerType);
			return inner.type
				? { ...inner, type: [].concat(inner.type, 'null') }
				: { anyOf: [inner, { type: 'null' }] };
		}
		case 'ZodOptional':
		case 'ZodDefault':
			return toJsonSchema(def.innerType);
		case 'ZodEffects':
			return toJsonSchema(def.schema);
		case 'ZodPipeline':
			return toJsonSchema(def.out);
		default:
			return {};
	}
}

/** One object schema with every property of the given ones (nested objects merged the same way). */
function mergeObjectSchemas(list) {
	const properties = {};
	for (const schema of list) {
		for (const [key, value] of Object.entries(schema.properties ?? {})) {
			const seen = properties[key];
			properties[key] =
				seen?.properties && value.properties ? mergeObjectSchemas([seen, value]) : (seen ?? value);
		}
	}
	const required = list
		.map((schema) => schema.required ?? [])
		.reduce((common, names) => common.filter((name) => names.includes(name)));
	return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/**
 * The action node's output schema per `<resource>/<operation>`: each operation's own (its
 * `outputSchema`), from the node's list of operations (actions/resources.ts `resources`).
 */
function actionSchemas(resources) {
	const schemas = {};
	for (const [resource, { operations }] of Object.entries(resources)) {
		for (const [operation, { outputSchema }] of Object.entries(operations)) {
			schemas[`${resource}/${operation}`] = outputSchema;
		}
	}
	return schemas;
}

/**
 * The item the trigger emits for one event kind: the contract's event schema of that version (defined
 * once, in nodes/shared/contract/webhooks.ts) with that kind and its body. Only identification kinds
 * carry an overall status and a decision (nodes/shared/webhook/events.ts).
 */
function triggerEventSchema(contract, z, eventType, itemSchema) {
	const body = contract.webhookBodySchemas[eventType];
	const event = itemSchema.extend({
		eventType: z.literal(eventType),
		body: itemSchema.shape.body.isOptional() ? body.optional() : body,
	});
	return contract.IDENTIFICATION_EVENT_TYPES.includes(eventType)
		? event
		: event.omit({ overallStatus: true, decision: true });
}

/**
 * The trigger's schemas of one version: it has no resource/operation, so one per event kind, and at
 * v<version>.json (the path n8n's /schemas route resolves for a node without them) all kinds merged.
 */
function triggerSchemas(contract, z, version, itemSchema) {
	const byKind = {};
	for (const eventType of contract.EVENT_TYPES) {
		byKind[eventType] = toJsonSchema(triggerEventSchema(contract, z, eventType, itemSchema));
	}
	// Identification kinds first: where kinds share a field name (e.g. `status`), theirs is kept.
	const kinds = [...contract.EVENT_TYPES].sort(
		(a, b) =>
			contract.IDENTIFICATION_EVENT_TYPES.includes(b) -
			contract.IDENTIFICATION_EVENT_TYPES.includes(a),
	);
	const merged = mergeObjectSchemas(kinds.map((kind) => byKind[kind]));
	merged.properties.eventType = { type: 'string', enum: [...contract.EVENT_TYPES] };
	const files = { [`${version}.json`]: merged };
	for (const [kind, schema] of Object.entries(byKind)) {
		files[`${version}/events/${kind}.json`] = schema;
	}
	return files;
}

/**
 * Every output schema (JSON Schema) by its path under dist/nodes/. Takes the compiled contract and
 * list of operations, so the tests build the very same schemas
 * (test/foundation/output-schema.test.cts). Version 1.1 of both nodes changes only the item of a
 * delivery (the trigger and Wait for Result) and an input; version 2 of the action node its ID fields.
 */
function outputSchemas(contract, resources, z = require('zod').z) {
	const files = {};
	// The actions' items are the same in every version (2 changed only how IDs are picked).
	const actions = Object.entries(actionSchemas(resources)).map(([key, schema]) => [
		key,
		toJsonSchema(schema),
	]);
	for (const version of ['v1.0.0', 'v1.1.0', 'v2.0.0']) {
		for (const [key, jsonSchema] of actions) {
			files[`IdentityVerification/__schema__/${version}/${key}.json`] = jsonSchema;
		}
	}
	const items = {
		'v1.0.0': contract.identityVerificationEventSchema,
		'v1.1.0': contract.verificationEventItemSchema,
	};
	for (const [version, itemSchema] of Object.entries(items)) {
		for (const [file, schema] of Object.entries(triggerSchemas(contract, z, version, itemSchema))) {
			files[`IdentityVerificationTrigger/__schema__/${file}`] = schema;
		}
	}
	return files;
}

function writeSchemas() {
	const contract = require('./dist/nodes/shared/contract');
	const { resources } = require('./dist/nodes/IdentityVerification/actions/resources');
	for (const [file, schema] of Object.entries(outputSchemas(contract, resources))) {
		const target = path.join('dist', 'nodes', ...file.split('/'));
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.writeFileSync(target, JSON.stringify(schema, null, '\t') + '\n');
	}
}

exports.outputSchemas = outputSchemas;
if (require.main === module) writeSchemas();
