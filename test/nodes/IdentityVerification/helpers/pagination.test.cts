/**
 * listPages with a stub of n8n's request helper: the pages it asks for, the loop guard's keys for
 * page 1, where Limit and an empty page end the read, a count that changes, what each error says,
 * and that nothing the service sends (count, links, page sizes) holds n8n's event loop or reads on
 * after the execution was stopped. The engine tests (bank/listTransactions, reliability) show the
 * same over real HTTP; these pin every branch and count every request. Then the in-house promise
 * pool behind parallel page requests (mapWithConcurrency): bounds, order, throttling, failure.
 */
import { Readable } from 'node:stream';
import type { IHttpRequestOptions } from 'n8n-workflow';

import {
	listPages,
	mapWithConcurrency,
} from '../../../../nodes/IdentityVerification/helpers/pagination';
import { MAX_PAGES } from '../../../../nodes/IdentityVerification/transport';
import type { PageListOptions } from '../../../../nodes/IdentityVerification/helpers/pagination';
import { stubRequestContext } from '../../../harness/fixtures/request-context.cjs';

/** The Base URL of the stub context's credential. */
const BASE = 'https://ivs.example.com';
const PATH = '/bank/verifications/v-1/accounts/a-1/transactions/';
const LIST = `${BASE}${PATH}`;

/** Results `from`..`to - 1`, as numbers: only their order and count matter here. */
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/**
 * A context whose requests are answered by `serve` (the URL with its query) at once, without I/O;
 * records what it asked. `stopped` says, before each request, whether the execution was stopped.
 */
function stub(serve: (url: URL) => unknown, stopped: (asked: string[]) => boolean = () => false) {
	const asked: string[] = [];
	const requests = stubRequestContext({
		signal: () => ({ aborted: stopped(asked) }),
		answer: (options) => {
			const url = new URL(options.url);
			for (const [name, value] of Object.entries(options.qs ?? {}))
				url.searchParams.set(name, String(value));
			asked.push(url.toString().slice(LIST.length));
			return { statusCode: 200, body: serve(url) };
		},
	});
	return { ...requests, asked };
}

const pageOf = (url: URL) => Number(url.searchParams.get('page') ?? '1');

async function list(
	s: Pick<ReturnType<typeof stub>, 'context'>,
	options: Partial<PageListOptions> = {},
): Promise<unknown[]> {
	return await listPages.call(s.context, {
		path: PATH,
		itemsName: 'transactions',
		maxParallel: 4,
		itemIndex: 0,
		...options,
	});
}

describe('page 1 counts as read in every form a link may give it', () => {
	test.each([
		['by number', `${LIST}?page=1`, undefined, 'page 1'],
		['as the list address itself (DRF leaves page=1 out)', LIST, undefined, 'page 2'],
		['as the list address with only Per Page', `${LIST}?perPage=10`, 10, 'page 2'],
	])(
		'a link back to page 1 %s is a loop, found before it is requested',
		async (_, link, perPage, label) => {
			const s = stub(() => ({ next: link, results: range(0, 10) }));
			await expect(list(s, { perPage })).rejects.toThrow(
				`the link to ${label} points to a page already read`,
			);
			expect(s.asked).toEqual([perPage ? '?page=1&perPage=10' : '?page=1']);
		},
	);

	test('the loop error tells the user what happened and what to do, for the item that failed', async () => {
		const s = stub(() => ({ next: `${LIST}?page=1`, results: range(0, 10) }));
		const error = await list(s, { itemIndex: 3 }).catch((e: unknown) => e);
		expect(error).toMatchObject({
			context: { itemIndex: 3 },
			description: expect.stringContaining('so the workflow does not run forever'),
		});
	});
});

describe('links without a page number', () => {
	test('are numbered by the pages read so far in the loop error', async () => {
		const s = stub((url) => {
			const cursor = url.searchParams.get('cursor');
			return {
				next: `${LIST}?cursor=${cursor === 'c2' ? 'c1' : cursor ? 'c2' : 'c1'}`,
				results: [1],
			};
		});
		await expect(list(s)).rejects.toThrow('the link to page 4 points to a page already read');
		expect(s.asked).toEqual(['?page=1', '?cursor=c1', '?cursor=c2']);
	});

	test('a link with a page number is keyed by that number, whatever else its query says', async () => {
		const s = stub((url) => ({
			next: pageOf(url) === 1 ? `${LIST}?page=2` : `${LIST}?page=1&sort=date`,
			results: [pageOf(url)],
		}));
		await expect(list(s)).rejects.toThrow('the link to page 1 points to a page already read');
		expect(s.asked).toEqual(['?page=1', '?page=2']);
	});
});

describe('a `next` that is not an address', () => {
	test('is refused before any request to it', async () => {
		const s = stub(() => ({ next: 'https://ivs example.com/?page=2', results: range(0, 10) }));
		await expect(list(s)).rejects.toThrow('Refused to follow a link to an invalid address');
		expect(s.asked).toEqual(['?page=1']);
	});
});

describe('where the read ends', () => {
	test('a page 1 without `next` ends it, even when its count announces more', async () => {
		const s = stub(() => ({ count: 30, next: null, results: range(0, 10) }));
		expect(await list(s)).toEqual(range(0, 10));
		expect(s.asked).toEqual(['?page=1']);
	});

	test('a count of 0 on a page with results plans no page by number: the links are followed', async () => {
		const s = stub((url) => ({
			count: 0,
			next: pageOf(url) < 2 ? `${LIST}?page=2` : null,
			results: range((pageOf(url) - 1) * 10, pageOf(url) * 10),
		}));
		expect(await list(s)).toEqual(range(0, 20));
		expect(s.asked).toEqual(['?page=1', '?page=2']);
	});

	test('an empty page among the counted ones ends it: later pages are not returned', async () => {
		const s = stub((url) => {
			const page = pageOf(url);
			return {
				count: 40,
				next: `${LIST}?page=${page + 1}`,
				results: page === 2 ? [] : range((page - 1) * 10, page * 10),
			};
		});
		expect(await list(s, { maxParallel: 1 })).toEqual(range(0, 10));
		expect(s.asked).toEqual(['?page=1', '?page=2', '?page=3', '?page=4']);
	});

	test('Limit reached exactly on a page: no further page is requested', async () => {
		const s = stub((url) => ({
			next: `${LIST}?page=${pageOf(url) + 1}`,
			results: range((pageOf(url) - 1) * 10, pageOf(url) * 10),
		}));
		expect(await list(s, { limit: 10 })).toEqual(range(0, 10));
		expect(s.asked).toEqual(['?page=1']);
	});

	test('Limit inside a page: the results are cut at Limit', async () => {
		const s = stub((url) => ({
			next: `${LIST}?page=${pageOf(url) + 1}`,
			results: range((pageOf(url) - 1) * 10, pageOf(url) * 10),
		}));
		expect(await list(s, { limit: 15 })).toEqual(range(0, 15));
		expect(s.asked).toEqual(['?page=1', '?page=2']);
	});

	test('count without Limit: exactly the pages it announces, sized by what page 1 returned', async () => {
		const s = stub((url) => ({
			count: 25,
			next: pageOf(url) < 3 ? `${LIST}?page=${pageOf(url) + 1}` : null,
			results: range((pageOf(url) - 1) * 10, Math.min(pageOf(url) * 10, 25)),
		}));
		expect(await list(s, { perPage: 50 })).toEqual(range(0, 25));
		expect(s.asked).toEqual(['?page=1&perPage=50', '?page=2&perPage=50', '?page=3&perPage=50']);
	});
});

describe('a count of null (a service that cannot count)', () => {
	test('is read as no count: the links are followed to the end', async () => {
		const s = stub((url) => ({
			count: null,
			next: pageOf(url) < 2 ? `${LIST}?page=2` : null,
			results: range((pageOf(url) - 1) * 10, pageOf(url) * 10),
		}));
		expect(await list(s)).toEqual(range(0, 20));
		expect(s.asked).toEqual(['?page=1', '?page=2']);
		expect(s.hints).toEqual([]);
	});
});

describe('a count that changes while the list is read', () => {
	const serve = (later: number | undefined) => (url: URL) => ({
		count: pageOf(url) === 1 ? 20 : later,
		next: pageOf(url) < 2 ? `${LIST}?page=2` : null,
		results: range((pageOf(url) - 1) * 10, pageOf(url) * 10),
	});

	test('is said in the log and as a hint above the output', async () => {
		const s = stub(serve(21));
		expect(await list(s)).toHaveLength(20);
		const message =
			'The number of transactions changed while they were read (20 at first): 20 were returned, and some may be missing or repeated. Run the node again for a consistent list.';
		expect(s.warnings).toEqual([`Identity Verification: ${message}`]);
		expect(s.hints).toEqual([{ message, location: 'outputPane' }]);
	});

	test('a later page without a count is not a change', async () => {
		const s = stub(serve(undefined));
		expect(await list(s)).toHaveLength(20);
		expect(s.warnings).toEqual([]);
		expect(s.hints).toEqual([]);
	});
});

describe('answers that are not a page', () => {
	test.each([
		['page 1', () => ({ next: null }), 'results: Required'],
		[
			'page 2',
			(url: URL) =>
				pageOf(url) === 2
					? { results: 'none' }
					: { count: 20, next: `${LIST}?page=2`, results: range(0, 10) },
			'results: Expected array, received string',
		],
		['page 1', () => 'ok', 'body: Expected object, received string'],
	])('%s: an error naming the page and what was wrong', async (label, serve, issue) => {
		const s = stub(serve);
		const error = await list(s, { itemIndex: 2 }).catch((e: unknown) => e);
		// A later page also says how far the read came.
		const progress =
			label === 'page 2'
				? 'Reading stopped at page 2: 1 page with 10 transactions had been read, and none of them were output for this item. Run it again once the cause below is fixed. '
				: '';
		expect(error).toMatchObject({
			message: `The service returned an unexpected answer for ${label}`,
			description: `${progress}Expected a list with "results"; ${issue}.`,
			context: { itemIndex: 2 },
		});
	});
});

/**
 * Runs `work` while a 5 ms interval timer runs beside it, as n8n's health check and webhooks would:
 * how the work ended, and the longest time the timer was kept waiting (the event loop was blocked).
 */
async function whileTimed<T>(work: () => Promise<T>) {
	let last = Date.now();
	let longestBlockMs = 0;
	const timer = setInterval(() => {
		const now = Date.now();
		longestBlockMs = Math.max(longestBlockMs, now - last);
		last = now;
	}, 5);
	try {
		const outcome = await work().catch((error: unknown) => error);
		longestBlockMs = Math.max(longestBlockMs, Date.now() - last);
		return { outcome, longestBlockMs };
	} finally {
		clearInterval(timer);
	}
}

/** A list of one result per page (page n holds n) whose `count` says `count`, with links up to `lastPage`. */
const onePerPage =
	(count?: number, lastPage = Infinity) =>
	(url: URL) => ({
		count,
		next: pageOf(url) < lastPage ? `${LIST}?page=${pageOf(url) + 1}&perPage=1` : null,
		results: [pageOf(url)],
	});

describe('a count is untrusted: the pages it announces are bounded before any is planned', () => {
	test.each([
		['Return All', undefined, 'use Limit instead of Return All'],
		['Limit 1,000,000', 1_000_000, 'lower Limit'],
	])(
		'count 20,000,000 at 1 per page, %s: the page-limit error after page 1 only, the event loop never held',
		async (_, limit, advice) => {
			const s = stub(onePerPage(20_000_000));
			const { outcome, longestBlockMs } = await whileTimed(
				async () => await list(s, { perPage: 1, limit, itemIndex: 1 }),
			);
			expect(outcome).toMatchObject({
				message: expect.stringContaining(`more than the ${MAX_PAGES} pages a read may take`),
				description: expect.stringMatching(new RegExp(`^Raise Per Page .*, or ${advice}\\.`)),
				context: { itemIndex: 1 },
			});
			expect(s.asked).toEqual(['?page=1&perPage=1']);
			// A generous bound: the read must not hold n8n (health check, webhooks) for a second.
			expect(longestBlockMs).toBeLessThan(1000);
		},
	);

	test('the error says how many transactions at what page size take how many pages', async () => {
		const s = stub(onePerPage(20_000_000));
		await expect(list(s, { perPage: 1 })).rejects.toThrow(
			`Too many pages to read: 20000000 transactions at 1 per page take 20000000 pages, more than the ${MAX_PAGES} pages a read may take`,
		);
	});

	test(`a count of exactly ${MAX_PAGES} pages is read in full`, async () => {
		const s = stub(onePerPage(MAX_PAGES, MAX_PAGES));
		expect(await list(s, { perPage: 1 })).toEqual(range(1, MAX_PAGES + 1));
		expect(s.asked).toHaveLength(MAX_PAGES);
	});

	test(`a count of ${MAX_PAGES + 1} pages fails before page 2 is requested`, async () => {
		const s = stub(onePerPage(MAX_PAGES + 1));
		await expect(list(s, { perPage: 1 })).rejects.toThrow(
			`take ${MAX_PAGES + 1} pages, more than the ${MAX_PAGES} pages a read may take`,
		);
		expect(s.asked).toEqual(['?page=1&perPage=1']);
	});
});

describe('links that never end', () => {
	test(`stop after ${MAX_PAGES} pages with the page-limit error, the event loop never held`, async () => {
		const s = stub(onePerPage(undefined));
		const { outcome, longestBlockMs } = await whileTimed(async () => await list(s, { perPage: 1 }));
		expect(outcome).toMatchObject({
			message: `The service kept sending more pages: stopped after ${MAX_PAGES} pages`,
			description: expect.stringContaining('Raise Per Page'),
		});
		expect(s.asked).toHaveLength(MAX_PAGES);
		expect(longestBlockMs).toBeLessThan(1000);
	});
});

describe('other work runs between pages', () => {
	test.each([
		['following links', undefined],
		['by page number, one at a time', 5],
	])(
		'%s: requests answered without I/O still leave the event loop a turn before each next page',
		async (_, count) => {
			let turns = 0;
			let spinning = true;
			const spin = () => {
				turns++;
				if (spinning) setImmediate(spin);
			};
			setImmediate(spin);
			const turnsAtRequest: number[] = [];
			const s = stub((url) => {
				turnsAtRequest.push(turns);
				return onePerPage(count, 5)(url);
			});
			try {
				expect(await list(s, { perPage: 1, maxParallel: 1 })).toEqual(range(1, 6));
			} finally {
				spinning = false;
			}
			for (let i = 1; i < turnsAtRequest.length; i++)
				expect(turnsAtRequest[i]).toBeGreaterThan(turnsAtRequest[i - 1]);
		},
	);
});

describe('a stopped execution', () => {
	const stoppedAfter = (pages: number) => (asked: string[]) => asked.length >= pages;

	test.each([
		['following links (no count)', undefined],
		['by page number (count given)', 40],
	])('%s: the read ends before the next page, with an error that says so', async (_, count) => {
		const s = stub(
			(url) => ({
				count,
				next: `${LIST}?page=${pageOf(url) + 1}`,
				results: range((pageOf(url) - 1) * 10, pageOf(url) * 10),
			}),
			stoppedAfter(2),
		);
		const error = await list(s, { maxParallel: 1, itemIndex: 2 }).catch((e: unknown) => e);
		expect(error).toMatchObject({
			message: 'The execution was stopped: no further page of the list was requested',
			context: { itemIndex: 2 },
		});
		expect(s.asked).toEqual(['?page=1', '?page=2']);
	});

	test('before the read starts: not even page 1 is requested', async () => {
		const s = stub(onePerPage(undefined), stoppedAfter(0));
		await expect(list(s)).rejects.toThrow('The execution was stopped');
		expect(s.asked).toEqual([]);
	});

	test('a context without a cancel signal (loading options) reads on', async () => {
		const asked: string[] = [];
		const { context } = stubRequestContext({
			signal: null,
			answer: (options) => {
				asked.push(options.url);
				return { statusCode: 200, body: { next: null, results: [1] } };
			},
		});
		expect(
			await listPages.call(context, {
				path: PATH,
				itemsName: 'transactions',
				maxParallel: 1,
				itemIndex: 0,
			}),
		).toEqual([1]);
		expect(asked).toHaveLength(1);
	});
});

describe('the run’s time budget (10 times the Timeout: 20 minutes by default)', () => {
	/** Each page takes 3 minutes of the clock: pages asked for at 0, 3, …, 18 minutes fit in 20. */
	function slowPages(count: number | undefined, lastPage?: number) {
		let clock = 1_000_000;
		jest.spyOn(Date, 'now').mockImplementation(() => clock);
		return stub((url) => {
			clock += 3 * 60_000;
			return onePerPage(count, lastPage)(url);
		});
	}
	afterEach(() => jest.restoreAllMocks());

	test.each([
		['following links (no count)', undefined, '(7 pages read)'],
		['by page number (count given)', 40, '(7 of 40 pages read)'],
	])(
		'%s: no page is asked for once it is spent, and the error says how far it got',
		async (_, count, got) => {
			const s = slowPages(count);
			const error = await list(s, { perPage: 1, maxParallel: 1, itemIndex: 1 }).catch(
				(e: unknown) => e,
			);
			expect(error).toMatchObject({
				message: `The transactions were not read to the end: the node has run for more than 20 minutes ${got}`,
				description:
					'A run of the node, all its items together, may take 10 times its Timeout. Raise Timeout (Seconds) under Request Options in the node, or ask for less: use Limit instead of Return All, or filters, or raise Per Page so fewer pages are needed.',
				context: { itemIndex: 1 },
			});
			expect(s.asked).toHaveLength(7);
		},
	);

	test('with Limit, the advice is to lower it', async () => {
		const s = slowPages(undefined);
		await expect(list(s, { perPage: 1, limit: 100 })).rejects.toMatchObject({
			description: expect.stringContaining('or lower Limit, or raise Per Page'),
		});
	});

	test('a list read within the budget is whole', async () => {
		const s = slowPages(6, 6);
		expect(await list(s, { perPage: 1, maxParallel: 1 })).toEqual(range(1, 7));
	});
});

describe('a page with very many results', () => {
	test('is collected whole, after earlier pages, in order', async () => {
		const big = 500_000;
		const s = stub((url) =>
			pageOf(url) === 1
				? { next: `${LIST}?page=2`, results: [0] }
				: { next: null, results: range(1, big + 1) },
		);
		const results = await list(s);
		expect(results).toHaveLength(big + 1);
		expect(results[big]).toBe(big);
	});
});

describe('a page answer read as it arrives', () => {
	/** The page's JSON as a stream of `size`-byte chunks, breaking off after `breakAfter` bytes. */
	function streamed(page: unknown, size: number, breakAfter = Infinity) {
		const bytes = Buffer.from(JSON.stringify(page));
		return Readable.from(
			(function* () {
				for (let i = 0; i < bytes.length; i += size) {
					if (i >= breakAfter) throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
					yield bytes.subarray(i, i + size);
				}
			})(),
		);
	}

	/**
	 * Page n of three of ten results each, answered by `answer` with the page's body; records the
	 * pages asked for, one line a request.
	 */
	function pagesAnswered(
		answer: (
			body: unknown,
			page: number,
			attempt: number,
			options: IHttpRequestOptions,
		) => Readable,
	) {
		const attempts = new Map<number, number>();
		const asked: string[] = [];
		const s = stubRequestContext({
			answer: (options) => {
				const url = new URL(options.url);
				const page = Number(options.qs?.page ?? url.searchParams.get('page') ?? 1);
				const attempt = (attempts.get(page) ?? 0) + 1;
				attempts.set(page, attempt);
				asked.push(`page ${page}`);
				const body = {
					count: 30,
					next: page < 3 ? `${LIST}?page=${page + 1}` : null,
					results: range((page - 1) * 10, page * 10).map((n) => ({ n, name: `Ž ${n} "q"` })),
				};
				return { statusCode: 200, body: answer(body, page, attempt, options) };
			},
		});
		return { ...s, asked };
	}

	/** The pages as streams of 7-byte chunks; `broken` says which answers break off. */
	const streamedList = (broken: (page: number, attempt: number) => boolean) =>
		pagesAnswered((body, page, attempt, options) => {
			expect(options.encoding).toBe('stream');
			return streamed(body, 7, broken(page, attempt) ? 100 : Infinity);
		});

	const expected = range(0, 30).map((n) => ({ n, name: `Ž ${n} "q"` }));

	test('in chunks of a few bytes, every result in order', async () => {
		const s = streamedList(() => false);
		expect(await list(s)).toEqual(expected);
	});

	test('an answer that breaks off while it is read is asked for again, and the list is whole', async () => {
		const s = streamedList((page, attempt) => page === 2 && attempt === 1);
		expect(await list(s)).toEqual(expected);
		expect(s.asked.filter((p) => p === 'page 2')).toHaveLength(2);
	});

	test('an answer that breaks off every time ends the read with an error naming the page', async () => {
		const s = streamedList((page) => page === 3);
		const error = await list(s, { itemIndex: 1 }).catch((e: unknown) => e);
		expect(error).toMatchObject({
			message:
				'The connection to the service broke while page 3 of the list was read after 4 attempts',
			description: expect.stringContaining('dropped the connection'),
			context: { itemIndex: 1 },
		});
		expect(s.asked.filter((p) => p === 'page 3')).toHaveLength(4);
	});

	/** The pages as streams; one `stalls` names stops after 100 bytes, never ending. */
	const stallingList = (stalls: (page: number, attempt: number) => boolean) =>
		pagesAnswered((body, page, attempt) => {
			if (!stalls(page, attempt)) return streamed(body, 7);
			const stalled = new Readable({ read() {} });
			stalled.push(Buffer.from(JSON.stringify(body)).subarray(0, 100));
			return stalled;
		});

	const quickly = { readDeadline: { readIdleMs: 100 } };

	test('an answer that stops coming counts as broken off: it is asked for again, and the list is whole', async () => {
		const s = stallingList((page, attempt) => page === 2 && attempt === 1);
		expect(await list(s, quickly)).toEqual(expected);
		expect(s.asked.filter((p) => p === 'page 2')).toHaveLength(2);
	});

	test('an answer that stops coming every time ends the read with an error naming the page and how long', async () => {
		const s = stallingList((page) => page === 3);
		const error = await list(s, { ...quickly, itemIndex: 1 }).catch((e: unknown) => e);
		expect(error).toMatchObject({
			message:
				"The service's answer for page 3 of the list timed out after 4 attempts: nothing arrived for 100 ms",
			context: { itemIndex: 1 },
		});
		expect((error as { description: string }).description).toMatch(/try again later/);
		expect(s.asked.filter((p) => p === 'page 3')).toHaveLength(4);
	});

	test('an answer that is not JSON is refused like any other text', async () => {
		const s = stubRequestContext({
			answer: () => ({ statusCode: 200, body: Readable.from([Buffer.from('{"results":[1,')]) }),
		});
		await expect(list(s)).rejects.toMatchObject({
			message: 'The service returned an unexpected answer for page 1',
			description: 'Expected a list with "results"; body: Expected object, received string.',
		});
	});
});

/** Tasks that finish only when the test says so, so concurrency is observed, not timed. */
function controlledTasks(n: number) {
	const resolvers: Array<(v: number) => void> = [];
	const rejecters: Array<(e: Error) => void> = [];
	let active = 0;
	const activeAtStart: number[] = [];
	const started: number[] = [];
	const worker = (input: number) =>
		new Promise<number>((resolve, reject) => {
			active++;
			activeAtStart.push(active);
			started.push(input);
			resolvers[input] = (v) => {
				active--;
				resolve(v);
			};
			rejecters[input] = (e) => {
				active--;
				reject(e);
			};
		});
	const inputs = Array.from({ length: n }, (_, i) => i);
	const tick = () => new Promise((r) => setImmediate(r));
	return {
		inputs,
		worker,
		resolvers,
		rejecters,
		activeAtStart,
		started,
		tick,
		active: () => active,
	};
}

describe('mapWithConcurrency', () => {
	test('runs at most the given number of tasks at once and keeps results in input order', async () => {
		const t = controlledTasks(10);
		const done = mapWithConcurrency(t.inputs, 3, (i) => t.worker(i));
		await t.tick();
		expect(t.started).toEqual([0, 1, 2]);
		// finish out of order
		for (const i of [2, 0, 1, 5, 3, 4, 8, 6, 7, 9]) {
			while (!t.resolvers[i]) await t.tick();
			t.resolvers[i](i * 10);
			await t.tick();
		}
		expect(await done).toEqual(t.inputs.map((i) => i * 10));
		expect(Math.max(...t.activeAtStart)).toBe(3);
	});

	test('after throttle() runs fewer tasks at once, never below one', async () => {
		const t = controlledTasks(12);
		let throttled = false;
		const done = mapWithConcurrency(t.inputs, 4, (i, _index, control) => {
			if (i === 3 && !throttled) {
				throttled = true;
				control.throttle();
				expect(control.concurrency).toBe(2);
			}
			return t.worker(i);
		});
		await t.tick();
		const before = t.activeAtStart.length;
		expect(before).toBe(4);
		for (let i = 0; i < 12; i++) {
			while (!t.resolvers[i]) await t.tick();
			t.resolvers[i](i);
			await t.tick();
		}
		await done;
		// tasks started after the first four never found more than 2 running (incl. themselves)
		expect(Math.max(...t.activeAtStart.slice(before))).toBeLessThanOrEqual(2);
	});

	test('throttle() never goes below one task', async () => {
		const seen: number[] = [];
		await mapWithConcurrency([1, 2, 3, 4, 5], 2, async (_i, _index, control) => {
			control.throttle();
			control.throttle();
			seen.push(control.concurrency);
		});
		expect(Math.min(...seen)).toBe(1);
	});

	test('on a failure starts nothing new, waits for the running tasks, then rejects with the failure', async () => {
		const t = controlledTasks(6);
		const done = mapWithConcurrency(t.inputs, 2, (i) => t.worker(i));
		let settled = false;
		done.catch(() => undefined).finally(() => (settled = true));
		await t.tick();
		t.rejecters[0](new Error('page 1 failed'));
		await t.tick();
		expect(t.started).toEqual([0, 1]);
		expect(settled).toBe(false);
		t.resolvers[1](1);
		await expect(done).rejects.toThrow('page 1 failed');
		expect(t.started).toEqual([0, 1]);
	});

	test('rejects when the last task running is the one that fails', async () => {
		const t = controlledTasks(2);
		const done = mapWithConcurrency(t.inputs, 2, (i) => t.worker(i));
		await t.tick();
		t.resolvers[0](0);
		await t.tick();
		t.rejecters[1](new Error('page 2 failed'));
		await expect(done).rejects.toThrow('page 2 failed');
	});

	test('handles an empty list', async () => {
		expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
	});
});
