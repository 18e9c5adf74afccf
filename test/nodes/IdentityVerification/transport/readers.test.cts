/**
 * Every reader of JSON from the network against JSON.parse of the whole text: the page reader of
 * List Transactions (streamed and whole), the Proof of Address answer reader (everything but the
 * echoed `file` it skips), the transport's reader of whole bodies and the webhook delivery's. The
 * texts are written as real servers write them (raw UTF-8, `\u` escapes of Python, PHP, Go and
 * .NET, pretty-printed with CRLF) and streamed in chunks cut anywhere, one byte at a time too:
 * inside UTF-8 sequences and `\u` escapes.
 */
import fc from 'fast-check';
import type { IWebhookFunctions } from 'n8n-workflow';

import { readPage } from '../../../../nodes/IdentityVerification/transport/jsonStream';
import { withoutEcho } from '../../../../nodes/IdentityVerification/transport/jsonStream';
import { readJsonBody } from '../../../../nodes/IdentityVerification/transport/limits';
import {
	JsonTooDeepError,
	MAX_JSON_DEPTH,
	nestedDeeperThan,
} from '../../../../nodes/shared/jsonDepth';
import { receiveDelivery } from '../../../../nodes/shared/webhook/delivery';

/** A JSON value as written: a number keeps its text (`-0`, `1E+400`, 30 digits). */
type Json =
	| { kind: 'number'; text: string }
	| { kind: 'literal'; text: 'true' | 'false' | 'null' }
	| { kind: 'string'; value: string }
	| { kind: 'array'; items: Json[] }
	| { kind: 'object'; members: Array<[string, Json]> };

/** How a server writes strings, and the space it puts between tokens. */
interface Style {
	string: (text: string) => string;
	comma: string;
	colon: string;
	/** Pretty-printed: the indentation of one level and the line break (none: on one line). */
	indent?: string;
	newline?: string;
}

const escape = (unit: string, upper = false) => {
	const hex = unit.charCodeAt(0).toString(16).padStart(4, '0');
	return `\\u${upper ? hex.toUpperCase() : hex}`;
};

/** JSON.stringify: raw UTF-8; control characters and lone surrogates escaped. */
const raw = (text: string) => JSON.stringify(text);
/** Python's json.dumps (ensure_ascii): every code unit outside printable ASCII as `\u` + hex. */
const asciiOnly = (text: string) => raw(text).replace(/[^\x20-\x7e]/g, (unit) => escape(unit));

const STYLES: Record<string, Style> = {
	'JSON.stringify': { string: raw, comma: ',', colon: ':' },
	'Python json.dumps': { string: asciiOnly, comma: ', ', colon: ': ' },
	// PHP's json_encode: Python's escapes, and `/` as `\/`.
	'PHP json_encode': {
		string: (text) => asciiOnly(text).replace(/\//g, '\\/'),
		comma: ',',
		colon: ':',
	},
	// Go's encoding/json: raw UTF-8 but for HTML's special characters and the line separators.
	'Go encoding/json': {
		string: (text) => raw(text).replace(/[<>&\u2028\u2029]/g, (unit) => escape(unit)),
		comma: ',',
		colon: ':',
	},
	// .NET's System.Text.Json: everything outside ASCII and more, upper-case hex.
	'.NET System.Text.Json': {
		string: (text) => raw(text).replace(/[^\x20-\x7e]|[<>&'+`]/g, (unit) => escape(unit, true)),
		comma: ',',
		colon: ':',
	},
	'every character escaped': {
		string: (text) =>
			`"${Array.from({ length: text.length }, (_, i) => escape(text[i])).join('')}"`,
		comma: ',',
		colon: ':',
	},
};

function write(value: Json, style: Style, level = 0): string {
	switch (value.kind) {
		case 'number':
		case 'literal':
			return value.text;
		case 'string':
			return style.string(value.value);
		case 'array':
			return container(
				'[]',
				value.items.map((item) => write(item, style, level + 1)),
				style,
				level,
			);
		case 'object':
			return container(
				'{}',
				value.members.map(
					([key, member]) => `${style.string(key)}${style.colon}${write(member, style, level + 1)}`,
				),
				style,
				level,
			);
	}
}

function container(brackets: string, parts: string[], style: Style, level: number): string {
	if (parts.length === 0) return brackets;
	if (!style.indent || !style.newline) return brackets[0] + parts.join(style.comma) + brackets[1];
	const line = (depth: number) => style.newline + (style.indent ?? '').repeat(depth);
	return (
		brackets[0] + line(level + 1) + parts.join(`,${line(level + 1)}`) + line(level) + brackets[1]
	);
}

// ---- What is generated ----

/** Characters servers send, and the ones their writers treat specially. */
const NOTABLE = [
	...'"\\/\b\f\n\r\t\u0000\u001f\u007f<>&\'+`',
	...'\u2028\u2029\u00a0\ufeff\ufffd',
	...'äüéłŁ€中文😀',
	'\ud83d',
	'\ude00',
];
const unit = fc.oneof(
	{ weight: 3, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
	{ weight: 2, arbitrary: fc.constantFrom(...NOTABLE) },
	// Any code unit: lone surrogates too, which every writer here sends as escapes.
	fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
	fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
);
const text = fc.string({ unit, maxLength: 10 });
const key = fc.oneof(
	{ weight: 3, arbitrary: text },
	fc.constantFrom('__proto__', 'constructor', 'results', 'file', 'count', 'next', 'Müller', ''),
);

const digits = (minLength: number) =>
	fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength: 24 });
/** Number texts: integers, doubles as JS prints them, big and negative numbers, exponents, -0. */
const numberText = fc.oneof(
	fc.integer().map(String),
	fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
	fc.constantFrom('-0', '-0.0', '0e0', '-0E-0', '1E+400', '-1e400', '1e-400', '9007199254740993'),
	fc
		.record({
			sign: fc.constantFrom('', '-'),
			int: fc.oneof(
				fc.constant('0'),
				fc.tuple(fc.integer({ min: 1, max: 9 }), digits(0)).map(([d, rest]) => `${d}${rest}`),
			),
			fraction: fc.option(
				digits(1).map((d) => `.${d}`),
				{ nil: '' },
			),
			exponent: fc.option(
				fc
					.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1))
					.map((parts) => parts.join('')),
				{ nil: '' },
			),
		})
		.map(({ sign, int, fraction, exponent }) => `${sign}${int}${fraction}${exponent}`),
);

const scalar: fc.Arbitrary<Json> = fc.oneof(
	numberText.map((t): Json => ({ kind: 'number', text: t })),
	fc.constantFrom('true', 'false', 'null').map((t): Json => ({ kind: 'literal', text: t })),
	{ weight: 3, arbitrary: text.map((value): Json => ({ kind: 'string', value })) },
);

const { value } = fc.letrec<{ value: Json; array: Json; object: Json }>((tie) => ({
	value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, scalar, tie('array'), tie('object')),
	array: fc.array(tie('value'), { maxLength: 4 }).map((items): Json => ({ kind: 'array', items })),
	object: fc
		.array(fc.tuple(key, tie('value')), { maxLength: 5 })
		.map((members): Json => ({ kind: 'object', members })),
}));

/** A document's echo of an upload: base64, in lines or not. */
const base64 = fc.tuple(fc.uint8Array({ maxLength: 48 }), fc.boolean()).map(([bytes, lines]) => {
	const text = Buffer.from(bytes).toString('base64');
	return lines ? text.replace(/.{16}/g, '$&\n') : text;
});

/** A page or a POA answer: `results` (mostly an array), `file` (mostly base64), anything else. */
const document: fc.Arbitrary<Json> = fc
	.array(
		fc.oneof(
			fc.tuple(
				fc.constant('results'),
				fc.oneof(
					{
						weight: 4,
						arbitrary: fc
							.array(value, { maxLength: 6 })
							.map((items): Json => ({ kind: 'array', items })),
					},
					value,
				),
			),
			fc.tuple(
				fc.constant('file'),
				fc.oneof(
					{ weight: 3, arbitrary: base64.map((b): Json => ({ kind: 'string', value: b })) },
					value,
				),
			),
			{ weight: 3, arbitrary: fc.tuple(key, value) },
		),
		{ maxLength: 6 },
	)
	.map((members): Json => ({ kind: 'object', members }));

const style: fc.Arbitrary<Style> = fc
	.record({
		name: fc.constantFrom(...Object.keys(STYLES)),
		indent: fc.constantFrom(undefined, undefined, '  ', '    ', '\t'),
		newline: fc.constantFrom('\n', '\r\n'),
	})
	.map(({ name, indent, newline }) => ({ ...STYLES[name], indent, newline }));

/** The document's text; pretty-printed ones end with a line break, a few start with a BOM. */
const written = fc.tuple(document, style, fc.integer({ min: 0, max: 9 })).map(([doc, s, bom]) => {
	const body = write(doc, s) + (s.indent ? (s.newline ?? '') : '');
	return bom === 0 ? `\uFEFF${body}` : body;
});

/** Where the bytes are cut: at random places (as a fraction of the length), or into single bytes. */
const cuts = fc.oneof(
	fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
	fc.constant('bytes' as const),
);

// ---- The readers ----

/**
 * The bytes in chunks, each in memory of its own as Node's HTTP client hands them over (a reader
 * that releases them after reading must have kept nothing of them).
 */
async function* stream(bytes: Buffer, at: number[]): AsyncGenerator<Buffer> {
	const ends = [...at.filter((cut) => cut > 0 && cut < bytes.length), bytes.length];
	let start = 0;
	for (const end of ends) {
		const copy = new Uint8Array(bytes.subarray(start, end));
		yield Buffer.from(copy.buffer);
		start = end;
	}
}

function cutsOf(bytes: Buffer, how: number[] | 'bytes'): number[] {
	if (how === 'bytes') return Array.from(bytes, (_, i) => i + 1);
	return [...new Set(how.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
}

/** A page as pagination has it: the page's object with the results read one by one put back. */
async function pageRead(body: unknown): Promise<unknown> {
	const answer = await readPage(body);
	if (answer.results) (answer.body as Record<string, unknown>).results = answer.results;
	return answer.body;
}

/** The POA answer as the check uses it: everything but the echoed `file`. */
async function poaRead(body: unknown): Promise<unknown> {
	return await withoutEcho(body, 'file');
}

/** What the POA reader must give for a parsed answer: an object without its `file`. */
function withoutFile(read: unknown): unknown {
	if (typeof read !== 'object' || read === null || Array.isArray(read)) return read;
	const copy = { ...(read as Record<string, unknown>) };
	delete copy.file;
	return copy;
}

/**
 * The webhook delivery's body, read without the signature check; a refused one is `refused` (400
 * with the error `tooDeep` when it is nested too deep).
 */
async function deliveryRead(rawBody: Buffer): Promise<unknown> {
	let answered: { error?: string } = {};
	const response = {
		status: () => response,
		json: (body: { error?: string }) => {
			answered = body;
			return response;
		},
	};
	const context = {
		getRequestObject: () => ({ headers: {}, rawBody }),
		getResponseObject: () => response,
		getNode: () => ({ name: 'Trigger' }),
		getMode: () => 'webhook',
		logger: { warn: () => undefined, error: () => undefined },
	} as unknown as IWebhookFunctions;
	const received = await receiveDelivery.call(context, {
		verifySignature: false,
		receivedAt: new Date(0),
	});
	if (received.ok) return received.event.body;
	return answered.error?.includes(`nested more than ${MAX_JSON_DEPTH} levels`)
		? 'tooDeep'
		: 'refused';
}

/**
 * A value as text that tells -0 from 0 and an own `__proto__` key from a prototype, and keeps the
 * order of keys: two values are the same when their texts are.
 */
function exact(value: unknown): string {
	if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
	if (typeof value === 'string') return JSON.stringify(value);
	if (value === null || typeof value === 'boolean') return String(value);
	if (Array.isArray(value)) return `[${value.map(exact).join(',')}]`;
	if (typeof value === 'object') {
		const record = value as Record<string, unknown>;
		const prototype = Object.getPrototypeOf(value) === Object.prototype ? '' : '(prototype)';
		const members = Object.keys(record).map((k) => `${JSON.stringify(k)}:${exact(record[k])}`);
		return `${prototype}{${members.join(',')}}`;
	}
	return `(${typeof value})`;
}

/** The depth of a parsed value, by recursion: the reference (generated values are a few hundred deep). */
function depthOf(value: unknown): number {
	if (typeof value !== 'object' || value === null) return 0;
	return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

/**
 * Every reader gives what JSON.parse gives of the bytes decoded as UTF-8 (a BOM before them left
 * out), and refuses what JSON.parse refuses: a page becomes '' (its shape is then refused), a POA
 * answer nothing, a delivery is answered 400 (as it is when the body is not an object). What
 * JSON.parse reads nested more than MAX_JSON_DEPTH deep (measured on its value) every reader
 * refuses as such: JsonTooDeepError, a delivery's 400 that names the limit.
 */
async function expectEveryReaderExact(bytes: Buffer, at: number[]): Promise<void> {
	let parsed: unknown;
	let ok = true;
	try {
		parsed = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
	} catch {
		ok = false;
	}
	const isObject = ok && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
	if (ok && depthOf(parsed) > MAX_JSON_DEPTH) {
		await expect(pageRead(stream(bytes, at))).rejects.toThrow(JsonTooDeepError);
		await expect(pageRead(Buffer.from(bytes))).rejects.toThrow(JsonTooDeepError);
		await expect(poaRead(stream(bytes, at))).rejects.toThrow(JsonTooDeepError);
		await expect(poaRead(Buffer.from(bytes))).rejects.toThrow(JsonTooDeepError);
		expect(() => readJsonBody(Buffer.from(bytes))).toThrow(JsonTooDeepError);
		expect(await deliveryRead(Buffer.from(bytes))).toBe(isObject ? 'tooDeep' : 'refused');
		return;
	}
	const expected = exact(ok ? parsed : '');
	expect(exact(await pageRead(stream(bytes, at)))).toBe(expected);
	expect(exact(await pageRead(Buffer.from(bytes)))).toBe(expected);
	const poa = exact(ok ? withoutFile(parsed) : undefined);
	expect(exact(await poaRead(stream(bytes, at)))).toBe(poa);
	expect(exact(await poaRead(Buffer.from(bytes)))).toBe(poa);
	const whole = readJsonBody(Buffer.from(bytes));
	expect(exact(whole.ok ? whole.value : '')).toBe(expected);
	expect(exact(await deliveryRead(Buffer.from(bytes)))).toBe(
		isObject ? expected : exact('refused'),
	);
}

/** Fixed by default so the suite is the same on every run; FAST_CHECK_SEED explores others. */
const SEED = Number(process.env.FAST_CHECK_SEED ?? 20260610);

test('every reader gives what JSON.parse gives, however the text is written and cut', async () => {
	await fc.assert(
		fc.asyncProperty(written, cuts, async (text, how) => {
			const bytes = Buffer.from(text);
			await expectEveryReaderExact(bytes, cutsOf(bytes, how));
		}),
		{ numRuns: 300, seed: SEED },
	);
});

/** A few bytes taken out of a text and others put in: mostly not JSON any more. */
const damaged = fc
	.record({
		text: written,
		at: fc.double({ min: 0, max: 1, noNaN: true }),
		removed: fc.integer({ min: 0, max: 4 }),
		inserted: fc.constantFrom(...['', '"', '\\', ',', '[', ']', '{', '}', ':', ' ', 'x', '1', 'é']),
		invalidUtf8: fc.boolean(),
	})
	.map(({ text, at, removed, inserted, invalidUtf8 }) => {
		const bytes = Buffer.from(text);
		const cut = Math.floor(at * bytes.length);
		const insert = invalidUtf8 ? Buffer.from([0xc3]) : Buffer.from(inserted);
		return Buffer.concat([bytes.subarray(0, cut), insert, bytes.subarray(cut + removed)]);
	})
	// An empty body is no JSON text, but every reader takes it as nothing (null).
	.filter((bytes) => bytes.toString('utf8').trim() !== '');

test('a damaged text is refused where JSON.parse refuses it, and read exactly where it does not', async () => {
	await fc.assert(
		fc.asyncProperty(damaged, cuts, async (bytes, how) => {
			await expectEveryReaderExact(bytes, cutsOf(bytes, how));
		}),
		{ numRuns: 300, seed: SEED },
	);
});

/**
 * A value inside arrays and objects nested around it (with siblings before or after), which bring
 * it near MAX_JSON_DEPTH: a few levels under it to a few over.
 */
const deepValue: fc.Arbitrary<Json> = fc
	.tuple(
		value,
		fc.array(fc.tuple(fc.boolean(), key, fc.option(scalar), fc.boolean()), {
			minLength: MAX_JSON_DEPTH - 8,
			maxLength: MAX_JSON_DEPTH + 2,
		}),
	)
	.map(([inner, shells]) =>
		shells.reduce<Json>((current, [isArray, name, sibling, siblingFirst]) => {
			const members: Array<[string, Json]> = [[name, current]];
			if (sibling !== null) {
				const other: [string, Json] = [`${name}-`, sibling];
				if (siblingFirst) members.unshift(other);
				else members.push(other);
			}
			return isArray
				? { kind: 'array', items: members.map(([, item]) => item) }
				: { kind: 'object', members };
		}, inner),
	);

/** A document with a deep value as an element of `results`, as another member, or as itself. */
const deepDocument: fc.Arbitrary<Json> = fc
	.tuple(document, deepValue, fc.constantFrom('element', 'member', 'whole'), fc.nat())
	.map(([doc, deep, where, at]): Json => {
		if (doc.kind !== 'object' || where === 'whole') return deep;
		const members = [...doc.members];
		const member: [string, Json] =
			where === 'element' ? ['results', { kind: 'array', items: [deep] }] : ['deep', deep];
		members.splice(at % (members.length + 1), 0, member);
		return { kind: 'object', members };
	});

test(`a text nested more than ${MAX_JSON_DEPTH} levels deep is refused by every reader exactly where JSON.parse's value is, however it is cut`, async () => {
	await fc.assert(
		fc.asyncProperty(deepDocument, style, cuts, async (doc, s, how) => {
			const bytes = Buffer.from(write(doc, { ...s, indent: undefined }));
			await expectEveryReaderExact(bytes, cutsOf(bytes, how === 'bytes' ? [0.5] : how));
		}),
		{ numRuns: 150, seed: SEED },
	);
});

test('the depth measure without recursion agrees with the recursive one on any JSON value', () => {
	fc.assert(
		fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 0, max: 14 }), (json, limit) => {
			const parsed = JSON.parse(JSON.stringify(json)) as unknown;
			expect(nestedDeeperThan(parsed, limit)).toBe(depthOf(parsed) > limit);
		}),
		{ numRuns: 2000, seed: SEED },
	);
});

/** Names as servers send them: `\u` escapes (Python, PHP), surrogate pairs, raw UTF-8. */
const FIXED = [
	'{"count":2,"next":null,"results":[{"name":"M\\u00fcller GmbH","first":"\\u0141ukasz","city":"\\u4e2d\\u6587","mood":"\\ud83d\\ude00"},{"name":"Müller GmbH","first":"Łukasz","city":"中文","mood":"😀","ä":"ł"}],"file":"QUJD\\/RA=="}',
	'{\r\n  "count": 1,\r\n  "results": [\r\n    {\r\n      "counterparty": "M\\u00fcller GmbH",\r\n      "\\u0141ukasz": ["\\u4e2d\\u6587", "\\ud83d\\ude00", -0, 1.5E+300]\r\n    }\r\n  ],\r\n  "next": "https:\\/\\/x\\/?page=2"\r\n}\r\n',
	'{"id":"c-1","file":"QUJD\\nREVG","providedName":"M\\u00fcller GmbH","name":"Łukasz 中文 😀 ä","overallStatus":"MATCH"}',
];

describe('names with `\\u` escapes and raw UTF-8, cut at every byte', () => {
	test.each(FIXED)('%s', async (text) => {
		const bytes = Buffer.from(text);
		for (let cut = 0; cut <= bytes.length; cut++) await expectEveryReaderExact(bytes, [cut]);
		await expectEveryReaderExact(
			bytes,
			Array.from({ length: bytes.length }, (_, i) => i + 1),
		);
	});
});
