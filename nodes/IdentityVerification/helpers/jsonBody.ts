/**
 * Builds a JSON request body that carries a file as base64 text, with as few copies of the file
 * as possible: the body is one preallocated Buffer, and the file's base64 goes straight into it
 * (no JSON.stringify of a huge object, no full-size intermediate string).
 */

/**
 * Bytes encoded per step: a multiple of 3, so the chunks' base64 concatenates without padding, and
 * small enough that each intermediate string is short-lived young-generation garbage.
 */
const CHUNK_BYTES = 3 * 16 * 1024;

/** Standard base64 (what n8n keeps in an item in its default binary mode): safe inside a JSON string. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Text fields of a body; one that is undefined is left out, as JSON.stringify leaves it out. */
type Fields = Record<string, string | undefined>;

function frame(fields: Fields, fileField: string): { prefix: Buffer; suffix: Buffer } {
	const head: string[] = [];
	for (const [key, value] of Object.entries(fields)) {
		if (value !== undefined) head.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
	}
	head.push(`${JSON.stringify(fileField)}:"`);
	return { prefix: Buffer.from(`{${head.join(',')}`, 'utf8'), suffix: Buffer.from('"}', 'utf8') };
}

/**
 * Returns the bytes of `{ ...fields, [fileField]: "<base64 of file>" }` as JSON. `fields` are
 * small string values (serialised with JSON.stringify); the file goes last.
 */
export function jsonBodyWithBase64File(
	fields: Fields,
	fileField: string,
	file: Uint8Array,
): Buffer {
	const { prefix, suffix } = frame(fields, fileField);
	const body = Buffer.allocUnsafe(prefix.length + base64Length(file.length) + suffix.length);
	let offset = prefix.copy(body, 0);
	offset = writeBase64(body, offset, asBuffer(file));
	offset += suffix.copy(body, offset);
	return offset === body.length ? body : body.subarray(0, offset);
}

/** The number of bytes of the JSON `jsonBodyWithBase64File` makes for a file of `fileBytes`. */
export function jsonBodyLength(fields: Fields, fileField: string, fileBytes: number): number {
	const { prefix, suffix } = frame(fields, fileField);
	return prefix.length + base64Length(fileBytes) + suffix.length;
}

/**
 * The same JSON in pieces, from a file read as chunks (a stored binary's stream), to be sent as it
 * is made: the file and the body are never whole in memory. Base64 comes as short strings, which
 * the socket writes without another copy. Throws when the chunks add up to another size than
 * `fileBytes` (the length the request announced).
 */
export async function* jsonPiecesWithBase64(
	fields: Fields,
	fileField: string,
	chunks: AsyncIterable<Uint8Array>,
	fileBytes: number,
): AsyncGenerator<Buffer | string> {
	const { prefix, suffix } = frame(fields, fileField);
	yield prefix;
	let carry = Buffer.alloc(0);
	let read = 0;
	for await (const chunk of chunks) {
		read += chunk.length;
		if (read > fileBytes) throw new FileSizeChangedError(fileBytes);
		// Base64 of chunks concatenates only in whole 3-byte groups: the rest waits for the next one.
		const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : asBuffer(chunk);
		const whole = bytes.length - (bytes.length % 3);
		yield* base64Pieces(bytes.subarray(0, whole));
		carry = Buffer.from(bytes.subarray(whole));
	}
	if (read !== fileBytes) throw new FileSizeChangedError(fileBytes);
	yield* base64Pieces(carry);
	yield suffix;
}

/** The stored file gave more or fewer bytes than its stored size. */
export class FileSizeChangedError extends Error {
	constructor(readonly storedBytes: number) {
		super(
			`the file changed while it was sent: it is not the ${storedBytes} bytes n8n recorded for it, so the upload was stopped. Run the workflow again.`,
		);
	}
}

function* base64Pieces(bytes: Buffer): Generator<string> {
	for (let start = 0; start < bytes.length; start += CHUNK_BYTES) {
		yield bytes.toString('base64', start, Math.min(start + CHUNK_BYTES, bytes.length));
	}
}

function base64Length(bytes: number): number {
	return Math.ceil(bytes / 3) * 4;
}

function asBuffer(bytes: Uint8Array): Buffer {
	return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Writes the base64 of `bytes` into `body` at `offset`, a short string at a time; the new offset. */
function writeBase64(body: Buffer, offset: number, bytes: Buffer): number {
	let at = offset;
	for (const piece of base64Pieces(bytes)) at += body.write(piece, at, 'latin1');
	return at;
}

/** Whether `text` is standard base64 that can go into a JSON string as is. */
export function isPlainBase64(text: string): boolean {
	return text.length % 4 === 0 && BASE64.test(text);
}

/**
 * Same JSON as `jsonBodyWithBase64File`, from a file that is already base64 text (n8n's default
 * binary mode keeps files that way): the text is copied once into the body, never decoded.
 * The caller checks `isPlainBase64(base64)` first.
 */
export function jsonBodyWithBase64Text(fields: Fields, fileField: string, base64: string): Buffer {
	const { prefix, suffix } = frame(fields, fileField);
	const body = Buffer.allocUnsafe(prefix.length + base64.length + suffix.length);
	let offset = prefix.copy(body, 0);
	offset += body.write(base64, offset, 'latin1');
	suffix.copy(body, offset);
	return body;
}

/** The first bytes of a file given as base64 text (enough to recognise its type). */
export function leadingBytes(base64: string, bytes = 258): Buffer {
	const chars = Math.ceil(bytes / 3) * 4;
	return Buffer.from(base64.slice(0, chars), 'base64');
}
