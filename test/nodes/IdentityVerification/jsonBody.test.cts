/** The POA request body builder gives exactly the JSON that JSON.stringify would, for any file size. */
import { randomBytes } from 'node:crypto';
import { jsonBodyWithBase64File } from '../../../nodes/IdentityVerification/helpers/jsonBody';

describe('jsonBodyWithBase64File', () => {
	it.each([0, 1, 2, 3, 4, 786431, 786432, 786433, 2 * 786432 + 2])('matches JSON.stringify for a %s-byte file', (size) => {
		const file = randomBytes(size);
		const fields = { providedName: 'Jonas "JJ" Jonaitis', providedAddress: 'Gedimino pr. 1\nVilnius ą' };
		const body = jsonBodyWithBase64File(fields, 'file', file);
		const expected = JSON.stringify({ ...fields, file: file.toString('base64') });
		expect(body.toString('utf8')).toBe(expected);
		expect(JSON.parse(body.toString('utf8')).file).toBe(file.toString('base64'));
	});
});
