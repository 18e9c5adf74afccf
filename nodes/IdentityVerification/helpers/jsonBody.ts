/**
 * Builds a JSON request body that carries a file as base64 text, with as few copies of the file
 * as possible: the body is one preallocated Buffer and the file is base64-encoded into it in
 * chunks (no full-size base64 string, no JSON.stringify of a huge object).
 */

/** Bytes encoded per step: a multiple of 3 so the chunks' base64 concatenates without padding. */
const CHUNK_BYTES = 3 * 256 * 1024;

/**
 * Returns the bytes of `{ ...fields, [fileField]: "<base64 of file>" }` as JSON. `fields` are
 * small string values (serialised with JSON.stringify); the file goes last.
 */
export function jsonBodyWithBase64File(
	fields: Record<string, string>,
	fileField: string,
	file: Uint8Array,
): Buffer {
	const head: string[] = [];
	for (const [key, value] of Object.entries(fields)) {
		head.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
	}
	head.push(`${JSON.stringify(fileField)}:"`);
	const prefix = Buffer.from(`{${head.join(',')}`, 'utf8');
	const suffix = Buffer.from('"}', 'utf8');
	const base64Length = Math.ceil(file.length / 3) * 4;

	const body = Buffer.allocUnsafe(prefix.length + base64Length + suffix.length);
	let offset = prefix.copy(body, 0);
	const source = Buffer.isBuffer(file) ? file : Buffer.from(file.buffer, file.byteOffset, file.length);
	for (let start = 0; start < source.length; start += CHUNK_BYTES) {
		const chunk = source.subarray(start, Math.min(start + CHUNK_BYTES, source.length));
		offset += body.write(chunk.toString('base64'), offset, 'latin1');
	}
	offset += suffix.copy(body, offset);
	return offset === body.length ? body : body.subarray(0, offset);
}
