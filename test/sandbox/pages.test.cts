/**
 * The sandbox's home page (what it is, its credentials, where results go, the AML test names and what
 * each produces) and its deliveries page (the dashboard's "Recently sent", with Resend).
 */
import { AML_COMPANY_DATASETS, AML_PERSON_DATASETS } from '../../nodes/shared/contract';
import { SEED } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { amlTestNames } from './amlLists.cjs';
import { call, useSandbox } from './test-helpers.cjs';
import type { Receiver } from './test-helpers.cjs';

describe('sandbox home page', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]), { webhooks: { retryDelaysMs: [] } });

	test('GET / is an HTML page, without credentials, naming the credentials and where results go', async () => {
		const res = await call(sb, 'GET', '/', { auth: 'none' });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(res.text).toContain(sb.credentials.apiKey);
		expect(res.text).toContain(sb.credentials.signingKey);
		expect(res.text).toContain(
			`sends every webhook, signed with the webhook signing key, to <code>${receiver.url}</code>.`,
		);
		expect(res.text).toContain('Callback URL');
		expect(res.text).toContain('href="/__sandbox/deliveries"');
		expect(res.text).toContain(SEED.kyb.companyId);
	});

	test('lists the AML test names, and each screens as the page says (hit or no hit)', async () => {
		const res = await call(sb, 'GET', '/', { auth: 'none' });
		const names = amlTestNames();
		expect(names.map((n) => n.name)).toEqual(
			expect.arrayContaining(['Aleksandr Volkov', 'Baltic Shadow Trading Ltd', 'Jonas Jonaitis']),
		);
		for (const { name, userType, produces } of names) {
			expect(res.text).toContain(`<td>${name}</td>`);
			// Every dataset, as AML Check → Create screens by default.
			const body =
				userType === 'PERSON'
					? { userType, input: { fullName: name }, filter: { datasets: [...AML_PERSON_DATASETS] } }
					: {
							userType,
							input: { companyName: name },
							filter: { datasets: [...AML_COMPANY_DATASETS] },
						};
			const check = await call(sb, 'POST', '/aml/checks/', { body: { clientId: 'c', ...body } });
			expect(check.status).toBe(201);
			expect(produces.startsWith(check.json.overallStatus)).toBe(true);
			expect(check.json.amlCheck.length > 0).toBe(produces.includes('a hit'));
		}
		expect(res.text).toContain('Vladimir Putin');
	});
});

describe('sandbox deliveries page', () => {
	let sb: Sandbox;
	let receiver: Receiver;
	useSandbox((s, r) => ([sb, receiver] = [s, r]), { webhooks: { retryDelaysMs: [] } });

	test('lists every delivery, newest first, with its answer; Resend sends the same signed bytes again', async () => {
		const empty = await call(sb, 'GET', '/__sandbox/deliveries', { auth: 'none' });
		expect(empty.text).toContain('Nothing was sent yet');
		const first = await sb.webhooks.send('BANK_VERIFICATION');
		receiver.answers.push(503);
		await sb.webhooks.send('COMPANY_SUBMIT');
		const page = await call(sb, 'GET', '/__sandbox/deliveries', { auth: 'none' });
		expect(page.status).toBe(200);
		expect(page.text.indexOf('COMPANY_SUBMIT')).toBeLessThan(
			page.text.indexOf('BANK_VERIFICATION'),
		);
		expect(page.text).toContain('failed: answered HTTP 503 (refused)');
		expect(page.text).toContain('delivered: answered HTTP 200 (accepted)');
		expect(page.text).toContain(`action="/__sandbox/deliveries/${first.id}/resend"`);

		const resent = await call(sb, 'POST', `/__sandbox/deliveries/${first.id}/resend`, {
			auth: 'none',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: '',
		});
		expect(resent.status).toBe(200);
		expect(resent.text).toContain(`BANK_VERIFICATION</b> webhook to <code>${receiver.url}</code>`);
		expect(resent.text).toContain('answered HTTP 200');
		expect(receiver.received).toHaveLength(3);
		expect(receiver.received[2].raw.equals(receiver.received[0].raw)).toBe(true);
		expect(receiver.received[2].headers['service-signature']).toBe(
			receiver.received[0].headers['service-signature'],
		);
		expect(sb.webhooks.log[2].resendOf).toBe(first.id);
	});

	test('Send a sample event: the kind chosen, signed, to where that kind goes; an unknown kind is a 400 page', async () => {
		const page = await call(sb, 'GET', '/__sandbox/deliveries', { auth: 'none' });
		expect(page.text).toContain('action="/__sandbox/deliveries/send"');
		expect(page.text).toContain('<option value="DOCUMENT_EXPIRATION">');
		const sent = await call(sb, 'POST', '/__sandbox/deliveries/send', {
			auth: 'none',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'kind=DOCUMENT_EXPIRATION',
		});
		expect(sent.status).toBe(200);
		expect(sent.text).toContain(`DOCUMENT_EXPIRATION</b> webhook to <code>${receiver.url}</code>`);
		expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
			'DOCUMENT_EXPIRATION',
		]);
		const unknown = await call(sb, 'POST', '/__sandbox/deliveries/send', {
			auth: 'none',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'kind=NOT_A_KIND',
		});
		expect(unknown.status).toBe(400);
		expect(receiver.received).toHaveLength(1);
	});

	test('names the kinds sent to their own addresses, each with every address it goes to', async () => {
		const other = 'http://127.0.0.1:9/other';
		sb.webhooks.configure({
			url: receiver.url,
			urlsByKind: { IDENTIFICATION_EXPIRED: [receiver.url, other] },
		});
		const res = await call(sb, 'GET', '/__sandbox/deliveries', { auth: 'none' });
		expect(res.text).toContain(
			`except these kinds, each sent to every address beside it:<ul><li><code>IDENTIFICATION_EXPIRED</code>: <code>${receiver.url}</code>, <code>${other}</code></li></ul>`,
		);
	});

	test("Screen now runs a monitoring's daily screening from the page (AML_MONITORING); an unknown one is a 404 page", async () => {
		const page = await call(sb, 'GET', '/__sandbox/deliveries', { auth: 'none' });
		expect(page.text).toContain('action="/__sandbox/deliveries/screen"');
		expect(page.text).toContain(
			`<option value="${SEED.aml.monitoringId}">Jonas Jonaitis (ACTIVE)</option>`,
		);
		const form = {
			auth: 'none' as const,
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		};
		const sent = await call(sb, 'POST', '/__sandbox/deliveries/screen', {
			...form,
			body: `monitoring=${SEED.aml.monitoringId}`,
		});
		expect(sent.status).toBe(200);
		expect(sent.text).toContain(`AML_MONITORING</b> webhook to <code>${receiver.url}</code>`);
		expect(receiver.received.map((r) => r.headers['service-event-type'])).toEqual([
			'AML_MONITORING',
		]);
		const unknown = await call(sb, 'POST', '/__sandbox/deliveries/screen', {
			...form,
			body: 'monitoring=nope',
		});
		expect(unknown.status).toBe(404);
		expect(receiver.received).toHaveLength(1);
	});

	test('Resend of an unknown delivery is a 404 page', async () => {
		const res = await call(sb, 'POST', '/__sandbox/deliveries/nope/resend', { auth: 'none' });
		expect(res.status).toBe(404);
		expect(res.text).toContain('Delivery not found');
	});
});
