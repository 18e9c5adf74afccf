/**
 * File type detection from the first bytes (never the name): every type the node names in its
 * messages, which ones the proof-of-address check accepts, and the edges (short files, ISO-BMFF
 * brands and box sizes, text versus binary).
 */
import { detectFileType } from '../../../../nodes/IdentityVerification/transport/download';
import fc from 'fast-check';
import { base64Decoder } from '../../../../nodes/IdentityVerification/transport/download';

const bytes = (...parts: Array<string | number[]>) =>
	Buffer.concat(
		parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
	);

/** An ISO-BMFF `ftyp` box: size, 'ftyp', major brand, minor version, compatible brands. */
function ftyp(major: string, compatible: string[] = [], size?: number): Buffer {
	const boxSize = size ?? 16 + compatible.length * 4;
	const head = Buffer.alloc(4);
	head.writeUInt32BE(boxSize >>> 0, 0);
	return Buffer.concat([
		head,
		Buffer.from(`ftyp${major}`, 'latin1'),
		Buffer.alloc(4),
		...compatible.map((b) => Buffer.from(b, 'latin1')),
		Buffer.alloc(16, 0x01),
	]);
}

describe('detectFileType', () => {
	test.each([
		['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
		['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'image/png'],
		['webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '), 'image/webp'],
		['pdf', bytes('%PDF-1.7\n'), 'application/pdf'],
		['heic', ftyp('heic'), 'image/heic'],
		['heif', ftyp('mif1'), 'image/heif'],
	])('%s is accepted, with its mime type', (type, file, mimeType) => {
		expect(detectFileType(file)).toEqual(
			expect.objectContaining({ type, accepted: type, mimeType }),
		);
	});

	test.each([
		['empty', Buffer.alloc(0)],
		['gif', bytes('GIF89a', [0, 0])],
		['gif', bytes('GIF87a')],
		['bmp', bytes('BM', [0, 0, 0, 0])],
		['tiff', bytes([0x49, 0x49, 0x2a, 0x00])],
		['tiff', bytes([0x4d, 0x4d, 0x00, 0x2a])],
		['zip', bytes([0x50, 0x4b, 0x03, 0x04])],
		['zip', bytes([0x50, 0x4b, 0x05, 0x06])],
		['ole', bytes([0xd0, 0xcf, 0x11, 0xe0])],
		['gzip', bytes([0x1f, 0x8b, 0x08])],
		['rar', bytes('Rar!')],
		['7z', bytes([0x37, 0x7a, 0xbc, 0xaf])],
		['xml', bytes('<svg xmlns="">')],
		['xml', bytes('<?xml version="1.0"?>')],
		['avif', ftyp('avif')],
		['avif', ftyp('avis')],
		['iso-bmff', ftyp('crx ')],
		['text', bytes('Electricity bill\r\n\tJonas\x1b[0m\x0b\x0c')],
		['unknown', bytes([0x00, 0x01, 0x02])],
		['unknown', bytes('text then a control byte \x08')],
		['unknown', bytes('text then \x1f')],
	])('%s is named but not accepted', (type, file) => {
		const detected = detectFileType(file);
		expect(detected.type).toBe(type);
		expect(detected.accepted).toBeUndefined();
		expect(detected.mimeType).toBeUndefined();
		expect(detected.name.length).toBeGreaterThan(0);
	});

	test.each([
		[ftyp('isom'), 'video/mp4'],
		[ftyp('mp42'), 'video/mp4'],
		[ftyp('qt  '), 'video/quicktime'],
	])(
		'a video is named, with its type for a download, but not accepted for a check',
		(file, mimeType) => {
			const detected = detectFileType(file);
			expect(detected).toMatchObject({ type: 'video', mimeType });
			expect(detected.accepted).toBeUndefined();
		},
	);

	test('names the brand of an unknown ISO media file', () => {
		expect(detectFileType(ftyp('crx ')).name).toBe('ISO media file (brand "crx")');
		expect(detectFileType(ftyp('mp42')).name).toBe('video or audio file (MP4 brand "mp42")');
	});

	test.each([
		...['heic', 'heix', 'hevc', 'hevx', 'hevm', 'hevs'].map((brand) => [brand, 'heic']),
		...['heim', 'heis', 'mif1', 'msf1', 'mif2', 'heif'].map((brand) => [brand, 'heif']),
		...['qt  ', 'M4V ', 'M4A ', 'isom', 'mp41', 'mp42', 'iso2', 'dash'].map((brand) => [
			brand,
			'video',
		]),
	])('the brand %s is %s', (brand, type) => {
		expect(detectFileType(ftyp(brand)).type).toBe(type);
		expect(detectFileType(ftyp('crx ', [brand])).type).toBe(type === 'video' ? 'iso-bmff' : type);
	});

	test('reads all four bytes of the box size and a box of exactly 12 bytes', () => {
		// 0x00010010 and 0x00000110 are large boxes: the brand at offset 16 is inside them.
		expect(detectFileType(ftyp('isom', ['heic'], 0x00010010)).type).toBe('heic');
		expect(detectFileType(ftyp('isom', ['heic'], 0x00000110)).type).toBe('heic');
		expect(detectFileType(ftyp('heic').subarray(0, 12)).type).toBe('heic');
		expect(detectFileType(bytes('GIF87a', [1, 1])).type).toBe('gif');
	});

	test('finds HEIC/HEIF among the compatible brands, HEIC first', () => {
		expect(detectFileType(ftyp('isom', ['mif1', 'heic'])).type).toBe('heic');
		expect(detectFileType(ftyp('isom', ['msf1'])).type).toBe('heif');
		expect(detectFileType(ftyp('mif1', ['heix'])).type).toBe('heic');
	});

	test('reads compatible brands only inside the box (at least 16 bytes, at most 256)', () => {
		// Box of 16 bytes: the brand after it belongs to the next box.
		expect(detectFileType(ftyp('isom', ['heic'], 16)).type).toBe('video');
		// A box size below 16 still reads the major brand.
		expect(detectFileType(ftyp('heic', [], 8)).type).toBe('heic');
		// A box size beyond the file reads to the end of the file.
		expect(detectFileType(ftyp('isom', ['mif1'], 0xffffffff)).type).toBe('heif');
		// Brands past 256 bytes are not read.
		const far = ftyp('isom', [...Array(60).fill('free'), 'heic']);
		expect(detectFileType(far).type).toBe('video');
		const near = ftyp('isom', [...Array(58).fill('free'), 'heic']);
		expect(detectFileType(near).type).toBe('heic');
	});

	test('needs the whole signature: short or partial files are not mistaken', () => {
		// (high bytes alone read as text: UTF-8 letters)
		expect(detectFileType(bytes([0xff, 0xd8])).type).toBe('text');
		expect(detectFileType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a])).type).toBe('unknown');
		expect(detectFileType(bytes('RIFF', [1, 1, 1, 1], 'WAVE')).type).toBe('unknown');
		expect(detectFileType(bytes('RIFX', [1, 1, 1, 1], 'WEBP')).type).toBe('unknown');
		expect(detectFileType(bytes('%PDF')).type).toBe('text');
		expect(detectFileType(bytes([0, 0, 0, 0], 'ftyp')).type).toBe('unknown');
	});

	test('judges text from the first 1024 bytes only', () => {
		const text = Buffer.concat([Buffer.alloc(1024, 0x41), Buffer.from([0x00])]);
		expect(detectFileType(text).type).toBe('text');
		const binary = Buffer.concat([Buffer.alloc(1023, 0x41), Buffer.from([0x00])]);
		expect(detectFileType(binary).type).toBe('unknown');
	});
});

/** What the decoder gives for `text` arriving in these pieces (its bytes, as latin1). */
function decoded(pieces: string[]): Buffer {
	const decoder = base64Decoder();
	const parts = pieces.map((piece) => decoder.push(Buffer.from(piece, 'latin1')));
	return Buffer.concat([...parts, decoder.end()]);
}

/** The text cut at each of `cuts` (positions, in any order). */
function cutAt(text: string, cuts: number[]): string[] {
	const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
	return [0, ...at].map((start, i) => text.slice(start, at[i] ?? text.length));
}

/** Base64 of random bytes as services write it: whole, in lines, with spaces, without padding. */
const encodedText = fc
	.tuple(
		fc.uint8Array({ maxLength: 300 }),
		fc.constantFrom('', '\n', '\r\n', ' ', '\t'),
		fc.integer({ min: 1, max: 80 }),
		fc.boolean(),
		fc.boolean(),
	)
	.map(([bytes, separator, lineLength, unpadded, urlSafe]) => {
		let text = Buffer.from(bytes).toString(urlSafe ? 'base64url' : 'base64');
		if (unpadded) text = text.replace(/=+$/, '');
		const lines = text.match(new RegExp(`.{1,${lineLength}}`, 'g')) ?? [];
		return lines.join(separator) + separator;
	});

/** Any text of base64 characters, padding, white space and other characters a body may carry. */
const anyText = fc
	.array(fc.constantFrom(...'AZaz09+/-_=\n\r\t "*.%{}\\é'.split('')), { maxLength: 120 })
	.map((chars) => chars.join(''));

describe('base64Decoder, against Buffer.from(text, "base64") of the whole text', () => {
	test.each([
		['an empty text', ''],
		['one group', 'QUJD'],
		['padding', 'QUJDRA=='],
		['lines', 'QUJD\nRA==\n'],
		['a partial last group', 'QUJDR'],
		['text after the padding', 'QQ==QUJD'],
		['a %PDF- header', Buffer.from('%PDF-1.4\n%âãÏÓ\n').toString('base64')],
	])('%s, split at every boundary', (_name, text) => {
		const whole = Buffer.from(text, 'base64');
		expect(decoded([text])).toEqual(whole);
		for (let at = 0; at <= text.length; at++)
			expect(decoded([text.slice(0, at), text.slice(at)])).toEqual(whole);
	});

	test('generated base64 of random bytes, split at every boundary, decodes to those bytes', () => {
		fc.assert(
			fc.property(encodedText, (text) => {
				const whole = Buffer.from(text, 'base64');
				for (let at = 0; at <= text.length; at++)
					expect(decoded([text.slice(0, at), text.slice(at)])).toEqual(whole);
			}),
			{ numRuns: 300 },
		);
	});

	test('any text, split into many pieces anywhere, gives what Node gives for the whole', () => {
		fc.assert(
			fc.property(anyText, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
				expect(decoded(cutAt(text, cuts))).toEqual(Buffer.from(text, 'base64'));
			}),
			{ numRuns: 2000 },
		);
	});

	test('a piece after the padding gives nothing more', () => {
		const decoder = base64Decoder();
		expect(decoder.push(Buffer.from('QUJDRA=='))).toEqual(Buffer.from('ABC'));
		expect(decoder.push(Buffer.from('QUJD'))).toEqual(Buffer.alloc(0));
		expect(decoder.end()).toEqual(Buffer.from('D'));
	});
});
