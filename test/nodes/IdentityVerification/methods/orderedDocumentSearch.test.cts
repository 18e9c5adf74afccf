/**
 * Document ID → From List: the account's ordered registry documents (`GET
 * /api/v2/gov-ordered-documents/`, kyb.yaml `apiV2GovOrderedDocumentsList`: one unpaged list,
 * `orderBy=-orderTime` for the newest first), found by title.
 */
import { registryOrder } from '../kyb-util.cjs';
import { useSearchSandbox } from './search-util.cjs';

const ctx = useSearchSandbox();
const getOrdered = { resource: 'kybCompany', operation: 'getOrderedDocument' };

/** Orders `productKey` for a company of the sandbox, as the node does; the order's ID. */
async function order(productKey: string): Promise<string> {
	const { error } = await ctx.run(registryOrder(productKey));
	expect(error).toBeUndefined();
	return ctx.sb.kyb.govOrders().slice(-1)[0];
}

describe('Document ID: From List', () => {
	test('the newest order first, each by title, status and delivery time; the search finds a title', async () => {
		const extract = await order('REGISTER_EXTRACT');
		const historic = await order('HISTORIC_EXTRACT');
		ctx.sb.kyb.deliverGovOrder(extract);
		ctx.sb.resetLog();
		const { results } = await ctx.search('orderedDocumentSearch', getOrdered);
		expect(results.map((entry) => entry.value)).toEqual([historic, extract]);
		expect(results[0].name).toMatch(
			/^Historic extract \(changes of officers\) — IN_PROGRESS — \d{4}-/,
		);
		expect(results[1].name).toMatch(
			/^Extract from the Register of Legal Entities — FINISHED — \d{4}-/,
		);
		expect(ctx.sb.requests).toMatchObject([
			{ path: '/api/v2/gov-ordered-documents/', query: { orderBy: '-orderTime' } },
		]);
		const found = await ctx.search('orderedDocumentSearch', getOrdered, { filter: 'historic' });
		expect(found.results.map((entry) => entry.value)).toEqual([historic]);
	});
});
