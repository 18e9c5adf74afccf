/** AML resource: Download Profile PDF as n8n binary data. */
import path from 'node:path';
import { BinaryDataService } from 'n8n-core';
import { SEED } from '../../../sandbox/index.cjs';
import {
	binaryBytes,
	expectError,
	expectPaired,
	serviceRequests,
	sha256,
	startCountingProxy,
	useSandbox,
} from '../util.cjs';

const ctx = useSandbox();
const { checkId, profileId, password } = SEED.aml;
const params = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'downloadProfilePdf',
	checkId,
	profileId,
	password,
	...extra,
});

describe('AML: Download Profile PDF', () => {
	test('outputs the PDF as binary data (mime, file name, %PDF- bytes) with ids and size in JSON', async () => {
		const { items, error } = await ctx.run(params());
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		const fileName = `aml-${checkId}-${profileId}.pdf`;
		const binary = items[0].binary?.data;
		expect(binary?.mimeType).toBe('application/pdf');
		expect(binary?.fileName).toBe(fileName);
		expect(binary?.fileExtension).toBe('pdf');
		const bytes = binaryBytes(items[0]);
		expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(bytes.toString('latin1')).toContain(profileId);
		expect(items[0].json).toEqual({
			checkId,
			profileId,
			fileName,
			mimeType: 'application/pdf',
			fileSize: bytes.length,
		});
	});

	test('puts the file in the output field the user chose', async () => {
		const { items } = await ctx.run(params({ binaryPropertyName: 'report' }));
		expect(items[0].binary?.data).toBeUndefined();
		expect(binaryBytes(items[0], 'report').subarray(0, 5).toString('latin1')).toBe('%PDF-');
	});

	test('makes a safe file name from a profile ID with unusual characters, and finds the profile', async () => {
		const odd = ctx.sb.aml.seedProfile({ profileId: 'ofac/12 34:x' });
		const { items, error } = await ctx.run(
			params({ checkId: odd.checkId, profileId: odd.profileId }),
		);
		expect(error).toBeUndefined();
		expect(items[0].binary?.data?.fileName).toBe(`aml-${odd.checkId}-ofac_12_34_x.pdf`);
		expect(items[0].json.profileId).toBe('ofac/12 34:x');
	});

	test('keeps a large PDF byte-exact (2 MB): the output holds the very bytes the service sent', async () => {
		const big = ctx.sb.aml.seedProfile({ sizeBytes: 2 * 1024 * 1024 });
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			const { items, error } = await ctx.run(
				params({ checkId: big.checkId, profileId: big.profileId }),
				{ baseUrl: proxy.url },
			);
			expect(error).toBeUndefined();
			expect(proxy.exchanges).toHaveLength(1);
			const sent = proxy.exchanges[0].received;
			expect(sent.length).toBe(2 * 1024 * 1024);
			const output = binaryBytes(items[0]);
			expect(sha256(output)).toBe(sha256(sent));
			expect(items[0].json.fileSize).toBe(2 * 1024 * 1024);
		} finally {
			await proxy.close();
		}
	});

	test('refuses an empty password (from an expression) before sending anything', async () => {
		const result = await ctx.run(params({ password: '={{ $json.password }}' }), {
			input: [{ json: { password: '' } }],
		});
		const error = expectError(result, 'Password', 'at least 1 character');
		expect(error.description).toBeTruthy();
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('an empty password typed in the field is flagged by n8n as a required parameter; nothing is sent', async () => {
		await expect(ctx.run(params({ password: '' }))).rejects.toThrow(
			'Parameter "Password" is required',
		);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('Continue On Fail: the item with the empty password becomes an error item, the others get their PDF', async () => {
		const { items, error } = await ctx.run(params({ password: '={{ $json.password }}' }), {
			continueOnFail: true,
			input: [{ json: { password: 'a' } }, { json: { password: '' } }, { json: { password: 'b' } }],
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expectPaired(items, (i) => i);
		expect(items[0].binary?.data?.mimeType).toBe('application/pdf');
		expect(items[2].binary?.data?.mimeType).toBe('application/pdf');
		expect(items[1].binary).toBeUndefined();
		expect(items[1].json.error).toBe('Password: must be at least 1 character');
		expect(serviceRequests(ctx.sb)).toBe(2);
	});

	test('refuses a Check ID that is not a UUID before sending anything', async () => {
		ctx.sb.resetLog();
		const result = await ctx.run(params({ checkId: 'check-1' }));
		expectError(result, 'Check ID', 'must be a UUID');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('explains an unknown profile clearly (404)', async () => {
		const result = await ctx.run(params({ profileId: 'no-such-profile' }));
		const error = expectError(result, 'Not found', '404');
		expect(error.description).toMatch(/check the ids/i);
	});

	test('an unknown profile is named as such, as Get Profile names it (404)', async () => {
		const result = await ctx.run(params({ profileId: 'no-such-profile' }));
		const error = expectError(result, 'no profile with this Profile ID', 'Check ID');
		expect(error.description).toMatch(/within the check/);
	});

	test('errors clearly when the service answers with something that is not a PDF', async () => {
		ctx.sb.faults.add({
			method: 'POST',
			path: '/aml/',
			status: 200,
			body: { detail: 'not a pdf' },
		});
		const result = await ctx.run(params());
		expectError(result, 'did not return a PDF');
	});
});

describe('AML: Download Profile PDF on n8n 1.x, whose stored binary data carries no byte count', () => {
	// n8n 1.x's BinaryDataService.store is 2.x's without `bytes`: it sets only `fileSize`, a rounded
	// text ("1.16 kB"). The harness's service (n8n-core 2.x, data kept inline as in n8n's default
	// mode) is made to answer the same way.
	let restore: () => void;
	beforeEach(() => {
		// The engine's Container: n8n-core's own copy of @n8n/di (as in the harness).
		const { Container } = require(
			require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }),
		) as typeof import('@n8n/di');
		const service = Container.get(BinaryDataService);
		const store = service.store;
		service.store = async function (...args: Parameters<typeof store>) {
			const stored = await store.apply(this, args);
			delete (stored as { bytes?: number }).bytes;
			return stored;
		};
		restore = () => {
			service.store = store;
		};
	});
	afterEach(() => restore());

	test('reports the size of the file it stored, not 0', async () => {
		const big = ctx.sb.aml.seedProfile({ sizeBytes: 300_001 });
		const { items, error } = await ctx.run(
			params({ checkId: big.checkId, profileId: big.profileId }),
		);
		expect(error).toBeUndefined();
		expect(items[0].binary?.data?.bytes).toBeUndefined();
		expect(items[0].binary?.data?.fileSize).toBe('300 kB');
		expect(binaryBytes(items[0]).length).toBe(300_001);
		expect(items[0].json.fileSize).toBe(300_001);
	});
});
