/**
 * The streamed JSON reader (helpers/jsonStream.ts) against JSON.parse: every text read in one
 * chunk, split in two at every byte and one byte at a time gives what JSON.parse gives, with the
 * named array member's elements handed over in order and the named string member's raw bytes;
 * every text JSON.parse refuses is refused.
 */
import {
	parseWholeBody,
	readStreamedObject,
	type StreamedJson,
} from '../../../nodes/IdentityVerification/helpers/jsonStream';
import { withoutEchoedString } from '../../../nodes/IdentityVerification/helpers/response';

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

describe('a string member handed over as raw bytes, never kept', () => {
	const text =
		'{"id":"c-1","file":"QUJD\\nREVG\\/Z2g=\\\\\\"","overallStatus":"MATCH","n":{"file":"kept"}}';

	test.each([[text]])('%s', async (input) => {
		for (const list of splits(input)) {
			let raw: Buffer[] = [];
			const read = await readStreamedObject(chunks(list), {
				file: {
					kind: 'rawString',
					onStart: () => (raw = []),
					onBytes: (bytes) => raw.push(Buffer.from(bytes)),
				},
			});
			expect(read).toEqual({
				ok: true,
				value: { id: 'c-1', file: null, overallStatus: 'MATCH', n: { file: 'kept' } },
			});
			expect(Buffer.concat(raw).toString()).toBe('QUJD\\nREVG\\/Z2g=\\\\\\"');
		}
	});

	test('a member of that name that is not a string is kept as it is', async () => {
		const read = await readStreamedObject(chunks([Buffer.from('{"file":{"url":"u"}}')]), {
			file: { kind: 'rawString', onStart: () => undefined, onBytes: () => undefined },
		});
		expect(read).toEqual({ ok: true, value: { file: { url: 'u' } } });
	});
});

describe('a body that came whole', () => {
	test.each([
		[Buffer.from('{"a":1}'), { ok: true, value: { a: 1 } }],
		['{"a":1}', { ok: true, value: { a: 1 } }],
		[{ a: 1 }, { ok: true, value: { a: 1 } }],
		['', { ok: true, value: null }],
		[undefined, { ok: true, value: null }],
		['not json', { ok: false }],
	])('%p', (body, expected) => {
		expect(parseWholeBody(body)).toEqual(expected);
	});
});

describe('an echoed document left out of an answer, its size counted as it arrives', () => {
	/** What the node did with the whole answer: the size of the echo without whitespace, as base64. */
	function sizeAsBefore(echo: string): number | undefined {
		const text = echo.replace(/\s+/g, '');
		return text && text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text)
			? Buffer.byteLength(text, 'base64')
			: undefined;
	}

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
	];

	test.each(ECHOES.map((e) => [JSON.stringify(e), e]))('%s', async (_label, echo) => {
		const text = JSON.stringify({ id: 'c', file: echo, overallStatus: 'MATCH' });
		const expected = sizeAsBefore(echo);
		for (const list of splits(text)) {
			const read = await withoutEchoedString(chunks(list), 'file');
			expect(read).toEqual({
				value: { id: 'c', file: null, overallStatus: 'MATCH' },
				echoedBytes: expected,
			});
		}
		const whole = await withoutEchoedString(text, 'file');
		expect(whole).toEqual({
			value: { id: 'c', file: null, overallStatus: 'MATCH' },
			echoedBytes: expected,
		});
	});

	test('an answer without the field, or with it not a string, is read as it is', async () => {
		for (const text of ['{"id":"c"}', '{"id":"c","file":{"url":"u"}}', '{"file":null}']) {
			const expected = JSON.parse(text) as unknown;
			expect(await withoutEchoedString(chunks([Buffer.from(text)]), 'file')).toEqual({
				value: expected,
			});
			expect(await withoutEchoedString(text, 'file')).toEqual({ value: expected });
		}
	});
});
