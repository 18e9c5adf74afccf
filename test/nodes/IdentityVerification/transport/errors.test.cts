/**
 * The transport's error rules as pure functions: which message a status, a network failure or a
 * service body leads to, what is quoted from the service, and that secrets are redacted. The engine
 * tests (transport.test.cts) show the same errors end to end; these pin every branch cheaply.
 */

import {
	classifyNetworkError,
	fieldErrors,
	httpError,
	networkError,
	parseErrorBody,
	prunedErrorBody,
	serviceMessage,
	unexpectedError,
} from '../../../../nodes/IdentityVerification/transport/errors';
import fc from 'fast-check';

import { base64Forms, makeRedactor } from '../../../../nodes/IdentityVerification/transport/errors';
import { ACTION_NODE as NODE } from '../../../harness/fixtures/action-node.cjs';

const SECRET = 'S3cr3t-Value';
const redact = makeRedactor([SECRET]);

describe('makeRedactor', () => {
	test('replaces every occurrence of every secret of 4 characters or more', () => {
		const r = makeRedactor(['abcd', 'xyz', '', 'SECRET']);
		expect(r('abcd-abcd SECRET xyz')).toBe('[redacted]-[redacted] [redacted] xyz');
	});

	test('a secret that contains another one (an API key inside the secret) is redacted whole', () => {
		const r = makeRedactor(['abcd', 'xxabcdyy']);
		expect(r('xxabcdyy and abcd')).toBe('[redacted] and [redacted]');
	});

	test('ignores values that are not strings', () => {
		const r = makeRedactor([undefined as unknown as string, 'abcd']);
		expect(r('abcd undefined')).toBe('[redacted] undefined');
	});

	test('a secret shorter than 4 characters is redacted where it is a whole value, nowhere else', () => {
		const r = makeRedactor(['pw']);
		expect(r('pw')).toBe('[redacted]');
		expect(r('a pw in a sentence')).toBe('a pw in a sentence');
	});
});

describe('makeRedactor: the Authorization header echoed', () => {
	const SECRET_CHARS = `S3c&r<e>t"'+ä /x=%\\9`;

	test('the Basic header of the key pair, as the credential passes it', () => {
		const basic = Buffer.from(`key-1:${SECRET_CHARS}`).toString('base64');
		const withBasic = makeRedactor(['key-1', SECRET_CHARS, basic]);
		expect(withBasic(`Basic ${basic}`)).toBe('Basic [redacted]');
		expect(withBasic.quote(`Rejected Authorization: Basic ${basic}`)).toBe(
			'Rejected Authorization: Basic [redacted]',
		);
	});
});

describe('makeRedactor: what the service wrote (quote)', () => {
	const r = makeRedactor([SECRET, 'pw1']);

	test('every secret is taken out of what the service wrote, ordinary words are not', () => {
		expect(r.quote(`Invalid secret ${SECRET} for key`)).toBe('Invalid secret [redacted] for key');
		expect(r.quote('The value is not valid')).toBe('The value is not valid');
	});

	test('a text holding a secret too short to take out safely is left out whole', () => {
		expect(r.quote('The password pw1 is not allowed')).toBeUndefined();
		expect(r.quote('Not found')).toBe('Not found');
		// the node's own words with the value put in are redacted as before
		expect(r('pw1')).toBe('[redacted]');
	});

	test('a secret and its base64 never survive in any surrounding text (generated)', () => {
		fc.assert(
			fc.property(
				fc.string({ minLength: 4, maxLength: 30 }),
				fc.array(fc.string({ maxLength: 20 }), { minLength: 2, maxLength: 4 }),
				fc.boolean(),
				(secret, around, encoded) => {
					const echo = encoded ? Buffer.from(secret).toString('base64') : secret;
					const text = around.join(echo);
					const r = makeRedactor([secret]);
					// what is left between the markers (a secret may end like the marker itself)
					for (const out of [r(text), r.quote(text) ?? '']) {
						for (const left of out.split('[redacted]')) {
							expect(left).not.toContain(secret);
							for (const form of base64Forms(secret)) {
								if (form.length >= 6) expect(left).not.toContain(form);
							}
						}
					}
				},
			),
			{ numRuns: 2000 },
		);
	});

	test('base64 of a secret inside other base64 is taken out, at every alignment (generated)', () => {
		fc.assert(
			fc.property(
				fc.string({ minLength: 4, maxLength: 40 }),
				fc.uint8Array({ maxLength: 20 }),
				fc.uint8Array({ maxLength: 20 }),
				fc.boolean(),
				(secret, before, after, urlSafe) => {
					const bytes = Buffer.concat([before, Buffer.from(secret), after]);
					let encoded = bytes.toString('base64');
					if (urlSafe) encoded = encoded.replace(/\+/g, '-').replace(/\//g, '_');
					const quoted = makeRedactor([secret]).quote(`token ${encoded}`) ?? '';
					// none of the secret's own base64 characters (those no neighbour byte touches) is left
					for (const form of base64Forms(secret)) {
						if (form.length >= 6) expect(quoted).not.toContain(form);
					}
				},
			),
			{ numRuns: 2000 },
		);
	});

	test('the base64 forms are what Buffer makes of the secret wherever it sits (generated)', () => {
		fc.assert(
			fc.property(
				fc.string({ minLength: 1, maxLength: 30 }),
				fc.uint8Array({ maxLength: 5 }),
				(secret, before) => {
					const encoded = Buffer.concat([before, Buffer.from(secret)]).toString('base64');
					const forms = base64Forms(secret);
					expect(
						forms.some(
							(form) =>
								encoded.includes(form) ||
								encoded.replace(/\+/g, '-').replace(/\//g, '_').includes(form),
						),
					).toBe(true);
				},
			),
			{ numRuns: 2000 },
		);
	});
});

describe('parseErrorBody', () => {
	test('parses JSON from text and from bytes', () => {
		expect(parseErrorBody('{"detail":"x"}')).toEqual({ detail: 'x' });
		expect(parseErrorBody(new Uint8Array(Buffer.from(' {"a":1} ')))).toEqual({ a: 1 });
	});

	test('blank text is no body; an object is kept as it is', () => {
		expect(parseErrorBody('   ')).toBeUndefined();
		const body = { detail: 'x' };
		expect(parseErrorBody(body)).toBe(body);
		expect(parseErrorBody(undefined)).toBeUndefined();
	});

	test('text that is not JSON is kept, cut to 300 characters with an ellipsis', () => {
		expect(parseErrorBody(' Bad gateway ')).toBe('Bad gateway');
		expect(parseErrorBody('x'.repeat(300))).toBe('x'.repeat(300));
		expect(parseErrorBody('y'.repeat(301))).toBe(`${'y'.repeat(300)}…`);
	});
});

// How much of an error answer is read at all (64 KB) is the transport's one bound, where it reads
// the answer (transport-options.test.cts, error-excerpt.test.cts).
describe('parseErrorBody of a long text', () => {
	test('a secret where the text is cut is redacted before the cut', () => {
		const text = `${'x'.repeat(295)}${SECRET} after`;
		expect(parseErrorBody(text, redact)).toBe(`${'x'.repeat(295)}[reda…`);
	});
});

describe('prunedErrorBody', () => {
	test('leaves out an echoed document under `file` at any depth, in objects and lists', () => {
		const doc = Buffer.alloc(600, 1).toString('base64');
		expect(
			prunedErrorBody(
				{ file: doc, a: { file: 'aGVsbG8=', b: [{ file: { content: doc } }, 'kept'] } },
				redact,
			),
		).toEqual({ a: { b: [{}, 'kept'] } });
	});

	test("keeps the service's rules about the `file` field (sentences, not data)", () => {
		expect(prunedErrorBody({ file: ['Upload a valid image.'] }, redact)).toEqual({
			file: ['Upload a valid image.'],
		});
		expect(prunedErrorBody({ file: 'This field is required.' }, redact)).toEqual({
			file: 'This field is required.',
		});
		expect(prunedErrorBody({ file: [] }, redact)).toEqual({});
		expect(prunedErrorBody({ file: [`${'w '.repeat(151)}`] }, redact)).toEqual({});
	});

	test('replaces a long text by its length and redacts the others, keys included', () => {
		expect(
			prunedErrorBody({ long: 'l'.repeat(1001), short: `s ${SECRET}`, [SECRET]: 1 }, redact),
		).toEqual({
			long: '[long text left out: 1001 characters]',
			short: 's [redacted]',
			'[redacted]': 1,
		});
		expect(prunedErrorBody('l'.repeat(1000), redact)).toBe('l'.repeat(1000));
	});

	test('keeps 100 entries of a list or an object, 8 levels deep', () => {
		const list = prunedErrorBody(
			Array.from({ length: 150 }, (_, i) => i),
			redact,
		) as number[];
		expect(list).toHaveLength(100);
		const object = prunedErrorBody(
			Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i])),
			redact,
		) as object;
		expect(Object.keys(object)).toHaveLength(100);
		const deep = JSON.parse(`${'{"a":'.repeat(10)}1${'}'.repeat(10)}`);
		expect(JSON.stringify(prunedErrorBody(deep, redact))).toBe(
			`${'{"a":'.repeat(8)}"[…]"${'}'.repeat(8)}`,
		);
		expect(JSON.stringify(prunedErrorBody([[[[[[[[[1]]]]]]]]], redact))).toBe(
			'[[[[[[[["[…]"]]]]]]]]',
		);
	});

	test('leaves numbers, booleans and null as they are', () => {
		expect(prunedErrorBody({ n: 1, b: true, z: null }, redact)).toEqual({ n: 1, b: true, z: null });
	});
});

describe('serviceMessage', () => {
	test('takes detail, message, error, error_description or title, in that order', () => {
		expect(serviceMessage({ title: 't', detail: ' d ', message: 'm' })).toBe('d');
		expect(serviceMessage({ title: 't', message: 'm' })).toBe('m');
		expect(serviceMessage({ title: 't', error: 'e' })).toBe('e');
		expect(serviceMessage({ title: 't', error_description: 'ed' })).toBe('ed');
		expect(serviceMessage({ title: 't' })).toBe('t');
	});

	test('skips blank values and reads a nested { message }', () => {
		expect(serviceMessage({ detail: '  ', message: 'm' })).toBe('m');
		expect(serviceMessage({ error: { message: 'nested' } })).toBe('nested');
		expect(serviceMessage({ error: { code: 1 } })).toBeUndefined();
		expect(serviceMessage({ error: { code: 1 }, title: 't' })).toBe('t');
	});

	test('quotes plain text but not an HTML page; nothing from other values', () => {
		expect(serviceMessage('Service unavailable')).toBe('Service unavailable');
		expect(serviceMessage('<html>502</html>')).toBeUndefined();
		expect(serviceMessage(['detail'])).toBeUndefined();
		expect(serviceMessage(null)).toBeUndefined();
		expect(serviceMessage(42)).toBeUndefined();
	});
});

describe('fieldErrors', () => {
	test('reads {"errors": {...}} with nested fields and lists', () => {
		expect(
			fieldErrors({
				errors: { lifetime: ['too big', 'not round'], address: { city: 'required' } },
			}),
		).toEqual(['lifetime: too big not round', 'address.city: required']);
	});

	test("reads DRF's top-level fields, leaving out detail/message/code/status/error", () => {
		expect(
			fieldErrors({
				detail: ['not a field'],
				message: ['no'],
				code: ['no'],
				status: ['no'],
				error: ['no'],
				country: ['unknown'],
				note: 'plain strings at the top are not field lists',
			}),
		).toEqual(['country: unknown']);
	});

	test('names entries of a list of objects by their index', () => {
		expect(
			fieldErrors({ errors: { owners: [{ name: ['required'] }, 'bad', { age: 'x' }] } }),
		).toEqual(['owners: bad', 'owners[0].name: required', 'owners[2].age: x']);
	});

	test('gives nothing for a body that is not an object', () => {
		expect(fieldErrors('oops')).toEqual([]);
		expect(fieldErrors(['a'])).toEqual([]);
		expect(fieldErrors({ errors: [] })).toEqual([]);
		expect(fieldErrors({ errors: ['not a field'] })).toEqual([]);
		expect(fieldErrors(null)).toEqual([]);
		expect(fieldErrors(undefined)).toEqual([]);
	});

	test('a list without text adds no empty entry; empty values add nothing', () => {
		expect(fieldErrors({ errors: { owners: [{ name: ['required'] }] } })).toEqual([
			'owners[0].name: required',
		]);
		expect(fieldErrors({ errors: { a: null, b: 5, c: [] } })).toEqual([]);
	});
});

describe('httpError', () => {
	const fail = (status: number, extra: Partial<Parameters<typeof httpError>[2]> = {}) =>
		httpError(NODE, redact, {
			status,
			body: { detail: 'Said.' },
			method: 'GET',
			// a POST that may have made something is not repeatable; the rest are
			repeatable: extra.method !== 'POST',
			attempts: 1,
			auth: 'apiKey',
			itemIndex: 2,
			...extra,
		});

	test('400 and 422 list the fields the service named, or say to check the values', () => {
		for (const status of [400, 422]) {
			const withFields = fail(status, { body: { errors: { lifetime: ['too big'] } } });
			expect(withFields.message).toBe(
				`The service rejected the request (HTTP ${status}): lifetime: too big`,
			);
			expect(withFields.description).toBe(
				'Fix these fields in the node and run again: lifetime: too big.',
			);
			// The service's standard error body names the field in its own words: they are the message.
			const said = fail(status);
			expect(said.message).toBe(`The service rejected the request (HTTP ${status}): Said.`);
			expect(said.description).toBe('Fix the value it names in the node and run again.');
			const provider = fail(status, {
				body: { identifier: 'BAD_VALUE', message: "Field 'country' must be a valid code." },
			});
			expect(provider.message).toBe(
				`The service rejected the request (HTTP ${status}): Field 'country' must be a valid code.`,
			);
			const without = fail(status, { body: {} });
			expect(without.message).toBe(`The service rejected the request (HTTP ${status})`);
			expect(without.description).toBe('Check the values entered in the node and run again.');
		}
	});

	test('401 names the credential by the name the user gave it, when there is one', () => {
		expect(fail(401, { credentialName: 'Production keys' }).description).toMatch(
			/Open the credential "Production keys" and paste/,
		);
		expect(fail(401, { credentialName: '  ' }).description).toMatch(
			/Open the credential "Identity Verification API" and paste/,
		);
	});

	test('401 and 403 speak of the credential that was used', () => {
		expect(fail(401).message).toMatch(/API key and API secret/);
		expect(fail(401).description).toMatch(/"Identity Verification API"/);
		expect(fail(401, { auth: 'kybFormToken' }).message).toMatch(/KYB form token/);
		expect(fail(401, { auth: 'kybFormToken' }).description).toMatch(
			/"Identity Verification KYB Form Token API"/,
		);
		expect(fail(403).description).toMatch(/recognised but is not allowed/);
		expect(fail(403, { auth: 'kybFormToken' }).description).toMatch(/only works for the form/);
		// A form token given in the Form Token field: no credential holds it, so none is named.
		const given = fail(401, { auth: 'formToken', credentialName: 'Production keys' });
		expect(given.message).toMatch(/token in the Form Token field/);
		expect(given.description).toMatch(/Run Create Session again/);
		expect(given.description).not.toMatch(/Production keys|credential/);
		expect(fail(403, { auth: 'formToken' }).description).toMatch(/check the Company ID/);
	});

	test('404, 429 and other 4xx', () => {
		expect(fail(404).message).toMatch(/^Not found \(HTTP 404\)/);
		expect(fail(429).message).toMatch(/after 1 attempt$/);
		expect(fail(429, { attempts: 4 }).message).toMatch(/after 4 attempts$/);
		expect(fail(418).message).toBe('The service rejected the request (HTTP 418)');
		expect(fail(418).description).toMatch(/Base URL of the credential/);
	});

	test('409: the service’s words, then advice about the state, not the Base URL; or the request’s own words', () => {
		const generic = fail(409, { body: { message: 'Already finished.' } });
		expect(generic.message).toBe('The service refused this step in the current state (HTTP 409)');
		expect(generic.description).toMatch(
			/^The service said: "Already finished\." .*Check its status/,
		);
		expect(generic.description).not.toMatch(/Base URL/);
		const own = fail(409, { statusWords: { 409: { message: 'Not yet', advice: 'Wait for it.' } } });
		expect([own.message, own.description]).toEqual([
			'Not yet',
			'The service said: "Said." Wait for it.',
		]);
	});

	test('5xx: a POST was sent once and not repeated; a GET names its attempts', () => {
		const post = fail(503, { method: 'POST', attempts: 1 });
		expect(post.message).toBe('The service had an internal problem (HTTP 503)');
		expect(post.description).toMatch(/not repeated/);
		const get = fail(500, { attempts: 4 });
		expect(get.message).toBe('The service had an internal problem (HTTP 500) on all 4 attempts');
		expect(get.description).toMatch(/on the service side/);
		expect(fail(599).message).toMatch(/HTTP 599/);
		expect(fail(499).message).toBe('The service rejected the request (HTTP 499)');
	});

	test('a field rule that ends a sentence gets no second full stop', () => {
		const error = fail(400, { body: { lifetime: ['Ensure this value is at most 2592000.'] } });
		expect(error.description).toBe(
			'Fix these fields in the node and run again: lifetime: Ensure this value is at most 2592000.',
		);
	});

	test.each([
		['Invalid username/password.', 'The service said: "Invalid username/password." Open'],
		['Slow down!', 'The service said: "Slow down!" Open'],
		['Who are you?', 'The service said: "Who are you?" Open'],
		['Invalid username/password', 'The service said: "Invalid username/password". Open'],
	])('quotes "%s" with one full stop at most', (words, start) => {
		expect(fail(401, { body: { detail: words } }).description?.startsWith(start)).toBe(true);
	});

	test('carries the status, the item and the redacted body; never the secret', () => {
		const error = fail(404, { body: { detail: `no such key ${SECRET}` } });
		expect(error.httpCode).toBe('404');
		expect(error.context.itemIndex).toBe(2);
		expect(error.context.data).toEqual({ detail: 'no such key [redacted]' });
		expect(error.description).toMatch(/^The service said: "no such key \[redacted\]"\. Check/);
		expect(JSON.stringify(error)).not.toContain(SECRET);
	});
});

describe('httpError of a large answer', () => {
	const fail = (body: unknown) =>
		httpError(NODE, redact, {
			status: 400,
			body,
			method: 'POST',
			repeatable: false,
			attempts: 1,
			auth: 'apiKey',
		});
	const stored = (error: ReturnType<typeof fail>) => JSON.stringify(error.context.data);

	test('keeps only the useful keys when the whole answer is over 4 KB', () => {
		const noise = Object.fromEntries(
			Array.from({ length: 20 }, (_, i) => [`n${i}`, 'v'.repeat(900)]),
		);
		const error = fail({ ...noise, detail: 'Too big.', code: 'invalid' });
		expect(error.context.data).toEqual({ detail: 'Too big.', code: 'invalid' });
	});

	test('keeps the start of the answer when even its useful keys are over 4 KB', () => {
		const errors = Object.fromEntries(
			Array.from({ length: 20 }, (_, i) => [`f${i}`, ['"'.repeat(900)]]),
		);
		const error = fail({ errors });
		expect(stored(error).length).toBeLessThanOrEqual(4096);
		expect(String((error.context.data as { excerpt: string }).excerpt)).toMatch(/^\{"errors":.*…$/);
	});

	test("quotes at most 500 characters of the service's words or of its field rules", () => {
		const said = fail({ detail: 'd'.repeat(900) });
		expect(said.message).toBe(`The service rejected the request (HTTP 400): ${'d'.repeat(500)}…`);
		const fields = fail({ errors: { a: ['r'.repeat(900)] } });
		expect(fields.message).toBe(
			`The service rejected the request (HTTP 400): a: ${'r'.repeat(497)}…`,
		);
	});
});

describe('classifyNetworkError', () => {
	test.each([
		['ECONNREFUSED', 'refused'],
		['EHOSTUNREACH', 'refused'],
		['ENETUNREACH', 'refused'],
		['ENETDOWN', 'refused'],
		['ENOTFOUND', 'dns'],
		['EAI_AGAIN', 'dns'],
		['ECONNABORTED', 'timeout'],
		['ETIMEDOUT', 'timeout'],
		['ECONNRESET', 'reset'],
		['EPIPE', 'reset'],
		['CERT_HAS_EXPIRED', 'tls'],
		['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
		['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
		['ERR_NETWORK', 'other'],
		['ERR_BAD_RESPONSE', 'other'],
	])('code %s is %s', (code, problem) => {
		expect(classifyNetworkError({ code })).toEqual({ problem, code });
	});

	test('reads the code where n8n 1.x keeps it: httpCode of the error it throws, without a cause', () => {
		const n8n1Error = {
			message: 'The connection to the server was closed unexpectedly',
			httpCode: 'ECONNRESET',
		};
		expect(classifyNetworkError(n8n1Error)).toEqual({ problem: 'reset', code: 'ECONNRESET' });
		expect(classifyNetworkError({ httpCode: 'ETIMEDOUT' })).toEqual({
			problem: 'timeout',
			code: 'ETIMEDOUT',
		});
		// An HTTP status in httpCode is an answer, not a network failure.
		expect(classifyNetworkError({ httpCode: '503' })).toBeUndefined();
	});

	test('reads axios-style messages without a code', () => {
		expect(classifyNetworkError(new Error('timeout of 30000ms exceeded'))).toEqual({
			problem: 'timeout',
			code: undefined,
		});
		expect(classifyNetworkError(new Error('socket hang up'))).toEqual({
			problem: 'reset',
			code: undefined,
		});
	});

	test('follows the cause chain, stops on a loop, and ignores unknown codes', () => {
		const inner = { code: 'ENOTFOUND' };
		expect(classifyNetworkError({ code: 'EOTHER', cause: { cause: inner } })).toEqual({
			problem: 'dns',
			code: 'ENOTFOUND',
		});
		const loop: Record<string, unknown> = { code: 'EOTHER' };
		loop.cause = loop;
		expect(classifyNetworkError(loop)).toBeUndefined();
		expect(classifyNetworkError(new Error('plain'))).toBeUndefined();
		expect(classifyNetworkError('ECONNREFUSED')).toBeUndefined();
		expect(classifyNetworkError({ code: 42 })).toBeUndefined();
	});
});

describe('networkError', () => {
	const fail = (
		problem: Parameters<typeof networkError>[2]['problem'],
		extra: Partial<Parameters<typeof networkError>[2]> = {},
	) =>
		networkError(NODE, redact, {
			problem,
			origin: 'https://ivs.example.com',
			method: 'GET',
			repeatable: extra.method !== 'POST',
			attempts: 1,
			timeoutMs: 30_000,
			itemIndex: 0,
			...extra,
		});

	test('names the problem, the address and the attempts', () => {
		expect(fail('refused').message).toBe(
			'Could not connect to the service at https://ivs.example.com',
		);
		expect(fail('refused', { attempts: 4 }).message).toBe(
			'Could not connect to the service at https://ivs.example.com after 4 attempts',
		);
		expect(fail('dns').message).toMatch(/could not be found \(https:\/\/ivs\.example\.com\)$/);
		expect(fail('reset').message).toMatch(/closed before it answered$/);
		expect(fail('tls').message).toMatch(/secure connection to https:\/\/ivs\.example\.com/);
		expect(fail('other').message).toMatch(/failed without an answer$/);
		expect(fail('refused').httpCode).toBeNull();
	});

	test('says how long it waited', () => {
		expect(fail('timeout', { timeoutMs: 999 }).message).toBe(
			'The service did not answer within 999 ms',
		);
		expect(fail('timeout', { timeoutMs: 1000 }).message).toMatch(/within 1 second$/);
		expect(fail('timeout', { timeoutMs: 1500 }).message).toMatch(/within 1\.5 seconds$/);
		expect(fail('timeout', { timeoutMs: 30_000 }).message).toMatch(/within 30 seconds$/);
	});

	test('a POST that may have been processed is said not to be repeated', () => {
		for (const problem of ['timeout', 'reset', 'other'] as const) {
			expect(fail(problem, { method: 'POST' }).description).toMatch(/not repeated/);
			expect(fail(problem).description).not.toMatch(/not repeated/);
		}
		expect(fail('refused', { method: 'POST' }).description).not.toMatch(/not repeated/);
		expect(fail('dns', { method: 'POST' }).description).not.toMatch(/not repeated/);
	});

	test('adds the network code when there is one', () => {
		expect(fail('refused', { code: 'ECONNREFUSED' }).description).toMatch(
			/ \(network code: ECONNREFUSED\)$/,
		);
		expect(fail('refused').description).not.toMatch(/network code/);
	});
});

describe('unexpectedError', () => {
	test('keeps only the redacted message of what was thrown', () => {
		const error = unexpectedError(NODE, redact, new Error(`bad header ${SECRET}`), 3);
		expect(error.message).toBe(
			'The request to the service could not be sent: bad header [redacted]',
		);
		expect(error.context.itemIndex).toBe(3);
		expect(unexpectedError(NODE, redact, 'text').message).toMatch(/could not be sent: text$/);
	});

	test('cuts a long message after redacting it', () => {
		const error = unexpectedError(NODE, redact, new Error(`${'m'.repeat(495)}${SECRET}`));
		expect(error.message).toBe(
			`The request to the service could not be sent: ${'m'.repeat(495)}[reda…`,
		);
	});
});
