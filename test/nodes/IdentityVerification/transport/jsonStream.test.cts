/**
 * The streamed JSON reader (transport/jsonStream.ts) against JSON.parse: every text read in one
 * chunk, split in two at every byte and one byte at a time gives what JSON.parse gives, with the
 * named array member's elements handed over in order and the named string member skipped; every
 * text JSON.parse refuses is refused.
 */
import {
	readStreamedObject,
	type StreamedJson,
} from '../../../../nodes/IdentityVerification/transport/jsonStream';
import { withoutEcho } from '../../../../nodes/IdentityVerification/transport/jsonStream';
import { readJsonBody } from '../../../../nodes/IdentityVerification/transport/limits';
import { JsonTooDeepError, MAX_JSON_DEPTH } from '../../../../nodes/shared/jsonDepth';

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
async function readPage(list: Buffer[]): Promise<{ read: StreamedJson; elements: unknown[] }> {
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
			const { read, elements } = await readPage(list);
			expect(read).toEqual({ ok: true, value: expected.value });
			expect(elements).toEqual(expected.elements);
		}
	});
});

/** Reads `bytes` as a page in one chunk, and with every chunk cut at byte `cut`. */
async function readBytes(bytes: Buffer, cut: number) {
	return [await readPage([bytes]), await readPage([bytes.subarray(0, cut), bytes.subarray(cut)])];
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
		const { elements } = await readPage([Buffer.from(text)]);
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
					await expect(readPage(list)).rejects.toThrow(JsonTooDeepError);
					await expect(withoutEcho(chunks(list), 'file')).rejects.toThrow(JsonTooDeepError);
				} else {
					const { read, elements } = await readPage(list);
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
				await expect(readPage([bytes.subarray(0, cut), bytes.subarray(cut)])).rejects.toThrow(
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
		const { read, elements } = await readPage([bytes.subarray(0, 40000), bytes.subarray(40000)]);
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
		for (const list of splits(text)) expect((await readPage(list)).read).toEqual({ ok: false });
	});
});

test('an empty answer is null, as the transport reads an empty body', async () => {
	expect((await readPage([Buffer.from(' \n')])).read).toEqual({ ok: true, value: null });
	expect((await readPage([])).read).toEqual({ ok: true, value: null });
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
