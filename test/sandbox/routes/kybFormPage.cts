/**
 * `/kyb-ui/welcome?authToken=…`: the KYB form a session's link opens (the provider's hosted form at
 * kyb.ui.idenfy.com/welcome, which Create Session's `formUrl` points to; the sandbox's session answer
 * gives this page's address instead). The company enters its details, the questionnaire's answers and
 * its owners and submits: the company is made and waits for the review (KYB Company Get reads it, Set
 * Review Decision decides it), and COMPANY_SUBMIT is sent; the page says where and the answer.
 */
import type { SandboxCore } from '../core.cjs';
import type { Reply, Req } from '../http.cjs';
import {
	deliveriesHtml,
	escapeHtml,
	firstAnswers,
	formOf,
	KYB_FORM_PATH,
	page,
} from '../pages.cjs';
import type { Route } from '../router.cjs';
import {
	DEFAULT_ANSWERS,
	DEFAULT_COMPANY,
	DEFAULT_OWNERS,
	type CompanyInput,
} from './kybCompanies.cjs';

/** Rows for owners on the form: the sandbox's two, and one left empty. */
const OWNER_ROWS = 3;

const OWNER_FIELDS = [
	['name', 'First name'],
	['surname', 'Last name'],
	['dateOfBirth', 'Date of birth (YYYY-MM-DD)'],
	['nationality', 'Nationality (country code)'],
	['ownershipPercentage', 'Ownership %'],
] as const;

function input(name: string, label: string, value: string): string {
	return `<label>${escapeHtml(label)} <input name="${escapeHtml(name)}" value="${escapeHtml(value)}"></label>`;
}

function ownerRows(): string {
	return Array.from({ length: OWNER_ROWS }, (_, i) => {
		const owner = DEFAULT_OWNERS[i];
		const fields = OWNER_FIELDS.map(([field, label]) =>
			input(`owner${i}.${field}`, label, owner ? String(owner[field] ?? '') : ''),
		).join('');
		return `<fieldset><legend>Owner ${i + 1}${owner ? '' : ' (optional)'}</legend>${fields}</fieldset>`;
	}).join('');
}

function formPage(token: string, status = 200, problem = ''): Reply {
	const a = DEFAULT_ANSWERS;
	const c = DEFAULT_COMPANY;
	const body =
		'<p>Here the company fills in its onboarding form, as on the provider’s hosted KYB form. Submitting it makes the company (KYB Company → Get reads it, Set Review Decision decides it) and sends the signed COMPANY_SUBMIT webhook.</p>' +
		problem +
		`<form method="post" action="${KYB_FORM_PATH}">` +
		`<input type="hidden" name="authToken" value="${escapeHtml(token)}">` +
		'<fieldset><legend>Company</legend>' +
		input('companyName', 'Company name', c.companyName) +
		input('registrationNumber', 'Registration number', c.registrationNumber) +
		input('country', 'Country (code)', c.country) +
		'</fieldset><fieldset><legend>Questionnaire</legend>' +
		input('industry', 'Industry', a.industry) +
		input(
			'countriesOfOperation',
			'Countries of operation (codes, comma-separated)',
			a.countriesOfOperation.join(', '),
		) +
		input('expectedMonthlyVolume', 'Expected monthly volume (EUR)', a.expectedMonthlyVolume) +
		'<label><input type="checkbox" name="sanctionsExposure" value="yes"> Exposure to sanctioned countries</label>' +
		`</fieldset>${ownerRows()}` +
		'<p><button type="submit">Submit the form</button></p></form>';
	return page(status, 'Company onboarding (sandbox KYB form)', body);
}

const unknownLink = () =>
	page(
		404,
		'KYB link not found',
		'<p>This link is unknown, its session’s lifetime is over, or its company was deleted. Create a new session (KYB Form → Create Session).</p>',
	);

function submittedPage(companyId: string): Reply {
	return page(
		409,
		'This form was submitted',
		`<p>Company <code>${escapeHtml(companyId)}</code> submitted this form already; it can no longer be edited.</p>`,
	);
}

/** The owners of the form's rows; a row without a name is left out. */
function ownersOf(fields: URLSearchParams): NonNullable<CompanyInput['beneficiaries']> {
	const owners: NonNullable<CompanyInput['beneficiaries']> = [];
	for (let i = 0; i < OWNER_ROWS; i++) {
		const get = (field: string) => (fields.get(`owner${i}.${field}`) ?? '').trim();
		if (!get('name') && !get('surname')) continue;
		const share = Number(get('ownershipPercentage'));
		owners.push({
			name: get('name'),
			surname: get('surname'),
			dateOfBirth: get('dateOfBirth') || null,
			nationality: get('nationality').toUpperCase() || null,
			ownershipPercentage: get('ownershipPercentage') && Number.isFinite(share) ? share : null,
		});
	}
	return owners;
}

/** What the form's fields say; an empty field keeps the sandbox's value. */
function companyOf(fields: URLSearchParams): CompanyInput {
	const text = (name: string) => (fields.get(name) ?? '').trim() || undefined;
	const countries = text('countriesOfOperation')
		?.split(',')
		.map((code) => code.trim().toUpperCase())
		.filter(Boolean);
	return {
		companyName: text('companyName'),
		registrationNumber: text('registrationNumber'),
		country: text('country')?.toUpperCase(),
		answers: {
			industry: text('industry'),
			countriesOfOperation: countries,
			expectedMonthlyVolume: text('expectedMonthlyVolume'),
			sanctionsExposure: fields.get('sanctionsExposure') === 'yes',
		},
		beneficiaries: ownersOf(fields),
	};
}

/** Leaves out what the form left empty, so the sandbox's values apply. */
function defined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const NOTHING_SENT_KYB =
	'<p><b>No webhook was sent:</b> the sandbox was not given an address to send results to (<code>npm run demo</code> points it at its trigger workflow). The company is recorded all the same.</p>';

async function submit(req: Req, core: SandboxCore): Promise<Reply> {
	const fields = formOf(req.rawBody);
	const token = fields.get('authToken') ?? '';
	const session = core.kybCompanies.validSession(token);
	if (!session) return unknownLink();
	if (session.companyId && !session.reopened) return submittedPage(session.companyId);
	const company = companyOf(fields);
	if (company.beneficiaries?.length === 0) {
		const problem =
			'<p><b>Enter at least one owner</b> (a first and last name): the review needs the company’s beneficial owners.</p>';
		return formPage(token, 400, problem);
	}
	const input = defined({ ...company, answers: defined(company.answers ?? {}) });
	const before = core.webhooks.log.length;
	core.submitKybSession(token, input).catch(() => undefined);
	const deliveries = core.webhooks.log.slice(before);
	await firstAnswers(deliveries);
	const companyId = session.companyId ?? '';
	const record = core.kybCompanies.company(companyId);
	const name = record?.info.companyName ?? '';
	return page(
		200,
		'Form submitted',
		`<p>${escapeHtml(name)} is company <code>${escapeHtml(companyId)}</code>; it now waits for the review (status NEED_TO_REVIEW). In n8n, KYB Company → Get reads it and Set Review Decision approves or denies it (which sends COMPANY_REVIEW).</p>` +
			(deliveries.length > 0 ? deliveriesHtml(deliveries) : NOTHING_SENT_KYB),
	);
}

export const kybFormPageRoutes: Route[] = [
	{
		method: 'GET',
		pattern: KYB_FORM_PATH,
		auth: 'public',
		handler: (req, core) => {
			const token = req.query.get('authToken') ?? '';
			const session = core.kybCompanies.validSession(token);
			if (!session) return unknownLink();
			return session.companyId && !session.reopened
				? submittedPage(session.companyId)
				: formPage(token);
		},
	},
	{ method: 'POST', pattern: KYB_FORM_PATH, auth: 'public', handler: submit },
];
