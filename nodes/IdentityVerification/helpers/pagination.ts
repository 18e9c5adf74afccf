import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { transactionPageSchema } from '../../shared/contract';
import type { TransactionPage } from '../../shared/contract';
import { apiRequest, assertUnderBaseUrl, getBaseUrl, joinUrl } from '../transport';
import { mapWithConcurrency } from './pool';
import type { PoolControl } from './pool';

export interface PageListOptions {
	/** Contract path of the list, path parameters already encoded, e.g. `/bank/verifications/x/accounts/y/transactions/`. */
	path: string;
	/** Sent only when set; otherwise the service's default page size applies. */
	perPage?: number;
	/** Stop once this many results are collected; undefined = all. */
	limit?: number;
	/** Upper bound of parallel page requests. */
	maxParallel: number;
	itemIndex: number;
}

/** More pages than this ends the read with an error (a service that keeps sending `next`). */
export const MAX_PAGES = 2000;

/** What one read has in common: where the list is, what was asked, and what has been read so far. */
interface ListRead {
	context: IExecuteFunctions;
	options: PageListOptions;
	baseUrl: string;
	listUrl: string;
	/** Pages read or being read, by page number (or by URL for links without one): the loop guard. */
	visited: Set<string>;
	pagesRead: number;
	/** `count` of the first page, and whether a later page reported another one. */
	count?: number;
	countChanged: boolean;
}

/**
 * Reads a paginated list (count / next / previous / results) and returns the results in order:
 *
 * 1. page 1;
 * 2. when it gives `count`, the pages that count announces, by number, several at a time
 *    (`maxParallel`, halved on each 429);
 * 3. then `next` links one by one for as long as the last page read has one.
 *
 * Every page request has the transport's retries (5xx and network errors with backoff, 429 after
 * `Retry-After`). Every `next` link must stay under the Base URL (the credential goes with it), and
 * one is followed only to a page not read before (by page number, or by URL when it has none).
 * Identical results on two pages are not a loop: transactions carry no id.
 */
export async function listPages(
	this: IExecuteFunctions,
	options: PageListOptions,
): Promise<unknown[]> {
	const baseUrl = await getBaseUrl.call(this, 'apiKey');
	const listUrl = joinUrl(baseUrl, options.path);
	const read: ListRead = {
		context: this,
		options,
		baseUrl,
		listUrl,
		// Page 1, also in the forms a service writes its link (DRF leaves `page` out of it).
		visited: new Set([
			'page:1',
			`url:${absolute(listUrl, listUrl)}`,
			`url:${absolute(`${listUrl}?perPage=${options.perPage ?? ''}`, listUrl)}`,
		]),
		pagesRead: 0,
		countChanged: false,
	};

	const first = await fetchPageByNumber(read, 1);
	read.count = first.count ?? undefined;
	const results = first.results.slice();
	let last = first;
	if (!isDone(read, results, last)) {
		const byNumber = await fetchCountedPages(read, first);
		for (const page of byNumber) {
			results.push(...page.results);
			last = page;
			if (page.results.length === 0) break;
		}
	}
	while (!isDone(read, results, last)) {
		last = await fetchPageByLink(read, last.next as string);
		results.push(...last.results);
	}

	if (read.countChanged) reportCountChanged(read, results.length);
	// Pages come whole: drop what the last one brought beyond Limit.
	if (options.limit !== undefined) results.splice(options.limit);
	return results;
}

/** The read ends at a page without `next`, an empty page, or once Limit is reached. */
function isDone(read: ListRead, results: unknown[], last: TransactionPage): boolean {
	const limit = read.options.limit ?? Infinity;
	return !last.next || last.results.length === 0 || results.length >= limit;
}

/**
 * Pages 2..N that page 1's `count` announces (only those Limit needs), in order, at most
 * `maxParallel` at a time. Sized by what page 1 really returned (the service may cap Per Page).
 */
async function fetchCountedPages(
	read: ListRead,
	first: TransactionPage,
): Promise<TransactionPage[]> {
	if (typeof first.count !== 'number') return [];
	const pageSize = first.results.length;
	const { limit, maxParallel } = read.options;
	const wanted = limit === undefined ? first.count : Math.min(first.count, limit);
	const lastPage = Math.ceil(wanted / pageSize);
	const numbers: number[] = [];
	for (let page = 2; page <= lastPage; page++) {
		visit(read, `page:${page}`, `page ${page}`);
		numbers.push(page);
	}
	return await mapWithConcurrency(
		numbers,
		maxParallel,
		async (page, _index, control) => await fetchPageByNumber(read, page, control),
	);
}

/** One page by number: `?page=N` (and `perPage` when set) on the list's address. */
async function fetchPageByNumber(
	read: ListRead,
	page: number,
	control?: PoolControl,
): Promise<TransactionPage> {
	const { path, perPage } = read.options;
	const qs: IDataObject = { page };
	if (perPage !== undefined) qs.perPage = perPage;
	return await fetchPage(read, `page ${page}`, { path, qs }, control);
}

/** The page a `next` link points to, once the link is known to be safe and new. */
async function fetchPageByLink(read: ListRead, link: string): Promise<TransactionPage> {
	const { listUrl } = read;
	const url = absolute(link, listUrl);
	const number = pageNumberOf(url);
	const label = number === undefined ? `page ${read.pagesRead + 1}` : `page ${number}`;
	visit(read, number === undefined ? `url:${url}` : `page:${number}`, label);
	return await fetchPage(read, label, { url });
}

/** Sends one page request (the transport retries it) and checks the answer's shape. */
async function fetchPage(
	read: ListRead,
	label: string,
	target: { path?: string; url?: string; qs?: IDataObject },
	control?: PoolControl,
): Promise<TransactionPage> {
	const { context, options } = read;
	const { itemIndex } = options;
	read.pagesRead++;
	if (read.pagesRead > MAX_PAGES) {
		throw new NodeOperationError(
			context.getNode(),
			`The service kept sending more pages: stopped after ${MAX_PAGES} pages`,
			{
				itemIndex,
				description:
					'Raise Per Page so fewer pages are needed, or use Limit instead of Return All. If the list is not that long, report it to the service provider.',
			},
		);
	}
	const { body } = await apiRequest.call(context, 'apiKey', {
		method: 'GET',
		...target,
		itemIndex,
		// Fewer pages at the same time once the service says it gets too many requests.
		onRateLimited: control ? () => control.throttle() : undefined,
	});
	const parsed = transactionPageSchema.safeParse(body);
	if (!parsed.success) {
		throw new NodeOperationError(
			context.getNode(),
			`The service returned an unexpected answer for ${label}`,
			{
				itemIndex,
				description: `Expected a list with "results"; ${parsed.error.issues
					.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
					.join('; ')}.`,
			},
		);
	}
	const page = parsed.data;
	// Even a link that is not followed must stay under the Base URL: anything else is not this list.
	if (page.next)
		assertUnderBaseUrl.call(context, read.baseUrl, absolute(page.next, read.listUrl), itemIndex);
	if (read.count !== undefined && typeof page.count === 'number' && page.count !== read.count) {
		read.countChanged = true;
	}
	return page;
}

/** The loop guard: a page (by number, or by URL without one) is read at most once. */
function visit(read: ListRead, key: string, label: string): void {
	if (read.visited.has(key)) {
		throw new NodeOperationError(
			read.context.getNode(),
			`The service sent page links that go round in a loop: the link to ${label} points to a page already read`,
			{
				itemIndex: read.options.itemIndex,
				description:
					'Reading stopped so the workflow does not run forever. Try again later; if it keeps happening, use Limit instead of Return All and report it to the service provider.',
			},
		);
	}
	read.visited.add(key);
}

/**
 * The list grew or shrank while it was read (page 1's `count` differs from a later page's): results
 * may be missing or repeated at page borders. Said in the log and as a hint above the output.
 */
function reportCountChanged(read: ListRead, returned: number): void {
	const message = `The number of transactions changed while they were read (${read.count} at first): ${returned} were returned, and some may be missing or repeated. Run the node again for a consistent list.`;
	read.context.logger.warn(`${read.context.getNode().name}: ${message}`);
	read.context.addExecutionHints({ message, location: 'outputPane' });
}

/** A relative `next` link is read against the list's address, as a browser would. */
function absolute(link: string, listUrl: string): string {
	try {
		return new URL(link, listUrl).toString();
	} catch {
		return link;
	}
}

/** Page number in a link's query, when it has one (the link is a URL: it passed assertUnderBaseUrl). */
function pageNumberOf(url: string): number | undefined {
	const value = new URL(url).searchParams.get('page');
	const page = value === null ? NaN : Number(value);
	return Number.isInteger(page) ? page : undefined;
}
