// The build step that `n8n-node build` does not do. Runs after it (`npm run build`). Icons need no
// step here: `n8n-node build` copies every *.png/*.svg (and the codex *.node.json comes with tsc).
//
//  - schemas: writes the output schema of every operation, generated from the zod contract, to
//    dist/nodes/<Node>/__schema__/v<version>/<resource>/<operation>.json (JSON Schema, the format and
//    path n8n's editor reads for its schema preview, see n8n-core's output-schema-resolver), and the
//    trigger's per event kind (n8n 2.40.7's editor shows no schema preview for triggers; README).
const { series } = require('gulp');
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

function schemas(done) {
	const contract = require('./dist/nodes/shared/contract');
	const { z } = require('zod');
	const binaryMeta = z.object({
		checkId: z.string(),
		profileId: z.string(),
		fileName: z.string(),
		mimeType: z.string(),
		fileSize: z.number(),
	});
	const byNode = {
		IdentityVerification: {
			'identification/createVerificationToken': contract.verificationTokenResponseSchema,
			'identification/requestInformation': z.object({ scanRef: z.string() }).passthrough(),
			'bank/createToken': contract.bankTokenSchema,
			'bank/listTransactions': contract.bankTransactionSchema,
			// The echoed document is never output; its size is (see createCheck.operation.ts).
			'proofOfAddress/createCheck': contract.poaCheckSchema
				.omit({ file: true })
				.extend({ fileSizeBytes: z.number() }),
			'aml/downloadProfilePdf': binaryMeta,
			'kyb/getAnswers': contract.questionnaireAnswersSchema,
			'kyb/deleteAnswers': z.object({
				deleted: z.boolean(),
				companyId: z.string(),
				questionnaireId: z.string(),
			}),
			'kyb/submitForm': z.object({ id: z.string().optional() }).passthrough(),
		},
	};
	// The trigger has no resource/operation: one schema per event kind (the item the trigger emits,
	// see nodes/shared/webhook/events.ts), and at __schema__/v1.0.0.json, the path n8n's
	// /schemas route resolves for a node without them, any of the kinds.
	const events = {};
	for (const eventType of contract.EVENT_TYPES) {
		const identification = contract.IDENTIFICATION_EVENT_TYPES.includes(eventType);
		events[`events/${eventType}`] = z.object({
			eventType: z.literal(eventType),
			eventTypeSource: z.enum(['header', 'body']),
			receivedAt: z.string(),
			deliveryId: z.string(),
			...(identification
				? { final: z.boolean().optional(), overallStatus: z.string().optional() }
				: {}),
			scanRef: z.string().optional(),
			clientId: z.string().optional(),
			body: contract.webhookBodySchemas[eventType],
			validationIssues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
		});
	}
	byNode.IdentityVerificationTrigger = events;
	const triggerBase = path.join('dist', 'nodes', 'IdentityVerificationTrigger', '__schema__');
	fs.mkdirSync(triggerBase, { recursive: true });
	// Identification kinds first: where kinds share a field name (e.g. `status`), theirs is kept.
	const kinds = [...contract.EVENT_TYPES].sort(
		(a, b) =>
			contract.IDENTIFICATION_EVENT_TYPES.includes(b) -
			contract.IDENTIFICATION_EVENT_TYPES.includes(a),
	);
	const merged = mergeObjectSchemas(kinds.map((kind) => toJsonSchema(events[`events/${kind}`])));
	merged.properties.eventType = { type: 'string', enum: [...contract.EVENT_TYPES] };
	fs.writeFileSync(
		path.join(triggerBase, 'v1.0.0.json'),
		JSON.stringify(merged, null, '\t') + '\n',
	);
	for (const [node, operations] of Object.entries(byNode)) {
		const base = path.join('dist', 'nodes', node, '__schema__', 'v1.0.0');
		for (const [key, schema] of Object.entries(operations)) {
			const file = path.join(base, `${key}.json`);
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, JSON.stringify(toJsonSchema(schema), null, '\t') + '\n');
		}
	}
	done();
}

exports.schemas = schemas;
exports.build = series(schemas);
exports.default = exports.build;
