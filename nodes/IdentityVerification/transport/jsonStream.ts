/**
 * Reads a JSON answer from its stream without ever holding it whole. The caller names members of
 * the top-level object: an array member (a page's `results`) is handed over element by element,
 * each parsed from its own bytes; a string member (an echoed document) is skipped, neither kept nor
 * decoded. The rest of the object (a few hundred bytes) is parsed once at the end, with `[]` or
 * `null` in place of the named members' values.
 *
 * Only the structure is scanned here (strings, brackets, commas, colons); every value, and every
 * piece of text, is decoded as UTF-8 and parsed by JSON.parse, so each value is what JSON.parse
 * gives for the whole text. A text that is not JSON gives `{ ok: false }`; one nested deeper than
 * MAX_JSON_DEPTH throws JsonTooDeepError once the stream has ended (a stream that breaks off is
 * read again by the transport; this answer would be the same).
 */
import { isPlainObject } from '../../shared/isPlainObject';
import { JsonTooDeepError, MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/jsonDepth';
import { isChunkStream, readJsonBody } from './limits';
import type { JsonReader } from './types';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** What JSON.parse takes as space around a value. */
const JSON_SPACE = /^[ \t\n\r]*$/;

/** An array member whose elements are parsed one by one and handed over in order. */
interface ElementsMember {
	kind: 'elements';
	/** The array starts (again, when the key comes twice: the last one counts, as in JSON.parse). */
	onStart(): void;
	onElement(value: unknown): void;
}

/** A string member that is skipped: its bytes are neither kept nor decoded. */
interface SkippedStringMember {
	kind: 'skippedString';
}

type MemberReader = ElementsMember | SkippedStringMember;

export type StreamedJson = { ok: true; value: unknown } | { ok: false };

function isSpace(byte: number): boolean {
	return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * A run of bytes that may go on over several chunks: where it starts in the current chunk, and
 * copies of its parts in earlier chunks (a chunk is not kept once read). Every run starts and ends
 * next to an ASCII byte of the structure, so its bytes decode as they do in the whole text.
 */
class Run {
	private from = -1;
	private readonly earlier: Buffer[] = [];

	get isOpen(): boolean {
		return this.from >= 0;
	}

	start(at: number): void {
		this.from = at;
	}

	/** The run's bytes up to `end` of `chunk`, decoded as UTF-8; the run is then closed. */
	text(chunk: Buffer, end: number): string {
		const from = this.from;
		this.from = -1;
		if (this.earlier.length === 0) return chunk.toString('utf8', from, end);
		this.earlier.push(chunk.subarray(from, end));
		const text = Buffer.concat(this.earlier).toString('utf8');
		this.earlier.length = 0;
		return text;
	}

	/** At the end of a chunk: the open run's part in it copied; it goes on in the next chunk. */
	carry(chunk: Buffer): void {
		if (this.from < 0) return;
		if (this.from < chunk.length) this.earlier.push(Buffer.from(chunk.subarray(this.from)));
		this.from = 0;
	}
}

/** The scanner: `write` every chunk in order, then `end`. */
class StreamedObjectReader {
	private failed = false;
	/**
	 * The array members with an element nested too deep. Such a member fails the read at its end
	 * when it is the one that counts (a key that comes again replaces it, as in JSON.parse).
	 */
	private readonly tooDeep = new Set<string>();
	/** Brackets open around the scan, outside the named members (1: in the top-level object). */
	private depth = 0;
	private inString = false;
	/** The previous chunk ended a string's odd run of backslashes: this one's first byte is escaped. */
	private escaped = false;
	/** In the top-level object, right after a colon: where a member's value starts. */
	private atValue = false;
	/** The text read so far outside the named members' values, and the run of it being read. */
	private rest = '';
	private readonly kept = new Run();
	/** The key being read in the top-level object, and the last one read. */
	private readonly key = new Run();
	private keyText = '';
	/** The named member whose value is being read. */
	private member: MemberReader | undefined;
	/** In an `elements` member: brackets open inside the array, and the current element's bytes. */
	private level = 0;
	private readonly element = new Run();
	/** No comma yet in the array: `[ ]` is an empty array, not an empty element. */
	private firstElement = true;

	constructor(private readonly members: Record<string, MemberReader>) {
		this.kept.start(0);
	}

	write(chunk: Buffer): void {
		if (this.failed) return;
		let i = 0;
		while (i < chunk.length && !this.failed) {
			if (this.inString) {
				const quote = this.closingQuote(chunk, i);
				if (quote === -1) break;
				this.stringEnded(chunk, quote);
				i = quote + 1;
			} else {
				if (this.member?.kind === 'elements') this.inElements(chunk, i, this.member);
				else this.outside(chunk, i);
				i++;
			}
		}
		this.kept.carry(chunk);
		this.key.carry(chunk);
		this.element.carry(chunk);
	}

	/** The object with the named members' values left out (an empty array, or null for a string). */
	end(): StreamedJson {
		if (this.failed || this.member) return { ok: false };
		const text = this.rest + this.kept.text(Buffer.alloc(0), 0);
		if (text.trim() === '') return { ok: true, value: null };
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			return { ok: false };
		}
		if (nestedDeeperThan(value, MAX_JSON_DEPTH) || this.deepMemberCounts(value))
			throw new JsonTooDeepError();
		return { ok: true, value };
	}

	/** Whether a member with an element nested too deep is the one the object holds (an array). */
	private deepMemberCounts(value: unknown): boolean {
		if (typeof value !== 'object' || value === null) return false;
		const members = value as Record<string, unknown>;
		return [...this.tooDeep].some(
			(key) => Object.prototype.hasOwnProperty.call(members, key) && Array.isArray(members[key]),
		);
	}

	/**
	 * In a string from `from`: the index of its closing quote, or -1 when it goes on past the chunk.
	 * A quote after an odd number of backslashes is part of the string. (Searched for with indexOf:
	 * an echoed document is skipped as fast as it arrives.)
	 */
	private closingQuote(chunk: Buffer, from: number): number {
		let i = from;
		if (this.escaped && i < chunk.length) {
			this.escaped = false;
			i++;
		}
		for (;;) {
			const quote = chunk.indexOf(QUOTE, i);
			const end = quote === -1 ? chunk.length : quote;
			let backslashes = 0;
			while (end - backslashes > i && chunk[end - backslashes - 1] === BACKSLASH) backslashes++;
			if (quote === -1) {
				this.escaped = backslashes % 2 === 1;
				return -1;
			}
			if (backslashes % 2 === 0) {
				this.inString = false;
				return quote;
			}
			i = quote + 1;
		}
	}

	private stringEnded(chunk: Buffer, quote: number): void {
		if (this.member?.kind === 'skippedString') {
			this.member = undefined;
			this.kept.start(quote + 1);
		} else if (this.key.isOpen) {
			this.keyText = keyOf(this.key.text(chunk, quote));
		}
	}

	/** A byte outside strings and outside an array member being read. */
	private outside(chunk: Buffer, i: number): void {
		const byte = chunk[i];
		if (isSpace(byte)) return;
		const atValue = this.depth === 1 && this.atValue;
		this.atValue = this.depth === 1 && byte === COLON;
		const member = atValue ? this.memberAt(byte) : undefined;
		if (member) {
			this.rest += `${this.kept.text(chunk, i)}${member.kind === 'elements' ? '[]' : 'null'}`;
			this.member = member;
			if (member.kind === 'skippedString') this.inString = true;
			else {
				member.onStart();
				this.tooDeep.delete(this.keyText);
				this.level = 0;
				this.firstElement = true;
				this.element.start(i + 1);
			}
		} else if (byte === QUOTE) {
			this.inString = true;
			// In the top-level object, a string that is not a value is a key.
			if (this.depth === 1 && !atValue) this.key.start(i + 1);
		} else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth++;
		else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) this.depth--;
	}

	/** The named member whose value starts with `byte` after the last key read, if any. */
	private memberAt(byte: number): MemberReader | undefined {
		if (!Object.prototype.hasOwnProperty.call(this.members, this.keyText)) return undefined;
		const member = this.members[this.keyText];
		if (member.kind === 'elements' && byte === OPEN_ARRAY) return member;
		if (member.kind === 'skippedString' && byte === QUOTE) return member;
		return undefined;
	}

	/** A byte outside strings in an array member: an element ends at a comma or the array's end. */
	private inElements(chunk: Buffer, i: number, member: ElementsMember): void {
		const byte = chunk[i];
		if (byte === QUOTE) this.inString = true;
		else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.level++;
		else if (this.level > 0) {
			if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) this.level--;
		} else if (byte === COMMA) {
			this.handOver(this.element.text(chunk, i), member);
			this.firstElement = false;
			this.element.start(i + 1);
		} else if (byte === CLOSE_ARRAY) {
			const text = this.element.text(chunk, i);
			if (!this.firstElement || !JSON_SPACE.test(text)) this.handOver(text, member);
			this.member = undefined;
			this.kept.start(i + 1);
		} else if (byte === CLOSE_OBJECT) this.failed = true;
	}

	/**
	 * An element's text parsed and handed over; one that is not JSON fails the read. The element
	 * is two levels down (in the array, in the top-level object): its own depth may be two less.
	 */
	private handOver(text: string, member: ElementsMember): void {
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
			this.failed = true;
			return;
		}
		if (nestedDeeperThan(value, MAX_JSON_DEPTH - 2)) this.tooDeep.add(this.keyText);
		else member.onElement(value);
	}
}

/** A key's text as JSON.parse reads it; '' when it is not a JSON string (the read then fails). */
function keyOf(text: string): string {
	try {
		return JSON.parse(`"${text}"`) as string;
	} catch {
		return '';
	}
}

/**
 * Reads the stream to its end with the members named handled as the caller asks. A stream that
 * breaks off rejects with its error; a text that is not JSON gives `{ ok: false }`.
 *
 * `releaseChunks`: the stream is the caller's alone (an answer nobody else reads), so each chunk's
 * memory is given back once it is read (the reader copies what it keeps of a chunk).
 */
export async function readStreamedObject(
	stream: AsyncIterable<Buffer | Uint8Array | string>,
	members: Record<string, MemberReader>,
	options: { releaseChunks?: boolean } = {},
): Promise<StreamedJson> {
	const reader = new StreamedObjectReader(members);
	// A UTF-8 byte order mark before the JSON is left out (its 3 bytes may come in pieces).
	let head: Buffer | undefined = Buffer.alloc(0);
	for await (const piece of stream) {
		let chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
		if (head) {
			if (head.length > 0) chunk = Buffer.concat([head, chunk]);
			if (chunk.length < 3 && BOM.subarray(0, chunk.length).equals(chunk)) {
				head = chunk;
				continue;
			}
			head = undefined;
			if (chunk.subarray(0, 3).equals(BOM)) chunk = chunk.subarray(3);
		}
		reader.write(chunk);
		if (options.releaseChunks && piece instanceof Uint8Array) releaseMemory(piece);
	}
	if (head) reader.write(head);
	return reader.end();
}

/**
 * Gives a chunk's memory back at once instead of when the garbage collector gets to it. Until a
 * collection, every chunk already read is still held: as many bytes again as the file or answer
 * that went through. Only a chunk that is the sole view of its memory is given back, never a slice
 * of a shared pool or of a larger buffer. Where the runtime cannot (no
 * `ArrayBuffer.prototype.transfer` before Node 21), nothing changes.
 */
function releaseMemory(piece: Uint8Array): void {
	const memory = piece.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
	// As long as its memory, the chunk starts where its memory does: nothing else is in it.
	if (piece.byteLength !== memory.byteLength || piece.byteLength === 0) return;
	if (typeof memory.transfer !== 'function') return;
	try {
		memory.transfer(0);
	} catch {
		// Memory that cannot be detached is left to the garbage collector.
	}
}

/**
 * The chunks of a stream that is the caller's alone, each given back as soon as the reader asks for
 * the next one: a reader that keeps no chunk (or slice of one) past that point.
 */
export async function* releasedOnceRead(
	chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
	for await (const chunk of chunks) {
		yield chunk;
		releaseMemory(chunk);
	}
}

// The readers of ApiRequest.reader: a list's page, and an upload's answer without its echo.

/**
 * A page's answer as JSON, and its results when they were read one by one. Streamed, the `results`
 * are parsed as they arrive (see jsonStream.ts): the page is never held as one text, and
 * the body keeps an empty array in their place, so that checking its shape goes through none of
 * them (each is any JSON value). An answer that is not JSON becomes '' (its shape is then refused
 * like any other text); one that came whole is parsed as it is.
 */
export async function readPage(body: unknown): Promise<{ body: unknown; results?: unknown[] }> {
	if (!isChunkStream(body)) {
		const whole = readJsonBody(body);
		return { body: whole.ok ? whole.value : '' };
	}
	let results: unknown[] = [];
	const streamed = await readStreamedObject(
		body,
		{
			results: {
				kind: 'elements',
				onStart: () => (results = []),
				onElement: (value) => results.push(value),
			},
		},
		{ releaseChunks: true },
	);
	if (!streamed.ok) return { body: '' };
	const page = streamed.value;
	// An empty array where `results` was read, unless a later `results` replaced it (the last counts).
	const placeholder =
		isPlainObject(page) && Array.isArray(page.results) && page.results.length === 0;
	return placeholder ? { body: page, results } : { body: page };
}

/**
 * A JSON answer without its top-level member `field` (an echoed document). A streamed answer is
 * read as it arrives and a string there is skipped, so that the echo is never held. Undefined for
 * an answer that is not JSON.
 */
export async function withoutEcho(body: unknown, field: string): Promise<unknown> {
	let value: unknown;
	if (isChunkStream(body)) {
		const read = await readStreamedObject(
			body,
			{ [field]: { kind: 'skippedString' } },
			{ releaseChunks: true },
		);
		value = read.ok ? read.value : undefined;
	} else {
		const whole = readJsonBody(body);
		value = whole.ok ? whole.value : undefined;
	}
	if (!isPlainObject(value)) return value;
	const rest = { ...value };
	delete rest[field];
	return rest;
}

/** The readers by name (ApiRequest.reader); each stream is the request's alone, so its chunks are given back once read. */
export const JSON_READERS: Record<JsonReader, (body: unknown) => Promise<unknown>> = {
	listPage: readPage,
	withoutFileEcho: async (body) => await withoutEcho(body, 'file'),
};
