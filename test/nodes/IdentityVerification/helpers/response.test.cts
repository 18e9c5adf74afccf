/** helpers/response.ts on its own: which answers count as empty, and which become several items. */
import { isNonEmptyObject, toItems } from '../../../../nodes/IdentityVerification/helpers/response';

describe('response helpers', () => {
	test('an object with a key is an answer; {} , arrays and empty bodies are not', () => {
		expect(isNonEmptyObject({ a: 1 })).toBe(true);
		expect(isNonEmptyObject({})).toBe(false);
		expect(isNonEmptyObject([1])).toBe(false);
		expect(isNonEmptyObject('')).toBe(false);
		expect(isNonEmptyObject(undefined)).toBe(false);
	});

	test('an array answer is one item per element (null elements become empty items); anything else one item', () => {
		expect(toItems([{ a: 1 }, null, { b: 2 }])).toEqual([
			{ json: { a: 1 } },
			{ json: {} },
			{ json: { b: 2 } },
		]);
		expect(toItems([])).toEqual([]);
		expect(toItems({ a: 1 })).toEqual([{ json: { a: 1 } }]);
		expect(toItems(undefined)).toEqual([{ json: {} }]);
	});
});
