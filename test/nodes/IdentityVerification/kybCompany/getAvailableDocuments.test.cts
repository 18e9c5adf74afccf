/**
 * KYB Company → Get Available Registry Documents: the registry's documents for a company, one item
 * each; the country and number checked before sending; a company the registry does not know.
 */
import { company, unlisted, useKybSandbox } from '../kyb-util.cjs';
import { expectError, testRefusals } from '../util.cjs';

const ctx = useKybSandbox();
const available = (extra: Record<string, unknown> = {}) =>
	company('getAvailableDocuments', {
		countryCode: 'lt',
		registrationNumber: '305123456',
		...extra,
	});

describe('KYB Company → Get Available Registry Documents', () => {
	test('one item per document, with its id to order it by (a lower-case country is sent upper case)', async () => {
		const { items, error } = await ctx.run(available({ registryFields: { region: 'VL' } }));
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual(['REGISTER_EXTRACT', 'HISTORIC_EXTRACT']);
		expect(items[0].json).toMatchObject({ canOrder: true, productFormat: 'PDF', countryISO: 'LT' });
		expect(unlisted('getAvailableDocuments', items[0].json)).toEqual([]);
		const request = ctx.sb.requests.find((r) => r.path.endsWith('/available-documents/'));
		expect(request?.query).toEqual({
			countryCode: 'LT',
			registrationNumber: '305123456',
			region: 'VL',
		});
	});

	test('a number the registry does not know: its 404 in plain words', async () => {
		const error = expectError(
			await ctx.run(available({ registrationNumber: '999' })),
			'the registry has no company with this registration number',
		);
		expect(error.description).toMatch(/Registration Number/);
	});

	testRefusals(ctx, [
		[available({ countryCode: 'XX' }), 'Country', 'registry the service orders from'],
		[available({ registrationNumber: '={{ " " }}' }), 'Registration Number', 'must not be empty'],
	]);
});
