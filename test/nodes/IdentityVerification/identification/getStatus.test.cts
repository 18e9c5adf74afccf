/** Identification → Get Status: POST /api/v2/status for re-checking a verification. */
import type { INodeProperties } from 'n8n-workflow';

import { IdentityVerification } from '../../../../nodes/IdentityVerification/IdentityVerification.node';
import { useKycSandbox } from '../kyc-util.cjs';
import { expectError, expectPaired } from '../util.cjs';

// With the receiver of the sandbox's webhooks: finishing a verification sends one.
const ctx = useKycSandbox();

const getStatus = (scanRef: unknown) =>
	ctx.run({ resource: 'identification', operation: 'getStatus', scanRef } as never);

describe('Identification → Get Status', () => {
	test('outputs the status of a verification the person has not finished (ACTIVE)', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-70');
		const { items, error } = await getStatus(scanRef);
		expect(error).toBeUndefined();
		expectPaired(items);
		expect(items).toEqual([
			expect.objectContaining({
				json: {
					status: 'ACTIVE',
					scanRef,
					clientId: 'customer-70',
					autoDocument: null,
					autoFace: null,
					manualDocument: null,
					manualFace: null,
					fraudTags: [],
					mismatchTags: [],
				},
			}),
		]);
	});

	test('sends POST /api/v2/status with the scanRef (trimmed), authenticated with the API key', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-71');
		const { items } = await getStatus(`  ${scanRef}  `);
		// the sandbox finds the session by the scanRef of the JSON body
		expect(items[0].json.scanRef).toBe(scanRef);
		const sent = ctx.sb.requests.filter((r) => r.path === '/api/v2/status');
		expect(sent).toEqual([
			expect.objectContaining({ method: 'POST', authScheme: 'basic', authorized: true }),
		]);
	});

	test('outputs the result of a finished verification (its automatic and manual checks)', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-72');
		await ctx.sb.kyc.autoFinish(scanRef, { final: false });
		const reviewing = await getStatus(scanRef);
		expect(reviewing.items[0].json).toMatchObject({ status: 'REVIEWING', manualDocument: null });
		await ctx.sb.kyc.manualFinish(scanRef, { overall: 'DENIED' });
		const { items } = await getStatus(scanRef);
		expect(items[0].json).toMatchObject({
			status: 'DENIED',
			scanRef,
			clientId: 'customer-72',
			manualDocument: 'DOC_NOT_SUPPORTED',
			manualFace: 'FACE_MISMATCH',
		});
	});

	test.each([
		['an expression that gives nothing', '={{ "" }}'],
		['only spaces', '   '],
	])('refuses a Scan Reference that is %s before sending anything', async (_what, scanRef) => {
		const result = await getStatus(scanRef);
		const error = expectError(result, 'Scan Reference: must not be empty');
		expect(error.description).toMatch(/Enter the scanRef/);
		expect(ctx.sb.requests.filter((r) => r.path === '/api/v2/status')).toEqual([]);
	});

	test('explains an unknown scanRef (404)', async () => {
		const result = await getStatus('no-such-scan');
		expectError(result, '404');
	});

	test('says in the node that it is not for polling', () => {
		const notice = new IdentityVerification().description.properties.find(
			(p: INodeProperties) =>
				p.type === 'notice' && p.displayOptions?.show?.operation?.includes('getStatus'),
		);
		expect(notice?.displayName).toMatch(/asks not to poll/);
		expect(notice?.displayName).toMatch(/webhook/);
	});
});
