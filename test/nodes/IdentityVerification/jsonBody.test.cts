/** The POA request body builders give exactly the JSON that JSON.stringify would, for any file size. */
import { randomBytes } from 'node:crypto';
import {
	isPlainBase64,
	jsonBodyWithBase64File,
	jsonBodyWithBase64Text,
	leadingBytes,
} from '../../../nodes/IdentityVerification/helpers/jsonBody';

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
