import { SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { request } from 'undici';
import { basicHeader, call, useSandbox } from './test-helpers.cjs';

const pdfPath = (checkId: string, profileId: string) =>
	`/aml/checks/${checkId}/profiles/${profileId}/pdf/`;
const SEEDED = pdfPath(SEED.aml.checkId, SEED.aml.profileId);

/** Checks the xref table: startxref points at `xref` and every entry at `N 0 obj`. */
function assertXref(pdf: Buffer): void {
	const tail = pdf.subarray(pdf.length - 64).toString('latin1');
	const startxref = Number(/startxref\n(\d+)\n%%EOF$/.exec(tail)![1]);
	const table = pdf.subarray(startxref, pdf.length).toString('latin1');
	expect(table.startsWith('xref\n0 ')).toBe(true);
	const entries = [...table.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
	expect(entries.length).toBeGreaterThanOrEqual(6);
	entries.forEach((offset, i) => {
		const header = `${i + 1} 0 obj\n`;
		expect(pdf.subarray(offset, offset + header.length).toString('latin1')).toBe(header);
	});
}

describe('sandbox AML profile PDF', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s));

	test('returns a real PDF naming the check and profile', async () => {
		const res = await call(sb, 'POST', SEEDED, { body: { password: SEED.aml.password } });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('application/pdf');
		expect(res.headers['content-disposition']).toBe(
			`attachment; filename="aml-${SEED.aml.checkId}-${SEED.aml.profileId}.pdf"`,
		);
		expect(res.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(res.body.subarray(-5).toString('latin1')).toBe('%%EOF');
		expect(Number(res.headers['content-length'])).toBe(res.body.length);
		const text = res.body.toString('latin1');
		expect(text).toContain(`AML check: ${SEED.aml.checkId}`);
		expect(text).toContain(`Profile: ${SEED.aml.profileId}`);
		assertXref(res.body);
	});

	test('accepts any non-empty password (the sandbox does not encrypt the PDF)', async () => {
		expect((await call(sb, 'POST', SEEDED, { body: { password: 'x' } })).status).toBe(200);
	});

	test.each([
		[{}, 'is required'],
		[{ password: '' }, 'at least 1 character'],
	])('answers 400 naming password for %j', async (body, rule) => {
		const res = await call(sb, 'POST', SEEDED, { body });
		expect(res.status).toBe(400);
		expect(res.json.message).toContain(rule);
	});

	test('answers 400 naming id when the check id is not a UUID', async () => {
		const res = await call(sb, 'POST', pdfPath('not-a-uuid', SEED.aml.profileId), {
			body: { password: 'x' },
		});
		expect(res.status).toBe(400);
		expect(res.json.message).toContain("Field 'id'");
	});

	test('answers 404 for an unknown check or profile', async () => {
		expect(
			(
				await call(sb, 'POST', pdfPath('00000000-0000-4000-8000-000000000000', 'prof-001'), {
					body: { password: 'x' },
				})
			).status,
		).toBe(404);
		expect(
			(await call(sb, 'POST', pdfPath(SEED.aml.checkId, 'prof-999'), { body: { password: 'x' } }))
				.status,
		).toBe(404);
	});

	test.each([2000, 4096, 100000, 5 * 1024 * 1024 + 3])(
		'pads a seeded profile to exactly %d bytes',
		async (sizeBytes) => {
			const p = sb.aml.seedProfile({ sizeBytes });
			const res = await call(sb, 'POST', pdfPath(p.checkId, p.profileId), {
				body: { password: p.password },
			});
			expect(res.status).toBe(200);
			expect(res.body.length).toBe(sizeBytes);
			expect(res.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
			expect(res.body.subarray(-5).toString('latin1')).toBe('%%EOF');
			assertXref(res.body);
		},
	);

	test('streams a 50 MB PDF', async () => {
		const sizeBytes = 50 * 1024 * 1024;
		const p = sb.aml.seedProfile({ sizeBytes, profileId: 'big' });
		const res = await request(`${sb.url}${pdfPath(p.checkId, p.profileId)}`, {
			method: 'POST',
			headers: {
				authorization: basicHeader(sb.credentials.apiKey, sb.credentials.apiSecret),
				'content-type': 'application/json',
			},
			body: JSON.stringify({ password: 'x' }),
		});
		expect(res.statusCode).toBe(200);
		expect(res.headers['content-length']).toBe(String(sizeBytes));
		let total = 0;
		let head = '';
		let last = Buffer.alloc(0);
		for await (const chunk of res.body) {
			const buf = chunk as Buffer;
			if (!head) head = buf.subarray(0, 5).toString('latin1');
			total += buf.length;
			last = Buffer.concat([last, buf]).subarray(-5);
		}
		expect(head).toBe('%PDF-');
		expect(last.toString('latin1')).toBe('%%EOF');
		expect(total).toBe(sizeBytes);
	});
});
