/**
 * KYB Form → Add Beneficiary: a person added to a form being filled, then listed; the request's
 * rules before sending; not repeated after a failure that may have added them.
 */
import { session, useKybSandbox } from '../kyb-util.cjs';
import { expectError, serviceRequests, testRefusals } from '../util.cjs';

const ctx = useKybSandbox();
const add = (companyId: string, extra: Record<string, unknown> = {}) => ({
	resource: 'kyb',
	operation: 'addBeneficiary',
	companyId,
	name: 'Rūta',
	surname: 'Žukauskienė',
	...extra,
});

async function formId(): Promise<string> {
	const { items } = await ctx.run(session());
	const made = await ctx.run({
		resource: 'kyb',
		operation: 'createForm',
		authentication: 'formToken',
		formToken: items[0].json.tokenString as string,
		companyName: 'UAB Šiaurės Prekyba',
		companyCountry: 'LT',
	});
	return made.items[0].json.id as string;
}

describe('KYB Form → Add Beneficiary', () => {
	test('the person with roles and details; Get Many Beneficiaries lists them', async () => {
		const companyId = await formId();
		const { items, error } = await ctx.run(
			add(companyId, {
				beneficiaryTypes: ['UBO', 'CEO'],
				beneficiaryFields: {
					dateOfBirth: '1980-02-29',
					nationality: 'lt',
					email: 'ruta@example.com',
					ownershipPercentage: 75.5,
					positions: 'director, shareholder',
					formFiller: true,
				},
			}),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			info: {
				infoType: 'INDIVIDUAL',
				name: 'Rūta',
				surname: 'Žukauskienė',
				dateOfBirth: '1980-02-29',
				nationality: 'LT',
				email: 'ruta@example.com',
			},
			beneficiaryTypes: ['UBO', 'CEO'],
			positions: ['director', 'shareholder'],
			formFiller: true,
			ownershipPercentage: 75.5,
		});
		const listed = await ctx.run({ resource: 'kyb', operation: 'getBeneficiaries', companyId });
		expect(listed.items.map((item) => item.json.id)).toEqual([items[0].json.id]);
	});

	test('a 5xx is not repeated: the person may have been added', async () => {
		const companyId = await formId();
		const path = `/kyb/forms/${companyId}/beneficiaries/`;
		ctx.sb.faults.add({ method: 'POST', path, status: 502 });
		expectError(await ctx.run(add(companyId)), 'HTTP 502');
		expect(serviceRequests(ctx.sb, path)).toBe(1);
	});

	testRefusals(ctx, [
		[add('c', { beneficiaryTypes: [] }), 'Roles', 'at least one role'],
		[
			add('c', { beneficiaryFields: { dateOfBirth: '29.02.1980' } }),
			'Date of Birth',
			'such as 1985-04-12',
		],
		[
			add('c', { beneficiaryFields: { ownershipPercentage: 101 } }),
			'Ownership (%)',
			'from 0 to 100',
		],
		[add('c', { beneficiaryFields: { positions: 'a,b,c,d' } }), 'Positions', 'at most 3'],
		[add('c', { beneficiaryFields: { personalNumber: 'Ž1' } }), 'Personal Number', 'ASCII'],
		[add('c', { surname: 's'.repeat(101) }), 'Last Name', 'at most 100'],
	]);
});
