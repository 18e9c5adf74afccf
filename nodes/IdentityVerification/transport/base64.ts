/**
 * Base64 text decoded as it arrives (the service sends its verification report "in Base64 format"):
 * the whole 4-character groups of each piece at once, the rest with the next piece, so the file is
 * never whole in memory. It reads the text as Node's `Buffer.from(text, 'base64')` reads it whole
 * (test/foundation/base64.test.cts compares them): characters outside the alphabet, such as line
 * breaks, are skipped, and the text ends at its first `=`.
 */

/** Characters of neither base64 alphabet (standard or URL-safe). */
const NOT_BASE64 = /[^A-Za-z0-9+/_-]/g;

export interface Base64Decoder {
	/** The bytes of the whole groups received so far that were not given yet. */
	push(chunk: Uint8Array): Buffer;
	/** The bytes of the last, partial group (at the end of the text). */
	end(): Buffer;
}

export function base64Decoder(): Base64Decoder {
	let carry = '';
	let padded = false;
	return {
		push(chunk) {
			if (padded) return Buffer.alloc(0);
			// A view of the chunk, not a copy: a copy per chunk doubled the garbage of a large report.
			const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
			let text = carry + bytes.toString('latin1');
			const padding = text.indexOf('=');
			if (padding >= 0) {
				padded = true;
				text = text.slice(0, padding);
			}
			text = text.replace(NOT_BASE64, '');
			const whole = text.length - (text.length % 4);
			carry = text.slice(whole);
			return Buffer.from(text.slice(0, whole), 'base64');
		},
		end() {
			const rest = Buffer.from(carry, 'base64');
			carry = '';
			return rest;
		},
	};
}
