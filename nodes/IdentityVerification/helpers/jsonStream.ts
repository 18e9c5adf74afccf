/**
 * Reads a JSON answer from its stream without ever holding it whole: the bytes are scanned as they
 * come, and the top-level object's members named by the caller are not kept as text. An array
 * member (a page's `results`) is handed over element by element, each parsed from its own few
 * bytes; a string member (an echoed document) is handed over as raw bytes and never decoded. The
 * rest of the object (a few hundred bytes) is parsed once at the end.
 *
 * Parsing a 100 KB page as one text costs its bytes twice more (one buffer, one decoded string of
 * up to twice the size) before the first object exists; element by element, what is allocated
 * besides the result is a few hundred bytes at a time, which the garbage collector frees cheaply.
 * Each element's text is one byte per byte even when it holds letters outside ASCII (see
 * ElementDecoder), and a caller that owns the stream can have each chunk's memory given back as
 * soon as it is read (`releaseChunks`) instead of when the garbage collector gets to it.
 *
 * Only the structure is scanned here (strings, brackets, commas, colons); every value is checked
 * by JSON.parse. A text that is not JSON gives `{ ok: false }`, as a non-JSON answer did before.
 */

import { releaseMemory } from './memory';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** An array member whose elements are parsed one by one and handed over in order. */
interface ElementsMember {
	kind: 'elements';
	/** The array starts (again, when the key comes twice: the last one counts, as in JSON.parse). */
	onStart(): void;
	onElement(value: unknown): void;
}

/** A string member whose raw bytes (escapes as sent, no quotes) are handed over, never kept. */
interface RawStringMember {
	kind: 'rawString';
	/** The string starts (again, when the key comes twice: the last one counts, as in JSON.parse). */
	onStart(): void;
	onBytes(bytes: Buffer): void;
}

type MemberReader = ElementsMember | RawStringMember;

export type StreamedJson = { ok: true; value: unknown } | { ok: false };

function isSpace(byte: number): boolean {
	return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Any character outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;
/** Slots of a SharedStrings table (a power of two), and the longest string shared. */
const SHARED_SLOTS = 4096;
const SHARED_STRING_LENGTH = 256;

/**
 * Strings shared across the elements of one read (all the pages of a list): JSON.parse makes every
 * string value anew, so the same date, currency or name on 100,000 transactions is 100,000
 * strings. A string equal to one met before in the same slot is replaced by it (the value is the
 * same): 100,000 transactions with their items keep 24.5 MiB instead of 34. A fixed table: nothing
 * is allocated per string, and what it holds (at most 4,096 strings) is dropped with the read.
 */
export class SharedStrings {
	/** Per slot: a string as read in Latin-1 (see ElementDecoder), and the string it stands for. */
	private readonly readings = new Array<string>(SHARED_SLOTS).fill('');
	private readonly strings = new Array<string>(SHARED_SLOTS).fill('');

	/** The string `latin1` (a string value read in Latin-1) stands for: decoded, and shared. */
	decode(latin1: string): string {
		if (latin1.length > SHARED_STRING_LENGTH) return decodeLatin1(latin1);
		let hash = 0x811c9dc5;
		for (let i = 0; i < latin1.length; i++)
			hash = Math.imul(hash ^ latin1.charCodeAt(i), 0x01000193);
		const slot = hash & (SHARED_SLOTS - 1);
		if (this.readings[slot] === latin1) return this.strings[slot];
		const text = decodeLatin1(latin1);
		this.readings[slot] = latin1;
		this.strings[slot] = text;
		return text;
	}
}

/** A string value read in Latin-1 as the UTF-8 string its bytes are. */
function decodeLatin1(latin1: string): string {
	return NON_ASCII.test(latin1) ? Buffer.from(latin1, 'latin1').toString('utf8') : latin1;
}

/** finish() found something only the UTF-8 text can give. */
const UNSUITED: unique symbol = Symbol('unsuited');
/** The bytes are not JSON. */
const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * Parses an element's UTF-8 bytes as JSON.parse parses them decoded, with one intermediate text of
 * one byte per character instead of two, and its strings shared (see SharedStrings).
 *
 * Decoded as UTF-8, a text with any letter outside ASCII is held two bytes per character; read as
 * Latin-1 it is one byte per byte, and JSON.parse then gives the same structure, numbers and ASCII
 * strings. A string value with bytes outside ASCII holds those bytes one per character and is
 * decoded from them as UTF-8: exactly the characters JSON.parse gives, since a JSON string's bytes
 * stand for themselves (its quotes and ASCII escapes end a broken sequence as in the whole text).
 * Only a `\u` escape can make a character outside ASCII, and only a key can hold one the values do
 * not show: an element with either is decoded as UTF-8 and parsed as it is.
 */
class ElementDecoder {
	private shared: SharedStrings | undefined;

	constructor(shared?: SharedStrings) {
		this.shared = shared;
	}

	/** The JSON value of `bytes[start, end)`, or NOT_JSON. */
	parse(bytes: Buffer, start: number, end: number): unknown {
		const text = bytes.toString('latin1', start, end);
		try {
			if (!NON_ASCII.test(text) || !text.includes('\\u')) {
				this.shared ??= new SharedStrings();
				const value = this.finish(JSON.parse(text) as unknown, this.shared);
				if (value !== UNSUITED) return value;
			}
		} catch {
			// Not JSON, or too deep to walk: decided below by the UTF-8 text, as JSON.parse decides it.
		}
		try {
			return JSON.parse(bytes.toString('utf8', start, end)) as unknown;
		} catch {
			return NOT_JSON;
		}
	}

	/**
	 * A value parsed from the Latin-1 reading with its strings decoded and shared (objects and
	 * arrays changed in place); UNSUITED for a key outside ASCII.
	 */
	private finish(value: unknown, shared: SharedStrings): unknown {
		if (typeof value === 'string') return shared.decode(value);
		if (typeof value !== 'object' || value === null) return value;
		if (Array.isArray(value)) {
			for (let i = 0; i < value.length; i++) {
				const member = value[i] as unknown;
				if (typeof member !== 'object' && typeof member !== 'string') continue;
				const finished = this.finish(member, shared);
				if (finished === UNSUITED) return UNSUITED;
				// Always set: a shared string compares equal to the one it replaces.
				value[i] = finished;
			}
			return value;
		}
		const object = value as Record<string, unknown>;
		for (const key in object) {
			if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
			// A key outside ASCII would need the object rebuilt. (An own `__proto__` member, which
			// JSON.parse makes, is a data property: assigning it sets the member, not the prototype.)
			if (NON_ASCII.test(key)) return UNSUITED;
			const member = object[key];
			if (typeof member !== 'object' && typeof member !== 'string') continue;
			const finished = this.finish(member, shared);
			if (finished === UNSUITED) return UNSUITED;
			object[key] = finished;
		}
		return object;
	}
}

/** Where the scan is in the top-level object: the member's key, its colon, its value. */
type Member = 'key' | 'colon' | 'value' | 'afterValue';

/** The scanner: `write` every chunk in order, then `end`. */
class StreamedObjectReader {
	private readonly kept: Buffer[] = [];
	private depth = 0;
	private topObject = false;
	private member: Member = 'key';
	private key: Buffer[] = [];
	private keyText = '';
	private inString = false;
	/** Backslashes right before the end of the previous chunk's part of the current string. */
	private backslashes = 0;
	private special: MemberReader | undefined;
	/**
	 * The element being read inside an `elements` member: where it starts in the current chunk (0
	 * once it went on from an earlier chunk; -1: none), its bytes from earlier chunks (copies), and
	 * whether it is a number or literal, which ends at the next comma, bracket or space. Plain
	 * fields: nothing is allocated per element but its text and its value.
	 */
	private elementStart = -1;
	private readonly elementParts: Buffer[] = [];
	private elementScalar = false;
	/** Something that is not JSON was found: the rest is not read. */
	private failed = false;
	/** In an `elements` member: what may come next at its level. */
	private expect: 'first' | 'next' | 'after' = 'first';
	private readonly decoder: ElementDecoder;

	constructor(
		private readonly members: Record<string, MemberReader>,
		shared?: SharedStrings,
	) {
		this.decoder = new ElementDecoder(shared);
	}

	write(chunk: Buffer): void {
		if (this.failed) return;
		let i = 0;
		let keepFrom = this.special ? -1 : 0;
		while (i < chunk.length) {
			if (this.special?.kind === 'rawString') {
				i = this.rawString(chunk, i, this.special);
				if (!this.special) keepFrom = i;
			} else if (this.special) {
				i = this.elements(chunk, i, this.special);
				if (!this.special) keepFrom = i;
			} else {
				const entered = this.plain(chunk, i, keepFrom);
				i = entered.next;
				if (this.special) keepFrom = -1;
			}
		}
		if (keepFrom >= 0 && keepFrom < chunk.length) this.keep(chunk.subarray(keepFrom));
		if (this.elementStart >= 0) {
			this.elementParts.push(Buffer.from(chunk.subarray(this.elementStart)));
			this.elementStart = 0;
		}
	}

	/** The object with the special members' values left out (an empty array, or null for a string). */
	end(): StreamedJson {
		if (this.failed || this.inString || this.special || this.depth !== 0) return { ok: false };
		const text = Buffer.concat(this.kept).toString('utf8');
		if (text.trim() === '') return { ok: true, value: null };
		try {
			return { ok: true, value: JSON.parse(text) as unknown };
		} catch {
			return { ok: false };
		}
	}

	private keep(bytes: Buffer): void {
		if (bytes.length > 0) this.kept.push(Buffer.from(bytes));
	}

	/**
	 * Outside the special members: scans until one starts (its opening bytes are replaced by a
	 * placeholder in the kept text) or the chunk ends. Returns where to go on.
	 */
	private plain(chunk: Buffer, from: number, keepFrom: number): { next: number } {
		for (let i = from; i < chunk.length; i++) {
			if (this.inString) {
				const end = this.endOfString(chunk, i);
				if (this.member === 'key' && this.depth === 1 && this.topObject) {
					this.key.push(Buffer.from(chunk.subarray(i, end === -1 ? chunk.length : end - 1)));
					if (end !== -1) this.keyDone();
				}
				if (end === -1) return { next: chunk.length };
				i = end - 1;
				continue;
			}
			const byte = chunk[i];
			if (isSpace(byte)) continue;
			const reader = this.depth === 1 && this.member === 'value' ? this.readerFor(byte) : undefined;
			if (reader) {
				this.keep(chunk.subarray(keepFrom, i));
				this.kept.push(Buffer.from(reader.kind === 'elements' ? '[]' : 'null'));
				this.special = reader;
				if (reader.kind === 'elements') {
					this.depth++;
					this.expect = 'first';
				}
				reader.onStart();
				this.member = 'afterValue';
				this.backslashes = 0;
				return { next: i + 1 };
			}
			this.structure(byte);
		}
		return { next: chunk.length };
	}

	/** The reader of the member whose value starts with `byte`, when it is one the caller named. */
	private readerFor(byte: number): MemberReader | undefined {
		const reader = Object.prototype.hasOwnProperty.call(this.members, this.keyText)
			? this.members[this.keyText]
			: undefined;
		if (reader?.kind === 'elements' && byte === OPEN_ARRAY) return reader;
		if (reader?.kind === 'rawString' && byte === QUOTE) return reader;
		return undefined;
	}

	/** A structural byte outside strings and special members. */
	private structure(byte: number): void {
		if (byte === QUOTE) {
			this.inString = true;
			this.backslashes = 0;
			if (this.depth === 1 && this.member === 'key') this.key = [];
			else if (this.depth === 1 && this.member === 'value') this.member = 'afterValue';
			return;
		}
		if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
			if (this.depth === 0 && byte === OPEN_OBJECT) this.topObject = true;
			if (this.depth === 1 && this.member === 'value') this.member = 'afterValue';
			this.depth++;
			if (this.depth === 1) this.member = 'key';
			return;
		}
		if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
			this.depth--;
			return;
		}
		if (this.depth !== 1) return;
		if (byte === COMMA) this.member = 'key';
		else if (byte === COLON && this.member === 'colon') this.member = 'value';
		else if (this.member === 'value') this.member = 'afterValue';
	}

	private keyDone(): void {
		try {
			this.keyText = JSON.parse(`"${Buffer.concat(this.key).toString('utf8')}"`) as string;
		} catch {
			this.keyText = '';
		}
		this.key = [];
		this.member = 'colon';
	}

	/**
	 * Inside a string from `from`: the index after its closing quote, or -1 when it goes on past the
	 * chunk. A quote after an odd number of backslashes is part of the string.
	 */
	private endOfString(chunk: Buffer, from: number): number {
		let i = from;
		for (;;) {
			const quote = chunk.indexOf(QUOTE, i);
			const stop = quote === -1 ? chunk.length : quote;
			let run = 0;
			while (stop - run - 1 >= from && chunk[stop - run - 1] === BACKSLASH) run++;
			if (stop - run === from) run += this.backslashes;
			if (quote === -1) {
				this.backslashes = run;
				return -1;
			}
			this.backslashes = 0;
			if (run % 2 === 0) {
				this.inString = false;
				return quote + 1;
			}
			i = quote + 1;
			from = i;
		}
	}

	/** Inside a skipped string: hands its bytes over until its closing quote. */
	private rawString(chunk: Buffer, from: number, reader: RawStringMember): number {
		this.inString = true;
		const end = this.endOfString(chunk, from);
		reader.onBytes(chunk.subarray(from, end === -1 ? chunk.length : end - 1));
		if (end === -1) return chunk.length;
		this.special = undefined;
		return end;
	}

	/** Inside an `elements` member: reads elements until the array closes or the chunk ends. */
	private elements(chunk: Buffer, from: number, reader: ElementsMember): number {
		for (let i = from; i < chunk.length; i++) {
			if (this.inString) {
				const end = this.endOfString(chunk, i);
				if (end === -1) return chunk.length;
				i = end - 1;
				if (this.depth === 2) this.emit(chunk, end, reader);
				if (this.failed) return chunk.length;
				continue;
			}
			const byte = chunk[i];
			if (
				this.elementScalar &&
				this.elementStart >= 0 &&
				(isSpace(byte) || byte === COMMA || byte === CLOSE_ARRAY)
			) {
				this.emit(chunk, i, reader);
				if (this.failed) return chunk.length;
			}
			if (isSpace(byte)) continue;
			if (this.depth === 2 && this.elementStart < 0) {
				const between = this.between(byte);
				if (between === 'comma') continue;
				if (between === 'close') {
					this.depth = 1;
					this.special = undefined;
					return i + 1;
				}
				if (between === 'bad') {
					this.failed = true;
					return chunk.length;
				}
				this.elementStart = i;
				this.elementScalar = byte !== QUOTE && byte !== OPEN_OBJECT && byte !== OPEN_ARRAY;
				if (this.elementScalar) continue;
			}
			if (byte === QUOTE) {
				this.inString = true;
				this.backslashes = 0;
			} else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth++;
			else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
				this.depth--;
				if (this.depth === 2) this.emit(chunk, i + 1, reader);
				if (this.failed) return chunk.length;
			}
		}
		return chunk.length;
	}

	/** Between elements: what `byte` is there; 'bad' when it may not come there. */
	private between(byte: number): 'comma' | 'close' | 'element' | 'bad' {
		if (byte === COMMA) {
			if (this.expect !== 'after') return 'bad';
			this.expect = 'next';
			return 'comma';
		}
		if (byte === CLOSE_ARRAY) return this.expect === 'next' ? 'bad' : 'close';
		return this.expect === 'after' ? 'bad' : 'element';
	}

	/** The element ending at `end` (exclusive) in this chunk, parsed and handed over. */
	private emit(chunk: Buffer, end: number, reader: ElementsMember): void {
		const start = this.elementStart;
		if (start < 0) return;
		this.elementStart = -1;
		let value: unknown;
		if (this.elementParts.length === 0) value = this.decoder.parse(chunk, start, end);
		else {
			this.elementParts.push(chunk.subarray(0, end));
			const bytes = Buffer.concat(this.elementParts);
			this.elementParts.length = 0;
			value = this.decoder.parse(bytes, 0, bytes.length);
		}
		if (value === NOT_JSON) {
			this.failed = true;
			return;
		}
		this.expect = 'after';
		reader.onElement(value);
	}
}

/** Anything that can be read chunk by chunk (a Node stream of the answer). */
export function isChunkStream(body: unknown): body is AsyncIterable<Buffer | Uint8Array | string> {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
	);
}

/**
 * Reads the stream to its end with the members named handled as the caller asks. A stream that
 * breaks off rejects with its error; a text that is not JSON gives `{ ok: false }`.
 *
 * `releaseChunks`: the stream is the caller's alone (an answer nobody else reads) and no member
 * reader keeps the bytes it is handed, so each chunk's memory is given back once it is read.
 * `sharedStrings`: the table the elements' strings are shared through, e.g. one for all the pages
 * of a list (by default, one for this stream).
 */
export async function readStreamedObject(
	stream: AsyncIterable<Buffer | Uint8Array | string>,
	members: Record<string, MemberReader>,
	options: { releaseChunks?: boolean; sharedStrings?: SharedStrings } = {},
): Promise<StreamedJson> {
	const reader = new StreamedObjectReader(members, options.sharedStrings);
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
