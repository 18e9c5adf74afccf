/**
 * A verification's photos, as the service's storage serves them: pre-signed links (the 2021 example:
 * S3, `…/FRONT.png?AWSAccessKeyId=…&Signature=…&Expires=…`) that "expire after 1 hour" (the
 * verification report page), fetched without credentials. The sandbox's links point at the sandbox
 * itself (`/files/{scanRef}/{KIND}.png`), so a node on this machine may follow them; an expired or
 * altered link is answered 403 and a deleted photo 404, with S3's XML error bodies.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Reply, Req } from './http.cjs';

/** How long a link works, as the service documents. */
const FILE_LINK_LIFETIME_MS = 60 * 60 * 1000;

/**
 * 8×8 pictures (checked to decode in Chromium): the document's sides as PNG, the face as JPEG.
 * Every link ends in `.png`, as in the provider's example: the node must tell a file's type by its
 * bytes, not by its name.
 */
const PHOTOS: Record<string, Buffer> = {
	FRONT: Buffer.from(
		'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mM4ce0FVsQwtCQAEnmhgYi8l68AAAAASUVORK5CYII=',
		'base64',
	),
	BACK: Buffer.from(
		'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mO49uIEVsQwtCQAHfmhgdyaEGUAAAAASUVORK5CYII=',
		'base64',
	),
	FACE: Buffer.from(
		'/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIAAgBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQAAPwD6Af/Z',
		'base64',
	),
};

/** The kinds of file the service lists (former docs, "File urls table"); the videos the sandbox has not. */
export const FILE_KINDS = ['FRONT', 'BACK', 'FACE', 'FRONT_VIDEO', 'BACK_VIDEO', 'FACE_VIDEO'];

/**
 * The photo of a kind, if the sandbox has one; padded to `sizeBytes` (Sandbox.setFileSize) with
 * zeros after the picture, so that its type is still in its first bytes.
 */
export function photoOf(kind: string, sizeBytes = 0): Buffer | undefined {
	const photo = PHOTOS[kind];
	if (!photo || sizeBytes <= photo.length) return photo;
	return Buffer.concat([photo, Buffer.alloc(sizeBytes - photo.length)]);
}

function signature(secret: string, path: string, expires: string): string {
	return createHmac('sha256', secret).update(`${path}?${expires}`).digest('hex');
}

/** A link to a photo that works until `now + FILE_LINK_LIFETIME_MS`. */
export function photoLink(req: Req, secret: string, scanRef: string, kind: string): string {
	const path = `/files/${encodeURIComponent(scanRef)}/${kind}.png`;
	const expires = String(Math.floor((Date.now() + FILE_LINK_LIFETIME_MS) / 1000));
	return `${req.origin}${path}?Expires=${expires}&Signature=${signature(secret, path, expires)}`;
}

/** S3's error answer (an XML document). */
function s3Error(status: number, code: string, message: string): Reply {
	const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
	return {
		status,
		headers: { 'Content-Type': 'application/xml' },
		buffer: Buffer.from(xml),
	};
}

function validSignature(secret: string, req: Req, expires: string): boolean {
	const given = Buffer.from(req.query.get('Signature') ?? '');
	const expected = Buffer.from(signature(secret, req.path, expires));
	return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /files/{scanRef}/{KIND}.png: the photo, while the link is valid and the photo still exists.
 * `photo` is undefined for a photo that was deleted.
 */
export function servePhoto(req: Req, secret: string, photo: Buffer | undefined): Reply {
	const expires = req.query.get('Expires') ?? '';
	if (!/^\d+$/.test(expires) || !validSignature(secret, req, expires))
		return s3Error(
			403,
			'SignatureDoesNotMatch',
			'The request signature we calculated does not match the signature you provided.',
		);
	if (Number(expires) * 1000 < Date.now())
		return s3Error(403, 'AccessDenied', 'Request has expired');
	if (!photo) return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
	return { status: 200, headers: { 'Content-Type': 'image/png' }, buffer: photo };
}
