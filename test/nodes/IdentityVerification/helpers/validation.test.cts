/** helpers/validation.ts on its own: how a broken input rule is worded, and numbers typed as text. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import {
	fieldLabel,
	fieldLabels,
	numberFromText,
	validateInput,
	type FieldLabels,
} from '../../../../nodes/IdentityVerification/helpers/validation';
import { ACTION_NODE } from '../../../harness/fixtures/action-node.cjs';

const context = { getNode: () => ACTION_NODE } as unknown as IExecuteFunctions;

/** The error validateInput throws for this input (the test fails when it accepts it). */
function refusal(schema: z.ZodTypeAny, input: unknown, fields: FieldLabels = {}) {
	try {
		validateInput.call(context, schema, input, fields, 3);
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		const e = error as NodeOperationError;
		expect(e.context.itemIndex).toBe(3);
		return { message: e.message, description: e.description };
	}
	throw new Error('the input was accepted');
}

describe('validateInput: the message names the field and the rule', () => {
	const nested = z.object({ company: z.object({ name: z.string() }) });

	test('a valid input is returned as the schema outputs it', () => {
		expect(
			validateInput.call(context, z.object({ n: z.coerce.number() }), { n: '4' }, {}, 0),
		).toEqual({
			n: 4,
		});
	});

	test('a nested field is found by its whole path, then by its first segment, then named by its path', () => {
		const input = { company: { name: 7 } };
		expect(refusal(nested, input, { 'company.name': { label: 'Company Name' } }).message).toBe(
			'Company Name: must be a string, not a number',
		);
		expect(refusal(nested, input, { company: { label: 'Company' } }).message).toBe(
			'Company: must be a string, not a number',
		);
		expect(refusal(nested, input).message).toBe('company.name: must be a string, not a number');
	});

	test('an issue with the whole input is named "Input"', () => {
		expect(refusal(z.string(), 5).message).toBe('Input: must be a string, not a number');
	});

	test('a missing value "is required"; a rule of the contract that says "Required" or "Expected" itself is kept', () => {
		const fields = { x: { label: 'X' } };
		expect(refusal(z.object({ x: z.string() }), {}, fields).message).toBe('X: is required');
		const custom = (message: string) => z.object({ x: z.string().refine(() => false, message) });
		expect(refusal(custom('Required'), { x: 'a' }, fields).message).toBe('X: Required');
		expect(refusal(custom('Expected a date'), { x: 'a' }, fields).message).toBe(
			'X: Expected a date',
		);
	});

	test('a rule that starts with the field name is not repeated after it', () => {
		const schema = z.object({ clientId: z.string().min(1, 'Client ID must not be empty') });
		expect(refusal(schema, { clientId: '' }, { clientId: { label: 'Client ID' } }).message).toBe(
			'Client ID: must not be empty',
		);
	});

	test('the description gives the fix when there is one, else the rule; further issues follow', () => {
		const schema = z.object({ a: z.string(), b: z.string() });
		expect(refusal(schema, { a: 1, b: 'ok' }, { a: { label: 'A', fix: 'Type a word.' } })).toEqual({
			message: 'A: must be a string, not a number',
			description: 'Type a word.',
		});
		expect(refusal(schema, { a: 1, b: 2 }, { a: { label: 'A' }, b: { label: 'B' } })).toEqual({
			message: 'A: must be a string, not a number',
			description:
				'Change the "A" field so that it meets the rule: must be a string, not a number. Also: B: must be a string, not a number.',
		});
	});
});

describe('fieldLabels: each label is the display name of its field', () => {
	const properties: INodeProperties[] = [
		{ displayName: 'Client ID', name: 'clientId', type: 'string', default: '' },
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			default: {},
			options: [{ displayName: 'Callback URL', name: 'callbackUrl', type: 'string', default: '' }],
		},
		{
			displayName: 'Custom Fields',
			name: 'customFields',
			type: 'fixedCollection',
			default: {},
			options: [
				{
					displayName: 'Field',
					name: 'field',
					values: [{ displayName: 'Field Name', name: 'fieldName', type: 'string', default: '' }],
				},
			],
		},
	];

	test('a top-level field, one in a collection and one in a group of a fixed collection', () => {
		expect(
			fieldLabels(properties, {
				clientId: 'Enter it.',
				callbackUrl: undefined,
				fieldName: 'Name it.',
			}),
		).toEqual({
			clientId: { label: 'Client ID', fix: 'Enter it.' },
			callbackUrl: { label: 'Callback URL', fix: undefined },
			fieldName: { label: 'Field Name', fix: 'Name it.' },
		});
	});

	test('a request path other than the field name takes the field by its name', () => {
		expect(fieldLabel(properties, 'callbackUrl', 'Enter a URL.')).toEqual({
			label: 'Callback URL',
			fix: 'Enter a URL.',
		});
	});

	test('a name the description does not have is a mistake of the code', () => {
		expect(() => fieldLabels(properties, { missing: 'x' })).toThrow('No field "missing"');
		expect(() => fieldLabel(properties, 'field')).toThrow('No field "field"');
	});
});

describe('numberFromText', () => {
	test.each([
		['3600', 3600],
		[' 12 ', 12],
		['-3.5', -3.5],
		['1.25', 1.25],
	])('%j is the number %d', (text, number) => {
		expect(numberFromText(text)).toBe(number);
	});

	test.each([['x12'], ['12x'], ['abc12'], ['1.'], ['1.x'], ['12 3'], ['']])(
		'%j stays text for the schema to judge',
		(text) => {
			expect(numberFromText(text)).toBe(text);
		},
	);

	test('a value that is not text is returned as it is', () => {
		expect(numberFromText(7)).toBe(7);
		expect(numberFromText(undefined)).toBeUndefined();
	});
});
