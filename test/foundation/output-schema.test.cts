/**
 * The output schemas the build writes (gulpfile.js) against what the nodes really emit: a field an
 * item carries but its schema lacks is missing from n8n's schema preview, so it fails here. The
 * schemas are made by the gulpfile's own outputSchemas from the compiled contract: no build needed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../nodes/IdentityVerification/actions/resources';
import * as contract from '../../nodes/shared/contract';
import {
	EVENT_TYPES,
	identityVerificationEventSchema,
	verificationEventItemSchema,
	type EventType,
} from '../../nodes/shared/contract';
import {
	buildEvent,
	eventItem,
	type IdentityVerificationEvent,
} from '../../nodes/shared/webhook/events';
import { SAMPLE_BODIES, SAMPLE_NOTE } from '../../nodes/shared/webhook/sample';
import { binaryItem, useSandbox } from '../nodes/IdentityVerification/util.cjs';
import { BODIES } from '../nodes/IdentityVerificationTrigger/fixtures.cjs';
import { SEED } from '../sandbox/index.cjs';

interface JsonSchema {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
	required?: string[];
}

// Tests run compiled from .build/test/foundation/; the gulpfile stays at the repository root.
const ROOT = path.resolve(__dirname, '..', '..', '..');
const GULPFILE = path.join(ROOT, 'gulpfile.js');
const gulpfile = require(GULPFILE) as {
	outputSchemas(source: typeof contract, list: typeof resources): Record<string, JsonSchema>;
};
const SCHEMAS = gulpfile.outputSchemas(contract, resources);

function schemaAt(file: string): JsonSchema {
	const schema = SCHEMAS[file];
	if (!schema) throw new Error(`the build writes no ${file}`);
	return schema;
}

const triggerSchema = (eventType: string) =>
	schemaAt(`IdentityVerificationTrigger/__schema__/v1.0.0/events/${eventType}.json`);
const TRIGGER_ANY_KIND = 'IdentityVerificationTrigger/__schema__/v1.0.0.json';
const actionSchema = (resource: string, operation: string) =>
	schemaAt(`IdentityVerification/__schema__/v1.0.0/${resource}/${operation}.json`);

/**
 * The fields of `item` its schema does not list: its own keys, and the keys of the objects in
 * its lists where the schema describes them (`validationIssues`). A body's own fields are the
 * service's (it may add any), so objects are not followed.
 */
function missingFields(item: IDataObject, schema: JsonSchema): string[] {
	const missing: string[] = [];
	for (const [key, value] of Object.entries(item)) {
		const field = schema.properties?.[key];
		if (!field) {
			missing.push(key);
			continue;
		}
		if (!Array.isArray(value) || !field.items?.properties) continue;
		for (const entry of value) {
			const inner = missingFields(entry as IDataObject, field.items);
			missing.push(...inner.map((name) => `${key}[].${name}`));
		}
	}
	return missing;
}

/** The fields its schema calls required that `item` does not carry. */
const absentRequired = (item: IDataObject, schema: JsonSchema) =>
	(schema.required ?? []).filter((key) => !(key in item));

const RECEIVED_AT = new Date('2026-11-01T10:00:00Z');

function emit(body: IDataObject, headerEventType?: string | string[]): IdentityVerificationEvent {
	return buildEvent({ headerEventType, body, deliveryId: 'd'.repeat(64), receivedAt: RECEIVED_AT });
}

/** What the trigger emits, over every kind and every way a field is set. */
const EMITTED: Array<[string, IdentityVerificationEvent]> = [
	...EVENT_TYPES.map((kind): [string, IdentityVerificationEvent] => [
		`${kind}, named by the header`,
		emit(BODIES[kind] as IDataObject, kind),
	]),
	...EVENT_TYPES.map((kind): [string, IdentityVerificationEvent] => [
		`${kind}, without a header`,
		emit(BODIES[kind] as IDataObject),
	]),
	[
		'a preliminary result the header calls a manual decision (overruled header)',
		emit(
			{ final: false, scanRef: 'scan-1', status: { overall: 'REVIEWING' } },
			'IDENTIFICATION_MANUAL_FINISHED',
		),
	],
	[
		'a bank verification under an identification header (overruled header)',
		emit(BODIES.BANK_VERIFICATION as IDataObject, 'IDENTIFICATION_AUTO_FINISHED'),
	],
	[
		'an account check with a status outside the contract (validation issue)',
		emit({ ...(BODIES.ACCOUNT_CHECK as IDataObject), status: 9 }, 'ACCOUNT_CHECK'),
	],
	['a body that shows no product (validation issue, legacy kind)', emit({ note: 'unknown shape' })],
	[
		'a bank verification whose body carries a final flag',
		emit({ ...(BODIES.BANK_VERIFICATION as IDataObject), final: true }, 'BANK_VERIFICATION'),
	],
	[
		'the sample event (the Test URL opened in a browser while listening)',
		{
			...emit(SAMPLE_BODIES.IDENTIFICATION_AUTO_FINISHED, 'IDENTIFICATION_AUTO_FINISHED'),
			sample: SAMPLE_NOTE,
		},
	],
];

describe('missingFields (the check below)', () => {
	test('names a field the schema lacks, also inside a described list', () => {
		const schema: JsonSchema = {
			properties: {
				kept: { type: 'string' },
				list: { type: 'array', items: { properties: { path: { type: 'string' } } } },
			},
		};
		expect(missingFields({ kept: 'x', extra: 1, list: [{ path: 'a', why: 'b' }] }, schema)).toEqual(
			['extra', 'list[].why'],
		);
	});
});

describe("the output schema of version 1.1's item (trigger and Wait for Result)", () => {
	const v11Schema = (eventType: string) =>
		schemaAt(`IdentityVerificationTrigger/__schema__/v1.1.0/events/${eventType}.json`);
	const ITEMS = EMITTED.flatMap(([name, event]) => [
		[`${name}, with personal data`, eventItem(event, { personalData: true })] as const,
		[`${name}, decision only`, eventItem(event, { personalData: false })] as const,
	]);

	test.each(ITEMS)(
		'%s: every field is in its kind’s schema, and the zod item schema lists it',
		(_case, item) => {
			const json = item as unknown as IDataObject;
			expect(missingFields(json, v11Schema(item.eventType))).toEqual([]);
			expect(absentRequired(json, v11Schema(item.eventType))).toEqual([]);
			expect(
				missingFields(json, schemaAt('IdentityVerificationTrigger/__schema__/v1.1.0.json')),
			).toEqual([]);
			expect(verificationEventItemSchema.strict().safeParse(item).success).toBe(true);
		},
	);

	test('docs/sample-event.json (what the README says to pin) is the item of the sample event, as a delivery gives it', () => {
		const [pinned] = JSON.parse(readFileSync(path.join(ROOT, 'docs', 'sample-event.json'), 'utf8'));
		const sample = buildEvent({
			headerEventType: 'IDENTIFICATION_AUTO_FINISHED',
			body: SAMPLE_BODIES.IDENTIFICATION_AUTO_FINISHED,
			deliveryId: pinned.delivery.deliveryId,
			receivedAt: new Date(pinned.receivedAt),
		});
		expect(pinned).toEqual(eventItem(sample, { personalData: true }));
		expect(pinned.decision).toEqual(expect.objectContaining({ overall: 'APPROVED' }));
		expect(verificationEventItemSchema.strict().safeParse(pinned).success).toBe(true);
	});

	test('the action node has the same operation schemas at 1.1', () => {
		for (const [file, schema] of Object.entries(SCHEMAS)) {
			if (!file.startsWith('IdentityVerification/__schema__/v1.0.0/')) continue;
			expect(SCHEMAS[file.replace('v1.0.0', 'v1.1.0')]).toEqual(schema);
		}
	});
});

describe("the trigger's output schema", () => {
	test('the cases below set every field of the event schema at least once', () => {
		const seen = new Set(EMITTED.flatMap(([, event]) => Object.keys(event)));
		expect([...seen].sort()).toEqual(Object.keys(identityVerificationEventSchema.shape).sort());
	});

	test('the cases emit every kind, an overruled header and validation issues', () => {
		const kinds = new Set<EventType>(EMITTED.map(([, event]) => event.eventType));
		expect([...kinds].sort()).toEqual([...EVENT_TYPES].sort());
		expect(EMITTED.some(([, event]) => event.headerEventType !== undefined)).toBe(true);
		expect(EMITTED.some(([, event]) => event.validationIssues?.length)).toBe(true);
	});

	test.each(EMITTED)(
		'%s: every field is in its kind’s schema and in the any-kind schema',
		(_case, event) => {
			const json = event as unknown as IDataObject;
			expect(missingFields(json, triggerSchema(event.eventType))).toEqual([]);
			expect(missingFields(json, schemaAt(TRIGGER_ANY_KIND))).toEqual([]);
			expect(absentRequired(json, triggerSchema(event.eventType))).toEqual([]);
			expect(absentRequired(json, schemaAt(TRIGGER_ANY_KIND))).toEqual([]);
		},
	);

	test.each(EMITTED)('%s: the zod event schema lists every field', (_case, event) => {
		expect(identityVerificationEventSchema.strict().safeParse(event).success).toBe(true);
	});

	test('each kind’s schema names its kind, the any-kind schema every kind', () => {
		for (const kind of EVENT_TYPES) {
			expect(triggerSchema(kind).properties?.eventType).toEqual({ type: 'string', enum: [kind] });
		}
		expect(schemaAt(TRIGGER_ANY_KIND).properties?.eventType).toEqual({
			type: 'string',
			enum: [...EVENT_TYPES],
		});
	});
});

describe("the action node's output schemas", () => {
	const ctx = useSandbox();
	const { companyId, questionnaireId } = SEED.kyb;
	const PNG = Buffer.concat([
		Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
		Buffer.alloc(64, 1),
	]);

	test.each([
		['bank', 'createToken', {}, undefined],
		['aml', 'downloadProfilePdf', { ...SEED.aml }, undefined],
		['kyb', 'getAnswers', { companyId, questionnaireId }, undefined],
		['kyb', 'deleteAnswers', { companyId, questionnaireId }, undefined],
		[
			'proofOfAddress',
			'createCheck',
			{ providedName: SEED.poa.name, providedAddress: SEED.poa.address },
			[binaryItem(PNG, 'scan.png', 'image/png')],
		],
	])(
		'%s / %s: every field of the output is in its schema',
		async (resource, operation, extra, input) => {
			const { items, error } = await ctx.run({ resource, operation, ...extra }, { input });
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(missingFields(items[0].json, actionSchema(resource, operation))).toEqual([]);
			expect(absentRequired(items[0].json, actionSchema(resource, operation))).toEqual([]);
		},
	);

	test('AML Check and AML Monitoring: every field of each output is in its schema', async () => {
		const monitoringId = ctx.sb.aml.seedMonitoring({
			isSubscribed: false,
			amlCheck: {
				clientId: 'c-1',
				userType: 'PERSON',
				input: { fullName: 'Łukasz Müller-Wiśniewski' },
			},
		}).monitoringId;
		const { checkId, profileId } = SEED.aml;
		const cases: Array<[string, string, Record<string, unknown>]> = [
			['aml', 'create', { clientId: 'c-1', fullName: 'Aleksandr Volkov' }],
			[
				'aml',
				'create',
				{ clientId: 'c-1', userType: 'COMPANY', companyName: 'Baltic Shadow Trading' },
			],
			['aml', 'getProfile', { checkId, profileId }],
			['aml', 'downloadPdf', { checkId }],
			['amlMonitoring', 'create', { clientId: 'c-2', fullName: 'Ona Petraitė', tags: 'vip' }],
			['amlMonitoring', 'get', { monitoringId }],
			['amlMonitoring', 'getAll', { returnAll: true }],
			['amlMonitoring', 'update', { monitoringId, updateFields: { isSubscribed: true } }],
			['amlMonitoring', 'stop', { monitoringId, comment: 'Reviewed' }],
			['amlMonitoring', 'start', { monitoringId }],
			['amlMonitoring', 'downloadPdf', { monitoringId }],
			['amlMonitoring', 'removeProfile', { monitoringId, profileId: 'prof-pep-002' }],
			['amlMonitoring', 'delete', { monitoringId }],
		];
		for (const [resource, operation, extra] of cases) {
			const { items, error } = await ctx.run({ resource, operation, ...extra });
			expect([operation, error]).toEqual([operation, undefined]);
			expect(items.length).toBeGreaterThan(0);
			for (const item of items) {
				const schema = actionSchema(resource, operation);
				expect([operation, missingFields(item.json, schema)]).toEqual([operation, []]);
				expect([operation, absentRequired(item.json, schema)]).toEqual([operation, []]);
			}
		}
	});

	test('identification / getStatus: every field of the output is in its schema', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-42');
		const { items, error } = await ctx.run({
			resource: 'identification',
			operation: 'getStatus',
			scanRef,
		});
		expect(error).toBeUndefined();
		const schema = actionSchema('identification', 'getStatus');
		expect(missingFields(items[0].json, schema)).toEqual([]);
		expect(absentRequired(items[0].json, schema)).toEqual([]);
	});

	// The token answer carries fields the contract does not state (the sandbox answers some, as the
	// service may): only what the contract names is in its schema, and that must be there.
	test('identification / createVerificationToken: the fields its schema requires are there', async () => {
		const { items, error } = await ctx.run({
			resource: 'identification',
			operation: 'createVerificationToken',
			clientId: 'customer-42',
		});
		expect(error).toBeUndefined();
		const schema = actionSchema('identification', 'createVerificationToken');
		expect(absentRequired(items[0].json, schema)).toEqual([]);
		expect(Object.keys(schema.properties ?? {})).toEqual(['authToken', 'scanRef', 'clientId']);
	});
});
