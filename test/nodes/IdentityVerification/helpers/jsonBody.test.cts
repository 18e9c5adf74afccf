/**
 * The POA request body builders give exactly the JSON that JSON.stringify would, for any file size,
 * and pass only plain base64 text through.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
	isPlainBase64,
	FileSizeChangedError,
	jsonBodyLength,
	jsonBodyWithBase64File,
	jsonBodyWithBase64Text,
	jsonPiecesWithBase64,
	leadingBytes,
} from '../../../../nodes/IdentityVerification/helpers/jsonBody';

const fields = {
	providedName: 'Jonas "JJ" Jonaitis',
	providedAddress: 'Gedimino pr. 1\nVilnius ą',
};

describe('POA JSON body', () => {
	test.each([0, 1, 2, 3, 4, 49151, 49152, 49153, 3 * 49152 + 2])(
		'matches JSON.stringify for a %s-byte file',
		(size) => {
			const file = randomBytes(size);
			const expected = JSON.stringify({ ...fields, file: file.toString('base64') });
			expect(jsonBodyWithBase64File(fields, 'file', file).toString('utf8')).toBe(expected);
			expect(jsonBodyWithBase64Text(fields, 'file', file.toString('base64')).toString('utf8')).toBe(
				expected,
			);
		},
	);

	test.each([
		[[], 0],
		[[1], 1],
		[[2, 2], 4],
		[[1, 1, 1, 1, 1], 5],
		[[49152, 49152, 7], 98311],
		[[5, 200_000, 1, 2], 200_008],
	])(
		'matches JSON.stringify, sent in pieces, for a file read in chunks of %j bytes',
		async (sizes, total) => {
			const file = randomBytes(total);
			const chunks: Buffer[] = [];
			let at = 0;
			for (const size of sizes) chunks.push(file.subarray(at, (at += size)));
			const pieces: Array<string | Buffer> = [];
			for await (const piece of jsonPiecesWithBase64(fields, 'file', toAsync(chunks), total))
				pieces.push(piece);
			const body = Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
			expect(body.toString('utf8')).toBe(
				JSON.stringify({ ...fields, file: file.toString('base64') }),
			);
			expect(body.length).toBe(jsonBodyLength(fields, 'file', total));
			// No piece is a long string: each stays short-lived garbage.
			for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(65536);
		},
	);

	test('matches JSON.stringify for any text fields, an undefined one left out as it leaves it out', async () => {
		// An expression that finds no value gives undefined: it was written as `"providedName":undefined`.
		const key = fc.string().filter((k) => k !== 'file' && k !== '__proto__');
		const value = fc.option(fc.string({ unit: 'binary' }), { nil: undefined });
		await fc.assert(
			fc.asyncProperty(
				fc.dictionary(key, value),
				fc.uint8Array({ maxLength: 64 }),
				async (given, file) => {
					const expected = JSON.stringify({ ...given, file: Buffer.from(file).toString('base64') });
					expect(jsonBodyWithBase64File(given, 'file', file).toString('utf8')).toBe(expected);
					const base64 = Buffer.from(file).toString('base64');
					expect(jsonBodyWithBase64Text(given, 'file', base64).toString('utf8')).toBe(expected);
					const pieces: Buffer[] = [];
					for await (const piece of jsonPiecesWithBase64(
						given,
						'file',
						toAsync([Buffer.from(file)]),
						file.length,
					))
						pieces.push(Buffer.from(piece));
					expect(Buffer.concat(pieces).toString('utf8')).toBe(expected);
					expect(jsonBodyLength(given, 'file', file.length)).toBe(Buffer.byteLength(expected));
				},
			),
		);
	});

	test.each([
		['more', 9],
		['fewer', 11],
	])('stops when the chunks hold %s bytes than stated', async (_, stated) => {
		const pieces = jsonPiecesWithBase64(
			fields,
			'file',
			toAsync([randomBytes(4), randomBytes(6)]),
			stated,
		);
		await expect(
			(async () => {
				for await (const _piece of pieces);
			})(),
		).rejects.toThrow(FileSizeChangedError);
	});

	test('only passes plain base64 through as text', () => {
		expect(isPlainBase64(randomBytes(301).toString('base64'))).toBe(true);
		expect(isPlainBase64('')).toBe(true);
		expect(isPlainBase64('QUJD\r\nREVG')).toBe(false);
		expect(isPlainBase64('QUJ"')).toBe(false);
		expect(isPlainBase64('QUJDRA')).toBe(false);
	});

	test('reads the leading bytes of base64 text', () => {
		const file = randomBytes(1000);
		expect(leadingBytes(file.toString('base64'))).toEqual(file.subarray(0, 258));
	});
});

describe('base64 request bodies, edge by edge', () => {
	test.each([['AAAA'], ['AA=='], ['AAA='], ['']])('%j is plain base64', (text) => {
		expect(isPlainBase64(text)).toBe(true);
	});

	test.each([['!!!!AAAA'], ['AAAA!!!!'], ['AAA'], ['AA-_'], ['A==='], ['AAAA\n']])(
		'%j is not plain base64',
		(text) => {
			expect(isPlainBase64(text)).toBe(false);
		},
	);

	test('a file of any size is one exactly sized JSON body, whichever way it is given', () => {
		for (const size of [0, 1, 2, 3, 49_151, 49_152, 49_153, 200_000]) {
			const file = Buffer.from(Array.from({ length: size }, (_, i) => (i * 31) % 256));
			const body = jsonBodyWithBase64File({ kind: 'é"x' }, 'file', file);
			expect(JSON.parse(body.toString('utf8'))).toEqual({
				kind: 'é"x',
				file: file.toString('base64'),
			});
			// Allocated once at the final size: nothing to trim, no spare bytes behind it.
			if (size >= 49_152) expect(body.buffer.byteLength).toBe(body.length);
			const fromView = jsonBodyWithBase64File({}, 'file', new Uint8Array(file));
			expect(JSON.parse(fromView.toString('utf8')).file).toBe(file.toString('base64'));
			const fromText = jsonBodyWithBase64Text({ kind: 'é"x' }, 'file', file.toString('base64'));
			expect(fromText.equals(body)).toBe(true);
		}
	});
});

async function* toAsync(chunks: Buffer[]): AsyncGenerator<Buffer> {
	for (const chunk of chunks) yield chunk;
}
