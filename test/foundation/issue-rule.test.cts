/**
 * A failed check is worded as the field and its rule, never the value it was given (issueRule in
 * nodes/shared/contract/common.ts), in both places a user reads one: the webhook item's
 * `delivery.validationIssues` (describeIssues) and the action node's input errors (validateInput).
 * zod's own wording repeats the value (an enum's "received 'xyz'"): a person's data or a secret.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import fc from 'fast-check';
import { z } from 'zod';

import { validateInput } from '../../nodes/IdentityVerification/helpers/validation';
import { describeIssues, issueRule, webhookBodySchemas } from '../../nodes/shared/contract';
import { ACTION_NODE } from '../harness/fixtures/action-node.cjs';

const context = { getNode: () => ACTION_NODE } as unknown as IExecuteFunctions;

/** The message and description validateInput throws for the input. */
function actionError(schema: z.ZodTypeAny, input: unknown): string {
	try {
		validateInput.call(context, schema, input, { field: { label: 'Field' } }, 0);
	} catch (error) {
		const e = error as { message: string; description?: string };
		return `${e.message}\n${e.description ?? ''}`;
	}
	throw new Error('the input was accepted');
}

/** Everything describeIssues says about the input. */
function webhookIssues(schema: z.ZodTypeAny, input: unknown): string {
	const parsed = schema.safeParse(input);
	if (parsed.success) throw new Error('the input was accepted');
	return JSON.stringify(describeIssues(parsed.error));
}

/** Rules over a field, and a value that breaks each (the value is what must not be repeated). */
const FIELD_RULES: Array<[string, z.ZodTypeAny]> = [
	['an enum', z.enum(['LOW', 'HIGH'])],
	['a literal', z.literal('APPROVED')],
	['a union of literals', z.union([z.literal(1), z.literal(2)])],
	['a number', z.number()],
	['an e-mail address', z.string().email()],
	['a web address', z.string().url()],
	['a UUID', z.string().uuid()],
	['at most 3 characters', z.string().max(3)],
	['a date pattern', z.string().regex(/^\d{4}$/)],
	['a list', z.array(z.string())],
];

/** Values marked with § (no rule's text holds it), so finding one in a message is a repeat. */
const markedValue = fc.string({ minLength: 2, maxLength: 40 }).map((text) => `§${text}§`);

describe('no message repeats the value that broke the rule', () => {
	test.each(FIELD_RULES)(
		'%s: in the action node’s error and in the webhook issues',
		(_rule, rule) => {
			const schema = z.object({ field: rule });
			fc.assert(
				fc.property(markedValue, (value) => {
					expect(actionError(schema, { field: value })).not.toContain(value);
					expect(webhookIssues(schema, { field: value })).not.toContain(value);
				}),
				{ numRuns: 60 },
			);
		},
	);

	test('a field the strict schema does not allow is not named either (a sender chooses the key)', () => {
		const schema = z.object({ field: z.string() }).strict();
		fc.assert(
			fc.property(markedValue, (key) => {
				expect(webhookIssues(schema, { field: 'x', [key]: 1 })).not.toContain(key);
			}),
			{ numRuns: 60 },
		);
	});

	test('every webhook body schema of the contract, given a marked value in each field it types', () => {
		const body = {
			final: '§final§',
			status: '§status§',
			riskLevel: '§risk-of-Ona§',
			accounts: '§accounts§',
			score: '§score§',
		};
		let checked = 0;
		for (const schema of Object.values(webhookBodySchemas)) {
			const parsed = schema.safeParse(body);
			if (parsed.success) continue;
			checked += 1;
			expect(JSON.stringify(describeIssues(parsed.error))).not.toMatch(/§/);
		}
		expect(checked).toBeGreaterThan(0);
	});
});

describe('the rule in words', () => {
	test.each([
		['an enum', z.enum(['LOW', 'HIGH']), 'x', 'must be one of LOW, HIGH'],
		['a literal', z.literal('APPROVED'), 'x', 'must be "APPROVED"'],
		['a missing value', z.string(), undefined, 'is required'],
		['another type', z.string(), 4, 'must be a string, not a number'],
		['an object for a list', z.array(z.string()), {}, 'must be an array, not an object'],
		['null for a number', z.number(), null, 'must be a number, not null'],
		['a union', z.union([z.literal(1), z.literal(2)]), 3, 'is none of the allowed kinds of value'],
		['a length', z.string().max(3), 'abcd', 'String must contain at most 3 character(s)'],
	])('%s', (_what, schema, value, rule) => {
		const parsed = schema.safeParse(value);
		expect(parsed.success).toBe(false);
		if (!parsed.success) expect(issueRule(parsed.error.issues[0])).toBe(rule);
	});

	test('the contract’s own words are kept', () => {
		const parsed = z.string().min(5, 'must be a scan reference').safeParse('abc');
		expect(!parsed.success && issueRule(parsed.error.issues[0])).toBe('must be a scan reference');
	});

	test('a webhook issue names its field: `<path>: <rule>`', () => {
		const parsed = z.object({ a: z.object({ b: z.enum(['X']) }) }).safeParse({ a: { b: 'Ona' } });
		expect(!parsed.success && describeIssues(parsed.error)).toEqual([
			{ path: 'a.b', message: 'a.b: must be one of X' },
		]);
	});

	test('the action node names the field by its display name', () => {
		expect(actionError(z.object({ field: z.enum(['LT', 'LV']) }), { field: 'Ona' })).toBe(
			'Field: must be one of LT, LV\nChange the "Field" field so that it meets the rule: must be one of LT, LV.',
		);
	});
});
