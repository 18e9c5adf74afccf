/**
 * The streamed JSON reader (transport/jsonStream.ts) against JSON.parse: every text read in one
 * chunk, split in two at every byte and one byte at a time gives what JSON.parse gives, with the
 * named array member's elements handed over in order and the named string member skipped; every
 * text JSON.parse refuses is refused.
 */
import fc from 'fast-check';
import type { IWebhookFunctions } from 'n8n-workflow';

import {
	readPage,
	readStreamedObject,
	type StreamedJson,
	withoutEcho,
} from '../../../../nodes/IdentityVerification/transport/jsonStream';
import { readJsonBody } from '../../../../nodes/IdentityVerification/transport/limits';
import {
	JsonTooDeepError,
	MAX_JSON_DEPTH,
	nestedDeeperThan,
} from '../../../../nodes/shared/jsonDepth';
import { receiveDelivery } from '../../../../nodes/shared/webhook/delivery';

/** Whether this Node can give a chunk's memory back (`ArrayBuffer.prototype.transfer`, Node 21+). */
const releasesMemory =
	typeof (new ArrayBuffer(1) as { transfer?: unknown }).transfer === 'function';

/** The text cut into chunks: whole, in two at every byte, and byte by byte. */
function splits(text: string): Buffer[][] {
	const bytes = Buffer.from(text);
	const out: Buffer[][] = [[bytes]];
	for (let i = 1; i < bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
	out.push(Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)));
	return out;
}

async function* chunks(list: Buffer[]) {
	for (const chunk of list) yield chunk;
}

/** Reads `text` as a page: the object (results left as []) and the elements handed over. */
async function readElements(list: Buffer[]): Promise<{ read: StreamedJson; elements: unknown[] }> {
	let elements: unknown[] = [];
	const read = await readStreamedObject(chunks(list), {
		results: {
			kind: 'elements',
			onStart: () => (elements = []),
			onElement: (value) => elements.push(value),
		},
	});
	return { read, elements };
}

/** What reading a page must give: JSON.parse's value with `results` (an array) handed over. */
function expectedPage(text: string): { value: unknown; elements: unknown[] } {
	const value = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
		const results = (value as Record<string, unknown>).results;
		if (Array.isArray(results)) return { value: { ...value, results: [] }, elements: results };
	}
	return { value, elements: [] };
}

const PAGES = [
	'{"count":3,"next":null,"previous":null,"results":[{"a":1},{"b":[1,2,{"c":"]"}]},{"d":"x,y"}]}',
	'{ "results" : [ 1 , -2.5e3 , true , false , null , "s" , [ ] , { } ] , "next" : "https://x/?page=2" }',
	'{"results":[]}',
	'{"results":[ ]}',
	'{"results":["a\\"b","c\\\\","\\\\\\"","\\u005d","\\/"],"count":5}',
	'{"resu\\u006cts":[{"k":"v"}],"count":1}',
	'{"results":"none","count":1}',
	'{"count":1,"results":null}',
	'{"next":"n"}',
	'{"nested":{"results":[1,2]},"results":[3]}',
	'{"results":[1],"results":[2,3]}',
	'{"results":[{"name":"Žemaitė Petraitienė","amount":"-1.00"},{"name":"Ελένη"}]}',
	'{"results":[{"a":"Žemaitė \\u00e9 ė","b":"\\u4e2d"},{"k":"é\\n\\"x\\\\","l":"😀 \\ud83d\\ude00"}]}',
	'{"results":[{"Ž":"v","a":"é"},{"a":{"ą":1},"b":"ė"},{"ascii":"only","n":[1.5e300,-0,"é"]}]}',
	'{"results":["é",["ė",{"a":["Ž",null,true]}],"x",-12.5,{"é":"é"},{"same":"Ėė","again":"Ėė"}]}',
	'{"results":[{"z":"\u2028\u2029\u00a0","e":"\uFEFF"}]}',
	'\uFEFF{"results":[1]}',
	'[1,2,3]',
	'"text"',
	'42',
	'  {"results":[1]}  \n',
];

describe('reading a page element by element gives what JSON.parse gives', () => {
	test.each(PAGES)('%s', async (text) => {
		const expected = expectedPage(text);
		for (const list of splits(text)) {
			const { read, elements } = await readElements(list);
			expect(read).toEqual({ ok: true, value: expected.value });
			expect(elements).toEqual(expected.elements);
		}
	});
});

/** Reads `bytes` as a page in one chunk, and with every chunk cut at byte `cut`. */
async function readBytes(bytes: Buffer, cut: number) {
	return [
		await readElements([bytes]),
		await readElements([bytes.subarray(0, cut), bytes.subarray(cut)]),
	];
}

describe('elements with letters outside ASCII give exactly what JSON.parse gives of the UTF-8 text', () => {
	test('any bytes inside strings, broken UTF-8 included', async () => {
		// A fixed pseudo-random sequence: strings of UTF-8 pieces, broken sequences, escapes.
		let seed = 7;
		const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
		const pieces = [
			[0xc3, 0xa9],
			[0xe2, 0x82, 0xac],
			[0xf0, 0x9f, 0x98, 0x80],
			[0xc3],
			[0xe2, 0x82],
			[0xf0, 0x9f],
			[0xa9],
			[0xed, 0xa0, 0x80],
			[0xc0, 0xaf],
			[0xff],
			[0x5c, 0x6e],
			[0x5c, 0x22],
			[0x5c, 0x5c],
			[0x41],
			[0x20],
		];
		for (let round = 0; round < 300; round++) {
			const parts: number[] = [];
			const text = () => {
				const out = [0x22];
				for (let i = Math.floor(next() * 8); i > 0; i--)
					out.push(...pieces[Math.floor(next() * pieces.length)]);
				out.push(0x22);
				return out;
			};
			parts.push(...Buffer.from('{"results":[{"a":'), ...text(), ...Buffer.from(',"b":['));
			parts.push(
				...text(),
				0x2c,
				...text(),
				...Buffer.from(']},'),
				...text(),
				...Buffer.from(']}'),
			);
			const bytes = Buffer.from(parts);
			const expected = expectedPage(bytes.toString('utf8'));
			for (const { read, elements } of await readBytes(bytes, Math.floor(next() * bytes.length)))
				expect({ read, elements }).toEqual({
					read: { ok: true, value: expected.value },
					elements: expected.elements,
				});
		}
	});

	test('a `__proto__` member stays an own member, its value decoded', async () => {
		const text = '{"results":[{"__proto__":"é"},{"__proto__":{"x":"ė"}},{"__proto__":1,"y":"Ž"}]}';
		const { elements } = await readElements([Buffer.from(text)]);
		const expected = JSON.parse(text).results as object[];
		expect(elements.map((e) => JSON.stringify(e))).toEqual(expected.map((e) => JSON.stringify(e)));
		for (const element of elements) expect(Object.getPrototypeOf(element)).toBe(Object.prototype);
	});
});

/** The depth of a parsed value, by recursion (the reference: the texts below are a few hundred deep). */
function depthOf(value: unknown): number {
	if (typeof value !== 'object' || value === null) return 0;
	return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

/** Arrays and objects in turn, nested `levels` deep; the innermost key holds a quote and a bracket. */
function nestedText(levels: number): string {
	let text = '"é"';
	for (let i = 0; i < levels; i++) {
		if (i % 2 === 1) text = `[${text}]`;
		else text = i === 0 ? `{"k\\"]":${text}}` : `{"":${text}}`;
	}
	return text;
}

describe(`a text nested more than ${MAX_JSON_DEPTH} levels deep is refused, wherever it is cut`, () => {
	const cases = [
		// An element: two levels below the top (in `results`, in the object).
		...[MAX_JSON_DEPTH - 2, MAX_JSON_DEPTH - 1].map(
			(levels) => `{"count":1,"results":[1,${nestedText(levels)},"]"]}`,
		),
		// The rest of the page: a member that is not read element by element.
		...[MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH].map(
			(levels) => `{"results":[],"deep":${nestedText(levels)},"next":null}`,
		),
		// A `results` that is no array member of the top level.
		`{"nested":{"results":${nestedText(MAX_JSON_DEPTH - 1)}}}`,
		nestedText(MAX_JSON_DEPTH + 1),
	];

	test.each(cases.map((text) => [depthOf(JSON.parse(text)), text]))(
		'%s levels: %#',
		async (depth, text) => {
			expect(depth === MAX_JSON_DEPTH || depth === MAX_JSON_DEPTH + 1).toBe(true);
			const expected = expectedPage(text);
			for (const list of splits(text)) {
				if (depth > MAX_JSON_DEPTH) {
					await expect(readElements(list)).rejects.toThrow(JsonTooDeepError);
					await expect(withoutEcho(chunks(list), 'file')).rejects.toThrow(JsonTooDeepError);
				} else {
					const { read, elements } = await readElements(list);
					expect(read).toEqual({ ok: true, value: expected.value });
					expect(elements).toEqual(expected.elements);
				}
			}
			const whole = () => readJsonBody(Buffer.from(text));
			if (depth > MAX_JSON_DEPTH) expect(whole).toThrow(JsonTooDeepError);
			else expect(whole()).toEqual({ ok: true, value: JSON.parse(text) });
		},
	);

	test.each([5_000, 1_000_000])(
		'an element or a member %s levels deep (JSON.parse reads it; n8n could not store it)',
		async (levels) => {
			const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
			expect(() => JSON.parse(deep)).not.toThrow();
			for (const text of [`{"results":[${deep}]}`, `{"results":[],"deep":${deep}}`]) {
				const bytes = Buffer.from(text);
				const cut = Math.floor(bytes.length / 3);
				await expect(readElements([bytes.subarray(0, cut), bytes.subarray(cut)])).rejects.toThrow(
					`nested more than ${MAX_JSON_DEPTH} levels deep`,
				);
				expect(() => readJsonBody(bytes)).toThrow(JsonTooDeepError);
			}
		},
	);

	test('the stream is read to its end first (one that breaks off would be asked for again)', async () => {
		const pieces: string[] = [`{"results":[${nestedText(MAX_JSON_DEPTH)},`, '1,', '2]}'];
		let given = 0;
		async function* counted() {
			for (const piece of pieces) {
				given++;
				yield Buffer.from(piece);
			}
		}
		await expect(
			readStreamedObject(counted(), {
				results: { kind: 'elements', onStart: () => undefined, onElement: () => undefined },
			}),
		).rejects.toThrow(JsonTooDeepError);
		expect(given).toBe(pieces.length);
	});
});

test('many pages of many elements, strings repeated and outside ASCII, cut inside elements', async () => {
	const value = (i: number) =>
		[`d-${i % 5000}`, `Žemaitė ${i % 300} ė`, `${'x'.repeat(300)}${i % 7}`, '', 'EUR'][i % 5];
	for (let page = 0; page < 4; page++) {
		const results = Array.from({ length: 3000 }, (_, i) => {
			const n = page * 3000 + i;
			return { v: value(n), n: { w: [value(n * 7), value(n * 13)], k: n } };
		});
		const bytes = Buffer.from(JSON.stringify({ count: 12000, results }));
		const { read, elements } = await readElements([
			bytes.subarray(0, 40000),
			bytes.subarray(40000),
		]);
		expect(read).toEqual({ ok: true, value: { count: 12000, results: [] } });
		expect(elements).toEqual(results);
	}
});

describe('releasing chunks once they are read', () => {
	const text = '{"count":2,"results":[{"name":"Žemaitė"},{"name":"Jonas"}],"next":null}';
	const expected = { ok: true, value: { count: 2, results: [], next: null } };

	async function read(list: Uint8Array[], releaseChunks?: boolean) {
		const elements: unknown[] = [];
		const result = await readStreamedObject(
			chunks(list as Buffer[]),
			{
				results: { kind: 'elements', onStart: () => undefined, onElement: (v) => elements.push(v) },
			},
			{ releaseChunks },
		);
		return { result, elements };
	}

	test('a chunk that alone holds its memory is given back, wherever the text is cut', async () => {
		const bytes = Buffer.from(text);
		for (let cut = 1; cut < bytes.length; cut++) {
			const list = [new Uint8Array(bytes.subarray(0, cut)), new Uint8Array(bytes.subarray(cut))];
			const { result, elements } = await read(list, true);
			expect(result).toEqual(expected);
			expect(elements).toEqual([{ name: 'Žemaitė' }, { name: 'Jonas' }]);
			for (const chunk of list) expect(chunk.byteLength).toBe(releasesMemory ? 0 : chunk.length);
		}
	});

	test('a chunk sharing its memory, or read without the option, keeps its bytes', async () => {
		const bytes = Buffer.from(text);
		/** The text in memory larger than it: `before` bytes before it, `after` bytes after it. */
		const within = (before: number, after: number) => {
			const memory = new Uint8Array(before + bytes.length + after);
			memory.set(bytes, before);
			return new Uint8Array(memory.buffer, before, bytes.length);
		};
		const pooled = Buffer.from(text);
		expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
		const cases: Array<[Uint8Array, boolean]> = [
			[within(0, 5), true],
			[within(5, 0), true],
			[within(5, 5), true],
			[pooled, true],
			[new Uint8Array(bytes), false],
		];
		for (const [chunk, releaseChunks] of cases) {
			const { result } = await read([chunk], releaseChunks);
			expect(result).toEqual(expected);
			expect(Buffer.from(chunk).toString()).toBe(text);
			expect(chunk.buffer.byteLength).toBeGreaterThan(0);
		}
	});
});

const NOT_JSON = [
	'{"results":[1,]}',
	'{"results":[,1]}',
	'{"results":[1 2]}',
	'{"results":[{"a":1}{"b":2}]}',
	'{"results":[tru]}',
	'{"results":[1]',
	'{"results":[1]} x',
	'{"results":["open]}',
	'not json',
	'{"a":1,}',
];

describe('a text JSON.parse refuses is refused, wherever it is cut', () => {
	test.each(NOT_JSON)('%s', async (text) => {
		expect(() => JSON.parse(text)).toThrow();
		for (const list of splits(text)) expect((await readElements(list)).read).toEqual({ ok: false });
	});
});

test('an empty answer is null, as the transport reads an empty body', async () => {
	expect((await readElements([Buffer.from(' \n')])).read).toEqual({ ok: true, value: null });
	expect((await readElements([])).read).toEqual({ ok: true, value: null });
});

describe('a string member skipped, never kept', () => {
	const text =
		'{"id":"c-1","file":"QUJD\\nREVG\\/Z2g=\\\\\\"","overallStatus":"MATCH","n":{"file":"kept"}}';

	test.each([[text]])('%s', async (input) => {
		for (const list of splits(input)) {
			const read = await readStreamedObject(chunks(list), { file: { kind: 'skippedString' } });
			expect(read).toEqual({
				ok: true,
				value: { id: 'c-1', file: null, overallStatus: 'MATCH', n: { file: 'kept' } },
			});
		}
	});

	test('a member of that name that is not a string is kept as it is', async () => {
		const read = await readStreamedObject(chunks([Buffer.from('{"file":{"url":"u"}}')]), {
			file: { kind: 'skippedString' },
		});
		expect(read).toEqual({ ok: true, value: { file: { url: 'u' } } });
	});
});

describe('a body that came whole', () => {
	test.each([
		[Buffer.from('{"a":1}'), { ok: true, value: { a: 1 } }],
		['{"a":1}', { ok: true, value: { a: 1 } }],
		// A byte order mark is left out, as the streamed reader leaves it out.
		[Buffer.from('\uFEFF{"a":1}'), { ok: true, value: { a: 1 } }],
		['\uFEFF{"a":1}', { ok: true, value: { a: 1 } }],
		[{ a: 1 }, { ok: true, value: { a: 1 } }],
		['', { ok: true, value: null }],
		[undefined, { ok: true, value: null }],
		['not json', { ok: false }],
	])('%p', (body, expected) => {
		expect(readJsonBody(body)).toEqual(expected);
	});
});

describe('an echoed document left out of an answer as it arrives', () => {
	const ECHOES = [
		Buffer.from('any document bytes').toString('base64'),
		Buffer.from('ab').toString('base64'),
		Buffer.from('abc').toString('base64'),
		'QUJD\nREVG\r\n',
		'QUJD REVG\t',
		'QUJD\u00a0REVG\u2028',
		'QUJDREVG\uFEFF',
		'QUJD/+==',
		'QUJDREV=',
		'QUJDRE==',
		'QUJDR===',
		'QU=D',
		'QUJ',
		'QUJD!',
		'',
		'   ',
		'QUJD\b',
		'QUJDé',
		'"\\',
	];

	test.each(ECHOES.map((e) => [JSON.stringify(e), e]))('%s', async (_label, echo) => {
		const text = JSON.stringify({ id: 'c', file: echo, overallStatus: 'MATCH' });
		for (const list of splits(text))
			expect(await withoutEcho(chunks(list), 'file')).toEqual({ id: 'c', overallStatus: 'MATCH' });
		expect(await withoutEcho(text, 'file')).toEqual({ id: 'c', overallStatus: 'MATCH' });
	});

	test("the answer's chunks are given back once read: the echo is not held until a collection", async () => {
		const echo = Buffer.alloc(300_000, 0x41).toString('base64');
		const bytes = Buffer.from(JSON.stringify({ id: 'c', file: echo, overallStatus: 'MATCH' }));
		// Each chunk in memory of its own, as Node's HTTP client hands them over.
		const list: Uint8Array[] = [];
		for (let at = 0; at < bytes.length; at += 65_536)
			list.push(new Uint8Array(bytes.subarray(at, at + 65_536)));
		const lengths = list.map((chunk) => chunk.byteLength);
		const read = await withoutEcho(chunks(list as Buffer[]), 'file');
		expect(read).toEqual({ id: 'c', overallStatus: 'MATCH' });
		expect(list.map((chunk) => chunk.byteLength)).toEqual(
			releasesMemory ? lengths.map(() => 0) : lengths,
		);
	});

	test('an answer without the field, or with it not a string, is read without it', async () => {
		for (const text of ['{"id":"c"}', '{"id":"c","file":{"url":"u"}}', '{"file":null}']) {
			const expected = JSON.parse(text) as Record<string, unknown>;
			delete expected.file;
			expect(await withoutEcho(chunks([Buffer.from(text)]), 'file')).toEqual(expected);
			expect(await withoutEcho(text, 'file')).toEqual(expected);
		}
	});

	test('an answer that is not JSON is nothing', async () => {
		for (const text of ['not json', '{"file":"QUJD', '{"file":"QUJD"']) {
			expect(await withoutEcho(chunks([Buffer.from(text)]), 'file')).toBeUndefined();
			expect(await withoutEcho(text, 'file')).toBeUndefined();
		}
	});
});

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
