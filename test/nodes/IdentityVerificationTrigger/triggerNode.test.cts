/**
 * The trigger node's webhook() with a stub of n8n's webhook context: a refusal ends the request,
 * the 409 answer to a copy still in flight, and a dropped connection (no 2xx ever sent) letting
 * the retry run. The HTTP host cannot hold a start open for 5 s cheaply.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import { FINAL_BODY, sign, StubResponse } from './util.cjs';

const KEY = 'whsec_trigger_node_test';
const BODY = FINAL_BODY;
const SIGNED = { 'service-signature': sign(BODY, KEY) };

let workflowCounter = 0;
/** A workflow id no other test uses: the duplicate store is module-level. */
const newWorkflowId = () => `trigger-node-test-${++workflowCounter}`;

/** One request to the trigger of workflow `workflowId`, with fresh (not yet saved) static data. */
function request(workflowId: string, headers: Record<string, string> = SIGNED) {
	const res = new StubResponse();
	const context = {
		getRequestObject: () => ({ headers, rawBody: BODY }),
		getResponseObject: () => res,
		getNode: () => ({ id: 'node-1', name: 'IDV Trigger' }),
		getNodeParameter: (_name: string, fallback: unknown) => fallback,
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: workflowId }),
		getWorkflowStaticData: () => ({}),
		getCredentials: async () => ({ signingSecret: KEY }),
		logger: { warn: () => {}, error: () => {} },
	} as unknown as IWebhookFunctions;
	const run = async () => await new IdentityVerificationTrigger().webhook.call(context);
	return { res, run };
}

const started = { workflowData: [[{ json: expect.objectContaining({ scanRef: 's-1' }) }]] };

describe('webhook()', () => {
	test('a refused delivery ends with its refusal answer: nothing else is read or answered', async () => {
		const r = request(newWorkflowId(), {});
		expect(await r.run()).toEqual({ noWebhookResponse: true });
		expect(r.res.answered).toEqual([
			{
				status: 401,
				body: { received: false, error: 'Missing Service-Signature or Idenfy-Signature header' },
			},
		]);
	});

	test('a connection closed before any answer lets the next copy start the workflow', async () => {
		const workflowId = newWorkflowId();
		const first = request(workflowId);
		expect(await first.run()).toMatchObject(started);
		first.res.emit('close');
		const retry = request(workflowId);
		expect(await retry.run()).toMatchObject(started);
		expect(retry.res.answered).toEqual([]);
	});

	test('a copy answered 2xx counts as seen, and the close after it does not undo that', async () => {
		const workflowId = newWorkflowId();
		const first = request(workflowId);
		expect(await first.run()).toMatchObject(started);
		first.res.emit('finish');
		first.res.emit('close');
		const again = request(workflowId);
		expect(await again.run()).toEqual({ noWebhookResponse: true });
		expect(again.res.answered).toEqual([
			{ status: 200, body: { received: true, ignored: 'duplicate delivery' } },
		]);
	});

	describe('while the first copy is still being started', () => {
		beforeEach(() => jest.useFakeTimers());
		afterEach(() => jest.useRealTimers());

		test('a second copy is answered 409 after 5 s so that the service sends it again later', async () => {
			const workflowId = newWorkflowId();
			expect(await request(workflowId).run()).toMatchObject(started);
			const copy = request(workflowId);
			const done = copy.run();
			await jest.advanceTimersByTimeAsync(5000);
			expect(await done).toEqual({ noWebhookResponse: true });
			expect(copy.res.answered).toEqual([
				{
					status: 409,
					body: {
						received: false,
						error: 'The same delivery is still being started; send it again later',
					},
				},
			]);
		});
	});
});
