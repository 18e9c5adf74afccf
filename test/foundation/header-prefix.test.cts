/**
 * The Webhook Signing credential's Header Prefix as typed (cleanHeaderPrefix): trailing dashes and
 * spaces tolerated, then letters, digits, "-" and "_". Anyone with access to the credential can
 * type any text, so a long one must be decided in one pass: each long run below made the earlier
 * pattern (`/-+$/`) retry every dash of the run, seconds for 100,000 dashes.
 */
import fc from 'fast-check';

import { cleanHeaderPrefix } from '../../nodes/shared/contract';
import { checkSigningKey } from '../../nodes/shared/webhook/credentialTest';

/** The rule as it was written before, the reference for what is accepted. */
function cleanedBefore(prefix: unknown): string | undefined {
	const cleaned = typeof prefix === 'string' ? prefix.trim().replace(/-+$/, '') : '';
	return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(cleaned) ? cleaned : undefined;
}

const DASHES = '-'.repeat(100_000);

describe('a long Header Prefix is decided', () => {
	test.each([
		['only dashes', DASHES, undefined],
		['dashes, then a letter', `${DASHES}x`, undefined],
		['dashes, then a space and a letter', `${DASHES} x`, undefined],
		['a word, then dashes', `Idenfy${DASHES}`, 'Idenfy'],
		['a word, dashes, then spaces', `Idenfy${DASHES}   `, 'Idenfy'],
		['dashes inside a word', `a${DASHES}b`, `a${DASHES}b`],
		['dashes inside, then a character not allowed', `a${DASHES}!`, undefined],
		['dashes inside, then a dot and dashes', `a${DASHES}.${DASHES}`, undefined],
	])('%s', (_what, prefix, expected) => {
		expect(cleanHeaderPrefix(prefix)).toBe(expected);
	});

	// One after another, as credential tests and deliveries come: each is decided at once (before,
	// each took seconds, and the eight outlasted the test's time limit).
	test('the credential test decides each of many long prefixes', async () => {
		for (let n = 0; n < 8; n++) {
			const result = checkSigningKey({ signingSecret: 'k', headerPrefix: `${DASHES}${n}` });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/header prefix can hold only letters/);
			await new Promise((resolve) => setImmediate(resolve));
		}
	});
});

describe('what is accepted is unchanged', () => {
	const unit = fc.constantFrom(
		...['-', '-', '-', '_', 'a', 'Z', '0', '9', ' ', '\t', '\n', '\u00a0', '\ufeff', '.', 'é'],
	);

	test('on short texts', () => {
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 24 }), (prefix) => {
				expect(cleanHeaderPrefix(prefix)).toBe(cleanedBefore(prefix));
			}),
			{ numRuns: 5_000 },
		);
	});

	test('on values that are not text', () => {
		fc.assert(
			fc.property(fc.anything(), (prefix) => {
				expect(cleanHeaderPrefix(prefix)).toBe(cleanedBefore(prefix));
			}),
		);
	});
});
