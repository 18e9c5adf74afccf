/**
 * On Error through n8n's engine, for one operation of every resource and a mixed batch (good,
 * refused, not found): with "Continue (using error output)" the failed items leave by the error
 * output, naming what they were about, and the good one by the success output; with "Continue
 * (regular output)" all stay on the one output, each paired with its input.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { caseName, ERROR_CASES } from './errorCases.cjs';
import type { ErrorCase } from './errorCases.cjs';
import { useKycSandbox } from './kyc-util.cjs';
import { binaryItem } from './util.cjs';

// With the receiver of the sandbox's webhooks: finishing a verification sends one.
const ctx = useKycSandbox();

/** The input items of a case; Proof of Address items carry their file. */
async function inputsOf(errorCase: ErrorCase): Promise<INodeExecutionData[]> {
	const inputs = await errorCase.inputs(ctx.sb);
	return inputs.map((json) => {
		if (errorCase.resource !== 'proofOfAddress') return { json };
		const file = binaryItem(
			Buffer.from(String(json.fileBase64), 'base64'),
			'bill.png',
			'image/png',
		);
		return { ...file, json };
	});
}

describe.each(ERROR_CASES.map((errorCase) => [caseName(errorCase), errorCase] as const))(
	'On Error, %s',
	(_resource, errorCase) => {
		test('Continue (using error output): the good item leaves by Success, the failed ones by Error with their IDs', async () => {
			const input = await inputsOf(errorCase);
			const { outputs, error } = await ctx.run(errorCase.parameters, {
				input,
				onError: 'continueErrorOutput',
			});
			expect(error).toBeUndefined();
			const [success, failed] = outputs;
			// The good item's output (a list gives several), and nothing else.
			expect(success.length).toBeGreaterThan(0);
			for (const item of success) {
				expect(item.pairedItem).toEqual({ item: 0 });
				expect(item.json.error).toBeUndefined();
			}
			expect(failed.map((item) => item.pairedItem)).toEqual(
				errorCase.failures.map((_, index) => ({ item: index + 1 })),
			);
			failed.forEach((item, index) => {
				const expected = errorCase.failures[index];
				// The error's words and IDs are its own fields, as n8n's HTTP Request node gives them.
				const details = item.json.error as Record<string, unknown>;
				expect(String(details.message)).toMatch(expected.error);
				if (expected.httpCode) expect(details.httpCode).toBe(expected.httpCode);
				expect(details).toMatchObject(
					errorCase.references(
						input.map((i) => i.json),
						index + 1,
					),
				);
				// n8n adds the input item's fields to an item of the error output.
				expect(item.json).toMatchObject(input[index + 1].json);
			});
		});

		test('Continue (regular output): every item stays on the one output, the failed ones with their words and IDs', async () => {
			const input = await inputsOf(errorCase);
			const { outputs, error } = await ctx.run(errorCase.parameters, {
				input,
				onError: 'continueRegularOutput',
			});
			expect(error).toBeUndefined();
			expect(outputs).toHaveLength(1);
			const [items] = outputs;
			expect(items[0].json.error).toBeUndefined();
			const failed = items.filter((item) => item.json.error !== undefined);
			expect(failed.map((item) => item.pairedItem)).toEqual(
				errorCase.failures.map((_, index) => ({ item: index + 1 })),
			);
			failed.forEach((item, index) => {
				const expected = errorCase.failures[index];
				expect(String(item.json.error)).toMatch(expected.error);
				if (expected.httpCode) expect(item.json.httpCode).toBe(expected.httpCode);
				expect(item.json).toMatchObject(
					errorCase.references(
						input.map((i) => i.json),
						index + 1,
					),
				);
			});
		});
	},
);
