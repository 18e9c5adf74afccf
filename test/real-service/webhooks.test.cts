/**
 * The provider's webhooks through the trigger and Wait for Result, sent as the provider sends them:
 * `Idenfy-Event-Type` set to the kind, `Idenfy-Signature` the lowercase hex HMAC-SHA256 of the raw
 * body, received with a Webhook Signing credential whose header prefix is `Idenfy`. Bodies: every
 * published example, and values generated (fixed seeds) from each kind's body schema.
 *
 * Each delivery must be answered 200 and start one execution whose event names the kind the header
 * named (version 1 of the trigger calls COMPANY_REVIEW `KYB_REVIEW_RESULT`), agrees with the header,
 * and carries the body sent, unchanged. EXPECTED_DIFFERENCES says where the contract
 * deliberately reads the provider's bodies otherwise.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse as parseYaml } from 'yaml';

import { IdentityVerification } from '../../nodes/IdentityVerification/IdentityVerification.node';
import { IDENTIFICATION_EVENT_TYPES, decisionSchema } from '../../nodes/shared/contract';
import { startTriggerHost, type TriggerHost } from '../harness/webhook.cjs';
import { post } from '../nodes/IdentityVerificationTrigger/util.cjs';
import {
	CORPUS,
	corpusJson,
	fakeInstances,
	schemaErrors,
	webhookSchemas,
	type JsonSchema,
} from './provider.cjs';

const KEY = 'provider-signing-key';
const CREDENTIALS = {
	identityVerificationWebhookSigningApi: { signingSecret: KEY, headerPrefix: 'Idenfy' },
};
/** Version 1 of the trigger names the company review as it did before the provider's kinds. */
const V1_NAMES: Record<string, string> = { COMPANY_REVIEW: 'KYB_REVIEW_RESULT' };
const NON_ASCII = 'Žemaitė Ąžuolė – 客户 ✓';

const SCHEMAS = webhookSchemas();

/**
 * What the nodes do with a body the provider says it sends, where it is not the kind the header
 * named: by kind, the body's condition and what the event says instead.
 */
const EXPECTED_DIFFERENCES: Array<{
	kind: string;
	when: (body: Record<string, unknown>) => boolean;
	emitted: { eventType: string; headerMatchesBody: boolean };
	finding: string;
}> = [
	{
		kind: 'IDENTIFICATION_MANUAL_FINISHED',
		when: (body) => body.final === false,
		emitted: { eventType: 'IDENTIFICATION', headerMatchesBody: false },
		finding:
			'The six identification kinds share one body schema, so the provider’s schema lets an IDENTIFICATION_MANUAL_FINISHED body say final: false. The contract says a manual decision is always final and the provider’s docs send it with final: true, so a preliminary body under that (unsigned) header is the legacy IDENTIFICATION, flagged headerMatchesBody false: a replayed preliminary result is never taken for a manual decision.',
	},
];

interface Delivery {
	name: string;
	kind: string;
	body: Record<string, unknown>;
}

/** Sets the body's first free-text field (plain string, no format, enum or pattern) to non-ASCII text. */
function withNonAsciiText(schema: JsonSchema, body: Record<string, unknown>) {
	const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
	const field = Object.keys(body).find((name) => {
		const property = properties[name];
		const types = [property?.type].flat();
		return (
			typeof body[name] === 'string' &&
			types.includes('string') &&
			!property.format &&
			!property.enum &&
			!property.pattern &&
			Number(property.maxLength ?? 100) >= NON_ASCII.length
		);
	});
	return field === undefined ? body : { ...body, [field]: NON_ASCII };
}

/** Generated bodies of a kind: 3 with every optional field, 3 with some left out. */
function generatedBodies(kind: string, seed: number): Delivery[] {
	const schema = SCHEMAS.get(kind) as JsonSchema;
	// VIDEO_CALL_FINISHED declares no body: the contract takes a JSON object (responses.test.cts).
	const bodySchema = kind === 'VIDEO_CALL_FINISHED' ? { type: 'object' } : schema;
	return [true, false].flatMap((alwaysFakeOptionals) =>
		fakeInstances(bodySchema, { seed, count: 3, alwaysFakeOptionals }).map((value, index) => ({
			name: `${kind} generated #${index + 1}${alwaysFakeOptionals ? ' (every field)' : ''}`,
			kind,
			body: withNonAsciiText(bodySchema, value as Record<string, unknown>),
		})),
	);
}

const PUBLISHED: Delivery[] = (
	corpusJson('webhooks/index.json') as { files: Array<{ file: string; eventType: string }> }
).files.map((entry) => ({
	name: `${entry.file} (published)`,
	kind: entry.eventType,
	body: corpusJson(`webhooks/${entry.file}`) as Record<string, unknown>,
}));
const GENERATED = [...SCHEMAS.keys()].flatMap((kind, index) =>
	generatedBodies(kind, 5000 + 100 * index),
);

/** Posts the body as the provider does: its JSON bytes, signed, with the kind in the header. */
async function deliver(url: string, kind: string, body: unknown) {
	const raw = Buffer.from(JSON.stringify(body), 'utf8');
	return await post(url, raw, {
		'idenfy-signature': createHmac('sha256', KEY).update(raw).digest('hex'),
		'idenfy-event-type': kind,
	});
}

const findingsSeen = new Set<string>();

/** What the event should name for a body of the kind: the kind, unless a finding says otherwise. */
function expectedEvent(delivery: Delivery) {
	const finding = EXPECTED_DIFFERENCES.find(
		(f) => f.kind === delivery.kind && f.when(delivery.body),
	);
	if (finding) findingsSeen.add(finding.finding);
	return (
		finding?.emitted ?? {
			eventType: V1_NAMES[delivery.kind] ?? delivery.kind,
			headerMatchesBody: true,
		}
	);
}

const hosts: TriggerHost[] = [];
afterAll(async () => {
	await Promise.all(hosts.map(async (host) => await host.close()));
});

describe('the provider’s webhooks through the trigger (Idenfy-* headers)', () => {
	let trigger: TriggerHost;
	beforeAll(async () => {
		// Generated bodies of different kinds may be equal (e.g. `{}`): each must start a run here.
		trigger = await startTriggerHost({
			credentials: CREDENTIALS,
			parameters: { options: { ignoreDuplicates: false } },
		});
		hosts.push(trigger);
	});

	test('every generated body is one the provider’s schema accepts, with non-ASCII text where a field takes it', () => {
		for (const delivery of GENERATED.filter((d) => d.kind !== 'VIDEO_CALL_FINISHED')) {
			expect(schemaErrors(SCHEMAS.get(delivery.kind) as JsonSchema, delivery.body)).toEqual([]);
		}
		expect(
			GENERATED.filter((d) => JSON.stringify(d.body).includes(NON_ASCII)).length,
		).toBeGreaterThan(GENERATED.length / 2);
	});

	test.each([...PUBLISHED, ...GENERATED].map((delivery) => [delivery.name, delivery] as const))(
		'%s',
		async (_name, delivery) => {
			const before = trigger.emitted.length;
			const res = await deliver(trigger.url, delivery.kind, delivery.body);
			expect(res.status).toBe(200);
			expect(trigger.emitted.length).toBe(before + 1);
			const [item] = trigger.emitted[before];
			expect(item.json).toMatchObject(expectedEvent(delivery));
			expect(item.json.body).toEqual(delivery.body);
			// The contract reads every generated body (responses.test.cts): no issue is reported.
			if (GENERATED.includes(delivery)) expect(item.json.validationIssues).toBeUndefined();
		},
	);
});

describe('Wait for Result resumes on the provider’s identification bodies', () => {
	const bodies = IDENTIFICATION_EVENT_TYPES.flatMap((kind, index) =>
		fakeInstances(SCHEMAS.get(kind) as JsonSchema, {
			seed: 9000 + 100 * index,
			count: 3,
			alwaysFakeOptionals: index % 2 === 0,
		}).map((body, n) => [`${kind} #${n + 1}`, kind, body as Record<string, any>] as const),
	);

	test.each(bodies)('%s', async (_name, kind, body) => {
		const host = await startTriggerHost({
			nodeType: new IdentityVerification(),
			parameters: {
				resource: 'identification',
				operation: 'waitForResult',
				// A preliminary result (final: false) resumes only a wait for the first result.
				waitOptions: { resultToWaitFor: body.final === false ? 'first' : 'final' },
			},
			credentials: CREDENTIALS,
			waitingItems: [{ json: { timedOut: true, scanRef: body.scanRef }, pairedItem: { item: 0 } }],
		});
		hosts.push(host);
		expect(typeof body.status.overall).toBe('string');
		const res = await deliver(host.url, kind, body);
		expect(res.status).toBe(200);
		expect(host.emitted).toHaveLength(1);
		expect(host.emitted[0][0].json).toMatchObject({
			...expectedEvent({ name: '', kind, body }),
			scanRef: body.scanRef,
			overallStatus: body.status.overall,
			body,
		});
	});
});

describe('a Webhook Signing credential left at its defaults (no Header Prefix)', () => {
	let trigger: TriggerHost;
	beforeAll(async () => {
		trigger = await startTriggerHost({
			credentials: { identityVerificationWebhookSigningApi: { signingSecret: KEY } },
			parameters: { options: { ignoreDuplicates: false } },
		});
		hosts.push(trigger);
	});

	// Before, the default prefix was Service: every delivery of the real service was answered 401.
	test.each(PUBLISHED.map((delivery) => [delivery.name, delivery] as const))(
		'accepts the provider’s delivery as it sends it (Idenfy-Signature, Idenfy-Event-Type): %s',
		async (_name, delivery) => {
			const before = trigger.emitted.length;
			const res = await deliver(trigger.url, delivery.kind, delivery.body);
			expect(res.status).toBe(200);
			expect(trigger.emitted.length).toBe(before + 1);
			expect(trigger.emitted[before][0].json).toMatchObject(expectedEvent(delivery));
		},
	);
});

describe('the decision of the provider’s identification bodies, with Personal Data left out', () => {
	test('the decision fields are those of the provider’s IdentificationStatusWebhook, and the docs’ suspicionReasons', () => {
		const kyc = parseYaml(readFileSync(path.join(CORPUS, 'openapi', 'kyc.yaml'), 'utf8'));
		const status = kyc.components.schemas.IdentificationStatusWebhook.properties;
		expect(Object.keys(decisionSchema.shape).sort()).toEqual(
			[...Object.keys(status), 'suspicionReasons'].sort(),
		);
		// suspicionReasons is in the status of the provider's published examples (test/fixtures).
		const published = PUBLISHED.filter((d) => d.kind === 'IDENTIFICATION').map(
			(d) => d.body.status as Record<string, unknown>,
		);
		expect(published.length).toBeGreaterThan(0);
		expect(published.every((status) => 'suspicionReasons' in status)).toBe(true);
	});

	const bodies = [
		...PUBLISHED.filter((d) => IDENTIFICATION_EVENT_TYPES.includes(d.kind as never)),
		...GENERATED.filter((d) => IDENTIFICATION_EVENT_TYPES.includes(d.kind as never)),
	];

	test.each(bodies.map((delivery) => [delivery.name, delivery] as const))(
		'%s: decision holds the status’s decision fields, never anything else of the body',
		async (_name, delivery) => {
			const host = await startTriggerHost({
				credentials: CREDENTIALS,
				typeVersion: 1.1,
				parameters: { personalData: 'leaveOut', options: { ignoreDuplicates: false } },
			});
			hosts.push(host);
			// A field the service may add to the status one day, with a person's data in it.
			const status = { ...(delivery.body.status as object), reviewer: 'Ona Reviewer' };
			const res = await deliver(host.url, delivery.kind, { ...delivery.body, status });
			expect(res.status).toBe(200);
			const item = host.emitted[0][0].json as Record<string, any>;
			expect(item.body).toBeUndefined();
			const expected = Object.fromEntries(
				Object.entries(status).filter(([field]) => field in decisionSchema.shape),
			);
			expect(item.decision).toEqual(Object.keys(expected).length ? expected : undefined);
			expect(JSON.stringify(item)).not.toContain('Ona Reviewer');
		},
	);
});

test('every known finding still occurs', () => {
	expect(
		EXPECTED_DIFFERENCES.filter((f) => !findingsSeen.has(f.finding)).map((f) => f.kind),
	).toEqual([]);
});
