/**
 * The sandbox's records of a verification: the list of a client's verifications, its data, its
 * photos (pre-signed links to the sandbox itself), its report, its deletion and its blocklists,
 * with state: a deleted verification answers as deleted everywhere.
 */
import { createHmac } from 'node:crypto';
import {
	corpusJson,
	responseSchema,
	schemaErrors,
	webhookSchemas,
	type JsonSchema,
} from '../real-service/provider.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';

/** A checker of answers against the provider's schema of that operation's answer. */
const provider = (path: string, method: string, status: number) => {
	const schema = responseSchema(path, method, status);
	if (!schema) throw new Error(`no schema for ${method} ${path} ${status}`);
	return (value: unknown) => schemaErrors(schema, value);
};
const LIST = provider('/kyc/identifications/', 'get', 200);
const BLOCKLISTED = provider(
	'/kyc/identifications/{scanRef}/blocklists/{blocklistSource}/',
	'post',
	201,
);
/** The `data` of the provider's identification webhook: what /api/v2/data answers (the same fields). */
const DATA_SCHEMA = (webhookSchemas().get('IDENTIFICATION') as { properties: JsonSchema })
	.properties.data as JsonSchema;

describe('sandbox KYC records', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s), { webhooks: { retryDelaysMs: [] } });

	/** A verification of `clientId` the automated review finished with `overall`. */
	async function finished(clientId: string, overall = 'APPROVED'): Promise<string> {
		const { scanRef } = sb.kyc.createSession(clientId);
		await sb.kyc.autoFinish(scanRef, { final: true, overall });
		return scanRef;
	}

	describe('GET /kyc/identifications/', () => {
		test('lists the verifications of a client, newest first, in pages with count, next and previous', async () => {
			const refs = [];
			for (let i = 0; i < 5; i++) refs.push(await finished('client-list'));
			await finished('someone-else');
			const first = await call(sb, 'GET', '/kyc/identifications/?clientId=client-list&perPage=2');
			expect(first.status).toBe(200);
			expect(LIST(first.json)).toEqual([]);
			expect(first.json).toEqual({
				count: 5,
				next: `${sb.url}/kyc/identifications/?clientId=client-list&perPage=2&page=2`,
				previous: null,
				results: [
					{ scanRef: refs[4], status: 'APPROVED', suspected: false },
					{ scanRef: refs[3], status: 'APPROVED', suspected: false },
				],
			});
			const last = await call(
				sb,
				'GET',
				'/kyc/identifications/?clientId=client-list&perPage=2&page=3',
			);
			expect(last.json.results).toEqual([
				{ scanRef: refs[0], status: 'APPROVED', suspected: false },
			]);
			expect(last.json.next).toBeNull();
			const beyond = await call(
				sb,
				'GET',
				'/kyc/identifications/?clientId=client-list&perPage=2&page=4',
			);
			expect(beyond.status).toBe(404);
		});

		test('says ACTIVE while the link can be used, SUSPECTED as suspected, and an unknown client has none', async () => {
			const { scanRef: active } = sb.kyc.createSession('client-states');
			const suspected = await finished('client-states', 'SUSPECTED');
			const res = await call(sb, 'GET', '/kyc/identifications/?clientId=client-states');
			expect(res.json.results).toEqual([
				{ scanRef: suspected, status: 'SUSPECTED', suspected: true },
				{ scanRef: active, status: 'ACTIVE', suspected: false },
			]);
			const none = await call(sb, 'GET', '/kyc/identifications/?clientId=nobody');
			expect(none.json).toEqual({ count: 0, next: null, previous: null, results: [] });
		});

		test('a verification seeded as finished long ago: listed, its result dated then, nothing sent', async () => {
			const startedAt = Date.UTC(2020, 0, 15, 9, 30);
			const { scanRef } = sb.kyc.seedFinished('client-history', { startedAt, overall: 'DENIED' });
			const list = await call(sb, 'GET', '/kyc/identifications/?clientId=client-history');
			expect(list.json.results).toEqual([{ scanRef, status: 'DENIED', suspected: false }]);
			const full = await call(sb, 'POST', '/api/v2/full', { body: { scanRef } });
			expect(full.json).toMatchObject({
				scanRef,
				clientId: 'client-history',
				startTime: startedAt / 1000,
				finishTime: startedAt / 1000 + 300,
				status: { overall: 'DENIED' },
			});
			expect(sb.webhooks.log).toEqual([]);
			// Its link is long over: its data can be deleted.
			expect((await call(sb, 'POST', '/api/v2/delete', { body: { scanRef } })).status).toBe(200);
		});
	});

	describe('POST /api/v2/data and /api/v2/files', () => {
		test('the data read from the document, and a link per photo that serves it without credentials', async () => {
			const scanRef = await finished('client-data');
			const data = await call(sb, 'POST', '/api/v2/data', { body: { scanRef } });
			expect(data.status).toBe(200);
			expect(schemaErrors(DATA_SCHEMA, data.json)).toEqual([]);
			expect(data.json).toMatchObject({
				scanRef,
				clientId: 'client-data',
				docLastName: 'ŽEMAITIS',
			});

			const files = await call(sb, 'POST', '/api/v2/files', { body: { scanRef } });
			expect(Object.keys(files.json)).toEqual([
				'FRONT',
				'BACK',
				'FACE',
				'FRONT_VIDEO',
				'BACK_VIDEO',
				'FACE_VIDEO',
			]);
			expect(files.json.FRONT_VIDEO).toBeNull();
			const link = new URL(files.json.FACE);
			expect(link.origin).toBe(sb.url);
			expect(link.pathname).toBe(`/files/${scanRef}/FACE.png`);
			const photo = await call(sb, 'GET', files.json.FACE, { auth: 'none' });
			expect(photo.status).toBe(200);
			// A JPEG behind a .png link: the type is in the bytes.
			expect(photo.body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
			const front = await call(sb, 'GET', files.json.FRONT, { auth: 'none' });
			expect(front.body.subarray(1, 4).toString('latin1')).toBe('PNG');
		});

		test('an altered or expired link is refused with 403, as the storage refuses it', async () => {
			const scanRef = await finished('client-links');
			const { json } = await call(sb, 'POST', '/api/v2/files', { body: { scanRef } });
			const altered = json.FRONT.replace('FRONT.png', 'BACK.png');
			expect((await call(sb, 'GET', altered, { auth: 'none' })).status).toBe(403);
			const path = `/files/${scanRef}/FRONT.png`;
			const past = String(Math.floor(Date.now() / 1000) - 1);
			const signature = createHmac('sha256', sb.credentials.apiSecret)
				.update(`${path}?${past}`)
				.digest('hex');
			const expired = await call(sb, 'GET', `${path}?Expires=${past}&Signature=${signature}`, {
				auth: 'none',
			});
			expect(expired.status).toBe(403);
			expect(expired.text).toContain('Request has expired');
		});

		test('a verification nobody went through has no data and no files', async () => {
			const { scanRef } = sb.kyc.createSession('client-new');
			const data = await call(sb, 'POST', '/api/v2/data', { body: { scanRef } });
			expect(data.json.docLastName).toBeNull();
			const files = await call(sb, 'POST', '/api/v2/files', { body: { scanRef } });
			expect(Object.values(files.json).every((link) => link === null)).toBe(true);
			expect((await call(sb, 'POST', '/api/v2/data', { body: { scanRef: 'nope' } })).status).toBe(
				404,
			);
		});
	});

	describe('POST /api/v2/generate-pdf', () => {
		test('answers base64 text of a PDF by default, the PDF itself when set, in the language asked', async () => {
			const scanRef = await finished('client-report');
			const text = await call(sb, 'POST', '/api/v2/generate-pdf', {
				body: { scanRef, language: 'lt', includeMainStepFiles: false },
			});
			expect(text.status).toBe(200);
			expect(text.text.startsWith('JVBERi0')).toBe(true);
			const pdf = Buffer.from(text.text, 'base64').toString('latin1');
			expect(pdf).toContain(`Scan reference: ${scanRef}`);
			expect(pdf).toContain('Language: lt');
			expect(pdf).toContain('Photos: not included');
			sb.kyc.setReportEncoding('bytes');
			const bytes = await call(sb, 'POST', '/api/v2/generate-pdf', { body: { scanRef } });
			expect(bytes.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		});

		test('setFileSize pads the report (either encoding) and each photo of a verification to the size', async () => {
			const scanRef = await finished('client-big');
			sb.setFileSize(scanRef, 300_000);
			sb.kyc.setReportEncoding('bytes');
			const bytes = await call(sb, 'POST', '/api/v2/generate-pdf', { body: { scanRef } });
			expect(bytes.body.length).toBe(300_000);
			expect(bytes.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
			sb.kyc.setReportEncoding('base64');
			const text = await call(sb, 'POST', '/api/v2/generate-pdf', { body: { scanRef } });
			expect(Buffer.from(text.text, 'base64').equals(bytes.body)).toBe(true);
			const { json: links } = await call(sb, 'POST', '/api/v2/files', { body: { scanRef } });
			const front = await call(sb, 'GET', links.FRONT, { auth: 'none' });
			expect(front.body.length).toBe(300_000);
			expect(front.body.subarray(1, 4).toString('latin1')).toBe('PNG');
			sb.reset();
			expect((await call(sb, 'GET', links.FRONT, { auth: 'none' })).body.length).toBeLessThan(1000);
		});

		test('refuses a language the service does not offer', async () => {
			const scanRef = await finished('client-report-2');
			const res = await call(sb, 'POST', '/api/v2/generate-pdf', {
				body: { scanRef, language: 'de' },
			});
			expect(res.status).toBe(400);
			expect(res.json.message).toContain('language');
		});
	});

	describe('POST /api/v2/delete', () => {
		test('deletes a finished verification: no data, no files, old links gone, DELETED everywhere', async () => {
			const scanRef = await finished('client-delete');
			const { json: links } = await call(sb, 'POST', '/api/v2/files', { body: { scanRef } });
			const res = await call(sb, 'POST', '/api/v2/delete', { body: { scanRef } });
			expect(res.status).toBe(200);
			expect(res.text).toBe('');

			const data = await call(sb, 'POST', '/api/v2/data', { body: { scanRef } });
			expect(data.json).toMatchObject({ scanRef, docFirstName: null, docNumber: null });
			const files = await call(sb, 'POST', '/api/v2/files', { body: { scanRef } });
			expect(Object.values(files.json).every((link) => link === null)).toBe(true);
			expect((await call(sb, 'GET', links.FRONT, { auth: 'none' })).status).toBe(404);
			const status = await call(sb, 'POST', '/api/v2/status', { body: { scanRef } });
			expect(status.json.status).toBe('DELETED');
			const list = await call(sb, 'GET', '/kyc/identifications/?clientId=client-delete');
			expect(list.json.results[0].status).toBe('DELETED');
			expect((await call(sb, 'POST', '/api/v2/generate-pdf', { body: { scanRef } })).status).toBe(
				404,
			);
		});

		test('refuses while the link can still be used, and a second time, with the published body', async () => {
			const { scanRef } = sb.kyc.createSession('client-active');
			const active = await call(sb, 'POST', '/api/v2/delete', { body: { scanRef } });
			expect(active.status).toBe(400);
			expect(active.json).toEqual(
				corpusJson('errors/delete.token-not-expired.idenfy-docs-deletion.json'),
			);
			await sb.kyc.expire(scanRef);
			expect((await call(sb, 'POST', '/api/v2/delete', { body: { scanRef } })).status).toBe(200);
			const again = await call(sb, 'POST', '/api/v2/delete', { body: { scanRef } });
			expect(again.status).toBe(400);
			expect(again.json.message).toContain('already been deleted');
		});
	});

	describe('blocklists', () => {
		const path = (scanRef: string, source: string) =>
			`/kyc/identifications/${scanRef}/blocklists/${source}/`;

		test('a face entry and a data entry; a repeat attempt of the client is then SUSPECTED', async () => {
			const scanRef = await finished('fraudster');
			const face = await call(sb, 'POST', path(scanRef, 'SELFIE'), {
				body: { reason: 'Forged document' },
			});
			expect(face.status).toBe(201);
			expect(BLOCKLISTED(face.json)).toEqual([]);
			expect(face.json).toEqual({
				id: scanRef,
				reason: 'Forged document',
				created: expect.any(String),
				faceImageUrl: expect.stringContaining(`/files/${scanRef}/FACE.png`),
			});
			// Sent with a reason: kyc.yaml's data entry has `reason` a required string, not nullable,
			// and the sandbox answers null when no reason is sent.
			const data = await call(sb, 'POST', path(scanRef, 'DOCUMENT_INFO'), {
				body: { reason: 'Same document as a denied attempt' },
			});
			expect(data.status).toBe(201);
			expect(BLOCKLISTED(data.json)).toEqual([]);
			expect(data.json).toMatchObject({
				fullName: 'ĄŽUOLAS ŽEMAITIS',
				documentNumber: '10293847',
				reason: 'Same document as a denied attempt',
			});

			const delivery = await sb.kyc.autoFinish(sb.kyc.createSession('fraudster').scanRef, {
				final: true,
				overall: 'APPROVED',
			});
			const status = JSON.parse(delivery.payload).status;
			expect(status.overall).toBe('SUSPECTED');
			expect(status.fraudTags.sort()).toEqual(['Data_Blacklisted', 'Face_Blacklisted']);
		});

		test('refuses twice, an unknown list and a verification without photos; removes once', async () => {
			const scanRef = await finished('client-bl');
			const added = await call(sb, 'POST', path(scanRef, 'DOCUMENT'), { body: {} });
			expect(added.status).toBe(201);
			expect(BLOCKLISTED(added.json)).toEqual([]);
			expect((await call(sb, 'POST', path(scanRef, 'DOCUMENT'), { body: {} })).status).toBe(409);
			expect((await call(sb, 'POST', path(scanRef, 'FACE'), { body: {} })).status).toBe(400);
			const { scanRef: fresh } = sb.kyc.createSession('client-bl');
			expect((await call(sb, 'POST', path(fresh, 'SELFIE'), { body: {} })).status).toBe(409);
			expect((await call(sb, 'DELETE', path(scanRef, 'DOCUMENT'))).status).toBe(204);
			expect((await call(sb, 'DELETE', path(scanRef, 'DOCUMENT'))).status).toBe(404);
			// Off the list: a later approved result of the client stays approved.
			const later = await sb.kyc.autoFinish(sb.kyc.createSession('client-bl').scanRef, {
				final: true,
			});
			expect(JSON.parse(later.payload).status.overall).toBe('APPROVED');
		});
	});

	describe('POST …/request-information/', () => {
		test('takes the options of the provider’s schema and refuses what it refuses', async () => {
			const scanRef = await finished('client-ri');
			const bad = await call(sb, 'POST', `/kyc/identifications/${scanRef}/request-information/`, {
				body: { bankCardExpectedLastFour: '42' },
			});
			expect(bad.status).toBe(400);
			const ok = await call(sb, 'POST', `/kyc/identifications/${scanRef}/request-information/`, {
				body: {
					lifetime: 3600,
					questionnaire: 'onboarding',
					riskAssessmentProfile: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
					additionalStepUploadRequired: true,
					bankCardVerification: true,
					bankCardExpectedLastFour: '4242',
				},
			});
			expect(ok.status).toBe(200);
			expect(ok.json).toEqual({ sessionUrl: expect.any(String), tokenString: expect.any(String) });
		});
	});
});
