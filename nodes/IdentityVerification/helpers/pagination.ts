import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { listPageSchema } from '../../shared/contract';
import type { ListPage } from '../../shared/contract';
import {
	apiRequest,
	assertUnderBaseUrl,
	getBaseUrl,
	isRunOver,
	joinUrl,
	MAX_PAGES,
	runBudgetOf,
	runOverWords,
} from '../transport';
import type { ApiRequest, RunBudget } from '../transport';

export interface PageListOptions {
	/** Contract path of the list, path parameters already encoded, e.g. `/bank/verifications/x/accounts/y/transactions/`. */
	path: string;
	/** What the list holds, for messages: `transactions`, `verifications`. */
	itemsName: string;
	/** Filters, sent with every page asked for by number (the service's `next` links carry them). */
	qs?: IDataObject;
	/** Sent only when set; otherwise the service's default page size applies. */
	perPage?: number;
	/** Stop once this many results are collected; undefined = all. */
	limit?: number;
	/** Upper bound of parallel page requests. */
	maxParallel: number;
	itemIndex: number;
	/** The read deadline of each page (the transport's defaults when not set). */
	readDeadline?: Pick<ApiRequest, 'readIdleMs' | 'readTotalMs'>;
	/** What a 404 means for this list (which of its IDs to check). */
	notFound?: ApiRequest['notFound'];
}

/** What one read has in common: where the list is, what was asked, and what has been read so far. */
interface ListRead {
	context: IExecuteFunctions;
	options: PageListOptions;
	baseUrl: string;
	listUrl: string;
	/** Pages read or being read, by page number (or by URL for links without one): the loop guard. */
	visited: Set<string>;
	pagesRead: number;
	/** Pages whose answer came and was checked, and the results they hold: what a failure reports. */
	pagesDone: number;
	resultsDone: number;
	/** Pages page 1's `count` announces (those Limit needs), when it gives one. */
	pagesPlanned?: number;
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
 *
 * What the service sends sizes nothing unchecked: a `count` needing more than MAX_PAGES pages is
 * refused before any page is planned, links stop at MAX_PAGES, and before each page the event loop
 * gets a turn, and a stopped execution or the node run's spent time budget ends the read.
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
		pagesDone: 0,
		resultsDone: 0,
		countChanged: false,
	};

	const first = await fetchPageByNumber(read, 1);
	read.count = first.count ?? undefined;
	const kept: Kept = { pages: [], results: 0, last: first };
	keep(kept, first);
	if (!isDone(read, kept)) {
		for (const page of await fetchCountedPages(read, first)) {
			keep(kept, page);
			if (page.results.length === 0) break;
		}
	}
	while (!isDone(read, kept)) keep(kept, await fetchPageByLink(read, kept.last.next as string));

	const results = resultsOf(kept.pages, options.limit);
	if (read.countChanged) reportCountChanged(read, results.length);
	return results;
}

/** The pages returned so far, how many results they hold, and the last of them. */
interface Kept {
	pages: ListPage[];
	results: number;
	last: ListPage;
}

function keep(kept: Kept, page: ListPage): void {
	kept.pages.push(page);
	kept.results += page.results.length;
	kept.last = page;
}

/** The read ends at a page without `next`, an empty page, or once Limit is reached. */
function isDone(read: ListRead, kept: Kept): boolean {
	const limit = read.options.limit ?? Infinity;
	return !kept.last.next || kept.last.results.length === 0 || kept.results >= limit;
}

/**
 * The results of all pages in order, cut at Limit (pages come whole), in one array made at its
 * final size. The pages are spread into one call, never a page's results: a page's length is the
 * service's to choose, and a spread has a size limit (the pages are at most MAX_PAGES).
 */
function resultsOf(pages: ListPage[], limit: number | undefined): unknown[] {
	const results = ([] as unknown[]).concat(...pages.map((page) => page.results));
	if (limit !== undefined) results.splice(limit);
	return results;
}

/**
 * Pages 2..N that page 1's `count` announces (only those Limit needs), in order, at most
 * `maxParallel` at a time. Sized by what page 1 really returned (the service may cap Per Page).
 */
async function fetchCountedPages(read: ListRead, first: ListPage): Promise<ListPage[]> {
	if (typeof first.count !== 'number') return [];
	const pageSize = first.results.length;
	const { limit, maxParallel } = read.options;
	const wanted = limit === undefined ? first.count : Math.min(first.count, limit);
	const lastPage = Math.ceil(wanted / pageSize);
	// `count` is the service's word: refuse what no read may take before planning any of it.
	if (lastPage > MAX_PAGES) throw tooManyPagesAnnounced(read, wanted, pageSize, lastPage);
	read.pagesPlanned = lastPage;
	const numbers = Array.from({ length: Math.max(0, lastPage - 1) }, (_, index) => index + 2);
	for (const page of numbers) visit(read, `page:${page}`, `page ${page}`);
	return await mapWithConcurrency(
		numbers,
		maxParallel,
		async (page, _index, control) => await fetchPageByNumber(read, page, control),
	);
}

/** What a page request of the pool may do to it: fewer pages at the same time after a 429. */
interface PoolControl {
	/** Halves the number of parallel calls (never below 1) for the rest of the run. */
	throttle(): void;
	/** Current number of parallel calls allowed. */
	readonly concurrency: number;
}

/**
 * A small promise pool: runs `worker` over `inputs` with at most `maxConcurrency` calls in flight,
 * keeps results in input order, and lets a worker lower the concurrency (e.g. after a 429) without
 * ever going above the configured maximum. On the first failure no new work starts; the pool waits
 * for the calls in flight to settle and then rejects with that failure.
 */
export async function mapWithConcurrency<T, R>(
	inputs: readonly T[],
	maxConcurrency: number,
	worker: (input: T, index: number, control: PoolControl) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array<R>(inputs.length);
	if (inputs.length === 0) return results;
	let limit = Math.max(1, Math.floor(maxConcurrency));
	const control: PoolControl = {
		throttle() {
			limit = Math.max(1, Math.floor(limit / 2));
		},
		get concurrency() {
			return limit;
		},
	};

	return await new Promise<R[]>((resolve, reject) => {
		let nextIndex = 0;
		let active = 0;
		let failure: { error: unknown } | undefined;

		const pump = () => {
			if (failure) {
				if (active === 0) reject(failure.error);
				return;
			}
			while (active < limit && nextIndex < inputs.length) {
				const index = nextIndex++;
				active++;
				worker(inputs[index], index, control).then(
					(value) => {
						results[index] = value;
						active--;
						pump();
					},
					(error: unknown) => {
						failure ??= { error };
						active--;
						pump();
					},
				);
			}
			if (active === 0 && nextIndex >= inputs.length) resolve(results);
		};
		pump();
	});
}

/** One page by number: `?page=N` (and `perPage` when set) on the list's address. */
async function fetchPageByNumber(
	read: ListRead,
	page: number,
	control?: PoolControl,
): Promise<ListPage> {
	const { path, perPage } = read.options;
	const qs: IDataObject = { ...read.options.qs, page };
	if (perPage !== undefined) qs.perPage = perPage;
	return await fetchPage(read, `page ${page}`, { path, qs }, control);
}

/** The page a `next` link points to, once the link is known to be safe and new. */
async function fetchPageByLink(read: ListRead, link: string): Promise<ListPage> {
	const { listUrl } = read;
	const url = absolute(link, listUrl);
	const number = pageNumberOf(url);
	const label = number === undefined ? `page ${read.pagesRead + 1}` : `page ${number}`;
	visit(read, number === undefined ? `url:${url}` : `page:${number}`, label);
	return await fetchPage(read, label, { url });
}

/**
 * Sends one page request and reads the answer as it arrives (see readPage); the transport retries
 * it, also when its answer breaks off or stalls while it is read. Then its shape is checked.
 */
async function fetchPage(
	read: ListRead,
	label: string,
	target: { path?: string; url?: string; qs?: IDataObject },
	control?: PoolControl,
): Promise<ListPage> {
	const { context, options } = read;
	await betweenPages(read);
	read.pagesRead++;
	if (read.pagesRead > MAX_PAGES) {
		throw pageLimitError(
			read,
			`The service kept sending more pages: stopped after ${MAX_PAGES} pages`,
		);
	}
	try {
		const response = await apiRequest.call(context, 'apiKey', {
			method: 'GET',
			...target,
			itemIndex: options.itemIndex,
			...options.readDeadline,
			notFound: options.notFound,
			answerName: `${label} of the list`,
			reader: 'listPage',
			// Fewer pages at the same time once the service says it gets too many requests.
			onRateLimited: control ? () => control.throttle() : undefined,
		});
		const page = checkedPage(read, label, response.body as { body: unknown; results?: unknown[] });
		read.pagesDone++;
		read.resultsDone += page.results.length;
		return page;
	} catch (error) {
		throw withProgress(read, label, error);
	}
}

/**
 * A page that failed after others were read: its error also says how far the read came and that
 * nothing of it was output, so a user knows a rerun is needed (and is safe: a list only reads).
 */
function withProgress(read: ListRead, label: string, error: unknown): unknown {
	const isNodeError = error instanceof NodeApiError || error instanceof NodeOperationError;
	if (!isNodeError || read.pagesDone === 0) return error;
	const pages = read.pagesDone === 1 ? '1 page' : `${read.pagesDone} pages`;
	const progress = `Reading stopped at ${label}: ${pages} with ${read.resultsDone} ${read.options.itemsName} had been read, and none of them were output for this item. Run it again once the cause below is fixed.`;
	error.description = error.description ? `${progress} ${error.description}` : progress;
	return error;
}

/** The page's shape checked; every `next` link must stay under the Base URL. */
function checkedPage(
	read: ListRead,
	label: string,
	answer: { body: unknown; results?: unknown[] },
): ListPage {
	const { context } = read;
	const { itemIndex } = read.options;
	const parsed = listPageSchema.safeParse(answer.body);
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
	if (answer.results) page.results = answer.results;
	// Even a link that is not followed must stay under the Base URL: anything else is not this list.
	if (page.next)
		assertUnderBaseUrl.call(context, read.baseUrl, absolute(page.next, read.listUrl), itemIndex);
	if (read.count !== undefined && typeof page.count === 'number' && page.count !== read.count) {
		read.countChanged = true;
	}
	return page;
}

/**
 * Before each page: other work gets a turn of the event loop (answers that come without waiting
 * must not hold n8n for a whole read), and a stopped execution or a spent run budget ends the read
 * without another page. Page 1 always goes: the budget ends what multiplies a request.
 */
async function betweenPages(read: ListRead): Promise<void> {
	if (read.pagesRead > 0) await sleep(0);
	if (isStopped(read)) throw stoppedError(read);
	const budget = runBudgetOf(read.context, read.options.itemIndex);
	if (read.pagesRead > 0 && isRunOver(budget)) throw runOverError(read, budget);
}

/** The node run's time budget was spent before the list was read to the end. */
function runOverError(read: ListRead, budget: RunBudget): NodeOperationError {
	const { itemsName, limit } = read.options;
	const narrower =
		limit === undefined
			? 'ask for less: use Limit instead of Return All, or filters'
			: 'lower Limit';
	const words = runOverWords(budget, `${narrower}, or raise Per Page so fewer pages are needed`);
	const planned = read.pagesPlanned ?? 0;
	const of = read.pagesDone < planned ? ` of ${planned}` : '';
	return new NodeOperationError(
		read.context.getNode(),
		`The ${itemsName} were not read to the end: ${words.happened} (${read.pagesDone}${of} pages read)`,
		{ itemIndex: read.options.itemIndex, description: words.advice },
	);
}

function isStopped(read: ListRead): boolean {
	return read.context.getExecutionCancelSignal?.()?.aborted === true;
}

function stoppedError(read: ListRead): NodeOperationError {
	return new NodeOperationError(
		read.context.getNode(),
		'The execution was stopped: no further page of the list was requested',
		{
			itemIndex: read.options.itemIndex,
			description: 'The list was not read to the end. Run the workflow again to get all of it.',
		},
	);
}

/** Page 1's `count` (or Limit) needs more than MAX_PAGES pages at the page size it returned. */
function tooManyPagesAnnounced(
	read: ListRead,
	wanted: number,
	pageSize: number,
	pages: number,
): NodeOperationError {
	return pageLimitError(
		read,
		`Too many pages to read: ${wanted} ${read.options.itemsName} at ${pageSize} per page take ${pages} pages, more than the ${MAX_PAGES} pages a read may take`,
	);
}

/** More pages than MAX_PAGES: what to change depends on whether Limit is in use. */
function pageLimitError(read: ListRead, message: string): NodeOperationError {
	const instead =
		read.options.limit === undefined ? 'use Limit instead of Return All' : 'lower Limit';
	return new NodeOperationError(read.context.getNode(), message, {
		itemIndex: read.options.itemIndex,
		description: `Raise Per Page so fewer pages are needed, or ${instead}. If the list is not that long, report it to the service provider.`,
	});
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
	const message = `The number of ${read.options.itemsName} changed while they were read (${read.count} at first): ${returned} were returned, and some may be missing or repeated. Run the node again for a consistent list.`;
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
