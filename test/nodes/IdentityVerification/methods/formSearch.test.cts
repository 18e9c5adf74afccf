/**
 * Form ID → From List: the form of a form token (`GET /kyb/forms/`, kyb.yaml `kybFormsList`: "one
 * or zero items", security `kybTokenAuth` only).
 */
import { SEED } from '../../../sandbox/index.cjs';
import { useSearchSandbox } from './search-util.cjs';

const ctx = useSearchSandbox();
const submit = (extra: Record<string, unknown> = {}) => ({
	resource: 'kyb',
	operation: 'submitForm',
	...extra,
});

describe('Form ID: From List', () => {
	test('with the Form Token Credential: the token’s form, by company name and status', async () => {
		const { results } = await ctx.search('formSearch', submit({ authentication: 'kybFormToken' }));
		expect(results).toEqual([{ name: 'UAB Baltic Widgets — PENDING', value: SEED.kyb.formId }]);
		expect(ctx.sb.requests).toMatchObject([{ path: '/kyb/forms/', authScheme: 'bearer' }]);
	});

	test('with the API key: the service lists forms for a form token only, and the message says so', async () => {
		await expect(ctx.search('formSearch', submit())).rejects.toThrow(
			'This credential cannot list KYB forms',
		);
	});
});
