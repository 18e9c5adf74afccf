/**
 * `Retry-After` never shortens the normal backoff (issue "reliability", item 11): 0, a negative
 * number, a date in the past or an unreadable value wait at least what the backoff would.
 */
import {
	backoffDelay,
	parseRetryAfter,
	retryDelay,
} from '../../nodes/IdentityVerification/transport/retry';

const halfway = () => 0.5;

describe('retry delay after a 429 or 5xx', () => {
	test.each(['0', '-5', '-1.5', 'soon', '', 'Thu, 01 Jan 1970 00:00:00 GMT'])(
		'Retry-After %j waits the normal backoff, not less',
		(header) => {
			for (const retry of [1, 2, 3]) {
				expect(retryDelay(retry, header, halfway)).toBe(backoffDelay(retry, halfway));
			}
			// Retry 2 backs off up to 600 ms (300 ms base, doubled); half of it with the jitter fixed.
			expect(retryDelay(2, header, halfway)).toBe(300);
		},
	);

	test('a Retry-After longer than the backoff is honoured', () => {
		expect(retryDelay(1, '2', halfway)).toBe(2000);
		expect(parseRetryAfter('2')).toBe(2000);
	});

	test('without Retry-After the backoff applies', () => {
		expect(retryDelay(3, undefined, halfway)).toBe(backoffDelay(3, halfway));
	});
});
