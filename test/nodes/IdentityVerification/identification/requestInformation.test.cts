/**
 * Identification → Request Information: the provider's options are sent (none, no body: as before),
 * checked only where the provider's schema refuses, and the re-upload link is in the output.
 */
import type { INodeParameters } from 'n8n-workflow';

import { expectError, serviceRequests, startCountingProxy } from '../util.cjs';
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
});
