/**
 * The sandbox's AML checks and monitorings: every answer in the shape of the provider's schema
 * (aml.yaml, checked with ajv), inputs refused with the contract's schema, and state: what a
 * check found, a stopped monitoring lists as STOPPED, a deleted one is gone, a removed profile is
 * no longer listed (nor found again).
 */
import { responseSchema, schemaErrors, webhookSchemas } from '../real-service/provider.cjs';
import { SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { call, useSandbox } from './test-helpers.cjs';

const provider = (path: string, method: string, status: number) => {
	const schema = responseSchema(path, method, status);
	if (!schema) throw new Error(`no schema for ${method} ${path} ${status}`);
	return (value: unknown) => schemaErrors(schema, value);
};
const CHECK = provider('/aml/checks/', 'post', 201);
const PROFILE = provider('/aml/checks/{id}/profiles/{profileId}/', 'get', 200);
const MONITORING = provider('/aml/monitorings/{id}/', 'get', 200);
const MONITORING_LIST = provider('/aml/monitorings/', 'get', 200);

const person = (fullName: string, extra: Record<string, unknown> = {}) => ({
	clientId: 'client-1',
	userType: 'PERSON',
	input: { fullName, ...extra },
});
const company = (companyName: string) => ({
	clientId: 'client-2',
	userType: 'COMPANY',
	input: { companyName },
});
const check = (subject: object, filter: Record<string, unknown> = {}) => ({
	...subject,
	filter: { datasets: ['SAN_CURRENT', 'PEP_CURRENT', 'PEP_FORMER'], ...filter },
});

describe('sandbox AML checks', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s));

	test('finds a listed person by name (words in any order, without accents) and answers in the provider’s shape', async () => {
		const res = await call(sb, 'POST', '/aml/checks/', { body: check(person('volkov ALEKSANDR')) });
		expect(res.status).toBe(201);
		expect(CHECK(res.json)).toEqual([]);
		expect(res.json).toMatchObject({ overallStatus: 'FLAGS_FOUND', userType: 'PERSON' });
		expect(res.json.amlCheck).toEqual([
			expect.objectContaining({
				resourceId: SEED.aml.profileId,
				score: 100,
				datasets: ['SAN_CURRENT', 'PEP_FORMER'],
			}),
		]);
		// The hit's profile, whole, and its PDF.
		const profile = await call(sb, 'GET', `/aml/checks/${res.json.id}/profiles/prof-001/`);
		expect(profile.status).toBe(200);
		expect(PROFILE(profile.json)).toEqual([]);
		expect(profile.json.lastName).toBe('Volkov');
		const pdf = await call(sb, 'POST', `/aml/checks/${res.json.id}/pdf/`, { body: {} });
		expect(pdf.status).toBe(200);
		expect(pdf.headers['content-type']).toBe('application/pdf');
		// PDF text escapes parentheses.
		expect(pdf.body.toString('latin1')).toContain(
			'Hit: Aleksandr Volkov \\(prof-001\\), score 100',
		);
	});

	test('a spelling in the aliases matches too; a name below the threshold, another date of birth or other datasets do not', async () => {
		const found = async (body: object) =>
			(await call(sb, 'POST', '/aml/checks/', { body })).json.amlCheck.length;
		expect(await found(check(person('Alexander Volkov')))).toBe(1);
		expect(await found(check(person('Aleksandr Ivanovich Volkov')))).toBe(0);
		expect(await found(check(person('Aleksandr Ivanovich Volkov'), { threshold: 75 }))).toBe(1);
		expect(await found(check(person('Aleksandr Volkov', { dateOfBirth: '1969-02-11' })))).toBe(0);
		const sameYearOrSo = { dateOfBirthMatching: 'WITHIN_ONE_YEAR' };
		expect(
			await found(check(person('Aleksandr Volkov', { dateOfBirth: '1969-02-11' }), sameYearOrSo)),
		).toBe(1);
		expect(await found(check(person('Aleksandr Volkov'), { datasets: ['INS'] }))).toBe(0);
	});

	test('a company with adverse media, and a clean person', async () => {
		const res = await call(sb, 'POST', '/aml/checks/', {
			body: check(company('Baltic Shadow Trading'), { datasets: ['SAN_CURRENT'] }),
		});
		expect(CHECK(res.json)).toEqual([]);
		expect(res.json.amlCheck.map((h: { resourceId: string }) => h.resourceId)).toEqual(['biz-003']);
		expect(res.json.adverseMedia).toHaveLength(1);
		const profile = await call(sb, 'GET', `/aml/checks/${res.json.id}/profiles/biz-003/`);
		expect(PROFILE(profile.json)).toEqual([]);
		const clean = await call(sb, 'POST', '/aml/checks/', { body: check(person('Ona Petraitė')) });
		expect(clean.json).toMatchObject({ overallStatus: 'NO_FLAGS', amlCheck: [], adverseMedia: [] });
	});

	test.each([
		[{ ...check(person('A')), filter: { datasets: [] } }, "Field 'filter.datasets'"],
		[check(person('A'), { threshold: 74 }), "Field 'filter.threshold'"],
		[check(person('A', { sex: 'M' })), "Field 'input.sex'"],
		[check(person('A', { nationality: 'lt' })), "Field 'input.nationality'"],
		[check({ ...person(''), clientId: 'x'.repeat(101) }), "Field 'clientId'"],
	])('refuses what the provider’s schema refuses: %j', async (body, field) => {
		const res = await call(sb, 'POST', '/aml/checks/', { body });
		expect(res.status).toBe(400);
		expect(res.json.message).toContain(field);
	});

	test('a profile of another check, an unknown check, and a check PDF with an empty password are refused', async () => {
		const other = (await call(sb, 'POST', '/aml/checks/', { body: check(person('Nobody')) })).json;
		expect((await call(sb, 'GET', `/aml/checks/${other.id}/profiles/prof-001/`)).status).toBe(404);
		const unknown = '00000000-0000-4000-8000-000000000000';
		expect((await call(sb, 'POST', `/aml/checks/${unknown}/pdf/`, { body: {} })).status).toBe(404);
		const empty = await call(sb, 'POST', `/aml/checks/${other.id}/pdf/`, {
			body: { password: '' },
		});
		expect(empty.status).toBe(400);
	});
});

describe('sandbox AML monitorings', () => {
	let sb: Sandbox;
	useSandbox((s) => (sb = s), { webhooks: { retryDelaysMs: [] } });

	const create = async (subject: object, extra: Record<string, unknown> = {}) => {
		const res = await call(sb, 'POST', '/aml/monitorings/', {
			body: { isSubscribed: false, amlCheck: subject, ...extra },
		});
		expect(res.status).toBe(201);
		expect(MONITORING(res.json)).toEqual([]);
		return res.json;
	};
	const list = async (query = '') => {
		const res = await call(sb, 'GET', `/aml/monitorings/${query}`);
		expect(res.status).toBe(200);
		expect(MONITORING_LIST(res.json)).toEqual([]);
		return res.json;
	};

	test('created with a first screening: ALERT with a hit, ACTIVE without; listed, filtered and paged', async () => {
		const alert = await create(person('Łukasz Müller-Wiśniewski'), { tags: ['vip'] });
		expect(alert).toMatchObject({ status: 'ALERT', tags: ['vip'], isSubscribed: false });
		expect(alert.amlCheck.amlCheck[0].resourceId).toBe('prof-pep-002');
		const active = await create(company('Baltic Widgets UAB'));
		expect(active.status).toBe('ACTIVE');

		// Newest first; the seeded monitoring (SEED.aml.monitoringId) was made before.
		expect((await list()).results.map((m: { id: string }) => m.id)).toEqual([
			active.id,
			alert.id,
			SEED.aml.monitoringId,
		]);
		expect((await list('?status=ALERT')).results).toEqual([
			expect.objectContaining({ id: alert.id, name: 'Łukasz Müller-Wiśniewski', status: 'ALERT' }),
		]);
		expect((await list('?userType=COMPANY&tags=vip')).count).toBe(0);
		expect((await list('?tags=vip')).count).toBe(1);
		const paged = await list('?perPage=1&orderBy=created');
		expect(paged).toMatchObject({ count: 3, results: [{ id: SEED.aml.monitoringId }] });
		expect(paged.next).toContain('page=2');
		expect((await call(sb, 'GET', '/aml/monitorings/?orderBy=name')).status).toBe(400);
	});

	test('stop lists it as STOPPED, start brings back its alert; the comments are in its PDF', async () => {
		const { id } = await create(person('Łukasz Müller-Wiśniewski'));
		const stopped = await call(sb, 'POST', `/aml/monitorings/${id}/stop/`, {
			body: { comment: 'Customer offboarded' },
		});
		expect(stopped.json.status).toBe('STOPPED');
		expect(MONITORING(stopped.json)).toEqual([]);
		expect((await list('?status=STOPPED')).results.map((m: { id: string }) => m.id)).toEqual([id]);
		const started = await call(sb, 'POST', `/aml/monitorings/${id}/start/`, { body: {} });
		expect(started.status).toBe(200);
		expect(started.json.status).toBe('ALERT');
		expect(MONITORING(started.json)).toEqual([]);
		const pdf = await call(sb, 'POST', `/aml/monitorings/${id}/pdf/`, { body: { password: 'p' } });
		expect(pdf.status).toBe(200);
		expect(pdf.headers['content-type']).toBe('application/pdf');
		expect(pdf.body.toString('latin1')).toContain('stopped \\(Customer offboarded\\)');
	});

	test('a removed profile is no longer listed nor found again; with no hit left the monitoring is ACTIVE', async () => {
		const { id } = await create(person('Łukasz Müller-Wiśniewski'));
		const path = `/aml/monitorings/${id}/profiles/prof-pep-002/`;
		expect((await call(sb, 'DELETE', path)).status).toBe(204);
		const got = await call(sb, 'GET', `/aml/monitorings/${id}/`);
		expect(got.status).toBe(200);
		const after = got.json;
		expect(MONITORING(after)).toEqual([]);
		expect(after).toMatchObject({ status: 'ACTIVE', amlCheck: { amlCheck: [] } });
		expect((await call(sb, 'DELETE', path)).status).toBe(404);
		await sb.aml.screenMonitoring(id).catch(() => undefined);
		expect(sb.aml.monitoring(id)).toMatchObject({ status: 'ACTIVE' });
	});

	test('patch renews and replaces the tags; a deleted monitoring is gone', async () => {
		const soon = new Date(Date.now() + 86_400_000).toISOString();
		const { monitoringId } = sb.aml.seedMonitoring(
			{ isSubscribed: false, amlCheck: person('Ona Petraitė') as never },
			{ expiration: soon },
		);
		const patched = await call(sb, 'PATCH', `/aml/monitorings/${monitoringId}/`, {
			body: { isSubscribed: true, tags: ['renewed'] },
		});
		expect(patched.status).toBe(200);
		expect(MONITORING(patched.json)).toEqual([]);
		expect(patched.json).toMatchObject({ isSubscribed: true, tags: ['renewed'] });
		expect(Date.parse(patched.json.expiration)).toBeGreaterThan(Date.parse(soon));
		const tooMany = await call(sb, 'PATCH', `/aml/monitorings/${monitoringId}/`, {
			body: { tags: ['a', 'b', 'c', 'd', 'e', 'f'] },
		});
		expect(tooMany.status).toBe(400);

		expect((await call(sb, 'DELETE', `/aml/monitorings/${monitoringId}/`)).status).toBe(204);
		expect((await call(sb, 'GET', `/aml/monitorings/${monitoringId}/`)).status).toBe(404);
		expect((await list()).results.map((m: { id: string }) => m.id)).toEqual([
			SEED.aml.monitoringId,
		]);
	});

	test('the daily screening and the expiry notice are sent as the provider’s webhook bodies', async () => {
		const soon = new Date(Date.now() + 86_400_000).toISOString();
		const subject = person('Łukasz Müller-Wiśniewski', { nationality: 'PL' }) as never;
		const { monitoringId } = sb.aml.seedMonitoring(
			{ isSubscribed: false, amlCheck: subject },
			{
				expiration: soon,
			},
		);
		sb.aml.seedMonitoring(
			{ isSubscribed: true, amlCheck: person('Ona Petraitė') as never },
			{
				expiration: soon,
			},
		);
		const screened = await sb.aml.screenMonitoring(monitoringId);
		const body = JSON.parse(screened.payload);
		expect(schemaErrors(webhookSchemas().get('AML_MONITORING')!, body)).toEqual([]);
		expect(body).toMatchObject({
			monitoringId,
			name: 'Łukasz',
			surname: 'Müller-Wiśniewski',
			status: 'ALERT',
			alertStatus: 'ALERT',
			pepsStatus: 'FLAGS_FOUND',
			sanctionsStatus: 'NO_FLAGS',
		});
		const expiring = JSON.parse((await sb.aml.sendExpiration()).payload);
		expect(expiring).toEqual({ usersToExtend: 1, usersToExpire: 1 });
	});

	test('an unknown or malformed monitoring id: 404 or 400', async () => {
		expect(
			(await call(sb, 'GET', '/aml/monitorings/00000000-0000-4000-8000-000000000000/')).status,
		).toBe(404);
		expect((await call(sb, 'POST', '/aml/monitorings/x/stop/', { body: {} })).status).toBe(400);
	});
});
