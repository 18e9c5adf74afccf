/**
 * The streaming base64 decoder (transport/base64.ts) against Node's own `Buffer.from(text,
 * 'base64')` of the whole text: the same bytes for any text split at any chunk boundary, and for
 * any split into many pieces: generated base64 of random bytes with line breaks, spaces and missing
 * padding, and any text of the characters a body may hold (other characters, `=` in the middle).
 */
import fc from 'fast-check';

import { base64Decoder } from '../../nodes/IdentityVerification/transport/download';

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
