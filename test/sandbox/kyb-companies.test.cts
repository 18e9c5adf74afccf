/**
 * The sandbox's KYB sessions and companies: every answer in the provider's shape (checked against
 * its KYB OpenAPI document with ajv), with state (a decided company shows its decision, a deleted
 * one is gone), the webhooks each step sends, and a session's token scoped to its own company.
 */
import { responseSchema, schemaErrors } from '../real-service/provider.cjs';
import { SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';
import type { Receiver } from './test-helpers.cjs';

/** What ajv finds wrong with an answer against the provider's schema of that operation. */
function providerErrors(path: string, method: string, status: number, body: unknown): string[] {
	const schema = responseSchema(path, method, status);
	if (!schema) throw new Error(`${method} ${path} publishes no JSON answer ${status}`);
	return schemaErrors(schema, body);
}

const COMPANY = '/kyb/companies/{id}/';

describe('sandbox KYB sessions and companies', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]), { webhooks: { retryDelaysMs: [] } });

	/** Waits until every delivery started so far is delivered or given up. */
	async function settled() {
		while (sb.webhooks.log.some((d) => d.status === 'pending'))
			await new Promise((resolve) => setTimeout(resolve, 5));
	}

	/** A session, and its company's form filled and submitted from its link. */
	async function submittedCompany(extra: Record<string, unknown> = {}) {
		const session = await call(sb, 'POST', '/kyb/tokens/', {
			body: { tokenType: 'FORM', clientId: 'deal-42', externalRef: 'crm-42', ...extra },
		});
		const { companyId } = await sb.kyb.submitSession(session.json.tokenString);
		await settled();
		return { token: session.json.tokenString as string, companyId };
	}

	test('a session: 201 with its token, in the provider’s KybToken shape', async () => {
		const res = await call(sb, 'POST', '/kyb/tokens/', {
			body: { tokenType: 'FORM', clientId: 'deal-42', lifetime: 600, tags: ['crm', 'eu'] },
		});
		expect(res.status).toBe(201);
		expect(providerErrors('/kyb/tokens/', 'POST', 201, res.json)).toEqual([]);
		expect(res.json).toMatchObject({
			tokenType: 'FORM',
			clientId: 'deal-42',
			companyId: null,
			isValid: true,
			tags: ['crm', 'eu'],
		});
		expect(res.json.tokenString).toMatch(/^[\w-]{30,}$/);
	});

	test.each([
		['no Client ID', { tokenType: 'FORM' }, /Field 'clientId' is required/],
		[
			'a lifetime over 30 days',
			{ tokenType: 'FORM', clientId: 'c', lifetime: 2592001 },
			/lifetime/,
		],
		['a tag with a comma', { tokenType: 'FORM', clientId: 'c', tags: ['a,b'] }, /comma/],
		[
			'six tags',
			{ tokenType: 'FORM', clientId: 'c', tags: ['1', '2', '3', '4', '5', '6'] },
			/at most 5/,
		],
	])('a session with %s is refused (400)', async (_name, body, message) => {
		const res = await call(sb, 'POST', '/kyb/tokens/', { body });
		expect(res.status).toBe(400);
		expect(res.json.message).toMatch(message);
	});

	test('the company submits its form from the link: COMPANY_SUBMIT, and the reviewer sees it waiting', async () => {
		const { companyId } = await submittedCompany();
		expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
			'COMPANY_SUBMIT',
		]);
		expect(receiver.received[0].json).toMatchObject({
			id: companyId,
			clientId: 'deal-42',
			externalRef: 'crm-42',
		});
		const detail = await call(sb, 'GET', `/kyb/companies/${companyId}/`);
		expect(detail.status).toBe(200);
		expect(providerErrors(COMPANY, 'GET', 200, detail.json)).toEqual([]);
		expect(detail.json.meta).toMatchObject({ status: 'NEED_TO_REVIEW', approvalStatus: null });
		expect(detail.json.company.companyName).toBe('UAB Baltic Widgets');
	});

	test('its beneficiaries and every questionnaire’s answers, in the provider’s shapes, with the API key or its own token', async () => {
		const { token, companyId } = await submittedCompany();
		const owners = await call(sb, 'GET', `/kyb/forms/${companyId}/beneficiaries/`, {
			auth: `Bearer ${token}`,
		});
		expect(owners.status).toBe(200);
		expect(
			providerErrors('/kyb/forms/{companyId}/beneficiaries/', 'GET', 200, owners.json),
		).toEqual([]);
		expect(owners.json.map((o: any) => `${o.info.name} ${o.info.surname}`)).toEqual([
			'Jonas Jonaitis',
			'Ona Onaitė',
		]);
		const detail = await call(sb, 'GET', `/kyb/forms/${companyId}/questionnaires/answers/detail/`);
		expect(detail.status).toBe(200);
		expect(
			providerErrors(
				'/kyb/forms/{companyId}/questionnaires/answers/detail/',
				'GET',
				200,
				detail.json,
			),
		).toEqual([]);
	});

	test('a session’s token opens only its own company’s form (403), and not after its lifetime (401)', async () => {
		const { token } = await submittedCompany();
		const other = sb.kyb.addCompany();
		const foreign = await call(sb, 'GET', `/kyb/forms/${other}/beneficiaries/`, {
			auth: `Bearer ${token}`,
		});
		expect(foreign.status).toBe(403);
		const expired = await call(sb, 'POST', '/kyb/tokens/', {
			body: { tokenType: 'FORM', clientId: 'c', lifetime: 0 },
		});
		const late = await call(sb, 'GET', `/kyb/forms/${other}/beneficiaries/`, {
			auth: `Bearer ${expired.json.tokenString}`,
		});
		expect(late.status).toBe(401);
		// A token is never accepted where the provider takes only the API key pair.
		const list = await call(sb, 'GET', '/kyb/companies/', { auth: `Bearer ${token}` });
		expect(list.status).toBe(401);
	});

	test('the list: by registration number, newest first, paged with links', async () => {
		const first = await submittedCompany();
		const second = await submittedCompany();
		const other = sb.kyb.addCompany({ registrationNumber: '999' });
		const page1 = await call(sb, 'GET', '/kyb/companies/?registrationNumber=305123456&perPage=2');
		expect(page1.status).toBe(200);
		expect(providerErrors('/kyb/companies/', 'GET', 200, page1.json)).toEqual([]);
		// The two submitted and the seeded company have the sandbox's registration number.
		expect(page1.json.count).toBe(3);
		expect(page1.json.results.map((r: any) => r.id)).toEqual([second.companyId, first.companyId]);
		const page2 = await call(sb, 'GET', page1.json.next);
		expect(page2.json.results.map((r: any) => r.id)).toEqual([SEED.kyb.companyId]);
		expect(page2.json.next).toBeNull();
		const only = await call(sb, 'GET', '/kyb/companies/?registrationNumber=999');
		expect(only.json.results.map((r: any) => r.id)).toEqual([other]);
	});

	test('a decision: refused while the form is being filled (409); then it shows, and COMPANY_REVIEW is sent', async () => {
		const pending = await call(sb, 'POST', `/kyb/companies/${SEED.kyb.companyId}/change-status/`, {
			body: { status: 'COMPLETED', reviewInfo: { approvalStatus: 'APPROVED' } },
		});
		expect(pending.status).toBe(409);
		expect(pending.json.message).toMatch(/cannot be changed from PENDING/);

		const { companyId } = await submittedCompany();
		const denied = await call(sb, 'POST', `/kyb/companies/${companyId}/change-status/`, {
			body: {
				status: 'COMPLETED',
				reviewInfo: { approvalStatus: 'DENIED', denyReason: 'Owner not verified' },
			},
		});
		expect(denied.status).toBe(200);
		expect(providerErrors('/kyb/companies/{id}/change-status/', 'POST', 200, denied.json)).toEqual(
			[],
		);
		expect(denied.json).toEqual({
			status: 'COMPLETED',
			reviewInfo: { approvalStatus: 'DENIED', denyReason: 'Owner not verified' },
		});
		const detail = await call(sb, 'GET', `/kyb/companies/${companyId}/`);
		expect(detail.json.meta).toMatchObject({
			status: 'COMPLETED',
			approvalStatus: 'DENIED',
			denyReason: 'Owner not verified',
		});
		await settled();
		const review = receiver.received.find(
			(r) => r.headers['service-event-type'] === 'COMPANY_REVIEW',
		);
		expect(review?.json).toMatchObject({
			id: companyId,
			approvalStatus: 'DENIED',
			denyReason: 'Owner not verified',
			clientId: 'deal-42',
		});
	});

	test('a decision’s rules: a deny reason of at most 64 characters, a status of the provider’s', async () => {
		const { companyId } = await submittedCompany();
		const path = `/kyb/companies/${companyId}/change-status/`;
		const long = await call(sb, 'POST', path, {
			body: {
				status: 'COMPLETED',
				reviewInfo: { approvalStatus: 'DENIED', denyReason: 'x'.repeat(65) },
			},
		});
		expect(long.status).toBe(400);
		expect((await call(sb, 'POST', path, { body: { status: 'COMPLETED' } })).status).toBe(400);
		expect((await call(sb, 'POST', path, { body: { status: 'DONE' } })).status).toBe(400);
		const back = await call(sb, 'POST', path, { body: { status: 'NEED_TO_REVIEW' } });
		expect(back.json).toEqual({ status: 'NEED_TO_REVIEW' });
	});

	test('the PDF: a PDF file, its sections checked', async () => {
		const { companyId } = await submittedCompany();
		const pdf = await call(sb, 'POST', `/kyb/companies/${companyId}/pdf/`, {
			body: { password: 'secret', content: ['SUBMITTED_COMPANY_INFO', 'RELATED_SUBJECTS'] },
		});
		expect(pdf.status).toBe(200);
		expect(pdf.headers['content-type']).toBe('application/pdf');
		expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		const bad = await call(sb, 'POST', `/kyb/companies/${companyId}/pdf/`, {
			body: { content: ['EVERYTHING'] },
		});
		expect(bad.status).toBe(400);
		expect((await call(sb, 'POST', '/kyb/companies/nope/pdf/', { body: {} })).status).toBe(404);
	});

	test('a deleted company is gone: 404, not listed, its token refused; COMPANY_DELETE is sent', async () => {
		const { token, companyId } = await submittedCompany();
		const del = await call(sb, 'DELETE', `/kyb/companies/${companyId}/`);
		expect(del.status).toBe(204);
		expect(del.body.length).toBe(0);
		expect((await call(sb, 'GET', `/kyb/companies/${companyId}/`)).status).toBe(404);
		expect((await call(sb, 'DELETE', `/kyb/companies/${companyId}/`)).status).toBe(404);
		const list = await call(sb, 'GET', '/kyb/companies/');
		expect(list.json.results.map((r: any) => r.id)).not.toContain(companyId);
		const owners = await call(sb, 'GET', `/kyb/forms/${companyId}/beneficiaries/`, {
			auth: `Bearer ${token}`,
		});
		expect(owners.status).toBe(401);
		await settled();
		const deleted = receiver.received.find(
			(r) => r.headers['service-event-type'] === 'COMPANY_DELETE',
		);
		expect(deleted?.json).toMatchObject({ companyId, manager: null });
	});

	test('Submit Form of the seeded form puts its company up for review; the dashboard’s decision shows too', async () => {
		expect(sb.kyb.company(SEED.kyb.companyId)?.status).toBe('PENDING');
		expect((await call(sb, 'POST', `/kyb/forms/${SEED.kyb.formId}/submit/`)).status).toBe(200);
		expect(sb.kyb.company(SEED.kyb.companyId)?.status).toBe('NEED_TO_REVIEW');
		await settled();
		await sb.kyb.review(SEED.kyb.formId, 'DENIED');
		expect(sb.kyb.company(SEED.kyb.companyId)).toMatchObject({
			status: 'COMPLETED',
			approvalStatus: 'DENIED',
		});
	});

	test('the admin API submits a session’s form over HTTP and answers with the company and its delivery', async () => {
		const session = await call(sb, 'POST', '/kyb/tokens/', {
			body: { tokenType: 'FORM', clientId: 'deal-7' },
		});
		const res = await call(
			sb,
			'POST',
			`/__sandbox/kyb/sessions/${session.json.tokenString}/submit`,
			{
				body: {
					companyName: 'Šiaurės Vėjas UAB',
					beneficiaries: [{ name: 'Eglė', surname: 'Žukauskienė' }],
				},
				auth: 'none',
			},
		);
		expect(res.status).toBe(200);
		expect(res.json.delivery).toMatchObject({ eventType: 'COMPANY_SUBMIT', status: 'delivered' });
		expect(sb.kyb.company(res.json.companyId)).toMatchObject({
			clientId: 'deal-7',
			info: { companyName: 'Šiaurės Vėjas UAB' },
			beneficiaries: [expect.objectContaining({ name: 'Eglė', surname: 'Žukauskienė' })],
		});
		const again = await call(
			sb,
			'POST',
			`/__sandbox/kyb/sessions/${session.json.tokenString}/submit`,
			{
				auth: 'none',
			},
		);
		expect(again.status).toBe(409);
		const unknown = await call(sb, 'POST', '/__sandbox/kyb/sessions/nope/submit', { auth: 'none' });
		expect(unknown.status).toBe(404);
	});
});
