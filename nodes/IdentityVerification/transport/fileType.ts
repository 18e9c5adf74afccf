import type { PoaFileType } from '../../shared/contract';

/** What a file really is, judged from its first bytes (never from its name or declared mime type). */
export interface DetectedFileType {
	/** Short id, e.g. `pdf`, `gif`, `text`, `unknown`. */
	type: string;
	/** Human name for messages, e.g. `PDF document`, `GIF image`. */
	name: string;
	/** Set when the service accepts this type for a proof-of-address check. */
	accepted?: PoaFileType;
	/** The mime type to report. */
	mimeType?: string;
}

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['heim', 'heis', 'mif1', 'msf1', 'mif2', 'heif']);

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
	if (bytes.length < offset + signature.length) return false;
	for (let i = 0; i < signature.length; i++) if (bytes[offset + i] !== signature[i]) return false;
	return true;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
	let out = '';
	for (let i = start; i < end && i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
	return out;
}

/** ISO-BMFF (`....ftyp<major><minor><compatible brands...>`): returns HEIC/HEIF or another brand. */
function detectIsoBmff(bytes: Uint8Array): DetectedFileType | undefined {
	if (bytes.length < 12 || ascii(bytes, 4, 8) !== 'ftyp') return undefined;
	const boxSize = ((bytes[0] << 24) >>> 0) + (bytes[1] << 16) + (bytes[2] << 8) + bytes[3];
	const end = Math.min(bytes.length, boxSize >= 16 ? boxSize : 16, 256);
	const brands = [ascii(bytes, 8, 12)];
	for (let offset = 16; offset + 4 <= end; offset += 4)
		brands.push(ascii(bytes, offset, offset + 4));
	if (brands.some((b) => HEIC_BRANDS.has(b))) {
		return { type: 'heic', name: 'HEIC image', accepted: 'heic', mimeType: 'image/heic' };
	}
	// AVIF also lists the generic HEIF brands (mif1, miaf), but the service does not accept it.
	if (brands.some((b) => b === 'avif' || b === 'avis')) return { type: 'avif', name: 'AVIF image' };
	if (brands.some((b) => HEIF_BRANDS.has(b))) {
		return { type: 'heif', name: 'HEIF image', accepted: 'heif', mimeType: 'image/heif' };
	}
	const major = brands[0].trim();
	if (major === 'qt')
		return { type: 'video', name: 'QuickTime video', mimeType: 'video/quicktime' };
	if (['M4V', 'M4A', 'isom', 'mp41', 'mp42', 'iso2', 'dash'].includes(major)) {
		return {
			type: 'video',
			name: `video or audio file (MP4 brand "${major}")`,
			mimeType: 'video/mp4',
		};
	}
	return { type: 'iso-bmff', name: `ISO media file (brand "${major}")` };
}

function looksLikeText(bytes: Uint8Array): boolean {
	const n = Math.min(bytes.length, 1024);
	if (n === 0) return false;
	for (let i = 0; i < n; i++) {
		const b = bytes[i];
		if (b === 0) return false;
		if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) return false;
	}
	return true;
}

/** Detects the real type of a file from its leading bytes. */
export function detectFileType(bytes: Uint8Array): DetectedFileType {
	if (bytes.length === 0) return { type: 'empty', name: 'empty file' };
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
		return { type: 'jpeg', name: 'JPEG image', accepted: 'jpeg', mimeType: 'image/jpeg' };
	}
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
		return { type: 'png', name: 'PNG image', accepted: 'png', mimeType: 'image/png' };
	}
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') {
		return { type: 'webp', name: 'WEBP image', accepted: 'webp', mimeType: 'image/webp' };
	}
	if (ascii(bytes, 0, 5) === '%PDF-') {
		return { type: 'pdf', name: 'PDF document', accepted: 'pdf', mimeType: 'application/pdf' };
	}
	const iso = detectIsoBmff(bytes);
	if (iso) return iso;
	const head = ascii(bytes, 0, 8);
	if (head.startsWith('GIF87a') || head.startsWith('GIF89a'))
		return { type: 'gif', name: 'GIF image' };
	if (head.startsWith('BM')) return { type: 'bmp', name: 'BMP image' };
	if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
		return { type: 'tiff', name: 'TIFF image' };
	}
	if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
		return { type: 'zip', name: 'ZIP archive (or a Word/Excel document)' };
	}
	if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0]))
		return { type: 'ole', name: 'legacy Office document' };
	if (startsWith(bytes, [0x1f, 0x8b])) return { type: 'gzip', name: 'GZIP archive' };
	if (startsWith(bytes, [0x52, 0x61, 0x72, 0x21])) return { type: 'rar', name: 'RAR archive' };
	if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf])) return { type: '7z', name: '7-Zip archive' };
	if (head.startsWith('<svg') || head.startsWith('<?xml'))
		return { type: 'xml', name: 'XML/SVG text file' };
	if (looksLikeText(bytes)) return { type: 'text', name: 'text file' };
	return { type: 'unknown', name: 'file of unknown type' };
}

export const ACCEPTED_FILE_TYPES_TEXT = 'JPEG (.jpg, .jpeg), PNG, WEBP, HEIC, HEIF or PDF';
