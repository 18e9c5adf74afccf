/**
 * KYB Company → Order Registry Document: the order is made (once: it is paid for) and listed; its
 * fields checked before sending; a product the registry does not offer.
 */
import { company, unlisted, useKybSandbox } from '../kyb-util.cjs';
import { expectError, serviceRequests, testRefusals } from '../util.cjs';

const ctx = useKybSandbox();
const ORDER_PATH = '/api/v2/gov-ordered-documents/document-order/';
const order = (extra: Record<string, unknown> = {}) =>
	company('orderDocument', {
		countryCode: 'LT',
		registrationNumber: '305123456',
		companyName: 'UAB Baltic Widgets',
		productKey: 'REGISTER_EXTRACT',
		...extra,
	});

describe('KYB Company → Order Registry Document', () => {
	test('orders the document: ordered: true with what was ordered, and the order is listed', async () => {
		const { items, error } = await ctx.run(order());
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			ordered: true,
			countryCode: 'LT',
			registrationNumber: '305123456',
			companyName: 'UAB Baltic Widgets',
			productKey: 'REGISTER_EXTRACT',
		});
		expect(unlisted('orderDocument', items[0].json)).toEqual([]);
		expect(ctx.sb.kyb.govOrders()).toHaveLength(1);
	});

	test('a 5xx is not repeated: the order may have been made and paid for', async () => {
		ctx.sb.faults.add({ method: 'POST', path: ORDER_PATH, status: 502 });
		expectError(await ctx.run(order()), 'HTTP 502');
		expect(serviceRequests(ctx.sb, ORDER_PATH)).toBe(1);
	});

	test('a product the registry does not offer: the service’s refusal names the field', async () => {
		expectError(await ctx.run(order({ productKey: 'NO_SUCH' })), 'HTTP 400', 'productKey');
	});

	testRefusals(ctx, [
		[order({ companyName: 'c'.repeat(201) }), 'Company Name', 'at most 200'],
		[order({ productKey: '={{ " " }}' }), 'Product Key', 'must not be empty'],
		[order({ countryCode: 'Lithuania' }), 'Country', 'registry the service orders from'],
	]);
});
