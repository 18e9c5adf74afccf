/** KYB Form → Submit Form: the service's answer, a second submission, an empty Form ID. */
import { SEED } from '../../../sandbox/index.cjs';
import { expectError, serviceRequests, useSandbox } from '../util.cjs';

const ctx = useSandbox();
const { formId } = SEED.kyb;

describe('KYB Form → Submit Form', () => {
	test('submits a form and outputs the service answer', async () => {
		const { items, error } = await ctx.run({ resource: 'kyb', operation: 'submitForm', formId });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		// The service answers 200 with no body: the node says what it did.
		expect(items[0].json).toEqual({ submitted: true, formId });
		expect(ctx.sb.kyb.isSubmitted(formId)).toBe(true);
	});

	test('submitting twice gives a clear error from the service', async () => {
		await ctx.run({ resource: 'kyb', operation: 'submitForm', formId });
		const result = await ctx.run({ resource: 'kyb', operation: 'submitForm', formId });
		expectError(result, '409');
	});

	test('refuses an empty Form ID before sending anything', async () => {
		const result = await ctx.run(
			{ resource: 'kyb', operation: 'submitForm', formId: '={{ $json.form }}' },
			{ input: [{ json: { form: '' } }] },
		);
		expectError(result, 'Form ID', 'must not be empty');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});
