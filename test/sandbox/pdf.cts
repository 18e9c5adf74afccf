/**
 * A real, valid PDF 1.4 (catalog, page tree, one page with Helvetica text, xref table, trailer)
 * whose text names the AML check and profile. `sizeBytes` pads the file to exactly that size with an
 * unreferenced stream object placed before the xref table, so a 50 MB PDF costs only the padding's
 * bytes and can be streamed in chunks.
 */
import { Readable } from 'node:stream';

export interface PdfOptions {
	title: string;
	lines: string[];
	/** Exact size of the file; smaller than the minimal document means the minimal document. */
	sizeBytes?: number;
}

export interface PdfPlan {
	size: number;
	/** Yields the file in chunks (padding in ≤ 1 MiB pieces). */
	stream(): Readable;
	/** The whole file in memory (fine for small files). */
	toBuffer(): Buffer;
}

/** PDF string literal escaping, limited to printable Latin-1 (WinAnsi) text. */
function pdfString(text: string): string {
	const ascii = text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^\x20-\x7e]/g, '?');
	return `(${ascii.replace(/([\\()])/g, '\\$1')})`;
}

const PAD_CHUNK = Buffer.alloc(1024 * 1024, 0x20);

/** The document before the xref table, and where each of its objects starts. */
interface PdfHead {
	bytes: Buffer;
	offsets: number[];
}

/** What pads the file to a size: the padding object's header, its length and the matching tail. */
interface Padding {
	header: Buffer;
	padLength: number;
	tail: Buffer;
}

const PAD_FOOTER = Buffer.from('\nendstream\nendobj\n', 'latin1');

/** Catalog, page tree, the page, its text, the font and the info dictionary, with their offsets. */
function pdfHead(opts: PdfOptions): PdfHead {
	const text = [`BT /F1 18 Tf 72 760 Td ${pdfString(opts.title)} Tj ET`];
	opts.lines.forEach((line, i) =>
		text.push(`BT /F1 11 Tf 72 ${724 - i * 18} Td ${pdfString(line)} Tj ET`),
	);
	const content = `${text.join('\n')}\n`;

	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
		`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
		`<< /Title ${pdfString(opts.title)} /Producer (identity verification sandbox) >>`,
	];
	let head = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
	const offsets: number[] = [];
	objects.forEach((body, i) => {
		offsets.push(Buffer.byteLength(head, 'latin1'));
		head += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	return { bytes: Buffer.from(head, 'latin1'), offsets };
}

/** The xref table and trailer; with `padObject`, the padding object (right after the head) too. */
function pdfTail(head: PdfHead, xrefOffset: number, padObject: boolean): Buffer {
	const count = head.offsets.length + (padObject ? 1 : 0) + 1;
	const entries = [
		'0000000000 65535 f \n',
		...head.offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
	];
	if (padObject) entries.push(`${String(head.bytes.length).padStart(10, '0')} 00000 n \n`);
	return Buffer.from(
		`xref\n0 ${count}\n${entries.join('')}trailer\n<< /Size ${count} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xrefOffset}\n%%EOF`,
		'latin1',
	);
}

/** The padding that makes the file exactly `target` bytes, if there is one. */
function padding(head: PdfHead, target: number): Padding | undefined {
	const padId = head.offsets.length + 1;
	const padHeader = (length: number, spaces: number) =>
		Buffer.from(
			`${padId} 0 obj\n<< /Length ${length}${' '.repeat(spaces + 1)}>>\nstream\n`,
			'latin1',
		);
	// Solve size = head + header(L) + L + footer + tail(xref) for L: try every digit count of L and of
	// the xref offset; a spare space in the dictionary fills the sizes a digit boundary skips.
	const digits = (n: number) => String(n).length;
	const tailFixed = pdfTail(head, 0, true).length - 1;
	for (let spaces = 0; spaces < 3; spaces++) {
		const headerFixed = padHeader(0, spaces).length - 1;
		for (let dL = 1; dL <= 16; dL++) {
			for (let dX = 1; dX <= 16; dX++) {
				const length =
					target - head.bytes.length - headerFixed - dL - PAD_FOOTER.length - tailFixed - dX;
				if (length < 0 || digits(length) !== dL) continue;
				const xref = head.bytes.length + headerFixed + dL + length + PAD_FOOTER.length;
				if (digits(xref) !== dX) continue;
				return {
					header: padHeader(length, spaces),
					padLength: length,
					tail: pdfTail(head, xref, true),
				};
			}
		}
	}
	return undefined;
}

/** The padded file, yielded in chunks so the padding is never in memory whole. */
function paddedPlan(head: PdfHead, { header, padLength, tail }: Padding): PdfPlan {
	const size = head.bytes.length + header.length + padLength + PAD_FOOTER.length + tail.length;
	function* chunks(): Generator<Buffer> {
		yield head.bytes;
		yield header;
		for (let left = padLength; left > 0; left -= PAD_CHUNK.length) {
			yield left >= PAD_CHUNK.length ? PAD_CHUNK : PAD_CHUNK.subarray(0, left);
		}
		yield PAD_FOOTER;
		yield tail;
	}
	return {
		size,
		stream: () => Readable.from(chunks(), { objectMode: false }),
		toBuffer: () => Buffer.concat([...chunks()]),
	};
}

export function buildPdf(opts: PdfOptions): PdfPlan {
	const head = pdfHead(opts);
	const minimal = Buffer.concat([head.bytes, pdfTail(head, head.bytes.length, false)]);
	const target = opts.sizeBytes ?? 0;
	const plan = target > minimal.length ? padding(head, target) : undefined;
	if (plan) return paddedPlan(head, plan);
	return {
		size: minimal.length,
		stream: () => Readable.from([minimal]),
		toBuffer: () => minimal,
	};
}
