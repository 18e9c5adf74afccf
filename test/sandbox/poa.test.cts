import { poaCheckSchema } from '../../nodes/shared/contract';
import { SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';

const ftyp = (major: string, compatible: string[]) => {
	const size = 16 + compatible.length * 4;
	const box = Buffer.alloc(size + 8);
	box.writeUInt32BE(size, 0);
	box.write('ftyp', 4, 'latin1');
	box.write(major, 8, 'latin1');
	compatible.forEach((brand, i) => box.write(brand, 16 + i * 4, 'latin1'));
	return box;
};

const FILES: Record<string, Buffer> = {
	jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]),
	png: Buffer.from([
		0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
	]),
	webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
	heic: ftyp('heic', ['mif1', 'heic']),
	heif: ftyp('mif1', ['mif1', 'miaf']),
	pdf: Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj\n<<>>\nendobj\n%%EOF', 'latin1'),
};

const check = (sb: Sandbox, body: Record<string, unknown>) =>
	call(sb, 'POST', '/api/v2/poa-checks/', { body });
const valid = (extra: Record<string, unknown> = {}) => ({
	file: FILES.pdf.toString('base64'),
	providedName: SEED.poa.name,
	providedAddress: SEED.poa.address,
	...extra,
});

describe('sandbox proof-of-address check', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s));

	test.each(Object.keys(FILES))('accepts a %s file detected from its bytes', async (type) => {
		const res = await check(sb, valid({ file: FILES[type].toString('base64') }));
		expect(res.status).toBe(201);
		expect(res.json.file).toBe(FILES[type].toString('base64'));
		expect(poaCheckSchema.safeParse(res.json).success).toBe(true);
	});

	test('answers 400 naming file for an unsupported type (a GIF) and for text that is not base64', async () => {
		const gif = await check(
			sb,
			valid({ file: Buffer.from('GIF89a\x01\x00\x01\x00').toString('base64') }),
		);
		expect(gif.status).toBe(400);
		expect(gif.json.message).toContain("Field 'file'");
		expect(gif.json.message).toMatch(/unsupported file type/);
		const text = await check(sb, valid({ file: 'this is not base64!' }));
		expect(text.status).toBe(400);
		expect(text.json.message).toMatch(/base64/);
	});

	test('matches the seeded identity whatever the case, accents, punctuation and spacing', async () => {
		const res = await check(
			sb,
			valid({
				providedName: '  JONAS   jonaitis ',
				providedAddress: 'gedimino PR 1 01103 vilnius lithuania',
			}),
		);
		expect(res.json).toMatchObject({ nameMatch: true, addressMatch: true, overallStatus: 'MATCH' });
		const accents = await check(
			sb,
			valid({
				providedName: 'Jónas Jonaitis',
				providedAddress: 'Gedimino pr. 1, 01103 Vilnius, Lithuania',
			}),
		);
		expect(accents.json.overallStatus).toBe('MATCH');
	});

	test('reports NO_MATCH with the flag of the field that differs, and echoes what was provided', async () => {
		const res = await check(
			sb,
			valid({ providedAddress: 'Gedimino pr. 2, 01103 Vilnius, Lithuania' }),
		);
		expect(res.status).toBe(201);
		expect(res.json).toMatchObject({
			nameMatch: true,
			addressMatch: false,
			overallStatus: 'NO_MATCH',
			name: SEED.poa.name,
			address: SEED.poa.address,
			providedName: SEED.poa.name,
			providedAddress: 'Gedimino pr. 2, 01103 Vilnius, Lithuania',
			documentType: 'UTILITY_BILL',
			country: 'LT',
			isScreenshot: false,
		});
		const other = await check(sb, valid({ providedName: 'Petras Petraitis' }));
		expect(other.json).toMatchObject({
			nameMatch: false,
			addressMatch: true,
			overallStatus: 'NO_MATCH',
		});
	});

	test.each([
		[{ providedName: 'x'.repeat(256) }, 'providedName'],
		[{ file: undefined }, 'file'],
	])('answers 400 naming the field for %j', async (extra, field) => {
		const res = await check(sb, valid(extra));
		expect(res.status).toBe(400);
		expect(res.json.message).toContain(`Field '${field}'`);
	});
});
