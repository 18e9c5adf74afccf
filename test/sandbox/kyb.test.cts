import { questionnaireAnswersSchema } from '../../nodes/shared/contract';
import { SEED } from './index.cjs';
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
		expect(res.json.sections.companyDetails.answers.legalName).toBe('UAB Baltic Widgets');
	});

	test('deletes the answers with 204 and no body; a later GET returns empty sections', async () => {
		const del = await call(sb, 'DELETE', answers(), { auth: 'bearer' });
		expect(del.status).toBe(204);
		expect(del.body.length).toBe(0);
		const res = await call(sb, 'GET', answers());
		expect(res.status).toBe(200);
		expect(res.json).toEqual({ sections: {} });
	});

	test('answers 404 for an unknown company or questionnaire', async () => {
		expect((await call(sb, 'GET', answers('company-404'))).status).toBe(404);
		expect((await call(sb, 'DELETE', answers(SEED.kyb.companyId, 'q-404'))).status).toBe(404);
		expect((await call(sb, 'POST', submit('form-404'))).status).toBe(404);
	});

	test('submits a form once; a second submit (and editing) is a 409', async () => {
		const res = await call(sb, 'POST', submit(), { auth: 'bearer' });
		expect(res.status).toBe(200);
		expect(res.json).toEqual({
			id: SEED.kyb.formId,
			status: 'SUBMITTED',
			submittedAt: expect.any(String),
		});
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

	test('sends the KYB review result webhook after the manual review of a submitted form', async () => {
		sb.webhooks.configure({ url: receiver.url, retryDelaysMs: [] });
		await expect(sb.kyb.review(SEED.kyb.formId)).rejects.toThrow(/only a submitted form/);
		await call(sb, 'POST', submit());
		const delivery = await sb.kyb.review(SEED.kyb.formId, 'REJECTED');
		expect(delivery.status).toBe('delivered');
		expect(receiver.received[0].headers['service-event-type']).toBe('COMPANY_REVIEW');
		expect(receiver.received[0].json).toMatchObject({
			formId: SEED.kyb.formId,
			companyId: SEED.kyb.companyId,
			status: 'REJECTED',
		});
	});

	test('lets a form be edited and resubmitted when additional information is requested', async () => {
		sb.webhooks.configure({ url: receiver.url, retryDelaysMs: [] });
		await call(sb, 'POST', submit());
		await sb.kyb.review(SEED.kyb.formId, 'ADDITIONAL_INFO_REQUESTED');
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
