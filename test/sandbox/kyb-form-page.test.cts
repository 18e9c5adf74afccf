/**
 * The sandbox's KYB form: the page a session's link opens (Create Session's `formUrl`), where the
 * company fills in its details, answers and owners and submits, which makes the company readable and
 * decidable and sends COMPANY_SUBMIT.
 */
import { startSandbox } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';
import type { Receiver } from './test-helpers.cjs';

describe('sandbox KYB form page', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]), {
		webhooks: { retryDelaysMs: [] },
		options: { kybFormLinks: true },
	});

	async function session(extra: Record<string, unknown> = {}) {
		const res = await call(sb, 'POST', '/kyb/tokens/', {
			body: { tokenType: 'FORM', clientId: 'deal-7', externalRef: 'crm-7', ...extra },
		});
		expect(res.status).toBe(201);
		return res.json as { tokenString: string; formUrl: string };
	}

	/** What a browser posts when the form is submitted. */
	const submit = (fields: Record<string, string>) =>
		call(sb, 'POST', '/kyb-ui/welcome', {
			auth: 'none',
			body: new URLSearchParams(fields).toString(),
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		});

	const OWNER = {
		'owner0.name': 'Rasa',
		'owner0.surname': 'Kairytė',
		'owner0.dateOfBirth': '1979-05-30',
		'owner0.nationality': 'lt',
		'owner0.ownershipPercentage': '100',
		'owner1.name': '',
		'owner1.surname': '',
	};

	test('the session answer’s formUrl opens the sandbox’s form, without credentials, saying what submitting does', async () => {
		const { tokenString, formUrl } = await session();
		expect(formUrl).toBe(`${sb.url}/kyb-ui/welcome?authToken=${encodeURIComponent(tokenString)}`);
		const page = await call(sb, 'GET', formUrl, { auth: 'none' });
		expect(page.status).toBe(200);
		expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(page.text).toContain('name="companyName"');
		expect(page.text).toContain('name="owner0.name" value="Jonas"');
		expect(page.text).toContain('COMPANY_SUBMIT');
	});

	test('submitting makes the company as entered, readable and decidable, and sends COMPANY_SUBMIT (the page says where and the answer)', async () => {
		const { tokenString, formUrl } = await session();
		const res = await submit({
			authToken: tokenString,
			companyName: 'UAB Saulės Baldai',
			registrationNumber: '304999111',
			country: 'lt',
			industry: 'Furniture manufacturing',
			countriesOfOperation: 'LT, pl',
			expectedMonthlyVolume: '10000-50000',
			sanctionsExposure: 'yes',
			...OWNER,
		});
		expect(res.status).toBe(200);
		expect(res.text).toContain('waits for the review');
		expect(res.text).toContain(`COMPANY_SUBMIT</b> webhook to <code>${receiver.url}</code>`);
		expect(res.text).toContain('answered HTTP 200 (accepted)');
		const companyId = /company <code>([^<]+)<\/code>/.exec(res.text)![1];

		expect(receiver.received[0].headers['service-event-type']).toBe('COMPANY_SUBMIT');
		expect(receiver.received[0].json).toMatchObject({
			id: companyId,
			clientId: 'deal-7',
			externalRef: 'crm-7',
		});

		const company = await call(sb, 'GET', `/kyb/companies/${companyId}/`);
		expect(company.status).toBe(200);
		expect(JSON.stringify(company.json)).toContain('UAB Saulės Baldai');
		expect(JSON.stringify(company.json)).toContain('Furniture manufacturing');
		const owners = await call(sb, 'GET', `/kyb/forms/${companyId}/beneficiaries/`);
		expect(owners.json).toHaveLength(1);
		expect(JSON.stringify(owners.json)).toContain('Kairytė');
		const detail = await call(sb, 'GET', `/kyb/forms/${companyId}/questionnaires/answers/detail/`);
		expect(JSON.stringify(detail.json)).toContain('"value":["LT","PL"]');

		const decided = await call(sb, 'POST', `/kyb/companies/${companyId}/change-status/`, {
			body: { status: 'COMPLETED', reviewInfo: { approvalStatus: 'APPROVED' } },
		});
		expect(decided.status).toBe(200);

		// The link now says the form was submitted; a second submit changes nothing.
		expect((await call(sb, 'GET', formUrl, { auth: 'none' })).status).toBe(409);
		expect((await submit({ authToken: tokenString, ...OWNER })).status).toBe(409);
		expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
			'COMPANY_SUBMIT',
			'COMPANY_REVIEW',
		]);
	});

	test('a request for more information: its token opens the company’s form again, which is submitted once more (COMPANY_SUBMIT again)', async () => {
		const { tokenString } = await session();
		const first = await submit({ authToken: tokenString, ...OWNER });
		const companyId = /company <code>([^<]+)<\/code>/.exec(first.text)![1];
		const request = await sb.kyb.review(companyId, 'ADDITIONAL_INFO_REQUESTED');
		const { token } = JSON.parse(request.payload) as { token: string };
		expect(token).not.toBe(tokenString);

		const link = `${sb.url}/kyb-ui/welcome?authToken=${encodeURIComponent(token)}`;
		const page = await call(sb, 'GET', link, { auth: 'none' });
		expect(page.status).toBe(200);
		expect(page.text).toContain('name="companyName"');
		const again = await submit({
			authToken: token,
			...OWNER,
			'owner1.name': 'Tomas',
			'owner1.surname': 'Petraitis',
		});
		expect(again.status).toBe(200);
		expect(again.text).toContain(`company <code>${companyId}</code>`);
		const owners = await call(sb, 'GET', `/kyb/forms/${companyId}/beneficiaries/`);
		expect(JSON.stringify(owners.json)).toContain('Petraitis');
		expect(sb.kyb.company(companyId)?.status).toBe('NEED_TO_REVIEW');
		expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
			'COMPANY_SUBMIT',
			'COMPANY_INFO_REQUEST',
			'COMPANY_SUBMIT',
		]);
		// Once submitted again, the link says so.
		expect((await call(sb, 'GET', link, { auth: 'none' })).status).toBe(409);
	});

	test('empty fields keep the sandbox’s values; a form without any owner is refused with the reason', async () => {
		const { tokenString } = await session();
		const none = await submit({ authToken: tokenString, 'owner0.name': '', 'owner1.name': '' });
		expect(none.status).toBe(400);
		expect(none.text).toContain('Enter at least one owner');
		const res = await submit({ authToken: tokenString, companyName: '', ...OWNER });
		expect(res.status).toBe(200);
		expect(res.text).toContain('UAB Baltic Widgets');
	});

	test('without kybFormLinks the session answer is the provider’s, without a link (Create Session links to the provider’s form)', async () => {
		const plain = await startSandbox();
		try {
			const res = await call(plain, 'POST', '/kyb/tokens/', {
				body: { tokenType: 'FORM', clientId: 'deal-8' },
			});
			expect(res.json).not.toHaveProperty('formUrl');
			// The page itself is there all the same.
			const link = `${plain.url}/kyb-ui/welcome?authToken=${encodeURIComponent(res.json.tokenString)}`;
			expect((await call(plain, 'GET', link, { auth: 'none' })).status).toBe(200);
		} finally {
			await plain.close();
		}
	});

	test('an unknown or expired link is a 404 page', async () => {
		expect((await call(sb, 'GET', '/kyb-ui/welcome?authToken=nope', { auth: 'none' })).status).toBe(
			404,
		);
		const { formUrl } = await session({ lifetime: 0 });
		expect((await call(sb, 'GET', formUrl, { auth: 'none' })).status).toBe(404);
	});
});
