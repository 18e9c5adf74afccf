/**
 * KYB Form → Create Form: a session's form prefilled with the company's details (its form token
 * signs in), which the company then finds and submits; one form a session; the details' rules.
 */
import { session, useKybSandbox } from '../kyb-util.cjs';
import { expectError, serviceRequests, testRefusals } from '../util.cjs';

const ctx = useKybSandbox();
const createForm = (formToken: string, extra: Record<string, unknown> = {}) => ({
	resource: 'kyb',
	operation: 'createForm',
	authentication: 'formToken',
	formToken,
	companyName: 'UAB Šiaurės Prekyba',
	companyCountry: 'lt',
	...extra,
});

async function newToken(): Promise<string> {
	const { items } = await ctx.run(session());
	return items[0].json.tokenString as string;
}

describe('KYB Form → Create Form', () => {
	test('the form with the CRM’s details: the company’s ID, and the company submits it as it is', async () => {
		const token = await newToken();
		const { items, error } = await ctx.run(
			createForm(token, {
				companyDetails: {
					registrationNumber: '305999888',
					city: 'Kaunas',
					website: 'https://siaures.example',
					brandNames: 'Šiaurė, North',
				},
			}),
		);
		expect(error).toBeUndefined();
		const companyId = items[0].json.id as string;
		expect(items[0].json.company).toMatchObject({
			companyName: 'UAB Šiaurės Prekyba',
			country: 'LT',
			registrationNumber: '305999888',
			city: 'Kaunas',
			brandNames: ['Šiaurė', 'North'],
		});
		expect(ctx.sb.kyb.company(companyId)).toMatchObject({ status: 'PENDING' });
		const { companyId: submitted } = await ctx.sb.kyb.submitSession(token);
		expect(submitted).toBe(companyId);
		expect(ctx.sb.kyb.company(companyId)).toMatchObject({
			status: 'NEED_TO_REVIEW',
			info: { companyName: 'UAB Šiaurės Prekyba' },
		});
	});

	test('a session has one form: the second is the service’s refusal, sent once', async () => {
		const token = await newToken();
		await ctx.run(createForm(token));
		ctx.sb.resetLog();
		expectError(await ctx.run(createForm(token)), 'HTTP 409');
		expect(serviceRequests(ctx.sb, '/kyb/forms/')).toBe(1);
	});

	test('the API key cannot make a form: refused before sending, saying what to use', async () => {
		const error = expectError(
			await ctx.run(createForm('', { authentication: 'apiKey' })),
			'needs the session’s form token',
		);
		expect(error.description).toMatch(/Authentication to Form Token/);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	testRefusals(ctx, [
		[createForm('t', { companyName: 'c'.repeat(201) }), 'Company Name', 'at most 200'],
		[createForm('t', { companyCountry: 'Lithuania' }), 'Country', 'two-letter country code'],
		[createForm('t', { companyDetails: { email: 'not-mail' } }), 'Email', 'e-mail address'],
		[createForm('t', { companyDetails: { website: 'siaures' } }), 'Website', 'web address'],
		[createForm('t', { companyDetails: { region: 'VLN' } }), 'Region', 'at most 2'],
	]);
});
