/** KYB Company → Get Many Ordered Documents: every order, and the filters the service applies. */
import { company, unlisted, useKybSandbox } from '../kyb-util.cjs';
import { testRefusals } from '../util.cjs';

const ctx = useKybSandbox();
const order = (productKey: string) =>
	company('orderDocument', {
		countryCode: 'LT',
		registrationNumber: '305123456',
		companyName: 'UAB Baltic Widgets',
		productKey,
	});
const list = (filters: Record<string, unknown> = {}) => company('getOrderedDocuments', { filters });

describe('KYB Company → Get Many Ordered Documents', () => {
	test('every order, one item each; by status; none is no item', async () => {
		expect((await ctx.run(list())).items).toEqual([]);
		await ctx.run(order('REGISTER_EXTRACT'));
		await ctx.run(order('HISTORIC_EXTRACT'));
		const [first] = ctx.sb.kyb.govOrders();
		ctx.sb.kyb.deliverGovOrder(first);
		const all = await ctx.run(list());
		expect(all.error).toBeUndefined();
		expect(all.items.map((item) => item.json.status)).toEqual(['FINISHED', 'IN_PROGRESS']);
		expect(unlisted('getOrderedDocuments', all.items[0].json)).toEqual([]);
		const finished = await ctx.run(list({ status: 'FINISHED' }));
		expect(finished.items.map((item) => item.json.id)).toEqual([first]);
		const request = ctx.sb.requests
			.filter((r) => r.path === '/api/v2/gov-ordered-documents/')
			.pop();
		expect(request?.query).toEqual({ status: 'FINISHED' });
	});

	test('dates are sent as UTC times; a title filter is sent as typed', async () => {
		await ctx.run(
			list({ orderedAfter: '2026-01-02T03:04:05+02:00', title: 'Extract', orderedBefore: '' }),
		);
		const request = ctx.sb.requests.find((r) => r.path === '/api/v2/gov-ordered-documents/');
		expect(request?.query).toEqual({ orderedAfter: '2026-01-02T01:04:05.000Z', title: 'Extract' });
	});

	testRefusals(ctx, [
		[list({ status: '={{ "LOST" }}' }), 'Status', 'must be one of'],
		[list({ orderedAfter: '={{ "soon" }}' }), 'Ordered After', 'date and time'],
	]);
});
