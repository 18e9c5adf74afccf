/**
 * KYB questionnaire answers (GET/DELETE) and form submission; Basic or the KYB form token as Bearer.
 * As the service: GET answers 204 with no body when the questionnaire has no answers, and submit
 * answers 200 with no body.
 */
import { conflict, json, notFound } from '../http.cjs';
import type { Route } from '../router.cjs';
import { SEED } from '../seed.cjs';
import type { KybDecision } from '../types.cjs';

type KybFormStatus = 'DRAFT' | 'SUBMITTED' | KybDecision;

interface FormRecord {
	formId: string;
	companyId: string;
	questionnaireId: string;
	/** The client id the company was created with (in the company webhooks). */
	clientId: string;
	status: KybFormStatus;
	submittedAt: string | null;
}

const ALREADY_SUBMITTED = 'Form is already submitted and can no longer be edited';

/**
 * A filled questionnaire in the provider's shape (KybFormAnswers in
 * test/fixtures/real-service/openapi/kyb.yaml): section › question › { value }.
 */
function sampleSections(): Record<string, unknown> {
	const answered = (answers: Record<string, unknown>) =>
		Object.fromEntries(Object.entries(answers).map(([question, value]) => [question, { value }]));
	return {
		companyDetails: answered({
			legalName: 'UAB Baltic Widgets',
			registrationNumber: '305123456',
			registrationCountry: 'LT',
			registeredAddress: 'Konstitucijos pr. 7, 09308 Vilnius, Lithuania',
			incorporationDate: '2019-03-14',
			website: 'https://baltic-widgets.example',
		}),
		businessActivity: answered({
			industry: 'Wholesale of electronic equipment',
			naceCode: '46.52',
			countriesOfOperation: ['LT', 'LV', 'EE', 'PL'],
			expectedMonthlyVolumeEur: '50000-100000',
		}),
		ownership: answered({
			ultimateBeneficialOwners: [
				{
					fullName: 'Jonas Jonaitis',
					dateOfBirth: '1985-04-12',
					nationality: 'LT',
					ownershipPercent: 60,
					isPep: false,
				},
				{
					fullName: 'Ona Onaitė',
					dateOfBirth: '1990-09-01',
					nationality: 'LT',
					ownershipPercent: 40,
					isPep: false,
				},
			],
			directors: [{ fullName: 'Jonas Jonaitis', role: 'CEO' }],
		}),
		sourceOfFunds: answered({
			sourceOfFunds: 'Revenue from trading activity',
			sourceOfWealth: 'Retained earnings',
		}),
		declarations: answered({
			sanctionsExposure: false,
			informationIsAccurate: true,
			signedBy: 'Jonas Jonaitis',
		}),
	};
}

export class KybStore {
	private forms = new Map<string, FormRecord>();
	private answers = new Map<string, Record<string, unknown>>();

	constructor() {
		this.reset();
	}

	reset(): void {
		this.forms.clear();
		this.answers.clear();
		this.seedForm({ ...SEED.kyb });
	}

	/** `sections`: the answers (the provider's shape); default the sandbox's filled questionnaire. */
	seedForm(
		opts: {
			formId?: string;
			companyId?: string;
			questionnaireId?: string;
			clientId?: string;
			sections?: Record<string, unknown>;
		} = {},
	) {
		const n = this.forms.size + 1;
		const record: FormRecord = {
			formId: opts.formId ?? `form-${String(n).padStart(3, '0')}-${Date.now().toString(36)}`,
			companyId:
				opts.companyId ?? `company-${String(n).padStart(3, '0')}-${Date.now().toString(36)}`,
			questionnaireId: opts.questionnaireId ?? `questionnaire-${String(n).padStart(3, '0')}`,
			clientId: opts.clientId ?? `kyb-client-${String(n).padStart(3, '0')}`,
			status: 'DRAFT',
			submittedAt: null,
		};
		this.forms.set(record.formId, record);
		this.answers.set(
			`${record.companyId}/${record.questionnaireId}`,
			opts.sections ?? sampleSections(),
		);
		return {
			formId: record.formId,
			companyId: record.companyId,
			questionnaireId: record.questionnaireId,
		};
	}

	form(formId: string): FormRecord | undefined {
		return this.forms.get(formId);
	}

	/** Whether the company's form is locked (submitted and no additional information requested). */
	private locked(companyId: string): boolean {
		return [...this.forms.values()].some(
			(f) =>
				f.companyId === companyId &&
				f.status !== 'DRAFT' &&
				f.status !== 'ADDITIONAL_INFO_REQUESTED',
		);
	}

	/** The answers, or undefined when the questionnaire has none (deleted). */
	getAnswers(companyId: string, questionnaireId: string) {
		const sections = this.answers.get(`${companyId}/${questionnaireId}`);
		if (!sections) throw notFound();
		return Object.keys(sections).length > 0 ? { sections } : undefined;
	}

	deleteAnswers(companyId: string, questionnaireId: string): void {
		const key = `${companyId}/${questionnaireId}`;
		if (!this.answers.has(key)) throw notFound();
		if (this.locked(companyId)) throw conflict(ALREADY_SUBMITTED);
		this.answers.set(key, {});
	}

	submit(formId: string): FormRecord {
		const form = this.forms.get(formId);
		if (!form) throw notFound();
		if (form.status !== 'DRAFT' && form.status !== 'ADDITIONAL_INFO_REQUESTED')
			throw conflict(ALREADY_SUBMITTED);
		form.status = 'SUBMITTED';
		form.submittedAt = new Date().toISOString();
		return form;
	}

	/** The manual review's decision; only a submitted form can be reviewed. */
	review(formId: string, decision: KybDecision): FormRecord {
		const form = this.forms.get(formId);
		if (!form) throw notFound(`No KYB form ${formId}.`);
		if (form.status !== 'SUBMITTED')
			throw conflict(`Form ${formId} is ${form.status}; only a submitted form can be reviewed.`);
		const decisions: KybDecision[] = [
			'APPROVED',
			'DENIED',
			'REJECTED',
			'ADDITIONAL_INFO_REQUESTED',
		];
		if (!decisions.includes(decision))
			throw new Error(`decision must be one of ${decisions.join(', ')}`);
		form.status = decision;
		return form;
	}
}

export const kybRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/kyb/forms/:companyId/questionnaires/:id/answers/',
		auth: 'basicOrBearer',
		handler: (req, core) => {
			const answers = core.kyb.getAnswers(req.params.companyId, req.params.id);
			return answers ? json(200, answers) : { status: 204 };
		},
	},
	{
		method: 'DELETE',
		pattern: '/kyb/forms/:companyId/questionnaires/:id/answers/',
		auth: 'basicOrBearer',
		handler: (req, core) => {
			core.kyb.deleteAnswers(req.params.companyId, req.params.id);
			return { status: 204 };
		},
	},
	{
		method: 'POST',
		pattern: '/kyb/forms/:id/submit/',
		auth: 'basicOrBearer',
		handler: (req, core) => {
			core.submitKyb(req.params.id);
			return { status: 200 };
		},
	},
];
