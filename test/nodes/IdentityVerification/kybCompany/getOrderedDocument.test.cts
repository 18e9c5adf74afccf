/**
 * KYB Company → Get Ordered Document: an order still in progress (its status, no file), a
 * delivered one (its PDF downloaded from the link, under Max File Size), and the ID's checks.
 */
import { company, registryOrder, unlisted, useKybSandbox } from '../kyb-util.cjs';
import { expectError, serviceRequests, testRefusals } from '../util.cjs';

const ctx = useKybSandbox();
const get = (documentId: string, extra: Record<string, unknown> = {}) =>
	company('getOrderedDocument', { documentId, ...extra });

async function ordered(): Promise<string> {
	await ctx.run(registryOrder());
	return ctx.sb.kyb.govOrders().slice(-1)[0];
}

describe('KYB Company → Get Ordered Document', () => {
	test('in progress: its status and no file', async () => {
		const id = await ordered();
		const { items, error } = await ctx.run(get(id));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id, status: 'IN_PROGRESS', file: null });
		expect(items[0].binary).toBeUndefined();
	});

	test('delivered: the PDF from its link into the output field, with the order', async () => {
		const id = await ordered();
		ctx.sb.kyb.deliverGovOrder(id);
		const { items, error } = await ctx.run(get(id, { binaryPropertyName: 'extract' }));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			id,
			status: 'FINISHED',
			fileName: `registry-document-${id}.pdf`,
			mimeType: 'application/pdf',
		});
		expect(unlisted('getOrderedDocument', items[0].json)).toEqual([]);
		expect(items[0].binary?.extract?.mimeType).toBe('application/pdf');
		const fileRequest = ctx.sb.requests.find((r) => r.path.startsWith('/gov-files/'));
		expect(fileRequest?.authScheme).toBe('none');
	});

	test('Download File off: the order only; a file over Max File Size: an error naming it', async () => {
		const id = await ordered();
		ctx.sb.kyb.deliverGovOrder(id);
		const only = await ctx.run(get(id, { download: false }));
		expect(only.items[0].binary).toBeUndefined();
		expect(serviceRequests(ctx.sb, '/gov-files/')).toBe(0);
		ctx.sb.setFileSize(id, 300_000);
		expectError(await ctx.run(get(id, { options: { maxFileSizeMb: 0.1 } })), 'Max File Size');
	});

	test('an unknown document: the 404 in plain words', async () => {
		expectError(
			await ctx.run(get('3c90c3cc-0d44-4b50-8888-8dd25736052a')),
			'no ordered document with this Document ID',
		);
	});

	testRefusals(ctx, [[get('not-a-uuid'), 'Document ID', 'must be a UUID']]);
});
