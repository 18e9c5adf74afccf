/** POST /bank/tokens/ and GET /bank/verifications/{v}/accounts/{a}/transactions/ (DRF page-number pagination). */
import { randomBytes, randomUUID } from 'node:crypto';
import { bankTokenRequestSchema, bankTransactionSchema } from '../../../nodes/shared/contract';
import type { BankTransaction } from '../../../nodes/shared/contract';
import { bodyObject, HttpError, json, notFound, parseOr400 } from '../http.cjs';
import type { Req } from '../http.cjs';
import type { Route } from '../router.cjs';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, SEED } from '../seed.cjs';
import { transactionsRange } from '../data.cjs';
import type { PageLinkMode } from '../types.cjs';

interface AccountRecord {
	verificationId: string;
	accountId: string;
	transactions: number;
	/** The transactions themselves when they were given; otherwise they are generated (data.cts). */
	list?: BankTransaction[];
}

/** Default target of `cross-host` next links: another origin that is still loopback and refuses connections. */
const DEFAULT_CROSS_HOST_URL = 'http://localhost:1';

export class BankStore {
	private accounts = new Map<string, AccountRecord>();
	mode: PageLinkMode = 'normal';
	crossHostUrl = DEFAULT_CROSS_HOST_URL;

	constructor() {
		this.reset();
	}

	reset(): void {
		this.accounts.clear();
		this.mode = 'normal';
		this.crossHostUrl = DEFAULT_CROSS_HOST_URL;
		this.seedAccount({ ...SEED.bank });
	}

	/** An account with that many generated transactions, or with the transactions given (in that order). */
	seedAccount(opts: {
		transactions: number | BankTransaction[];
		verificationId?: string;
		accountId?: string;
	}) {
		const list = Array.isArray(opts.transactions)
			? opts.transactions.map((t, i) => {
					const parsed = bankTransactionSchema.safeParse(t);
					if (!parsed.success)
						throw new Error(
							`transaction ${i} does not match the contract: ${parsed.error.message}`,
						);
					return t;
				})
			: undefined;
		const transactions = list ? list.length : Number(opts.transactions);
		if (!Number.isInteger(transactions) || transactions < 0)
			throw new Error('transactions must be a whole number >= 0, or a list of transactions');
		const record: AccountRecord = {
			verificationId: opts.verificationId ?? randomUUID(),
			accountId: opts.accountId ?? randomUUID(),
			transactions,
			list,
		};
		this.accounts.set(`${record.verificationId}/${record.accountId}`, record);
		return { verificationId: record.verificationId, accountId: record.accountId };
	}

	get(verificationId: string, accountId: string): AccountRecord | undefined {
		return this.accounts.get(`${verificationId}/${accountId}`);
	}

	setPageLinks(mode: PageLinkMode, crossHostUrl?: string): void {
		const modes: PageLinkMode[] = ['normal', 'loop', 'repeat', 'cross-host', 'no-count'];
		if (!modes.includes(mode)) throw new Error(`mode must be one of ${modes.join(', ')}`);
		this.mode = mode;
		this.crossHostUrl = (crossHostUrl ?? DEFAULT_CROSS_HOST_URL).replace(/\/+$/, '');
	}
}

/** DRF's `_positive_int(strict=True, cutoff=max)`: anything not a positive whole number falls back to the default. */
export function perPageOf(raw: string | null): number {
	if (raw === null || !/^\s*\+?\d+\s*$/.test(raw)) return DEFAULT_PER_PAGE;
	const value = Number(raw);
	if (value <= 0) return DEFAULT_PER_PAGE;
	return Math.min(value, MAX_PER_PAGE);
}

const invalidPage = () => notFound('Invalid page.');

export function pageOf(raw: string | null, lastPage: number): number {
	if (raw === null) return 1;
	if (raw === 'last') return lastPage;
	if (!/^\s*\+?\d+\s*$/.test(raw)) throw invalidPage();
	const page = Number(raw);
	if (page < 1 || page > lastPage) throw invalidPage();
	return page;
}

export function pageLink(req: Req, page: number, origin = req.origin): string {
	const query = new URLSearchParams(req.query);
	if (page === 1)
		query.delete('page'); // as DRF does for the link to the first page
	else query.set('page', String(page));
	const qs = query.toString();
	return `${origin}${req.path}${qs ? `?${qs}` : ''}`;
}

export const bankRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/bank/tokens/',
		auth: 'basic',
		handler: (req) => {
			const body = parseOr400(bankTokenRequestSchema, bodyObject(req));
			return json(201, {
				tokenString: randomBytes(24).toString('base64url'),
				expiration: new Date(Date.now() + body.lifetime * 1000).toISOString(),
				isValid: body.lifetime > 0,
				country: body.country ?? null,
				bank: body.bank ?? null,
				access: body.access,
			});
		},
	},
	{
		method: 'GET',
		pattern: '/bank/verifications/:verificationId/accounts/:accountId/transactions/',
		auth: 'basic',
		handler: (req, core) => {
			const bank = core.bank;
			const account = bank.get(req.params.verificationId, req.params.accountId);
			if (!account) throw notFound();
			const perPage = perPageOf(req.query.get('perPage'));
			const count = account.transactions;
			const lastPage = Math.max(1, Math.ceil(count / perPage));
			const page = pageOf(req.query.get('page'), lastPage);
			const resultsPage = bank.mode === 'repeat' && page > 1 ? page - 1 : page;
			const from = (resultsPage - 1) * perPage;
			const to = Math.min(resultsPage * perPage, count);
			const results = account.list
				? account.list.slice(from, to)
				: transactionsRange(account.accountId, from, to);
			let next = page < lastPage ? pageLink(req, page + 1) : null;
			const previous = page > 1 ? pageLink(req, page - 1) : null;
			if (bank.mode === 'loop' && page === 3) next = pageLink(req, 2);
			if (bank.mode === 'cross-host' && page < lastPage)
				next = pageLink(req, page + 1, bank.crossHostUrl);
			const body: Record<string, unknown> = { count, next, previous, results };
			if (bank.mode === 'no-count') delete body.count;
			return json(200, body);
		},
	},
];
