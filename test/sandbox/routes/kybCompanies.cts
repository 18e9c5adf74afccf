/**
 * KYB sessions and companies, as the provider's KYB OpenAPI document (kyb.yaml) describes them:
 * `POST /kyb/tokens/` makes a session (a form token with its lifetime); the company opens the
 * link, fills its form and submits it (the admin API's `submitSession`, or Submit Form of the seeded
 * form), which makes the company and sends COMPANY_SUBMIT; the reviewer then reads it
 * (`/kyb/companies/`, its PDF, its beneficiaries and every questionnaire's answers) and decides
 * (`change-status` COMPLETED: COMPANY_REVIEW is sent) or deletes it (COMPANY_DELETE).
 *
 * With state: a decided company shows its decision, a deleted one is gone (404, not listed) and its
 * session's token stops working. A session's token is accepted as Bearer for its own company's form
 * only (403 for another company's), until its lifetime ends (401).
 *
 * Where the provider publishes no error answer (a decision on a company still being filled, a
 * second deletion), the sandbox answers as its other routes do: 409 VALIDATION_ERROR, 404.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';

import {
	kybBeneficiaryRequestSchema,
	kybCompanyPdfRequestSchema,
	kybFormRequestSchema,
	kybCompanyStatusRequestSchema,
	kybSessionRequestSchema,
	type KybCompanyStatusRequest,
	type KybSessionRequest,
} from '../../../nodes/shared/contract';
import {
	bodyObject,
	conflict,
	errorBody,
	HttpError,
	json,
	notFound,
	parseOr400,
} from '../http.cjs';
import type { Req } from '../http.cjs';
import { buildPdf } from '../pdf.cjs';
import type { Route } from '../router.cjs';
import { SEED } from '../seed.cjs';
import type { SandboxCore } from '../core.cjs';
import { kybFormUrlOf } from '../pages.cjs';

type CompanyStatus = 'PENDING' | 'PROCESSING' | 'NEED_TO_PROCESS' | 'NEED_TO_REVIEW' | 'COMPLETED';

/** A beneficial owner or representative as the company enters it in its form. */
interface BeneficiaryInput {
	name: string;
	surname: string;
	dateOfBirth?: string | null;
	nationality?: string | null;
	ownershipPercentage?: number | null;
	/** Default: UBO (a beneficial owner). */
	types?: Array<'CEO' | 'REPRESENTATIVE' | 'SHAREHOLDER' | 'UBO' | 'ABO'>;
	formFiller?: boolean;
	/** The person's other details as given (e-mail, phone, …: kyb.yaml's IndividualApplicant). */
	details?: Record<string, unknown>;
	positions?: string[];
}

/** The questionnaire's answers a company gives in its form. */
export interface AnswersInput {
	industry?: string;
	/** Country codes, e.g. LT, LV. */
	countriesOfOperation?: string[];
	expectedMonthlyVolume?: string;
	sanctionsExposure?: boolean;
}

/** What the company enters in its form (every field has a default). */
export interface CompanyInput {
	companyName?: string;
	registrationNumber?: string;
	country?: string;
	beneficiaries?: BeneficiaryInput[];
	answers?: AnswersInput;
}

interface SessionRecord {
	request: KybSessionRequest;
	tokenString: string;
	expiresAt: number;
	companyId: string | null;
	/** The link of a request for more information (COMPANY_INFO_REQUEST): it opens the form again. */
	reopened?: boolean;
}

/** How long the link of a request for more information opens the form (the sandbox's choice). */
const REOPENED_LIFETIME_MS = 7 * 86_400_000;

interface CompanyRecord {
	id: string;
	clientId: string;
	externalRef: string | null;
	info: Required<Omit<CompanyInput, 'beneficiaries' | 'answers'>>;
	/** The company's other details as its form has them (kyb.yaml's CompanyInfo: phone, city, …). */
	details: Record<string, unknown>;
	answers: Required<AnswersInput>;
	beneficiaries: Array<BeneficiaryInput & { id: string }>;
	status: CompanyStatus;
	approvalStatus: 'APPROVED' | 'DENIED' | null;
	denyReason: string | null;
	created: string;
	submissionTime: string | null;
	statusChangedAt: string | null;
	tokenString: string | null;
	/** How many times its automated checks were re-run (POST automation/). */
	automationRuns: number;
}

const SANDBOX_OWNERS: BeneficiaryInput[] = [
	{
		name: 'Jonas',
		surname: 'Jonaitis',
		dateOfBirth: '1985-04-12',
		nationality: 'LT',
		ownershipPercentage: 60,
		types: ['UBO', 'CEO'],
		formFiller: true,
	},
	{
		name: 'Ona',
		surname: 'Onaitė',
		dateOfBirth: '1990-09-01',
		nationality: 'LT',
		ownershipPercentage: 40,
	},
];

/** What a company enters unless told otherwise. */
export const DEFAULT_COMPANY: Required<Omit<CompanyInput, 'beneficiaries' | 'answers'>> = {
	companyName: 'UAB Baltic Widgets',
	registrationNumber: '305123456',
	country: 'LT',
};

type KybFormRequest = z.infer<typeof kybFormRequestSchema>;
type KybBeneficiaryRequest = z.infer<typeof kybBeneficiaryRequestSchema>;

/** A beneficiary as the form keeps it: with its own ID. */
const withId = (b: BeneficiaryInput) => ({ ...b, id: randomUUID() });

export const DEFAULT_ANSWERS: Required<AnswersInput> = {
	industry: 'Wholesale of electronic equipment',
	countriesOfOperation: ['LT', 'LV', 'EE'],
	expectedMonthlyVolume: '50000-100000',
	sanctionsExposure: false,
};

/** The owners a company enters unless told otherwise. */
export const DEFAULT_OWNERS: readonly BeneficiaryInput[] = SANDBOX_OWNERS;

export class KybCompanyStore {
	private sessions = new Map<string, SessionRecord>();
	private companies = new Map<string, CompanyRecord>();

	constructor() {
		this.reset();
	}

	/** Back to the seeded state: the seeded form's company, still being filled. */
	reset(): void {
		this.sessions.clear();
		this.companies.clear();
		this.addCompany({ id: SEED.kyb.companyId, clientId: SEED.kyb.clientId });
	}

	/** POST /kyb/tokens/: a session whose token opens a new company's form. */
	createSession(request: KybSessionRequest): SessionRecord {
		const lifetime = request.lifetime ?? 3600;
		const session: SessionRecord = {
			request,
			tokenString: randomBytes(30).toString('base64url'),
			expiresAt: Date.now() + lifetime * 1000,
			companyId: null,
		};
		this.sessions.set(session.tokenString, session);
		return session;
	}

	/**
	 * A reviewer asked the company for more information: a new link (COMPANY_INFO_REQUEST's `token`)
	 * that opens its submitted form again, to be submitted once more.
	 */
	reopenSession(companyId: string): SessionRecord {
		const company = this.found(companyId);
		const session: SessionRecord = {
			request: { tokenType: 'FORM', clientId: company.clientId },
			tokenString: randomBytes(30).toString('base64url'),
			expiresAt: Date.now() + REOPENED_LIFETIME_MS,
			companyId,
			reopened: true,
		};
		this.sessions.set(session.tokenString, session);
		return session;
	}

	/** The session of a token, while it is valid (not expired, its company not deleted). */
	validSession(tokenString: string): SessionRecord | undefined {
		const session = this.sessions.get(tokenString);
		return session && session.expiresAt > Date.now() ? session : undefined;
	}

	/**
	 * The company fills its form from the session's link and submits it: the company is made and
	 * waits for the review. A session's form is submitted once.
	 */
	submitSession(tokenString: string, input: CompanyInput = {}): CompanyRecord {
		const session = this.validSession(tokenString);
		if (!session) throw notFound('No valid KYB session with this token.');
		const made = session.companyId ? this.companies.get(session.companyId) : undefined;
		if (made && session.reopened) {
			// More information was asked for: the form as entered now replaces the one submitted.
			const { beneficiaries, answers, ...info } = input;
			Object.assign(made.info, info);
			Object.assign(made.answers, answers);
			if (beneficiaries) made.beneficiaries = beneficiaries.map(withId);
			session.reopened = false;
			this.submitForm(made.id);
			return made;
		}
		if (made?.status === 'PENDING') {
			// The form was made over the API (Create Form): the company fills the rest and submits it.
			const { beneficiaries, ...info } = input;
			Object.assign(made.info, info);
			if (beneficiaries) made.beneficiaries.push(...beneficiaries.map(withId));
			this.submitForm(made.id);
			return made;
		}
		if (session.companyId) throw conflict('Form is already submitted and can no longer be edited');
		const company = this.addCompany({
			clientId: session.request.clientId,
			externalRef: session.request.externalRef ?? null,
			tokenString,
			...input,
		});
		session.companyId = company.id;
		this.submitForm(company.id);
		return company;
	}

	/**
	 * POST /kyb/forms/: a session's form, with the company's details and no beneficiaries yet; a
	 * session has one form (the provider lists "one or zero").
	 */
	createForm(tokenString: string, request: KybFormRequest): CompanyRecord {
		const session = this.validSession(tokenString);
		if (!session)
			throw new HttpError(
				403,
				errorBody('PERMISSIONS_ERROR', 'A form is created with a session’s form token.'),
			);
		if (session.companyId) throw conflict('This session already has a KYB form.');
		const { companyName, registrationNumber, country, ...details } = request.company;
		const company = this.addCompany({
			clientId: session.request.clientId,
			externalRef: session.request.externalRef ?? null,
			tokenString,
			companyName,
			registrationNumber: registrationNumber ?? '',
			country,
			beneficiaries: [],
		});
		company.details = details;
		session.companyId = company.id;
		return company;
	}

	/** A form still being filled (PENDING), else the service's refusal. */
	editable(id: string): CompanyRecord {
		const company = this.found(id);
		if (company.status !== 'PENDING')
			throw conflict('Form is already submitted and can no longer be edited');
		return company;
	}

	/** PATCH /kyb/forms/{id}/: the details given replace the form's; the others stay. */
	updateForm(id: string, request: KybFormRequest): CompanyRecord {
		const company = this.editable(id);
		const { companyName, registrationNumber, country, ...details } = request.company;
		Object.assign(company.info, { companyName, country });
		if (registrationNumber !== undefined) company.info.registrationNumber = registrationNumber;
		Object.assign(company.details, details);
		return company;
	}

	/** POST /kyb/forms/{companyId}/beneficiaries/: a person added to a form being filled. */
	addBeneficiary(
		id: string,
		request: KybBeneficiaryRequest,
	): CompanyRecord['beneficiaries'][number] {
		const company = this.editable(id);
		const { name, surname, dateOfBirth, nationality, ...details } = request.info;
		const beneficiary = withId({
			name,
			surname,
			dateOfBirth: dateOfBirth ?? null,
			nationality: nationality ?? null,
			ownershipPercentage: request.ownershipPercentage ?? null,
			types: request.beneficiaryTypes,
			formFiller: request.formFiller,
			positions: request.positions,
			details,
		});
		company.beneficiaries.push(beneficiary);
		return beneficiary;
	}

	/** A form was submitted (again, after more information was asked for): its company waits for the review. */
	submitForm(companyId: string): void {
		const company = this.companies.get(companyId);
		if (!company) return;
		company.status = 'NEED_TO_REVIEW';
		company.submissionTime = new Date().toISOString();
	}

	/** A company (tests and the admin API): still being filled unless submitted later. */
	addCompany(
		opts: CompanyInput & {
			id?: string;
			clientId?: string;
			externalRef?: string | null;
			tokenString?: string | null;
		} = {},
	): CompanyRecord {
		const record: CompanyRecord = {
			id: opts.id ?? randomUUID(),
			clientId: opts.clientId ?? SEED.kyb.clientId,
			externalRef: opts.externalRef ?? null,
			info: {
				companyName: opts.companyName ?? DEFAULT_COMPANY.companyName,
				registrationNumber: opts.registrationNumber ?? DEFAULT_COMPANY.registrationNumber,
				country: opts.country ?? DEFAULT_COMPANY.country,
			},
			details: {},
			answers: { ...DEFAULT_ANSWERS, ...opts.answers },
			beneficiaries: (opts.beneficiaries ?? SANDBOX_OWNERS).map(withId),
			status: 'PENDING',
			approvalStatus: null,
			denyReason: null,
			created: new Date().toISOString(),
			submissionTime: null,
			statusChangedAt: null,
			tokenString: opts.tokenString ?? null,
			automationRuns: 0,
		};
		this.companies.set(record.id, record);
		return record;
	}

	company(id: string): CompanyRecord | undefined {
		return this.companies.get(id);
	}

	/** A company that exists, else the service's 404. */
	found(id: string): CompanyRecord {
		const company = this.companies.get(id);
		if (!company) throw notFound();
		return company;
	}

	/** GET /kyb/companies/: newest first, by registration number when asked. */
	list(registrationNumber: string | null): CompanyRecord[] {
		return [...this.companies.values()]
			.filter(
				(c) => registrationNumber === null || c.info.registrationNumber === registrationNumber,
			)
			.reverse();
	}

	/**
	 * POST change-status: "the status cannot be changed from PENDING and PROCESSING"; COMPLETED
	 * records the decision (a deny reason only with DENIED).
	 */
	changeStatus(id: string, request: KybCompanyStatusRequest): CompanyRecord {
		const company = this.found(id);
		if (company.status === 'PENDING' || company.status === 'PROCESSING')
			throw conflict(`The status cannot be changed from ${company.status}.`);
		company.status = request.status;
		company.statusChangedAt = new Date().toISOString();
		if (request.status === 'COMPLETED') {
			const { reviewInfo } = request;
			company.approvalStatus = reviewInfo.approvalStatus;
			company.denyReason =
				reviewInfo.approvalStatus === 'DENIED' ? (reviewInfo.denyReason ?? null) : null;
		} else {
			company.approvalStatus = null;
			company.denyReason = null;
		}
		return company;
	}

	/** POST automation/: the checks run again (202); a form still being filled has nothing to check (409). */
	rerunAutomation(id: string): void {
		const company = this.found(id);
		if (company.status === 'PENDING')
			throw conflict('The automation cannot be run before the form is submitted.');
		company.automationRuns += 1;
	}

	/** DELETE: the company and its session are removed. */
	delete(id: string): CompanyRecord {
		const company = this.found(id);
		this.companies.delete(id);
		if (company.tokenString) this.sessions.delete(company.tokenString);
		return company;
	}
}

// What the service answers, in kyb.yaml's shapes (test/sandbox/kyb-companies.test.cts checks each
// against the provider's response schema).

const MANAGER = {
	id: 7,
	name: 'Rūta',
	surname: 'Kazlauskienė',
	email: 'ruta.kazlauskiene@example.com',
};

function sessionBody(session: SessionRecord): Record<string, unknown> {
	const { request } = session;
	return {
		tokenType: 'FORM',
		tokenString: session.tokenString,
		expiration: new Date(session.expiresAt).toISOString().replace(/\.\d+Z$/, 'Z'),
		isActive: true,
		isValid: session.expiresAt > Date.now(),
		companyId: session.companyId,
		clientId: request.clientId,
		externalRef: request.externalRef ?? null,
		locale: request.locale ?? null,
		flow: request.flow ?? null,
		theme: request.theme ?? null,
		tags: request.tags ?? [],
		scanRefs: request.scanRefs ?? null,
	};
}

function companyInfoBody(company: CompanyRecord): Record<string, unknown> {
	return { ...company.info, ...company.details, additionalInfo: {} };
}

function listMetaBody(company: CompanyRecord): Record<string, unknown> {
	return {
		status: company.status,
		approvalStatus: company.approvalStatus,
		submissionTime: company.submissionTime,
		soleProprietor: false,
	};
}

function beneficiaryBody(b: CompanyRecord['beneficiaries'][number]): Record<string, unknown> {
	const types = b.types ?? ['UBO'];
	return {
		id: b.id,
		info: {
			infoType: 'INDIVIDUAL',
			name: b.name,
			surname: b.surname,
			email: null,
			phone: null,
			dateOfBirth: b.dateOfBirth ?? null,
			country: null,
			nationality: b.nationality ?? null,
			...b.details,
			additionalInfo: {},
		},
		parent: null,
		beneficiaryType: types[0],
		beneficiaryTypes: types,
		positions: b.positions ?? (types.includes('CEO') ? ['director'] : ['shareholder']),
		formFiller: b.formFiller ?? false,
		ownershipPercentage: b.ownershipPercentage ?? null,
	};
}

/** The detail of a beneficiary: its form entry with the review's meta (kyb.yaml's BeneficiaryDetail). */
function beneficiaryDetailBody(b: CompanyRecord['beneficiaries'][number]): Record<string, unknown> {
	return {
		...beneficiaryBody(b),
		meta: {
			identifier: null,
			clientId: null,
			finalStatus: null,
			sessionExpiration: null,
			identificationHistory: [],
			pepsCheckStatus: 'NOT_CHECKED',
			pepsStatusSetBy: null,
			sanctionsCheckStatus: 'NOT_CHECKED',
			sanctionsStatusSetBy: null,
			negativeNewsStatus: 'NOT_CHECKED',
			newsStatusSetBy: null,
		},
		documents: [],
		amlCheck: null,
		amlMonitoringUser: { monitoringId: '', alertStatus: 'PENDING' },
	};
}

/** Every questionnaire's answers, with question titles (kyb.yaml's KybAnswersDisplay). */
function answersDetailBody(company: CompanyRecord): Array<Record<string, unknown>> {
	const owners = company.beneficiaries.map((b) => `${b.name} ${b.surname}`);
	const question = (key: string, title: string, type: string, value: unknown) => ({
		key,
		title,
		type,
		value,
	});
	return [
		{
			id: SEED.kyb.questionnaireId,
			name: 'kyb-onboarding',
			title: 'Company onboarding',
			sections: [
				{
					title: 'Business activity',
					questions: [
						question('industry', 'Industry', 'TEXT', company.answers.industry),
						question(
							'countriesOfOperation',
							'Countries of operation',
							'COUNTRY_MULTI',
							company.answers.countriesOfOperation,
						),
						question(
							'expectedMonthlyVolume',
							'Expected monthly volume (EUR)',
							'TEXT',
							company.answers.expectedMonthlyVolume,
						),
					],
				},
				{
					title: 'Declarations',
					questions: [
						question('beneficialOwners', 'Beneficial owners', 'TEXT', owners.join(', ')),
						question(
							'sanctionsExposure',
							'Exposure to sanctioned countries',
							'CHECKBOX',
							company.answers.sanctionsExposure,
						),
					],
				},
			],
		},
	];
}

/**
 * The company's questionnaire answers in the provider's shape (KybFormAnswers: section › question ›
 * {value}), as Get Answers reads them once the form is submitted.
 */
export function formSections(company: CompanyRecord): Record<string, unknown> {
	const answered = (answers: Record<string, unknown>) =>
		Object.fromEntries(Object.entries(answers).map(([question, value]) => [question, { value }]));
	return {
		companyDetails: answered({
			legalName: company.info.companyName,
			registrationNumber: company.info.registrationNumber,
			registrationCountry: company.info.country,
		}),
		businessActivity: answered({
			industry: company.answers.industry,
			countriesOfOperation: company.answers.countriesOfOperation,
			expectedMonthlyVolumeEur: company.answers.expectedMonthlyVolume,
		}),
		ownership: answered({
			ultimateBeneficialOwners: company.beneficiaries.map((b) => ({
				fullName: `${b.name} ${b.surname}`,
				dateOfBirth: b.dateOfBirth ?? null,
				nationality: b.nationality ?? null,
				ownershipPercent: b.ownershipPercentage ?? null,
			})),
		}),
		declarations: answered({ sanctionsExposure: company.answers.sanctionsExposure }),
	};
}

function companyMetaBody(company: CompanyRecord): Record<string, unknown> {
	return {
		created: company.created,
		status: company.status,
		statusChangedAt: company.statusChangedAt,
		statusChangedBy: company.statusChangedAt ? MANAGER : null,
		expirationStatus: null,
		assignedTo: null,
		initialSubmissionTime: company.submissionTime,
		submissionTime: company.submissionTime,
		matchedBlacklists: null,
		blacklistStatuses: null,
		sanctionsStatusSetBy: null,
		newsStatusSetBy: null,
		approvalStatus: company.approvalStatus,
		approvalStatusChangedAt: company.approvalStatus ? company.statusChangedAt : null,
		denyReason: company.denyReason,
		informationRequested: false,
		reviewLevel: null,
		soleProprietor: false,
	};
}

/** The reviewer's whole view of the company (kyb.yaml's CompanyDetail). */
function companyDetailBody(company: CompanyRecord): Record<string, unknown> {
	const audited = { id: randomUUID(), created: company.created };
	return {
		id: company.id,
		company: companyInfoBody(company),
		meta: companyMetaBody(company),
		documents: [],
		beneficiaries: company.beneficiaries.map(beneficiaryDetailBody),
		questionnaires: answersDetailBody(company),
		comments: [],
		auditLogs: { logs: [], logsCount: 0 },
		addressAudit: {
			...audited,
			googleMapsUrl: null,
			dataId: null,
			type: {},
			address: null,
			associatedBodies: {},
			latitude: null,
			longitude: null,
			riskLevel: 'NOT_CHECKED',
			addressAuditImages: [],
		},
		websiteAudit: { ...audited, url: 'https://baltic-widgets.example', riskLevel: 'NOT_CHECKED' },
		companyNameAudit: { ...audited, socialMediaProfiles: [] },
		dataMatchings: [],
		einVerification: {
			result: null,
			checkedEin: '',
			checkedCompanyName: company.info.companyName,
			created: company.created,
		},
		govChecks: {
			creditBureauDocuments: [],
			govRegistersDocuments: [],
			govOrderedDocuments: [],
			sosFilingDocuments: [],
		},
		amlCheck: null,
		amlChecks: [],
		amlMonitoringUsers: null,
		riskAssessment: null,
	};
}

function companyPdf(company: CompanyRecord, content: string[] | undefined, sizeBytes?: number) {
	return buildPdf({
		title: 'KYB company report',
		lines: [
			`Company: ${company.info.companyName} (${company.info.registrationNumber}, ${company.info.country})`,
			`Company ID: ${company.id}`,
			`Status: ${company.status}${company.approvalStatus ? `, ${company.approvalStatus}` : ''}`,
			`Beneficiaries: ${company.beneficiaries.map((b) => `${b.name} ${b.surname}`).join(', ')}`,
			`Sections: ${(content ?? ['all']).join(', ')}`,
			'Generated by the identity verification sandbox (test data).',
		],
		sizeBytes,
	});
}

/**
 * A session's token opens only its own company's form (403 for another's); the sandbox's
 * long-lived form token and the API key open every form.
 */
function assertFormAccess(req: Req, core: SandboxCore, companyId: string): void {
	const [scheme, token] = (req.headers.authorization ?? '').trim().split(/\s+/);
	if (!/^bearer$/i.test(scheme ?? '') || token === core.credentials.kybFormToken) return;
	const session = core.kybCompanies.validSession(token ?? '');
	if (session && session.companyId !== companyId)
		throw new HttpError(403, errorBody('PERMISSIONS_ERROR', 'This token is for another company.'));
}

/** The company a form route names, after the caller's access to it is checked. */
function formCompany(req: Req, core: SandboxCore): CompanyRecord {
	assertFormAccess(req, core, req.params.companyId);
	return core.kybCompanies.found(req.params.companyId);
}

/**
 * GET /kyb/forms/{companyId}/questionnaires/ (kyb.yaml `kybFormsQuestionnairesList`: an unpaged
 * array of `Questionnaire`, with the form token or the API key): every sandbox company's form has
 * the seeded questionnaire, whose answers `answers/detail/` shows.
 */
function questionnairesBody(req: Req, core: SandboxCore): Array<Record<string, unknown>> {
	formCompany(req, core);
	return [
		{
			id: SEED.kyb.questionnaireId,
			key: 'kyb_onboarding',
			name: 'kyb-onboarding',
			title: 'Company onboarding',
			description: '',
			type: 'KYB',
			sections: [],
		},
	];
}

/**
 * GET /kyb/forms/ (kyb.yaml `kybFormsList`, security `kybTokenAuth` only): "one or zero items",
 * the form of the token's session once its company exists. The sandbox's long-lived token is the
 * seeded form's; the API key is refused (403), as the provider lists this for the token only.
 */
function formsOfToken(req: Req, core: SandboxCore): Array<Record<string, unknown>> {
	const [scheme, token] = (req.headers.authorization ?? '').trim().split(/\s+/);
	if (!/^bearer$/i.test(scheme ?? ''))
		throw new HttpError(
			403,
			errorBody('PERMISSIONS_ERROR', 'This list takes a KYB form token, not the API key.'),
		);
	const formOf = (formId: string, company: CompanyRecord | undefined) =>
		company ? [{ id: formId, company: companyInfoBody(company), meta: listMetaBody(company) }] : [];
	if (token === core.credentials.kybFormToken)
		return formOf(SEED.kyb.formId, core.kybCompanies.company(SEED.kyb.companyId));
	const companyId = core.kybCompanies.validSession(token ?? '')?.companyId;
	// The form's ID is its company's (as `submitKybSession` makes them).
	return companyId ? formOf(companyId, core.kybCompanies.company(companyId)) : [];
}

/** A page of the companies list (DRF page-number pagination, as the other lists). */
function companyPage(req: Req, core: SandboxCore): Record<string, unknown> {
	const all = core.kybCompanies.list(req.query.get('registrationNumber'));
	const perPage = Math.min(Math.max(Number(req.query.get('perPage')) || 10, 1), 100);
	const page = Math.max(Number(req.query.get('page')) || 1, 1);
	if (page > 1 && (page - 1) * perPage >= all.length) throw notFound('Invalid page.');
	const link = (n: number) => {
		const url = new URL(`${req.origin}${req.path}`);
		req.query.forEach((value, name) => url.searchParams.set(name, value));
		url.searchParams.set('page', String(n));
		return url.toString();
	};
	return {
		count: all.length,
		next: page * perPage < all.length ? link(page + 1) : null,
		previous: page > 1 ? link(page - 1) : null,
		results: all.slice((page - 1) * perPage, page * perPage).map((c) => ({
			id: c.id,
			company: companyInfoBody(c),
			meta: listMetaBody(c),
		})),
	};
}

export const kybCompanyRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/kyb/tokens/',
		auth: 'basic',
		handler: (req, core) => {
			const request = parseOr400(kybSessionRequestSchema, bodyObject(req));
			const session = core.kybCompanies.createSession(request);
			const body = sessionBody(session);
			// The provider's answer has no link; the demo's sandbox gives its own form's (README).
			if (core.kybFormLinks) body.formUrl = kybFormUrlOf(req.origin, session.tokenString);
			return json(201, body);
		},
	},
	{
		method: 'GET',
		pattern: '/kyb/companies/',
		auth: 'basic',
		handler: (req, core) => json(200, companyPage(req, core)),
	},
	{
		method: 'GET',
		pattern: '/kyb/companies/:id/',
		auth: 'basic',
		handler: (req, core) => json(200, companyDetailBody(core.kybCompanies.found(req.params.id))),
	},
	{
		method: 'DELETE',
		pattern: '/kyb/companies/:id/',
		auth: 'basic',
		handler: (req, core) => {
			core.deleteKybCompany(req.params.id);
			return { status: 204 };
		},
	},
	{
		method: 'POST',
		pattern: '/kyb/companies/:id/change-status/',
		auth: 'basic',
		handler: (req, core) => {
			const request = parseOr400(kybCompanyStatusRequestSchema, bodyObject(req));
			const company = core.decideKybCompany(req.params.id, request);
			const answer: Record<string, unknown> = { status: company.status };
			if (company.status === 'COMPLETED')
				answer.reviewInfo = {
					approvalStatus: company.approvalStatus,
					denyReason: company.denyReason,
				};
			return json(200, answer);
		},
	},
	{
		// The provider answers 202 with no body, and 402 (no body) when the account's funds ran out:
		// a test asks for that with a fault.
		method: 'POST',
		pattern: '/kyb/companies/:id/automation/',
		auth: 'basic',
		handler: (req, core) => {
			core.kybCompanies.rerunAutomation(req.params.id);
			return { status: 202 };
		},
	},
	{
		method: 'POST',
		pattern: '/kyb/companies/:id/pdf/',
		auth: 'basic',
		handler: (req, core) => {
			const { content } = parseOr400(kybCompanyPdfRequestSchema, bodyObject(req));
			const company = core.kybCompanies.found(req.params.id);
			// The password protects the service's file; the sandbox's PDF is not encrypted (README).
			const pdf = companyPdf(company, content, core.fileSizes.get(company.id));
			return {
				status: 200,
				headers: {
					'Content-Type': 'application/pdf',
					'Content-Length': String(pdf.size),
					'Content-Disposition': `attachment; filename="company-${company.id}.pdf"`,
				},
				stream: pdf.stream(),
			};
		},
	},
	{
		// The provider takes only a form token here (kybTokenAuth): the token names the company.
		method: 'POST',
		pattern: '/kyb/forms/',
		auth: 'basicOrBearer',
		handler: (req, core) => {
			const [scheme, token] = (req.headers.authorization ?? '').trim().split(/\s+/);
			if (!/^bearer$/i.test(scheme ?? ''))
				throw new HttpError(
					403,
					errorBody('PERMISSIONS_ERROR', 'A form is created with a session’s form token.'),
				);
			const request = parseOr400(kybFormRequestSchema, bodyObject(req));
			const company = core.kybCompanies.createForm(token ?? '', request);
			return json(201, {
				id: company.id,
				company: companyInfoBody(company),
				documents: [],
				beneficiaries: [],
				meta: listMetaBody(company),
			});
		},
	},
	{
		method: 'PATCH',
		pattern: '/kyb/forms/:companyId/',
		auth: 'basicOrBearer',
		handler: (req, core) => {
			const request = parseOr400(kybFormRequestSchema, bodyObject(req));
			const company = core.kybCompanies.updateForm(formCompany(req, core).id, request);
			return json(200, { company: companyInfoBody(company) });
		},
	},
	{
		method: 'POST',
		pattern: '/kyb/forms/:companyId/beneficiaries/',
		auth: 'basicOrBearer',
		handler: (req, core) => {
			const request = parseOr400(kybBeneficiaryRequestSchema, bodyObject(req));
			const added = core.kybCompanies.addBeneficiary(formCompany(req, core).id, request);
			return json(201, beneficiaryBody(added));
		},
	},
	{
		method: 'GET',
		pattern: '/kyb/forms/:companyId/beneficiaries/',
		auth: 'basicOrBearer',
		handler: (req, core) => json(200, formCompany(req, core).beneficiaries.map(beneficiaryBody)),
	},
	{
		method: 'GET',
		pattern: '/kyb/forms/',
		auth: 'basicOrBearer',
		handler: (req, core) => json(200, formsOfToken(req, core)),
	},
	{
		method: 'GET',
		pattern: '/kyb/forms/:companyId/questionnaires/',
		auth: 'basicOrBearer',
		handler: (req, core) => json(200, questionnairesBody(req, core)),
	},
	{
		method: 'GET',
		pattern: '/kyb/forms/:companyId/questionnaires/answers/detail/',
		auth: 'basicOrBearer',
		handler: (req, core) => json(200, answersDetailBody(formCompany(req, core))),
	},
];
