/**
 * Identification → Delete Personal Data: an erasure at the service. Deleted now, or already deleted
 * (an output item that says so, not a failure); "Token has not expired yet." in words a user can
 * act on; a deletion whose answer was lost is asked for again.
 */
import { expectError, expectPaired, serviceRequests } from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const erase = (scanRef: string) => ({
	resource: 'identification',
	operation: 'deletePersonalData',
	scanRef,
});

describe('Identification: Delete Personal Data', () => {
	test('deletes the data of a finished verification; the service then reports it DELETED', async () => {
		const scanRef = await ctx.finished('customer-erase');
		const { items, error } = await ctx.run(erase(scanRef));
		expect(error).toBeUndefined();
		expectPaired(items);
		expect(items[0].json).toEqual({
			scanRef,
			deleted: true,
			alreadyDeleted: false,
			deletedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
		});
		expect(ctx.sb.kyc.get(scanRef)?.deletedAt).toBeDefined();
		const status = await ctx.run({ resource: 'identification', operation: 'getStatus', scanRef });
		expect(status.items[0].json.status).toBe('DELETED');
	});

	test('a verification already deleted is an item that says so, not a failure', async () => {
		const scanRef = await ctx.finished('customer-twice');
		await ctx.run(erase(scanRef));
		const { items, error } = await ctx.run(erase(scanRef));
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			scanRef,
			deleted: true,
			alreadyDeleted: true,
			status: 'DELETED',
		});
	});

	test('"Token has not expired yet." says when it can be deleted and that running again is safe', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-active');
		const error = expectError(await ctx.run(erase(scanRef)), 'cannot be deleted yet', 'HTTP 400');
		expect(error.message).toContain('link has not expired');
		expect(error.description).toContain('1 hour unless set, at most 30 days');
		expect(error.description).toContain('Run this step again');
		expect(ctx.sb.kyc.get(scanRef)?.deletedAt).toBeUndefined();
	});

	test('an unknown verification stays a 404 (asked about once more, it is not one deleted before)', async () => {
		const error = expectError(await ctx.run(erase('unknown')), '404');
		expect(error.description).toMatch(/check the ids/i);
		expect(serviceRequests(ctx.sb, '/api/v2/status')).toBe(1);
	});

	test('a deletion whose answer was lost is asked for again, and reported deleted', async () => {
		const scanRef = await ctx.finished('customer-lost');
		ctx.sb.faults.add({ method: 'POST', path: '/api/v2/delete', status: 502 });
		const { items, error } = await ctx.run(erase(scanRef));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ deleted: true, alreadyDeleted: false });
		expect(serviceRequests(ctx.sb, '/api/v2/delete')).toBe(2);
	});

	test('an empty Scan Reference is refused before anything is sent', async () => {
		const result = await ctx.run(erase('={{ $json.scanRef }}'), {
			input: [{ json: { scanRef: '' } }],
		});
		expectError(result, 'Scan Reference: must not be empty');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('Continue On Fail: a verification not yet deletable becomes an error item, the others are deleted', async () => {
		const first = await ctx.finished('customer-mixed');
		const { scanRef: active } = ctx.sb.kyc.createSession('customer-mixed');
		const last = await ctx.finished('customer-mixed');
		const { items, error } = await ctx.run(erase('={{ $json.scanRef }}'), {
			continueOnFail: true,
			input: [first, active, last].map((scanRef) => ({ json: { scanRef } })),
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].json).toMatchObject({ scanRef: first, deleted: true });
		expect(String(items[1].json.error)).toContain('cannot be deleted yet');
		expect(items[2].json).toMatchObject({ scanRef: last, deleted: true });
	});

	test('a run whose items name one verification twice refuses the repeat, naming the earlier item; nothing is sent for it', async () => {
		const first = await ctx.finished('customer-first');
		const other = await ctx.finished('customer-other');
		// `.first()` where `.item` was meant: every item names the first item's verification.
		const { items, error } = await ctx.run(erase('={{ $json.scanRef }}'), {
			continueOnFail: true,
			input: [first, other, first, first].map((scanRef) => ({ json: { scanRef } })),
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].json).toMatchObject({ scanRef: first, deleted: true, alreadyDeleted: false });
		expect(items[1].json).toMatchObject({ scanRef: other, deleted: true, alreadyDeleted: false });
		for (const repeated of [items[2], items[3]]) {
			expect(repeated.json.deleted).toBeUndefined();
			expect(repeated.json.error).toBe(
				`Scan Reference: item ${repeated.pairedItem && (repeated.pairedItem as { item: number }).item} names the same verification as item 0 (${first}); nothing was deleted for it`,
			);
			expect(repeated.json.scanRef).toBe(first);
		}
		expect(serviceRequests(ctx.sb, '/api/v2/delete')).toBe(2);

		// Without Continue On Fail the repeat stops the run.
		const stopped = await ctx.run(erase('={{ $json.scanRef }}'), {
			input: [other, other].map((scanRef) => ({ json: { scanRef } })),
		});
		expectError(stopped, 'item 1 names the same verification as item 0');
	});
});
