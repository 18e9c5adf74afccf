/** The demo's copies of the examples: what the demo changes beyond the stand-ins. */
import { runCheck, wholeListCheck } from '../sandbox/amlLists.cjs';
import { transactionsRange } from '../sandbox/data.cjs';
import { startSandbox } from '../sandbox/index.cjs';
import { SEED } from '../sandbox/seed.cjs';
import { call, startReceiver } from '../sandbox/test-helpers.cjs';
import { createTransport } from 'nodemailer';
import { kybFormLink } from '../../nodes/shared/contract';
import { exampleWorkflow } from '../n8n/examples.cjs';
import { isTriggerWorkflow, triggerEvents } from '../n8n/stack.cjs';
import {
	demoCopies,
	demoStackOptions,
	kindReceivers,
	KYB_FORM_ADDRESS_FIELD,
	kybFormLinkIn,
	seedDemoData,
	startsOf,
	webhookSample,
} from './copies.cjs';

describe("the demo's copies", () => {
	const copies = demoCopies();

	test('an event goes to every example that listens to it: an expired verification reaches the results workflow and the abandonment reminder', () => {
		const triggers = copies.filter(isTriggerWorkflow);
		const receivers = kindReceivers(triggers, (w) => w.file);
		expect(receivers.IDENTIFICATION_EXPIRED).toEqual(
			expect.arrayContaining([
				'abandonment-reminder.json',
				'verification-results-to-slack-and-hubspot.json',
			]),
		);
		for (const w of triggers)
			for (const kind of triggerEvents(w)) expect(receivers[kind]).toContain(w.file);
	});
	const scheduled = copies.filter((w) =>
		w.workflow.nodes.some((n) => n.type === 'n8n-nodes-base.scheduleTrigger'),
	);

	test('a schedule is switched off (a published copy would fire it on its own), and the copy still starts by hand', () => {
		expect(scheduled.length).toBeGreaterThan(0);
		for (const w of scheduled) {
			for (const n of w.workflow.nodes.filter(
				(node) => node.type === 'n8n-nodes-base.scheduleTrigger',
			)) {
				expect((n as { disabled?: boolean }).disabled).toBe(true);
			}
			expect(startsOf(w)).toContain('manual');
		}
	});

	test('the example with both triggers is run by its webhook (a poll can only be waited for), and is published', () => {
		const catchUp = copies.find(
			(w) => w.file === 'verification-results-with-nightly-catch-up.json',
		)!;
		expect(startsOf(catchUp)).toEqual(['trigger']);
		expect(demoStackOptions().publish).toContain(catchUp.workflow.id);
	});

	test('every copy keeps its runs, so the executions list shows each', () => {
		for (const w of copies)
			expect(w.workflow.settings).toMatchObject({ saveDataSuccessExecution: 'all' });
	});

	test('the customer a CRM posts to a copy is one the sandbox’s AML lists hit, date of birth included, so the screening’s hit branch runs', () => {
		const { customerId, fullName, dateOfBirth, nationality } = webhookSample('c-1');
		const check = runCheck(
			wholeListCheck({
				clientId: customerId,
				userType: 'PERSON',
				input: { fullName, dateOfBirth, nationality },
			}),
		);
		expect(check.overallStatus).toBe('FLAGS_FOUND');
	});

	test('the demo seeds a monitoring in ALERT: its daily screening is the AML_MONITORING the alert-triage example takes its alert branch on', async () => {
		const [sb, receiver] = await Promise.all([startSandbox(), startReceiver()]);
		try {
			sb.webhooks.configure({ url: receiver.url });
			const { amlAlertMonitoringId } = seedDemoData(sb);
			expect(sb.aml.monitoring(amlAlertMonitoringId)).toMatchObject({ status: 'ALERT' });
			const body = JSON.parse((await sb.aml.screenMonitoring(amlAlertMonitoringId)).payload);
			expect(body).toMatchObject({
				monitoringId: amlAlertMonitoringId,
				name: 'Aleksandr',
				surname: 'Volkov',
				status: 'ALERT',
				sanctionsStatus: 'FLAGS_FOUND',
			});
		} finally {
			await Promise.all([sb.close(), receiver.close()]);
		}
	});

	test('the demo seeds a verification approved six years ago: the retention purge erases it', async () => {
		const sb = await startSandbox();
		try {
			const { oldVerificationScanRef } = seedDemoData(sb);
			const result = await call(sb, 'POST', '/api/v2/full', {
				body: { scanRef: oldVerificationScanRef },
			});
			const { startTime, status } = result.json as { startTime: number; status: any };
			expect(status.overall).toBe('APPROVED');
			expect(Date.now() / 1000 - startTime).toBeGreaterThan(5 * 365 * 86_400);
		} finally {
			await sb.close();
		}
	});

	test('the seeded bank account has bookings yesterday, whatever the time zone (the nightly example pulls them)', () => {
		const dates = transactionsRange(SEED.bank.accountId, 0, 21).map((t) => t.bookingDate);
		const day = (offset: number) =>
			new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
		// UTC+14's yesterday is UTC's today at the latest; UTC-12's is UTC's day before yesterday.
		for (const offset of [0, -1, -2])
			expect(dates.filter((d) => d === day(offset))).toHaveLength(7);
	});

	test('a KYB form link an example builds opens the sandbox’s own form page in the demo; the file keeps the provider’s', () => {
		const addressOf = (w: { nodes: Array<{ name: string; parameters: any }> }) =>
			w.nodes
				.find((n) => n.name === 'KYB form address')!
				.parameters.assignments.assignments.find((a: any) => a.name === KYB_FORM_ADDRESS_FIELD)
				.value;
		const file = exampleWorkflow('kyb-company-events.json');
		expect(`${addressOf(file)}?authToken=t`).toBe(kybFormLink('t'));
		const copy = demoCopies('http://127.0.0.1:8787').find(
			(w) => w.file === 'kyb-company-events.json',
		)!;
		expect(addressOf(copy.workflow)).toBe('http://127.0.0.1:8787/kyb-ui/welcome');
		expect(
			addressOf(demoCopies().find((w) => w.file === 'kyb-company-events.json')!.workflow),
		).toBe(addressOf(file));
	});

	test('the form link of an e-mail is read decoded (nodemailer sends a long line quoted-printable)', async () => {
		const link = `http://127.0.0.1:8787/kyb-ui/welcome?authToken=${'a'.repeat(60)}%2Bb`;
		const mail = await createTransport({ streamTransport: true, buffer: true }).sendMail({
			from: 'a@example.com',
			to: 'b@example.com',
			text: `Hello,\n\nplease open your form, add what is asked for and submit it again:\n${link}\n`,
		});
		const raw = (mail.message as Buffer).toString();
		expect(raw).toContain('=3D');
		const messages = [{ from: 'a', to: ['b'], raw, receivedAt: '' }];
		expect(await kybFormLinkIn(messages)).toBe(link);
		expect(await kybFormLinkIn([])).toBeUndefined();
	});
});
