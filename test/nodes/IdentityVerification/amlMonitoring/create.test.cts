/**
 * AML Monitoring: every operation through n8n's engine against the sandbox, which keeps state (a
 * stopped monitoring lists as STOPPED, a deleted one is gone, a removed profile is no longer
 * listed), with each validation rule, the service's errors and Continue On Fail.
 */
import type { INodeParameters } from 'n8n-workflow';
import { expectError, expectPaired, serviceRequests, useSandbox } from '../util.cjs';

const ctx = useSandbox();
const op = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'amlMonitoring',
	operation,
	...extra,
});
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const PEP = {
	userType: 'PERSON' as const,
	clientId: 'customer-7',
	input: { fullName: 'Łukasz Müller-Wiśniewski' },
};
const CLEAN = {
	userType: 'PERSON' as const,
	clientId: 'customer-8',
	input: { fullName: 'Ona Petraitė' },
};
const seed = (amlCheck = PEP, expiration?: string) =>
	ctx.sb.aml.seedMonitoring({ isSubscribed: false, amlCheck }, { expiration }).monitoringId;

describe('AML Monitoring: Create', () => {
	test('a person with tags: the item leads with monitoringId and status; the first screening found the PEP', async () => {
		const { items, error } = await ctx.run(
			op('create', {
				clientId: 'customer-7',
				fullName: 'Łukasz Müller-Wiśniewski',
				personFields: { nationality: 'pl' },
				isSubscribed: true,
				tags: 'vip, onboarding-2026',
			}),
		);
		expect(error).toBeUndefined();
		expectPaired(items);
		const item = items[0].json;
		expect(Object.keys(item).slice(0, 2)).toEqual(['monitoringId', 'status']);
		expect(item).toMatchObject({
			monitoringId: item.id,
			status: 'ALERT',
			isSubscribed: true,
			tags: ['vip', 'onboarding-2026'],
			amlCheck: { input: { fullName: 'Łukasz Müller-Wiśniewski', nationality: 'PL' } },
		});
		expect(ctx.sb.aml.monitoring(String(item.id))).toBeDefined();
	});

	test('a company, not renewed, without tags', async () => {
		const { items, error } = await ctx.run(
			op('create', { userType: 'COMPANY', clientId: 'c-1', companyName: 'Baltic Widgets UAB' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'ACTIVE', isSubscribed: false, tags: [] });
	});

	test.each([
		[{ tags: 'a,b,c,d,e,f' }, 'Tags', 'at most 5 tags'],
		[{ tags: 't'.repeat(33) }, 'Tags', 'at most 32 characters'],
		[{ tags: '={{ ["a,b"] }}' }, 'Tags', 'must not contain a comma'],
		[{ fullName: '={{ "" }}' }, 'Full Name', 'must not be empty'],
		[{ personFields: { nationality: 'XX' } }, 'Nationality', 'two-letter country code'],
		[{ isSubscribed: '={{ "yes" }}' }, 'Renew Automatically', 'true or false'],
	])('refuses %j before sending anything', async (extra, label, rule) => {
		const result = await ctx.run(op('create', { clientId: 'c', fullName: 'N', ...extra }));
		expectError(result, `${label}:`, rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
});

describe('AML Monitoring: Get, Get Many, Update, Delete', () => {
	test('Get by the ID of the trigger’s event ({{ $json.body.monitoringId }})', async () => {
		const id = seed();
		const { items, error } = await ctx.run(
			op('get', { monitoringId: '={{ $json.body.monitoringId }}' }),
			{ input: [{ json: { eventType: 'AML_MONITORING', body: { monitoringId: id } } }] },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			monitoringId: id,
			status: 'ALERT',
			amlCheck: { amlCheck: [expect.objectContaining({ resourceId: 'prof-pep-002' })] },
		});
	});

	test('Get Many: status ALERT, Return All or a Limit over several pages, filters sent as the provider names them', async () => {
		const alerts = [seed(), seed(), seed()];
		seed(CLEAN);
		const all = await ctx.run(op('getAll', { returnAll: true, filters: { status: 'ALERT' } }));
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.monitoringId).sort()).toEqual([...alerts].sort());
		expect(all.items[0].json).toMatchObject({ status: 'ALERT', name: 'Łukasz Müller-Wiśniewski' });
		expectPaired(all.items);

		const limited = await ctx.run(op('getAll', { limit: 2 }));
		expect(limited.items).toHaveLength(2);

		ctx.sb.resetLog();
		const filtered = await ctx.run(
			op('getAll', {
				returnAll: true,
				filters: { userType: 'PERSON', country: 'pl', isExpired: false, name: 'Ona', tags: 'a, b' },
				options: { orderBy: '-expiration' },
			}),
		);
		expect(filtered.error).toBeUndefined();
		expect(ctx.sb.requests[0].query).toEqual({
			page: '1',
			userType: 'PERSON',
			country: 'PL',
			isExpired: 'false',
			name: 'Ona',
			tags: 'a,b',
			orderBy: '-expiration',
		});
	});

	test.each([
		[{ limit: 0 }, 'Limit', 'at least 1'],
		[{ filters: { country: 'LTU' } }, 'Country', 'two-letter'],
	])('Get Many refuses %j before sending anything', async (extra, label, rule) => {
		expectError(await ctx.run(op('getAll', extra)), `${label}:`, rule);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('Update renews and replaces the tags; empty Tags removes them', async () => {
		const id = seed(CLEAN, new Date(Date.now() + 86_400_000).toISOString());
		const renewed = await ctx.run(
			op('update', { monitoringId: id, updateFields: { isSubscribed: true, tags: 'renewed' } }),
		);
		expect(renewed.error).toBeUndefined();
		expect(renewed.items[0].json).toMatchObject({ isSubscribed: true, tags: ['renewed'] });
		const cleared = await ctx.run(op('update', { monitoringId: id, updateFields: { tags: '' } }));
		expect(cleared.items[0].json.tags).toEqual([]);
		expect(ctx.sb.aml.monitoring(id)).toMatchObject({ isSubscribed: true, tags: [] });
	});

	test('Delete: gone afterwards, and a second Delete says it is not found', async () => {
		const id = seed();
		const { items, error } = await ctx.run(op('delete', { monitoringId: id }));
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: { monitoringId: id, deleted: true }, pairedItem: { item: 0 } }]);
		expect(ctx.sb.aml.monitoring(id)).toBeUndefined();
		const again = await ctx.run(op('delete', { monitoringId: id }));
		const error404 = expectError(again, 'no AML monitoring with this Monitoring ID');
		expect(error404.description).toMatch(/deleted monitoring is gone/);
	});

	test.each(['get', 'delete', 'start', 'stop', 'downloadPdf', 'update'])(
		'%s refuses a Monitoring ID that is not a UUID before sending anything',
		async (operation) => {
			const result = await ctx.run(op(operation, { monitoringId: 'monitoring-1' }));
			expectError(result, 'Monitoring ID:', 'must be a UUID');
			expect(serviceRequests(ctx.sb)).toBe(0);
		},
	);
});

describe('AML Monitoring: Start, Stop, Remove Profile, Download PDF', () => {
	test('Stop with a comment lists it as STOPPED; Start brings it back', async () => {
		const id = seed();
		const stopped = await ctx.run(op('stop', { monitoringId: id, comment: 'Customer offboarded' }));
		expect(stopped.error).toBeUndefined();
		expect(stopped.items[0].json).toMatchObject({ monitoringId: id, status: 'STOPPED' });
		const listed = await ctx.run(op('getAll', { returnAll: true, filters: { status: 'STOPPED' } }));
		expect(listed.items.map((i) => i.json.monitoringId)).toEqual([id]);
		const started = await ctx.run(op('start', { monitoringId: id }));
		expect(started.items[0].json.status).toBe('ALERT');
	});

	// The service keeps the comment but does not answer with it (writeOnly in its OpenAPI).
	test.each(['stop', 'start'])(
		'%s outputs the comment it sent, so the run shows what was kept',
		async (operation) => {
			const id = seed();
			const comment = 'Customer offboarded: account closed on request';
			const { items, error } = await ctx.run(op(operation, { monitoringId: id, comment }));
			expect(error).toBeUndefined();
			expectPaired(items);
			expect(items[0].json).toMatchObject({ monitoringId: id, comment });
			expect(Object.keys(items[0].json).slice(0, 2)).toEqual(['monitoringId', 'status']);
			const without = await ctx.run(op(operation, { monitoringId: id }));
			expect(without.items[0].json).not.toHaveProperty('comment');
		},
	);

	test('Stop refuses a comment over 10,000 characters; a start or stop is not repeated after a server error', async () => {
		const id = seed();
		expectError(
			await ctx.run(op('stop', { monitoringId: id, comment: 'c'.repeat(10_001) })),
			'Comment:',
			'at most 10000 characters',
		);
		ctx.sb.faults.add({ method: 'POST', path: `/aml/monitorings/${id}/stop/`, status: 503 });
		expectError(await ctx.run(op('stop', { monitoringId: id })), '503');
		expect(serviceRequests(ctx.sb, `/aml/monitorings/${id}/stop/`)).toBe(1);
	});

	test('Remove Profile: the cleared hit is no longer listed and the monitoring is ACTIVE again', async () => {
		const id = seed();
		const { items, error } = await ctx.run(
			op('removeProfile', { monitoringId: id, profileId: 'prof-pep-002' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ monitoringId: id, profileId: 'prof-pep-002', removed: true });
		const after = await ctx.run(op('get', { monitoringId: id }));
		expect(after.items[0].json).toMatchObject({ status: 'ACTIVE', amlCheck: { amlCheck: [] } });
		const again = await ctx.run(
			op('removeProfile', { monitoringId: id, profileId: 'prof-pep-002' }),
		);
		expectError(again, 'no profile with this Profile ID in the AML monitoring');
	});

	test('Download PDF: with or without a password, into the field chosen', async () => {
		const id = seed();
		for (const password of ['', 'secret']) {
			const { items, error } = await ctx.run(
				op('downloadPdf', { monitoringId: id, password, binaryPropertyName: 'history' }),
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				monitoringId: id,
				fileName: `aml-monitoring-${id}.pdf`,
				mimeType: 'application/pdf',
			});
			expect(items[0].binary?.history?.mimeType).toBe('application/pdf');
		}
	});

	test('Continue On Fail: an unknown monitoring becomes an error item with its status, the others go on', async () => {
		const id = seed();
		const { items, error } = await ctx.run(op('stop', { monitoringId: '={{ $json.id }}' }), {
			continueOnFail: true,
			input: [{ json: { id } }, { json: { id: UNKNOWN } }, { json: { id: 'x' } }],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].json.status).toBe('STOPPED');
		expect(items[1].json).toMatchObject({ httpCode: '404' });
		expect(items[2].json.error).toBe(
			'Monitoring ID: must be a UUID such as 5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10',
		);
	});
});
