/**
 * KYB Form → Update Form: the company details of a form being filled (API key or its form token),
 * the others kept; a submitted form is the service's refusal; the Company ID's 404.
 */
import { session, useKybSandbox } from '../kyb-util.cjs';
import { expectError } from '../util.cjs';

const ctx = useKybSandbox();
const updateForm = (companyId: string, extra: Record<string, unknown> = {}) => ({
	resource: 'kyb',
	operation: 'updateForm',
	companyId,
	companyName: 'UAB Šiaurės Prekyba',
	companyCountry: 'LT',
	...extra,
});

async function formOfSession(): Promise<{ token: string; companyId: string }> {
	const { items } = await ctx.run(session());
	const token = items[0].json.tokenString as string;
	const made = await ctx.run({
		resource: 'kyb',
		operation: 'createForm',
		authentication: 'formToken',
		formToken: token,
		companyName: 'Old name',
		companyCountry: 'LV',
		companyDetails: { city: 'Riga', registrationNumber: '4000' },
	});
	return { token, companyId: made.items[0].json.id as string };
}

describe('KYB Form → Update Form', () => {
	test.each(['apiKey', 'formToken'])(
		'%s: the details given replace the form’s, the others stay',
		async (authentication) => {
			const { token, companyId } = await formOfSession();
			const { items, error } = await ctx.run(
				updateForm(companyId, {
					authentication,
					formToken: token,
					companyDetails: { phone: '+37060000000' },
				}),
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				companyId,
				company: {
					companyName: 'UAB Šiaurės Prekyba',
					country: 'LT',
					registrationNumber: '4000',
					city: 'Riga',
					phone: '+37060000000',
				},
			});
		},
	);

	test('a submitted form: the service’s refusal', async () => {
		const companyId = await ctx.submitted();
		const error = expectError(await ctx.run(updateForm(companyId)), 'HTTP 409');
		expect(error.description).toMatch(/can no longer be edited/);
	});

	test('an unknown company: the company’s 404', async () => {
		expectError(await ctx.run(updateForm('gone')), 'no company with this Company ID');
	});
});
