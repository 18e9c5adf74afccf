/**
 * The signing key credential test (credentialTest.ts) on inputs the editor form cannot produce but
 * a credential saved through the API or an older version can: no data at all, a key that is not text.
 */
import { checkSigningKey } from '../../../nodes/shared/webhook/credentialTest';

const ENTER_KEY =
	'Enter the signing key: the service signs each webhook delivery with it, and deliveries cannot be verified without it';

describe('checkSigningKey', () => {
	test('a credential without data asks for the key instead of throwing', () => {
		expect(checkSigningKey(undefined)).toEqual({ status: 'Error', message: ENTER_KEY });
	});

	test.each([
		['a number', 42],
		['an object', { key: 'x' }],
		['true', true],
	])('a key that is %s is not a key: the test asks for one', (_what, signingSecret) => {
		expect(checkSigningKey({ signingSecret })).toEqual({ status: 'Error', message: ENTER_KEY });
	});
});

describe('the header prefix', () => {
	test.each([['Service'], ['Idenfy'], [' idenfy- '], ['']])(
		'%j is usable (empty: the default)',
		(headerPrefix) => {
			expect(checkSigningKey({ signingSecret: 'k', headerPrefix }).status).toBe('OK');
		},
	);

	test('the test names the signature header the prefix gives', () => {
		expect(checkSigningKey({ signingSecret: 'k', headerPrefix: 'Idenfy' }).message).toContain(
			'Idenfy-Signature header',
		);
		expect(checkSigningKey({ signingSecret: 'k' }).message).toContain('Service-Signature header');
	});

	test.each([['Idenfy Signature'], ['X-Idenfy:'], ['-Service'], ['Ïdenfy']])(
		'%j is refused: a header name holds letters, digits, "-" and "_"',
		(headerPrefix) => {
			expect(checkSigningKey({ signingSecret: 'k', headerPrefix })).toEqual({
				status: 'Error',
				message: expect.stringContaining('The header prefix can hold only letters, digits'),
			});
		},
	);
});
