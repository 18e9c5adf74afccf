/**
 * AML Check → Create, version 2: what decides a person's hits is on the node's face, Date of Birth
 * (a day, YYYY-MM-DD) and Date of Birth Matching beside it, each choice saying what it misses;
 * versions 1 and 1.1 keep both under Additional Fields and Options.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';
import { runNode, sandboxCredentials } from '../../harness/index.cjs';
import { useSandbox } from './util.cjs';

const ctx = useSandbox();
const create = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'create',
	userType: 'PERSON',
	clientId: 'customer-7',
	fullName: 'Łukasz Müller-Wiśniewski',
	...extra,
});
const { properties } = new IdentityVerification().description;
const createFields = properties.filter(
	(p) =>
		p.displayOptions?.show?.resource?.includes('aml') &&
		p.displayOptions.show.operation?.includes('create'),
);

describe('AML Check → Create, version 2: Date of Birth and its matching on the face', () => {
	test('beside Full Name, a day as text, then the matching with what each choice misses', () => {
		const names = createFields.map((p) => p.name);
		const at = names.indexOf('fullName');
		expect(names.slice(at, at + 3)).toEqual(['fullName', 'dateOfBirth', 'dateOfBirthMatching']);
		const [dateOfBirth, matching] = createFields.slice(at + 1, at + 3);
		expect(dateOfBirth.type).toBe('string');
		expect(dateOfBirth.placeholder).toBe('e.g. 1985-04-12');
		expect(matching.default).toBe('EXACT');
		const choices = matching.options as INodePropertyOptions[];
		expect(choices.map((c) => c.value)).toEqual([
			'EXACT',
			'SAME_YEAR',
			'WITHIN_ONE_YEAR',
			'WITHIN_TWO_YEARS',
			'WITHIN_THREE_YEARS',
			'WITHIN_FOUR_YEARS',
			'WITHIN_FIVE_YEARS',
		]);
		for (const choice of choices) expect(choice.description).toMatch(/misses/);
		for (const field of [dateOfBirth, matching])
			expect(field.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 2 } }]);
	});

	test('versions 1 and 1.1 keep them under Additional Fields and Options', () => {
		const nested = (collection: string, name: string) =>
			(createFields.find((p) => p.name === collection)?.options as INodeProperties[]).find(
				(o) => o.name === name,
			);
		expect(nested('personFields', 'dateOfBirth')?.displayOptions?.show?.['@version']).toEqual([
			{ _cnd: { lt: 2 } },
		]);
		expect(nested('options', 'dateOfBirthMatching')?.displayOptions?.show?.['@version']).toEqual([
			{ _cnd: { lt: 2 } },
		]);
	});

	test('the day and the matching are sent', async () => {
		ctx.sb.resetLog();
		const { items, error } = await ctx.run(
			create({ dateOfBirth: '1968-02-11', dateOfBirthMatching: 'SAME_YEAR' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			input: { dateOfBirth: '1968-02-11' },
			filter: { dateOfBirthMatching: 'SAME_YEAR' },
		});
	});

	test('no Date of Birth: none is sent', async () => {
		const { items } = await ctx.run(create());
		expect(items[0].json.input).not.toHaveProperty('dateOfBirth');
	});

	test('version 1.1: the saved Additional Fields → Date of Birth and Options → Date of Birth Matching still apply', async () => {
		const { items, error } = await runNode({
			node: 'identityVerification',
			typeVersion: 1.1,
			parameters: create({
				personFields: { dateOfBirth: '1968-02-11T00:00:00' },
				options: { dateOfBirthMatching: 'WITHIN_ONE_YEAR' },
			}),
			credentials: sandboxCredentials(ctx.sb),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			input: { dateOfBirth: '1968-02-11' },
			filter: { dateOfBirthMatching: 'WITHIN_ONE_YEAR' },
		});
	});

	test('Client ID stays required, as the service requires it, and says what to use for a prospect', () => {
		const clientId = createFields.find((p) => p.name === 'clientId');
		expect(clientId?.required).toBe(true);
		expect(clientId?.hint).toMatch(/prospect/);
	});
});
