/**
 * Files: a PDF the service makes, or a photo at a link it gave. Each is stored in n8n's binary
 * store while it downloads (never whole in memory here), under the bounds of every answer (limits:
 * time, a minimum rate, Max File Size), after its first bytes show it is a file of the kind asked
 * for: an HTML page of a proxy, or an error text, never passes for a report. Its type and file name
 * come from its bytes, not from what the answer declares.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { fileLinkProblem, shownUrl } from '../../shared/urlGuards';
import { detectFileType } from './fileType';
import type { DetectedFileType } from './fileType';
import { base64Decoder } from './base64';
import { resolveCredential } from './credential';
import { apiRequest, linkRequest } from './request';
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
