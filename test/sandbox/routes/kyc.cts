/**
 * The identification (KYC) endpoints: token, status, request-information, the list of a client's
 * verifications, a verification's data, files, report and deletion, and its blocklists; answered
 * as the service answers them where the contract is silent (README), from the state of kyc.cts.
 */
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import {
	BLOCKLIST_SOURCES,
	reportPdfRequestSchema,
	requestInformationParamsSchema,
	scanRefRequestSchema,
	scanRefSchema,
	verificationTokenRequestSchema,
} from '../../../nodes/shared/contract';
import { documentData, identificationBody } from '../bodies.cjs';
import { DEFAULT_EXPIRY_TIME } from '../kyc.cjs';
import type { SandboxCore } from '../core.cjs';
import { bodyObject, HttpError, json, notFound, parseOr400 } from '../http.cjs';
import type { Reply, Req } from '../http.cjs';
import { buildPdf } from '../pdf.cjs';
import { FILE_KINDS, photoLink, photoOf, servePhoto } from '../photos.cjs';
import type { Route } from '../router.cjs';
import type { BlocklistEntry, KycSession } from '../types.cjs';
import { pageLink, pageOf, perPageOf } from './bank.cjs';

/** Seconds; used when the request does not set it (the service's documented default). */
const DEFAULT_SESSION_LENGTH = 600;

/** The request-information body is optional; its fields are checked as kyc.yaml says. */
const requestInformationSchema = requestInformationParamsSchema
	.omit({ scanRef: true })
	.passthrough();

const statusRequestSchema = z.object({ scanRef: scanRefSchema });

/** The hosted verification page of a token, on the address the client used. */
export function redirectUrlOf(req: Pick<Req, 'origin'>, authToken: string): string {
	return `${req.origin}/api/v2/redirect?authToken=${encodeURIComponent(authToken)}`;
}

/** The 8-digit code for the provider's mobile app, only when asked for. */
function digitString(request: Record<string, unknown>): string | null {
	return request.generateDigitString === true ? String(randomInt(10_000_000, 100_000_000)) : null;
}

/**
 * What POST /api/v2/status reports: the last result's status block, ACTIVE while the person can
 * still use the link, REVIEWING while a person reviews it (manual values empty until reviewed, as
 * the service documents), DELETED once its data was deleted.
 */
function statusOf(session: KycSession): Record<string, unknown> {
	const last = session.lastStatus;
	const active = session.state === 'IN_PROGRESS' || session.state === 'REUPLOAD_REQUESTED';
	return {
		status: overallOf(session),
		scanRef: session.scanRef,
		clientId: session.clientId,
		autoDocument: active ? null : (last?.autoDocument ?? null),
		autoFace: active ? null : (last?.autoFace ?? null),
		manualDocument: active ? null : (last?.manualDocument ?? null),
		manualFace: active ? null : (last?.manualFace ?? null),
		fraudTags: active ? [] : (last?.fraudTags ?? []),
		mismatchTags: active ? [] : (last?.mismatchTags ?? []),
	};
}

/** The overall status: DELETED once its data was deleted (the provider's vocabulary page). */
function overallOf(session: KycSession): string {
	const last = session.lastStatus;
	if (session.deletedAt !== undefined) return 'DELETED';
	if (session.state === 'IN_PROGRESS' || session.state === 'REUPLOAD_REQUESTED' || !last)
		return 'ACTIVE';
	if (session.state === 'AWAITING_MANUAL_REVIEW') return 'REVIEWING';
	return String(last.overall);
}

/** The session a `{scanRef}` body names (404 for an unknown one). */
function sessionOf(req: Req, core: SandboxCore): KycSession {
	const { scanRef } = parseOr400(scanRefRequestSchema, bodyObject(req));
	const session = core.kyc.get(scanRef);
	if (!session) throw notFound(`No identification ${scanRef}.`);
	return session;
}

/**
 * GET /kyc/identifications/?clientId=: a page of `{scanRef, status, suspected}`, newest first, with
 * the bank list's DRF page-number pagination.
 */
function listPage(req: Req, core: SandboxCore): Reply {
	const sessions = core.kyc.list(req.query.get('clientId'));
	const perPage = perPageOf(req.query.get('perPage'));
	const lastPage = Math.max(1, Math.ceil(sessions.length / perPage));
	const page = pageOf(req.query.get('page'), lastPage);
	const results = sessions.slice((page - 1) * perPage, page * perPage).map((session) => ({
		scanRef: session.scanRef,
		status: overallOf(session),
		suspected: session.lastStatus?.overall === 'SUSPECTED',
	}));
	return json(200, {
		count: sessions.length,
		next: page < lastPage ? pageLink(req, page + 1) : null,
		previous: page > 1 ? pageLink(req, page - 1) : null,
		results,
	});
}

/**
 * POST /api/v2/full: the last result in the webhook's structure, with the provider's two
 * differences: `final` always false, and no REVIEWING (the automatic result while a review is
 * pending). Before any result, or once the data is deleted, a body with nothing read.
 */
function fullResult(req: Req, core: SandboxCore): Reply {
	const session = sessionOf(req, core);
	const ids = { scanRef: session.scanRef, clientId: session.clientId };
	if (session.lastResult && core.kyc.hasData(session))
		return json(200, { ...session.lastResult, final: false });
	const overall = overallOf(session);
	const body = identificationBody('IDENTIFICATION', { ...ids, overall, checked: false });
	return json(200, { ...body, final: false });
}

/** POST /api/v2/files: a link per kind (null when there is none, or the data was deleted). */
function fileLinks(req: Req, core: SandboxCore): Reply {
	const session = sessionOf(req, core);
	const read = core.kyc.hasData(session);
	const links = FILE_KINDS.map((kind) => [
		kind,
		read && photoOf(kind)
			? photoLink(req, core.credentials.apiSecret, session.scanRef, kind)
			: null,
	]);
	return json(200, Object.fromEntries(links));
}

/** The report's PDF (its text names the verification, the language and the photos it includes). */
function reportPdf(req: Req, core: SandboxCore): Reply {
	const request = parseOr400(reportPdfRequestSchema, bodyObject(req));
	const session = core.kyc.get(request.scanRef);
	if (!session || session.deletedAt !== undefined) throw notFound();
	const photos = request.includeMainStepFiles === false ? 'not included' : 'FRONT, BACK, FACE';
	const pdf = buildPdf({
		title: 'Identity verification report',
		lines: [
			`Scan reference: ${session.scanRef}`,
			`Client ID: ${session.clientId}`,
			`Status: ${overallOf(session)}`,
			`Language: ${request.language ?? 'en'}`,
			`Photos: ${photos}`,
			'Generated by the identity verification sandbox (test data).',
		],
		sizeBytes: core.fileSizes.get(session.scanRef),
	}).toBuffer();
	const bytes = core.kyc.reportEncoding === 'bytes';
	return {
		status: 200,
		headers: { 'Content-Type': bytes ? 'application/pdf' : 'text/plain' },
		buffer: bytes ? pdf : Buffer.from(pdf.toString('base64')),
	};
}

const blocklistSourceSchema = z.enum(BLOCKLIST_SOURCES);
const blocklistBodySchema = z.object({ reason: z.string().nullish() });

/** The entry the service answers: a face (SELFIE, DOCUMENT) or the document's data (DOCUMENT_INFO). */
function blocklistEntry(
	req: Req,
	core: SandboxCore,
	session: KycSession,
	source: string,
): BlocklistEntry {
	const reason = parseOr400(blocklistBodySchema, bodyObject(req)).reason ?? null;
	const created = new Date().toISOString();
	if (source !== 'DOCUMENT_INFO') {
		const kind = source === 'SELFIE' ? 'FACE' : 'FRONT';
		const faceImageUrl = photoLink(req, core.credentials.apiSecret, session.scanRef, kind);
		return { id: session.scanRef, reason, created, faceImageUrl };
	}
	const data = documentData(true);
	return {
		id: String(randomInt(1, 1_000_000)),
		fullName: data.fullName,
		dateOfBirth: data.docDob,
		personalNumber: data.docPersonalCode,
		documentNumber: data.docNumber,
		nationality: data.docNationality,
		reason,
		created,
	};
}

/** The source of a blocklist path (400 for one the service does not have). */
function blocklistSource(req: Req): string {
	const parsed = blocklistSourceSchema.safeParse(req.params.source);
	if (parsed.success) return parsed.data;
	throw new HttpError(400, {
		identifier: 'BAD_VALUE',
		message: `'${req.params.source}' is not a blocklist: use SELFIE, DOCUMENT or DOCUMENT_INFO.`,
	});
}

export const kycRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/api/v2/token',
		auth: 'basic',
		handler: (req, core) => {
			const body = parseOr400(verificationTokenRequestSchema, bodyObject(req));
			const session = core.kyc.createSession(body.clientId, body);
			return json(201, {
				message: 'Token created successfully',
				...body,
				expiryTime: typeof body.expiryTime === 'number' ? body.expiryTime : DEFAULT_EXPIRY_TIME,
				sessionLength:
					typeof body.sessionLength === 'number' ? body.sessionLength : DEFAULT_SESSION_LENGTH,
				tokenType: typeof body.tokenType === 'string' ? body.tokenType : 'IDENTIFICATION',
				authToken: session.authToken,
				scanRef: session.scanRef,
				clientId: session.clientId,
				redirectUrl: redirectUrlOf(req, session.authToken),
				digitString: digitString(body),
			});
		},
	},
	{
		method: 'POST',
		pattern: '/kyc/identifications/:scanRef/request-information/',
		auth: 'basic',
		handler: (req, core) => {
			const { lifetime } = parseOr400(requestInformationSchema, bodyObject(req));
			const session = core.kyc.requestInformation(
				req.params.scanRef,
				typeof lifetime === 'number' ? lifetime : undefined,
			);
			return json(200, {
				sessionUrl: redirectUrlOf(req, session.authToken),
				tokenString: session.authToken,
			});
		},
	},
	{
		method: 'POST',
		pattern: '/api/v2/status',
		auth: 'basic',
		handler: (req, core) => {
			const { scanRef } = parseOr400(statusRequestSchema, bodyObject(req));
			const session = core.kyc.get(scanRef);
			if (!session) throw notFound(`No identification ${scanRef}.`);
			return json(200, statusOf(session));
		},
	},
	{ method: 'GET', pattern: '/kyc/identifications/', auth: 'basic', handler: listPage },
	{
		method: 'POST',
		pattern: '/api/v2/data',
		auth: 'basic',
		handler: (req, core) => {
			const session = sessionOf(req, core);
			const data = documentData(core.kyc.hasData(session));
			return json(200, { ...data, scanRef: session.scanRef, clientId: session.clientId });
		},
	},
	{ method: 'POST', pattern: '/api/v2/files', auth: 'basic', handler: fileLinks },
	{ method: 'POST', pattern: '/api/v2/full', auth: 'basic', handler: fullResult },
	{
		method: 'GET',
		pattern: '/files/:scanRef/:file',
		auth: 'public',
		handler: (req, core) => {
			const session = core.kyc.get(req.params.scanRef);
			const kind = req.params.file.replace(/\.png$/, '');
			const size = core.fileSizes.get(req.params.scanRef);
			const photo = session && core.kyc.hasData(session) ? photoOf(kind, size) : undefined;
			return servePhoto(req, core.credentials.apiSecret, photo);
		},
	},
	{ method: 'POST', pattern: '/api/v2/generate-pdf', auth: 'basic', handler: reportPdf },
	{
		method: 'POST',
		pattern: '/api/v2/delete',
		auth: 'basic',
		handler: (req, core) => {
			const { scanRef } = parseOr400(scanRefRequestSchema, bodyObject(req));
			core.kyc.deleteData(scanRef);
			// "no message body -- just a response with a 200 status code" (the deletion page)
			return { status: 200 };
		},
	},
	{
		method: 'POST',
		pattern: '/kyc/identifications/:scanRef/blocklists/:source/',
		auth: 'basic',
		handler: (req, core) => {
			const source = blocklistSource(req);
			const session = core.kyc.get(req.params.scanRef);
			if (!session) throw notFound();
			const entry = blocklistEntry(req, core, session, source);
			return json(201, core.kyc.addToBlocklist(session.scanRef, source, entry));
		},
	},
	{
		method: 'DELETE',
		pattern: '/kyc/identifications/:scanRef/blocklists/:source/',
		auth: 'basic',
		handler: (req, core) => {
			core.kyc.removeFromBlocklist(req.params.scanRef, blocklistSource(req));
			return { status: 204 };
		},
	},
];
