/**
 * Identification → Remove From Blocklist: a wrong decision is taken back (the person's next
 * verification is approved), and what is not on the list is named as such.
 */
import { expectError } from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const remove = (scanRef: string, blocklist: string) => ({
	resource: 'identification',
	operation: 'removeFromBlocklist',
	scanRef,
	blocklist,
});

describe('Identification: Remove From Blocklist', () => {
	test('removes it again; the person’s next verification is approved', async () => {
		const scanRef = await ctx.finished('wrongly-accused');
		await ctx.run({
			resource: 'identification',
			operation: 'addToBlocklist',
			scanRef,
			blocklist: 'DOCUMENT',
		});
		const { items, error } = await ctx.run(remove(scanRef, 'DOCUMENT'));
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ scanRef, blocklist: 'DOCUMENT', removed: true });
		const next = await ctx.finished('wrongly-accused');
		const status = await ctx.run({
			resource: 'identification',
			operation: 'getStatus',
			scanRef: next,
		});
		expect(status.items[0].json.status).toBe('APPROVED');
	});

	test('removing what is not on the list: the 404 says which list', async () => {
		const scanRef = await ctx.finished('customer-clean');
		const error = expectError(
			await ctx.run(remove(scanRef, 'SELFIE')),
			'404',
			'not on the SELFIE blocklist',
		);
		expect(error.description).toContain('Add to Blocklist');
	});
});
