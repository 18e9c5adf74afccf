/**
 * Files: a PDF the service makes, or a photo at a link it gave. Each is stored in n8n's binary
 * store while it downloads (never whole in memory here), under the bounds of every answer (limits:
 * time, a minimum rate, Max File Size), after its first bytes show it is a file of the kind asked
 * for: an HTML page of a proxy, or an error text, never passes for a report. Its type and file name
 * come from its bytes, not from what the answer declares (detectFileType, also what an upload is
 * checked with). The nodes import this file for files, index.ts for everything else.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { fileLinkProblem, shownUrl } from '../../shared/urlGuards';
import type { PoaFileType } from '../../shared/contract';
import { resolveCredential } from './credential';
import { apiRequest, linkRequest } from './index';
import type { AnswerStream, ApiRequest, AuthMode } from './types';

/** What a downloaded file is to become in n8n. */
export interface FileToStore {
	/** Its file name without extension; the extension comes from the type its bytes show. */
	name: string;
	/** The types it may be (`pdf`, `jpeg`, `png`, …, from fileType.ts). */
	accepts: string[];
	/** What it is, for messages: `PDF report`, `photo`. */
	what: string;
	/** It may also come as base64 text of the file (decoded as it arrives). */
	base64?: boolean;
}

/** A file stored in n8n's binary store. */
export interface DownloadedFile {
	binary: IBinaryData;
	fileName: string;
	mimeType: string;
	fileSize: number;
}

/** File name extensions of the file types a download may be, by mime type. */
const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/webp': 'webp',
	'image/heic': 'heic',
	'image/heif': 'heif',
	'video/mp4': 'mp4',
	'video/quicktime': 'mov',
};

/** A file the service answers a request with (a PDF), with the request's credential. */
export async function downloadFile(
	this: IExecuteFunctions,
	auth: AuthMode,
	req: ApiRequest,
	file: FileToStore,
): Promise<DownloadedFile> {
	const store = async (body: AnswerStream) => await storeFile.call(this, body, file, req.itemIndex);
	const answer = await apiRequest.call(this, auth, { ...req, response: 'binary', read: store });
	return answer.body as DownloadedFile;
}

/**
 * A file at a link the service gave: no credential goes with it, only an https link to a public
 * host is fetched (urlGuards.ts), and no redirect is followed.
 */
export async function downloadLink(
	this: IExecuteFunctions,
	link: string,
	file: FileToStore,
	req: Pick<ApiRequest, 'itemIndex' | 'maxBytes' | 'tooLarge'>,
): Promise<DownloadedFile> {
	const { baseUrl } = await resolveCredential.call(this, 'apiKey', req.itemIndex);
	const problem = fileLinkProblem(link, baseUrl);
	if (problem) {
		throw new NodeOperationError(
			this.getNode(),
			`The service gave a link for the ${file.what} that is not followed: ${problem}`,
			{
				itemIndex: req.itemIndex,
				description: `The link was ${shownUrl(link)}. Files are downloaded only over https from a public address. Report it to the service provider.`,
			},
		);
	}
	const store = async (body: AnswerStream) => await storeFile.call(this, body, file, req.itemIndex);
	const answer = await linkRequest.call(this, link, { ...req, response: 'binary', read: store });
	return answer.body as DownloadedFile;
}

/** The answer checked by its first bytes, then stored, with the size n8n kept checked. */
async function storeFile(
	this: IExecuteFunctions,
	body: AnswerStream,
	file: FileToStore,
	itemIndex: number | undefined,
): Promise<DownloadedFile> {
	const { head, ended } = await peekHead(body);
	const answer = contentOf(body, head, ended, file);
	const type = checkedType.call(this, answer.type, file, itemIndex);
	const mimeType = type.mimeType as string;
	const fileName = `${file.name}.${EXTENSIONS[mimeType]}`.replace(/[^\w.-]/g, '_');
	// n8n's helper takes a Node stream, which the answer is (its type here names what is used of it).
	const content = answer.content as unknown as Buffer;
	const binary = await this.helpers.prepareBinaryData(content, fileName, mimeType);
	const fileSize = await checkedSize.call(
		this,
		binary,
		{ arrived: answer.arrived, what: file.what },
		itemIndex,
	);
	return { binary, fileName, mimeType, fileSize };
}

/** Text of the base64 alphabets with line breaks or spaces, and its padding. */
const BASE64_TEXT = /^[A-Za-z0-9+/_=\s-]+$/;

/**
 * What to store, judged by the first bytes: the answer as it is, or (when the file may come as
 * base64 text and the text decodes to a file of an accepted type) the answer decoded as it arrives.
 * A file that ended within its first bytes is all in `head`: nothing is left in the stream.
 * `arrived`: the bytes of the file that had arrived before the hand-over.
 */
function contentOf(
	body: AnswerStream,
	head: Buffer,
	ended: boolean,
	file: FileToStore,
): { type: DetectedFileType; content: Buffer | AnswerStream; arrived: number } {
	if (file.base64 && BASE64_TEXT.test(head.toString('latin1'))) {
		const decoder = base64Decoder();
		const start = Buffer.concat([decoder.push(head), ended ? decoder.end() : Buffer.alloc(0)]);
		const type = detectFileType(start);
		if (file.accepts.includes(type.type)) {
			const content = ended ? start : decodedStream(body, base64Decoder());
			return { type, content, arrived: start.length };
		}
	}
	return { type: detectFileType(head), content: ended ? head : body, arrived: head.length };
}

/** The answer decoded as it arrives, through Node's own stream composition. */
function decodedStream(
	body: AnswerStream,
	decoder: ReturnType<typeof base64Decoder>,
): AnswerStream {
	return body.compose(async function* (text: AsyncIterable<Uint8Array>) {
		for await (const chunk of text) yield decoder.push(chunk);
		yield decoder.end();
	});
}

/** Refuses an answer of another type (e.g. an HTML page of a proxy), naming what it was. */
function checkedType(
	this: IExecuteFunctions,
	detected: DetectedFileType,
	file: FileToStore,
	itemIndex: number | undefined,
): DetectedFileType {
	if (file.accepts.includes(detected.type) && EXTENSIONS[detected.mimeType ?? '']) return detected;
	throw new NodeOperationError(
		this.getNode(),
		`The service did not return a ${file.what} (received a ${detected.name})`,
		{
			itemIndex,
			description:
				'Check that the IDs in the node belong together and try again. If it keeps happening, report it to the service provider.',
		},
	);
}

/** Enough of a file's first bytes to tell its type (an ISO media file lists its brands there). */
const HEAD_BYTES = 64;

/**
 * The first bytes of the stream (HEAD_BYTES, or all of it when it ends sooner: `ended`), left in
 * it: what was read is put back in the same turn as the last read, before the stream could end, so
 * the whole file still reads from its start. A trickling service's first bytes may come in several
 * chunks.
 */
async function peekHead(stream: AnswerStream): Promise<{ head: Buffer; ended: boolean }> {
	return await new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const tryRead = () => {
			while (size < HEAD_BYTES) {
				const chunk = stream.read();
				if (chunk === null) return void stream.once('readable', tryRead);
				chunks.push(chunk);
				size += chunk.length;
			}
			stream.unshift(Buffer.concat(chunks));
			done(false);
		};
		// The stream ended before: nothing to put back, the file is what came.
		const onEnd = () => done(true);
		const onError = (error: unknown) => {
			stream.removeListener('end', onEnd);
			stream.removeListener('readable', tryRead);
			reject(error as Error);
		};
		const done = (ended: boolean) => {
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
			stream.removeListener('readable', tryRead);
			resolve({ head: Buffer.concat(chunks), ended });
		};
		stream.once('end', onEnd);
		stream.once('error', onError);
		tryRead();
	});
}

/** Bytes a base64 text decodes to (without decoding it). */
function base64Bytes(text: string): number {
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	return Math.floor((text.length * 3) / 4) - padding;
}

/**
 * The size in bytes of the file n8n stored. n8n 2.x reports it (`bytes`). n8n 1.x does not: its
 * stored binary data carries only a rounded text ("1.16 kB"), so there the size is read from what
 * it stored: the metadata of a file it stored by id (filesystem, S3, database), or the length of
 * data it keeps inline (base64, its default mode). Undefined when n8n tells neither.
 */
async function storedSize(
	this: IExecuteFunctions,
	binaryData: IBinaryData,
): Promise<number | undefined> {
	if (typeof binaryData.bytes === 'number') return binaryData.bytes;
	if (binaryData.id) {
		if (typeof this.helpers.getBinaryMetadata !== 'function') return undefined;
		const metadata = await this.helpers.getBinaryMetadata(binaryData.id);
		return Number.isSafeInteger(metadata?.fileSize) ? metadata.fileSize : undefined;
	}
	return typeof binaryData.data === 'string' && binaryData.data !== ''
		? base64Bytes(binaryData.data)
		: undefined;
}

/**
 * The stored file's size. Evidence must never pass on as complete when it may not be: no size, or
 * fewer bytes than had arrived before the hand-over, fails the item.
 */
async function checkedSize(
	this: IExecuteFunctions,
	binaryData: IBinaryData,
	{ arrived, what }: { arrived: number; what: string },
	itemIndex: number | undefined,
): Promise<number> {
	const n8nLine =
		typeof binaryData.bytes === 'number'
			? 'this n8n'
			: 'n8n 1.x (it stores files without a byte count)';
	const fileSize = await storedSize.call(this, binaryData);
	if (fileSize === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`n8n stored the ${what} but reported no size for it`,
			{
				itemIndex,
				description: `Whether the file is complete cannot be checked on ${n8nLine}. Update n8n to 2.x (it reports the size of every file it stores) and run it again.`,
			},
		);
	}
	if (fileSize < arrived) {
		throw new NodeOperationError(
			this.getNode(),
			`n8n stored an incomplete ${what} (${fileSize} bytes)`,
			{
				itemIndex,
				description: `At least ${arrived} bytes arrived, but ${n8nLine} kept ${fileSize}. Update n8n to 2.x and run it again.`,
			},
		);
	}
	return fileSize;
}

// What a file is, from its first bytes.

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

// Base64 text decoded as it arrives (the service sends its verification report "in Base64 format"):
// the whole 4-character groups of each piece at once, the rest with the next, read as Node's
// `Buffer.from(text, 'base64')` reads it whole (its test compares them): characters outside the
// alphabet, such as line breaks, are skipped, and the text ends at its first `=`.

/** Characters of neither base64 alphabet (standard or URL-safe). */
const NOT_BASE64 = /[^A-Za-z0-9+/_-]/g;

interface Base64Decoder {
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
