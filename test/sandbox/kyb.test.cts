import { questionnaireAnswersSchema } from '../../nodes/shared/contract';
import { responseSchema, schemaErrors } from '../real-service/provider.cjs';
import { SEED, startSandbox } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';
import type { Receiver } from './test-helpers.cjs';

const answers = (companyId: string = SEED.kyb.companyId, id: string = SEED.kyb.questionnaireId) =>
	`/kyb/forms/${companyId}/questionnaires/${id}/answers/`;
const submit = (formId: string = SEED.kyb.formId) => `/kyb/forms/${formId}/submit/`;

describe('sandbox KYB forms', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]));

	test('returns the questionnaire answers as sections', async () => {
		const res = await call(sb, 'GET', answers(), { auth: 'bearer' });
		expect(res.status).toBe(200);
		expect(questionnaireAnswersSchema.safeParse(res.json).success).toBe(true);
		expect(Object.keys(res.json.sections)).toEqual(
			expect.arrayContaining(['companyDetails', 'ownership', 'sourceOfFunds']),
		);
		expect(res.json.sections.companyDetails.legalName).toEqual({ value: 'UAB Baltic Widgets' });
		// In the provider's shape: section › question › { value }.
		const schema = responseSchema(
			'/kyb/forms/{companyId}/questionnaires/{id}/answers/',
			'GET',
			200,
		);
		expect(schemaErrors(schema!, res.json)).toEqual([]);
	});

	test('deletes the answers with 204 and no body; a later GET answers 204 with no body, as the service does for a questionnaire without answers', async () => {
		const del = await call(sb, 'DELETE', answers(), { auth: 'bearer' });
		expect(del.status).toBe(204);
		expect(del.body.length).toBe(0);
		const res = await call(sb, 'GET', answers());
		expect(res.status).toBe(204);
		expect(res.body.length).toBe(0);
	});

	test('answers 404 for an unknown company or questionnaire', async () => {
		expect((await call(sb, 'GET', answers('company-404'))).status).toBe(404);
		expect((await call(sb, 'DELETE', answers(SEED.kyb.companyId, 'q-404'))).status).toBe(404);
		expect((await call(sb, 'POST', submit('form-404'))).status).toBe(404);
	});

	test('submits a form once (200, no body, as the service); a second submit (and editing) is a 409', async () => {
		const res = await call(sb, 'POST', submit(), { auth: 'bearer' });
		expect(res.status).toBe(200);
		expect(res.body.length).toBe(0);
		const again = await call(sb, 'POST', submit());
		expect(again.status).toBe(409);
		expect(again.json).toEqual({
			identifier: 'VALIDATION_ERROR',
			message: 'Form is already submitted and can no longer be edited',
		});
		const del = await call(sb, 'DELETE', answers());
		expect(del.status).toBe(409);
		expect(sb.kyb.isSubmitted(SEED.kyb.formId)).toBe(true);
	});

	/** Waits until every delivery started so far is delivered or given up. */
	async function settled() {
		while (sb.webhooks.log.some((d) => d.status === 'pending'))
			await new Promise((resolve) => setTimeout(resolve, 5));
	}

	test('sends COMPANY_SUBMIT with the company body when a form is submitted (webhooks configured)', async () => {
		sb.webhooks.configure({ url: receiver.url, retryDelaysMs: [] });
		expect((await call(sb, 'POST', submit())).status).toBe(200);
		await settled();
		expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
			'COMPANY_SUBMIT',
		]);
		expect(receiver.received[0].json).toEqual({
			id: SEED.kyb.companyId,
			submissionTime: expect.any(String),
			soleProprietor: false,
			clientId: SEED.kyb.clientId,
			externalRef: null,
		});
	});

	test('submits without sending anything when no webhook URL is configured', async () => {
		const fresh = await startSandbox();
		try {
			expect((await call(fresh, 'POST', submit())).status).toBe(200);
			expect(fresh.kyb.isSubmitted(SEED.kyb.formId)).toBe(true);
			expect(fresh.webhooks.log).toEqual([]);
		} finally {
			await fresh.close();
		}
	});

	test.each([
		['REJECTED', 'DENIED'],
		['DENIED', 'DENIED'],
		['APPROVED', 'APPROVED'],
	] as const)(
		'sends COMPANY_REVIEW with the company body after the manual review (%s → approvalStatus %s)',
		async (decision, approvalStatus) => {
			sb.webhooks.configure({ url: receiver.url, retryDelaysMs: [] });
			await expect(sb.kyb.review(SEED.kyb.formId)).rejects.toThrow(/only a submitted form/);
			await call(sb, 'POST', submit());
			await settled();
			const delivery = await sb.kyb.review(SEED.kyb.formId, decision);
			expect(delivery.status).toBe('delivered');
			const review = receiver.received[1];
			expect(review.headers['service-event-type']).toBe('COMPANY_REVIEW');
			expect(review.json).toMatchObject({
				id: SEED.kyb.companyId,
				companyName: 'UAB Baltic Widgets',
				clientId: SEED.kyb.clientId,
				approvalStatus,
				soleProprietor: false,
				beneficiaries: [expect.any(Object), expect.any(Object)],
				amlCheck: { overallStatus: 'NO_FLAGS' },
			});
			// The service's company body has no form id, status or final flag.
			for (const key of ['formId', 'companyId', 'status', 'final'])
				expect(review.json).not.toHaveProperty(key);
		},
	);

	test('sends COMPANY_INFO_REQUEST when more information is requested; the form can then be edited and resubmitted', async () => {
		sb.webhooks.configure({ url: receiver.url, retryDelaysMs: [] });
		await call(sb, 'POST', submit());
		await settled();
		const delivery = await sb.kyb.review(SEED.kyb.formId, 'ADDITIONAL_INFO_REQUESTED');
		expect(delivery.eventType).toBe('COMPANY_INFO_REQUEST');
		expect(receiver.received[1].json).toMatchObject({
			companyId: SEED.kyb.companyId,
			status: 'REQUESTED',
			token: expect.any(String),
		});
		expect((await call(sb, 'DELETE', answers())).status).toBe(204);
		expect((await call(sb, 'POST', submit())).status).toBe(200);
	});

	test('seeds more forms with their own questionnaire', async () => {
		const form = sb.kyb.seedForm();
		expect((await call(sb, 'GET', answers(form.companyId, form.questionnaireId))).status).toBe(200);
		expect((await call(sb, 'POST', submit(form.formId))).status).toBe(200);
		expect((await call(sb, 'POST', submit())).status).toBe(200);
	});
});
