import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isPlainObject } from '../../shared/isPlainObject';
import { readJsonBody } from '../transport';
import { isChunkStream, readStreamedObject } from './jsonStream';

/** True for a JSON object with at least one key (an empty body or `{}` counts as nothing). */
export function isNonEmptyObject(value: unknown): value is IDataObject {
	return isPlainObject(value) && Object.keys(value).length > 0;
}

/** One output item per JSON object (arrays become one item per element). */
export function toItems(body: unknown): INodeExecutionData[] {
	if (Array.isArray(body)) return body.map((entry) => ({ json: (entry ?? {}) as IDataObject }));
	return [{ json: (body ?? {}) as IDataObject }];
}

/** Path segment of a URL: ids go through encodeURIComponent so `/` or `?` in an id stay inside it. */
export function segment(value: string): string {
	return encodeURIComponent(value);
}

/** JavaScript's `\s`: what `replace(/\s+/g, '')` takes out of a text. */
function isWhitespace(code: number): boolean {
	return (
		(code >= 0x09 && code <= 0x0d) ||
		code === 0x20 ||
		code === 0xa0 ||
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200a) ||
		code === 0x2028 ||
		code === 0x2029 ||
		code === 0x202f ||
		code === 0x205f ||
		code === 0x3000 ||
		code === 0xfeff
	);
}

const JSON_ESCAPES: Record<number, number> = {
	0x22: 0x22,
	0x5c: 0x5c,
	0x2f: 0x2f,
	0x62: 0x08,
	0x66: 0x0c,
	0x6e: 0x0a,
	0x72: 0x0d,
	0x74: 0x09,
};

/** 1 for the bytes of standard base64's 64 digits. */
const BASE64_DIGITS = new Uint8Array(256);
for (const digit of Buffer.from(
	'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
	'latin1',
)) {
	BASE64_DIGITS[digit] = 1;
}

/**
 * The decoded size of a base64 text read as the raw bytes of a JSON string (UTF-8, escapes as
 * sent), counted as they come and never kept: what `Buffer.byteLength(text, 'base64')` gives for
 * the text without its whitespace when that is standard base64 (`isPlainBase64`), else undefined.
 */
class Base64Size {
	private digits = 0;
	private padding = 0;
	private valid = true;
	/** 0: a character; 1: after a backslash; 2-5: the hex digits of `\uXXXX`. */
	private escape = 0;
	/** A UTF-8 sequence under way: its code so far and how many bytes it still needs. */
	private code = 0;
	private pending = 0;

	add(bytes: Buffer): void {
		let i = 0;
		while (i < bytes.length && this.valid) {
			// Plain digits (all of a document's base64 in practice) are counted in a tight loop: the
			// echo is read as fast as it arrives, so the socket's chunks are not queued and copied.
			if (this.escape === 0 && this.pending === 0 && this.padding === 0) {
				const start = i;
				while (i < bytes.length && BASE64_DIGITS[bytes[i]] === 1) i++;
				this.digits += i - start;
				if (i === bytes.length) break;
			}
			this.byte(bytes[i++]);
		}
	}

	get bytes(): number | undefined {
		const length = this.digits + this.padding;
		if (!this.valid || this.escape !== 0 || this.pending !== 0 || length === 0) return undefined;
		return length % 4 === 0 ? (length / 4) * 3 - this.padding : undefined;
	}

	private byte(b: number): void {
		if (this.escape === 1) {
			if (b === 0x75) {
				this.escape = 2;
				this.code = 0;
			} else {
				this.escape = 0;
				if (JSON_ESCAPES[b] === undefined) this.valid = false;
				else this.char(JSON_ESCAPES[b]);
			}
		} else if (this.escape >= 2) {
			const digit = parseInt(String.fromCharCode(b), 16);
			if (Number.isNaN(digit)) this.valid = false;
			this.code = this.code * 16 + digit;
			if (++this.escape === 6) {
				this.escape = 0;
				this.char(this.code);
			}
		} else if (this.pending > 0) {
			if ((b & 0xc0) !== 0x80) this.valid = false;
			this.code = (this.code << 6) | (b & 0x3f);
			if (--this.pending === 0) this.char(this.code);
		} else if (b === 0x5c) this.escape = 1;
		else if (b < 0x80) this.char(b);
		else if ((b & 0xe0) === 0xc0) [this.code, this.pending] = [b & 0x1f, 1];
		else if ((b & 0xf0) === 0xe0) [this.code, this.pending] = [b & 0x0f, 2];
		else if ((b & 0xf8) === 0xf0) [this.code, this.pending] = [b & 0x07, 3];
		else this.valid = false;
	}

	private char(code: number): void {
		if (isWhitespace(code)) return;
		const isDigit =
			(code >= 0x41 && code <= 0x5a) ||
			(code >= 0x61 && code <= 0x7a) ||
			(code >= 0x30 && code <= 0x39) ||
			code === 0x2b ||
			code === 0x2f;
		if (isDigit && this.padding === 0) this.digits++;
		else if (code === 0x3d && this.padding < 2) this.padding++;
		else this.valid = false;
	}
}

/**
 * A JSON answer with its top-level string member `field` left out (an echoed document), read as it
 * arrives when it is a stream, so that the echo is never held: the rest of the answer, with `field`
 * null in its place, and the echo's decoded size when it is standard base64. The stream is the
 * caller's answer alone and the echo is only counted, so each chunk's memory is given back once read.
 */
export async function withoutEchoedString(
	body: unknown,
	field: string,
): Promise<{ value: unknown; echoedBytes?: number }> {
	let size = new Base64Size();
	if (!isChunkStream(body)) {
		const whole = readJsonBody(body);
		const value = whole.ok ? whole.value : undefined;
		const echo = isPlainObject(value) ? value[field] : undefined;
		if (!isPlainObject(value) || typeof echo !== 'string') return { value };
		size.add(Buffer.from(JSON.stringify(echo).slice(1, -1)));
		return { value: { ...value, [field]: null }, echoedBytes: size.bytes };
	}
	const read = await readStreamedObject(
		body,
		{
			[field]: {
				kind: 'rawString',
				onStart: () => (size = new Base64Size()),
				onBytes: (bytes) => size.add(bytes),
			},
		},
		{ releaseChunks: true },
	);
	if (!read.ok) return { value: undefined };
	const echoed = isPlainObject(read.value) && read.value[field] === null;
	return echoed ? { value: read.value, echoedBytes: size.bytes } : { value: read.value };
}
