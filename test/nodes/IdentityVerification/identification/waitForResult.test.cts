/**
 * Identification → Wait for Result: the execute side (the execution is put to wait, the API key
 * credential is not used) and the resume request through n8n-core's real WebhookContext (signed
 * like the trigger's deliveries; non-final, other verifications and forgeries keep it waiting).
 */
import { IdentityVerification } from '../../../../nodes/IdentityVerification/IdentityVerification.node';
import { WAIT_INDEFINITELY } from 'n8n-workflow';
import { runNode } from '../../../harness/index.cjs';
import { startTriggerHost, type TriggerHost } from '../../../harness/webhook.cjs';
import { postSigned } from '../../IdentityVerificationTrigger/util.cjs';

const KEY = 'wait-for-result-signing-key';
const SCAN_REF = '3af8e5b2-5a7c-11ee-8c99-0242ac120002';

const identification = (overrides: Record<string, unknown> = {}) => ({
	scanRef: SCAN_REF,
	clientId: 'customer-1',
	final: true,
	status: { overall: 'APPROVED' },
	...overrides,
});

/** What Wait for Result keeps with the waiting execution when it starts waiting for SCAN_REF. */
const waitingFor = (scanRef: string) => [
	{ json: { timedOut: true, scanRef }, pairedItem: { item: 0 } },
];

const hosts: TriggerHost[] = [];
/**
 * The resume address of an execution waiting for SCAN_REF (or `waitingItems`). The Scan Reference
 * parameter is left empty by default: on resume only what was fixed when the wait started counts.
 */
async function host(
	parameters: Record<string, unknown> = {},
	waitingItems = waitingFor(SCAN_REF),
	typeVersion = 1,
	mode?: 'manual',
): Promise<TriggerHost> {
	const h = await startTriggerHost({
		typeVersion,
		...(mode ? { mode } : {}),
		nodeType: new IdentityVerification(),
		parameters: {
			resource: 'identification',
			operation: 'waitForResult',
			...parameters,
		},
		credentials: { identityVerificationWebhookSigningApi: { signingSecret: KEY } },
		waitingItems,
	});
	hosts.push(h);
	return h;
}
afterAll(async () => {
	await Promise.all(hosts.map(async (h) => await h.close()));
});

describe('Wait for Result: the resume request', () => {
	test('resumes with the same typed event the trigger emits for a signed final result', async () => {
		const h = await host();
		const res = await postSigned(h.url, identification(), {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(res.status).toBe(200);
		expect(h.emitted).toHaveLength(1);
		// One item, paired with the item the execution waited with.
		expect(h.emitted[0][0].pairedItem).toEqual({ item: 0 });
		expect(h.emitted[0][0].json).toMatchObject({
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
			eventTypeSource: 'header',
			final: true,
			overallStatus: 'APPROVED',
			scanRef: SCAN_REF,
			deliveryId: expect.stringMatching(/^[0-9a-f]{64}$/),
		});
	});

	test('answers 401 and does not resume for a forged or missing signature', async () => {
		const h = await host();
		const forged = await postSigned(h.url, identification(), {
			key: 'not-the-key',
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(forged.status).toBe(401);
		const unsigned = await postSigned(h.url, identification(), {
			key: KEY,
			headers: { 'service-signature': '' },
		});
		expect(unsigned.status).toBe(401);
		expect(h.emitted).toHaveLength(0);
	});

	test('acknowledges a non-final result (2xx) and keeps waiting, then resumes on the final one', async () => {
		const h = await host();
		const first = await postSigned(h.url, identification({ final: false }), {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(first.status).toBe(200);
		expect(first.json).toMatchObject({ received: true, waiting: expect.stringContaining('final') });
		expect(h.emitted).toHaveLength(0);
		await postSigned(h.url, identification({ status: { overall: 'DENIED' } }), {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(h.emitted).toHaveLength(1);
		expect(h.emitted[0][0].json).toMatchObject({ overallStatus: 'DENIED', final: true });
	});

	test('resumes on a non-final result when "Result to Wait For" is First Result', async () => {
		const h = await host({ waitOptions: { resultToWaitFor: 'first' } });
		await postSigned(h.url, identification({ final: false }), {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(h.emitted).toHaveLength(1);
		expect(h.emitted[0][0].json).toMatchObject({ final: false });
	});

	test('resumes on an expired session as IDENTIFICATION_EXPIRED (an outcome, not a preliminary result)', async () => {
		const h = await host();
		await postSigned(h.url, identification({ status: { overall: 'EXPIRED' } }), {
			key: KEY,
			eventType: 'IDENTIFICATION_EXPIRED',
		});
		expect(h.emitted[0][0].json).toMatchObject({ eventType: 'IDENTIFICATION_EXPIRED' });
	});

	test.each([
		['without final', { final: undefined }],
		['with final as the text "false"', { final: 'false' }],
		['with final as the text "true"', { final: 'true' }],
		['with final null', { final: null }],
	])(
		'Final Result Only keeps waiting on a result %s (only final: true is final)',
		async (_, overrides) => {
			const h = await host();
			const res = await postSigned(h.url, identification(overrides), {
				key: KEY,
				eventType: 'IDENTIFICATION_MANUAL_FINISHED',
			});
			expect(res.status).toBe(200);
			expect(res.json).toMatchObject({
				received: true,
				waiting: expect.stringContaining('final'),
			});
			expect(h.emitted).toHaveLength(0);
		},
	);

	test('First Result resumes on a result without final', async () => {
		const h = await host({ waitOptions: { resultToWaitFor: 'first' } });
		await postSigned(h.url, identification({ final: undefined }), {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(h.emitted).toHaveLength(1);
	});

	test('acknowledges and ignores results of another verification and non-identification events', async () => {
		const h = await host();
		const other = await postSigned(h.url, identification({ scanRef: 'another-scan' }), {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(other.status).toBe(200);
		const bank = await postSigned(
			h.url,
			{ id: 'x', accounts: [], riskLevel: 'LOW' },
			{ key: KEY, eventType: 'BANK_VERIFICATION' },
		);
		expect(bank.status).toBe(200);
		expect(h.emitted).toHaveLength(0);
	});

	test('a signed final result of another verification does not resume a wait whose Scan Reference was left empty', async () => {
		const h = await host({ scanRef: '' });
		const res = await postSigned(h.url, identification({ scanRef: 'another-person' }), {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(res.status).toBe(200);
		expect(res.json).toMatchObject({
			waiting: 'the result is for another verification',
		});
		expect(h.emitted).toHaveLength(0);
	});

	test('Scan Reference is not evaluated again on resume: an expression that is empty then does not turn the check off', async () => {
		const h = await host({ scanRef: '={{ $json.somethingElse }}' });
		await postSigned(h.url, identification({ scanRef: 'another-person' }), {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(h.emitted).toHaveLength(0);
		await postSigned(h.url, identification(), {
			key: KEY,
			eventType: 'IDENTIFICATION_AUTO_FINISHED',
		});
		expect(h.emitted).toHaveLength(1);
	});

	test('a signed bank verification body under an identification header does not resume (the body decides)', async () => {
		const h = await host();
		const res = await postSigned(
			h.url,
			{ id: 'b0c1', scanRef: SCAN_REF, accounts: [], riskLevel: 'LOW' },
			{ key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' },
		);
		expect(res.status).toBe(200);
		expect(h.emitted).toHaveLength(0);
	});

	test.each([
		['final', 'Final Result Only'],
		['first', 'First Result'],
	])(
		'a signed body of the verification without a decision never resumes it (%s: %s)',
		async (resultToWaitFor) => {
			const h = await host({ waitOptions: { resultToWaitFor } });
			for (const body of [
				{ scanRef: SCAN_REF },
				{ scanRef: SCAN_REF, final: true },
				{ scanRef: SCAN_REF, final: true, status: {} },
			]) {
				const res = await postSigned(h.url, body, {
					key: KEY,
					eventType: 'IDENTIFICATION_MANUAL_FINISHED',
				});
				expect(res.status).toBe(200);
				expect(res.json).toMatchObject({ waiting: 'the delivery is not an identification result' });
			}
			expect(h.emitted).toHaveLength(0);
		},
	);

	test('resumes on a cancelled session as IDENTIFICATION_CANCELLED, whose overall status is not CANCELLED', async () => {
		const h = await host();
		await postSigned(h.url, identification({ status: { overall: 'DENIED' } }), {
			key: KEY,
			eventType: 'IDENTIFICATION_CANCELLED',
		});
		expect(h.emitted[0][0].json).toMatchObject({
			eventType: 'IDENTIFICATION_CANCELLED',
			overallStatus: 'DENIED',
		});
	});

	test('version 1.1 continues with the trigger’s 1.1 item; with Personal Data left out, without the person’s data', async () => {
		const body = identification({ data: { docFirstName: 'ĄŽUOLAS' }, startTime: 1767225600 });
		const full = await host({}, waitingFor(SCAN_REF), 1.1);
		await postSigned(full.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' });
		expect(full.emitted[0][0].json).toMatchObject({
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
			overallStatus: 'APPROVED',
			scanRef: SCAN_REF,
			startedAt: '2026-01-01T00:00:00.000Z',
			body,
			delivery: { headerMatchesBody: true },
		});
		const minimal = await host({ personalData: 'leaveOut' }, waitingFor(SCAN_REF), 1.1);
		await postSigned(minimal.url, body, { key: KEY, eventType: 'IDENTIFICATION_MANUAL_FINISHED' });
		expect(minimal.emitted[0][0].json).not.toHaveProperty('body');
		expect(JSON.stringify(minimal.emitted[0][0].json)).not.toContain('ĄŽUOLAS');
		// The decision's reasons at the same path in both.
		expect(minimal.emitted[0][0].json.decision).toEqual({ overall: 'APPROVED' });
		expect(full.emitted[0][0].json.decision).toEqual({ overall: 'APPROVED' });
	});

	test('in a manual run (the editor), a result signed with another key ends the wait with the reason for the editor; in production it is refused 401 and the wait goes on', async () => {
		const manual = await host({}, waitingFor(SCAN_REF), 1.1, 'manual');
		const res = await postSigned(manual.url, identification(), { key: 'not-the-key' });
		// n8n's answer when the node throws; it then ends the run with the node's error.
		expect(res.status).toBe(500);
		expect(manual.emitted).toHaveLength(0);
		const { webhookError } = manual.responses[0];
		expect(webhookError?.message).toBe(
			'Delivery refused: Invalid Service-Signature: it does not match the body and the signing key',
		);
		expect((webhookError as { description?: string }).description).toMatch(
			/^Copy the signing key again .*Header names the delivery carried: connection, content-length, content-type, host, service-signature\.$/,
		);
		const production = await host({}, waitingFor(SCAN_REF), 1.1);
		const refused = await postSigned(production.url, identification(), { key: 'not-the-key' });
		expect(refused.status).toBe(401);
		expect(production.responses[0].webhookError).toBeUndefined();
	});

	test('in a manual run, a result for another verification does not end the wait', async () => {
		const manual = await host({}, waitingFor(SCAN_REF), 1.1, 'manual');
		const res = await postSigned(manual.url, identification({ scanRef: 'another' }), { key: KEY });
		expect(res.status).toBe(200);
		expect(manual.responses[0].webhookError).toBeUndefined();
	});

	test('a resume request to an execution that waits for no verification is acknowledged and ignored', async () => {
		const h = await host({}, []);
		const res = await postSigned(h.url, identification(), {
			key: KEY,
			eventType: 'IDENTIFICATION_MANUAL_FINISHED',
		});
		expect(res.status).toBe(200);
		expect(h.emitted).toHaveLength(0);
	});
});

/** Starts Wait for Result with Scan Reference read from each input item's `scanRef`. */
const waitForEachItemsScanRef = async (scanRefs: string[]) =>
	await runNode({
		node: 'identityVerification',
		parameters: {
			resource: 'identification',
			operation: 'waitForResult',
			scanRef: '={{ $json.scanRef }}',
		},
		input: scanRefs.map((scanRef) => ({ json: { scanRef } })),
	});

describe('Wait for Result: putting the execution to wait', () => {
	test('puts the execution to wait without a time limit, sending no request and needing no API key', async () => {
		const { run, error } = await runNode({
			node: 'identityVerification',
			parameters: { resource: 'identification', operation: 'waitForResult', scanRef: SCAN_REF },
			input: [{ json: { sent: true } }],
		});
		expect(error).toBeUndefined();
		expect(run.status).toBe('waiting');
		expect(run.waitTill?.getTime()).toBe(WAIT_INDEFINITELY.getTime());
	});

	test('refuses to wait when there is no verification to wait for, saying what to set', async () => {
		const { run, error } = await runNode({
			node: 'identityVerification',
			parameters: { resource: 'identification', operation: 'waitForResult' },
		});
		expect(run.status).not.toBe('waiting');
		expect(error?.message).toContain('no verification to wait for');
		expect((error as { description?: string }).description).toContain(
			'Send the Result to This Workflow',
		);
	});

	test('refuses to wait for several verifications at once (one result per execution)', async () => {
		const { run, error } = await waitForEachItemsScanRef(['person-a', 'person-b']);
		expect(run.status).not.toBe('waiting');
		expect(error?.message).toContain('one verification per execution, but 2 were found');
	});

	test('Scan Reference given by an expression is fixed when the wait starts (items naming the same verification wait once)', async () => {
		const { run, error } = await waitForEachItemsScanRef([SCAN_REF, SCAN_REF]);
		expect(error).toBeUndefined();
		expect(run.data.executionData!.nodeExecutionStack[0].data.main[0]).toEqual(
			waitingFor(SCAN_REF),
		);
	});

	test('waits until the time limit, and what it then outputs is { timedOut: true, scanRef }', async () => {
		const before = Date.now();
		const { run, error } = await runNode({
			node: 'identityVerification',
			parameters: {
				resource: 'identification',
				operation: 'waitForResult',
				scanRef: SCAN_REF,
				waitOptions: { limitWaitTime: { values: { resumeAmount: 2, resumeUnit: 'hours' } } },
			},
		});
		expect(error).toBeUndefined();
		const waitTill = run.waitTill!.getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + 2 * 3600_000);
		expect(waitTill).toBeLessThan(before + 2 * 3600_000 + 60_000);
		// n8n resumes a timed-out wait by passing the waiting step's stack entry through.
		const entry = run.data.executionData!.nodeExecutionStack[0];
		expect(entry.data.main[0]).toEqual([
			{ json: { timedOut: true, scanRef: SCAN_REF }, pairedItem: { item: 0 } },
		]);
	});
});
