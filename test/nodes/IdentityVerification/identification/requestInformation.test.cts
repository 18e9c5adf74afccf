/**
 * Identification → Request Information: the provider's options are sent (none, no body: as before),
 * checked only where the provider's schema refuses, and the re-upload link is in the output; asking
 * twice, an answer without a body and an unknown verification.
 */
import type { INodeParameters } from 'n8n-workflow';

import { expectError, expectPaired, serviceRequests, startCountingProxy } from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const requestInformation = (scanRef: string, options?: INodeParameters): INodeParameters => ({
	resource: 'identification',
	operation: 'requestInformation',
	scanRef,
	...(options ? { options } : {}),
});

describe('Identification: Request Information', () => {
	test('sends the options set, none without them, and outputs the link to send the person', async () => {
		const first = await ctx.finished('customer-ri');
		const second = await ctx.finished('customer-ri');
		const options = {
			lifetime: 3600,
			questionnaire: 'onboarding',
			riskAssessmentProfile: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
			additionalStepUploadRequired: true,
			bankCardVerification: false,
			bankCardExpectedLastFour: '4242',
		};
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			const plain = await ctx.run(requestInformation(first), { baseUrl: proxy.url });
			const set = await ctx.run(requestInformation(second, { ...options, questionnaire: '' }), {
				baseUrl: proxy.url,
			});
			expect(plain.error).toBeUndefined();
			expect(set.error).toBeUndefined();
			const { questionnaire: _empty, ...sent } = options;
			expect(proxy.exchanges.map((e) => e.sent.toString())).toEqual(['', JSON.stringify(sent)]);
			const token = ctx.sb.kyc.get(second)?.authToken;
			expect(set.items[0].json).toEqual({
				scanRef: second,
				sessionUrl: `${proxy.url}/api/v2/redirect?authToken=${token}`,
				tokenString: token,
			});
		} finally {
			await proxy.close();
		}
	});

	test.each([
		['Lifetime (Seconds)', { lifetime: 2_592_001 }, 'at most 2592000 seconds'],
		['Lifetime (Seconds)', { lifetime: '={{ -1 }}' }, 'at least 0 seconds'],
		['Risk Assessment Profile', { riskAssessmentProfile: 'profile-1' }, 'must be a UUID'],
		['Expected Last Four Card Digits', { bankCardExpectedLastFour: '42' }, 'exactly 4'],
	])(
		'%s out of the provider’s range is refused before anything is sent',
		async (label, options, rule) => {
			expectError(await ctx.run(requestInformation('scan-1', options)), `${label}: `, rule);
			expect(serviceRequests(ctx.sb)).toBe(0);
		},
	);

	test('a Lifetime from an expression as text is sent as a number', async () => {
		const scanRef = await ctx.finished('customer-ri-text');
		const proxy = await startCountingProxy(ctx.sb.url);
		try {
			await ctx.run(requestInformation(scanRef, { lifetime: '={{ "600" }}' }), {
				baseUrl: proxy.url,
			});
			expect(proxy.exchanges[0].sent.toString()).toBe('{"lifetime":600}');
		} finally {
			await proxy.close();
		}
	});

	test('requests information for a finished verification', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-44');
		await ctx.sb.kyc.autoFinish(scanRef, { final: true });
		const { items, error } = await ctx.run(requestInformation(scanRef));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		// The service's answer: the re-upload link and its token, with the verification it is for.
		const tokenString = ctx.sb.kyc.get(scanRef)?.authToken;
		expect(items[0].json).toEqual({
			scanRef,
			sessionUrl: `${ctx.sb.url}/api/v2/redirect?authToken=${tokenString}`,
			tokenString,
		});
		expect(ctx.sb.kyc.get(scanRef)?.state).toBe('REUPLOAD_REQUESTED');

		const again = await ctx.run(requestInformation(scanRef));
		const againError = expectError(again, '409');
		expect(`${againError.message} ${againError.description}`).toContain('already been requested');
	});

	test('outputs { scanRef, requested: true } when the service answers without a body', async () => {
		const { scanRef } = ctx.sb.kyc.createSession('customer-45');
		ctx.sb.faults.add({ method: 'POST', path: '/kyc/', status: 204 });
		const { items, error } = await ctx.run(requestInformation(scanRef));
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ scanRef, requested: true });
	});

	test('explains an unknown scanRef clearly (404)', async () => {
		const result = await ctx.run(requestInformation('no-such-scan'));
		const error = expectError(result, '404');
		expect(error.description).toMatch(/check the ids/i);
	});
});
