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
 *
 * Only the structure is scanned here (strings, brackets, commas, colons); every value is checked
 * by JSON.parse. A text that is not JSON gives `{ ok: false }`, as a non-JSON answer did before.
 */

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

	constructor(private readonly members: Record<string, MemberReader>) {}

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
		let text: string;
		if (this.elementParts.length === 0) text = chunk.toString('utf8', start, end);
		else {
			this.elementParts.push(chunk.subarray(0, end));
			text = Buffer.concat(this.elementParts).toString('utf8');
			this.elementParts.length = 0;
		}
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch {
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
 */
export async function readStreamedObject(
	stream: AsyncIterable<Buffer | Uint8Array | string>,
	members: Record<string, MemberReader>,
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
	}
	if (head) reader.write(head);
	return reader.end();
}

/** A body that came whole (an n8n that does not stream answers, or a test): as JSON, like the transport reads it. */
export function parseWholeBody(body: unknown): StreamedJson {
	if (body instanceof Uint8Array) body = Buffer.from(body).toString('utf8');
	if (typeof body !== 'string') return { ok: true, value: body ?? null };
	if (body.trim() === '') return { ok: true, value: null };
	try {
		return { ok: true, value: JSON.parse(body) as unknown };
	} catch {
		return { ok: false };
	}
}
