import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { transactionPageSchema } from '../../shared/contract';
import type { TransactionPage } from '../../shared/contract';
import { apiRequest, assertSameOrigin, backoffDelay, getBaseUrl, joinUrl } from '../transport';
import { mapWithConcurrency } from './pool';
import type { PoolControl } from './pool';

export interface PageListOptions {
	/** Contract path of the list, path parameters already encoded, e.g. `/bank/verifications/x/accounts/y/transactions/`. */
	path: string;
	perPage: number;
	/** Stop once this many results are collected; undefined = all. */
	limit?: number;
	/** Upper bound of parallel page requests. */
	maxParallel: number;
	itemIndex: number;
}

/** Pause before asking again for a page the service answered with 429 during a parallel run. */
const RATE_LIMIT_PAUSE_MS = 1000;

interface FetchedPage {
	page: TransactionPage;
	/** Fingerprint of the page's results, to spot a page that repeats the previous one. */
	fingerprint: string;
}

/**
 * Fingerprint of a page's results, to spot a page that repeats the previous one: the count plus the
 * first, middle and last entries. Cheap on big pages (no serialisation of the whole page).
 */
function fingerprint(results: unknown[]): string {
	if (results.length === 0) return '0';
	const sample = [results[0], results[results.length >> 1], results[results.length - 1]];
	return createHash('sha256')
		.update(`${results.length}|${JSON.stringify(sample)}`)
		.digest('hex');
}

function httpCodeOf(error: unknown): string | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	const code = (error as { httpCode?: unknown }).httpCode;
	return code === undefined || code === null ? undefined : String(code);
}

/** Page number in a `next` link's query, when it has one. */
function pageNumberOf(url: string): number | undefined {
	try {
		const value = new URL(url).searchParams.get('page');
		const page = value === null ? NaN : Number(value);
		return Number.isInteger(page) ? page : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Reads a paginated list (count / next / previous / results) and returns the results in order.
 *
 * - When the first page reveals `count`, the remaining pages are fetched by page number with at most
 *   `maxParallel` requests in flight (halved on each 429, never above the option).
 * - Without `count`, `next` links are followed one by one.
 * - With a limit, only the pages needed for it are requested.
 * - Every `next` link is checked before anything else: one pointing to another origin than the
 *   credential's base URL is refused (it would receive the credentials), one pointing back to a page
 *   already read is a loop, and a page whose results repeat the previous page stops the run.
 */
export async function listPages(
	this: IExecuteFunctions,
	options: PageListOptions,
): Promise<unknown[]> {
	const { path, perPage, limit, itemIndex } = options;
	const baseUrl = await getBaseUrl.call(this, 'apiKey');
	const listUrl = joinUrl(baseUrl, path);
	const firstUrl = `${listUrl}?page=1&perPage=${perPage}`;

	/** A relative `next` link is read against the list's address, as a browser would. */
	const absolute = (link: string): string => {
		try {
			return new URL(link, listUrl).toString();
		} catch {
			return link;
		}
	};

	const loopError = (detail: string) =>
		new NodeOperationError(
			this.getNode(),
			`The service sent page links that go round in a loop: ${detail}`,
			{
				itemIndex,
				description:
					'Reading stopped so the workflow does not run forever. Try again later; if it keeps happening, use Limit instead of Return All and report it to the service provider.',
			},
		);
	const repeatError = (pageLabel: string) =>
		new NodeOperationError(
			this.getNode(),
			`The service returned the same transactions again on ${pageLabel}: the list is not moving forward`,
			{
				itemIndex,
				description:
					'Reading stopped to avoid duplicated transactions. Try again later; if it keeps happening, use Limit instead of Return All and report it to the service provider.',
			},
		);

	const parsePage = (body: unknown, pageLabel: string): FetchedPage => {
		const parsed = transactionPageSchema.safeParse(body);
		if (!parsed.success) {
			throw new NodeOperationError(
				this.getNode(),
				`The service returned an unexpected answer for ${pageLabel}`,
				{
					itemIndex,
					description: `Expected a list with "results"; ${parsed.error.issues
						.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
						.join('; ')}.`,
				},
			);
		}
		return { page: parsed.data, fingerprint: fingerprint(parsed.data.results) };
	};

	// Links to page 1 in the forms a service writes them (DRF drops `page` for the first page).
	const seenNextLinks = new Set<string>([firstUrl, listUrl, `${listUrl}?perPage=${perPage}`]);
	/** Checks a page's `next` link before it is used or trusted. */
	const checkNext = (
		next: string | null | undefined,
		currentPage: number | undefined,
		pageLabel: string,
	) => {
		if (!next) return;
		next = absolute(next);
		assertSameOrigin.call(this, baseUrl, next, itemIndex);
		if (seenNextLinks.has(next))
			throw loopError(`${pageLabel} links to a page that was already linked before`);
		seenNextLinks.add(next);
		const target = pageNumberOf(next);
		if (currentPage !== undefined && target !== undefined && target <= currentPage) {
			throw loopError(`${pageLabel} links back to page ${target}`);
		}
	};

	const fetchPage = async (page: number, control?: PoolControl): Promise<FetchedPage> => {
		const qs: IDataObject = { page, perPage };
		for (;;) {
			try {
				const response = await apiRequest.call(this, 'apiKey', {
					method: 'GET',
					path,
					qs,
					itemIndex,
					// In a parallel run a 429 comes back here first, to lower the concurrency.
					...(control ? { maxRetries: 0 } : {}),
				});
				return parsePage(response.body, `page ${page}`);
			} catch (error) {
				if (control && httpCodeOf(error) === '429') {
					// Fewer requests in flight from now on. This page is asked again after a pause of
					// at least a second (the smallest Retry-After in whole seconds), then with the
					// transport's own retries, which wait as long as Retry-After says.
					control.throttle();
					control = undefined;
					await sleep(RATE_LIMIT_PAUSE_MS + backoffDelay(1));
					continue;
				}
				throw error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			}
		}
	};

	const enough = (collected: number) => limit !== undefined && collected >= limit;
	const finish = (results: unknown[]) =>
		limit !== undefined && results.length > limit ? results.slice(0, limit) : results;

	const first = await fetchPage(1);
	const firstResults = first.page.results;
	if (enough(firstResults.length) || !first.page.next || firstResults.length === 0) {
		return finish(firstResults);
	}
	checkNext(first.page.next, 1, 'page 1');

	const count = first.page.count;
	if (typeof count === 'number') {
		// Parallel: the page size is what the service really returned on page 1 (it may cap perPage).
		const pageSize = firstResults.length;
		const totalPages = Math.ceil(count / pageSize);
		const wanted = limit === undefined ? count : Math.min(count, limit);
		const lastPage = Math.min(totalPages, Math.ceil(wanted / pageSize));
		const pageNumbers: number[] = [];
		for (let page = 2; page <= lastPage; page++) pageNumbers.push(page);

		const fetched = await mapWithConcurrency(
			pageNumbers,
			options.maxParallel,
			async (page, _i, control) => {
				const result = await fetchPage(page, control);
				return result;
			},
		);

		const results: unknown[] = firstResults.slice();
		let previous = first;
		for (let index = 0; index < fetched.length; index++) {
			const page = pageNumbers[index];
			const current = fetched[index];
			if (current.fingerprint === previous.fingerprint && current.page.results.length > 0) {
				throw repeatError(`page ${page}`);
			}
			checkNext(current.page.next, page, `page ${page}`);
			for (const entry of current.page.results) results.push(entry);
			previous = current;
			if (current.page.results.length === 0) break;
		}
		return finish(results);
	}

	// Sequential: follow `next` links one at a time.
	const results: unknown[] = firstResults.slice();
	let previous = first;
	let next: string | null | undefined = absolute(first.page.next);
	let pageIndex = 1;
	while (next && !enough(results.length)) {
		pageIndex++;
		const pageLabel = `page ${pageIndex}`;
		const pageNumber = pageNumberOf(next) ?? pageIndex;
		const response = await apiRequest.call(this, 'apiKey', { method: 'GET', url: next, itemIndex });
		const current = parsePage(response.body, pageLabel);
		if (current.fingerprint === previous.fingerprint) throw repeatError(pageLabel);
		for (const entry of current.page.results) results.push(entry);
		previous = current;
		next = current.page.next ? absolute(current.page.next) : null;
		if (current.page.results.length === 0) break;
		checkNext(next, pageNumber, pageLabel);
	}
	return finish(results);
}
