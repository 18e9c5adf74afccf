/**
 * The signing key credential test (credentialTest.ts) on inputs the editor form cannot produce but
 * a credential saved through the API or an older version can: no data at all, a key that is not text.
 */
import type { IDataObject } from 'n8n-workflow';

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

describe('a passed test says what it checked and what only a delivery shows', () => {
	test('it names what it checked, what it did not, and what proves the key', () => {
		const { status, message } = checkSigningKey({ signingSecret: 'whsec_any_key' });
		expect(status).toBe('OK');
		expect(message).toMatch(/^Checked: a signing key is entered, on one line without spaces/);
		expect(message).toContain(
			'Not checked: that it is the key the service signs with (the service cannot check it, and the key is never sent anywhere).',
		);
		expect(message).toContain(
			'Only a delivery shows that: a wrong key is refused (401), and while the workflow listens for a test event the editor shows why.',
		);
		expect(message).not.toContain('whsec_any_key');
	});
});

describe('the header prefix', () => {
	test.each([['Service'], ['Idenfy'], [' idenfy- '], ['']])(
		'%j is usable (empty: the default)',
		(headerPrefix) => {
			expect(checkSigningKey({ signingSecret: 'k', headerPrefix }).status).toBe('OK');
		},
	);

	test('the test names the signature headers deliveries are read under: both by default, the one a prefix names', () => {
		expect(checkSigningKey({ signingSecret: 'k', headerPrefix: 'Idenfy' }).message).toContain(
			'deliveries are read under Idenfy-Signature.',
		);
		for (const data of [{}, { headerPrefix: '' }, { headerPrefix: 'Service' }] as IDataObject[]) {
			expect(checkSigningKey({ signingSecret: 'k', ...data }).message).toContain(
				'deliveries are read under Service-Signature or Idenfy-Signature.',
			);
		}
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
