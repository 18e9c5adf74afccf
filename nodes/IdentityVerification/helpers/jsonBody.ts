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

function frame(
	fields: Record<string, string>,
	fileField: string,
): { prefix: Buffer; suffix: Buffer } {
	const head: string[] = [];
	for (const [key, value] of Object.entries(fields)) {
		head.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
	}
	head.push(`${JSON.stringify(fileField)}:"`);
	return { prefix: Buffer.from(`{${head.join(',')}`, 'utf8'), suffix: Buffer.from('"}', 'utf8') };
}

/**
 * Returns the bytes of `{ ...fields, [fileField]: "<base64 of file>" }` as JSON. `fields` are
 * small string values (serialised with JSON.stringify); the file goes last.
 */
export function jsonBodyWithBase64File(
	fields: Record<string, string>,
	fileField: string,
	file: Uint8Array,
): Buffer {
	const { prefix, suffix } = frame(fields, fileField);
	const base64Length = Math.ceil(file.length / 3) * 4;
	const body = Buffer.allocUnsafe(prefix.length + base64Length + suffix.length);
	let offset = prefix.copy(body, 0);
	const source = Buffer.isBuffer(file)
		? file
		: Buffer.from(file.buffer, file.byteOffset, file.length);
	for (let start = 0; start < source.length; start += CHUNK_BYTES) {
		const chunk = source.subarray(start, Math.min(start + CHUNK_BYTES, source.length));
		offset += body.write(chunk.toString('base64'), offset, 'latin1');
	}
	offset += suffix.copy(body, offset);
	return offset === body.length ? body : body.subarray(0, offset);
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
export function jsonBodyWithBase64Text(
	fields: Record<string, string>,
	fileField: string,
	base64: string,
): Buffer {
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
