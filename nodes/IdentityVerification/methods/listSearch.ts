/**
 * The From List mode of the ID fields (version 2): one page of the service's own list per call, so
 * a list answers in the time of one request however large the account is; n8n's pagination token
 * is the next page's number. Filters are the service's own query parameters (its OpenAPI files:
 * test/fixtures/real-service/openapi/), never a scan of the account.
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isPlainObject } from '../../shared/isPlainObject';
import { currentIdOf } from '../helpers/locator';
import { segment } from '../helpers/response';
import type { AuthMode } from '../transport';
import { apiRequest } from '../transport';

/** Entries per page of a list: one screen of the dropdown, and a quick answer. */
const PER_PAGE = 50;

/** A list the service pages (`count`, `next`, `results`, kyb/aml/kyc.yaml's `Paginated…List`). */
interface Page {
	results: IDataObject[];
	hasNext: boolean;
}

const text = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** `Name — STATUS`, leaving out what the service did not give. */
const label = (...parts: unknown[]): string => parts.map(text).filter(Boolean).join(' — ');

/**
 * Why a list could not be loaded, in the dropdown's words: a credential that may not list (a form
 * token, a key without the product) is told to use By ID; any other failure keeps the transport's
 * message, which already says what to do and holds no secret.
 */
function cannotList(this: ILoadOptionsFunctions, error: unknown, what: string): Error {
	const status = error instanceof NodeApiError ? Number(error.httpCode) : 0;
	if (status !== 401 && status !== 403) return error as Error;
	return new NodeOperationError(this.getNode(), `This credential cannot list ${what}`, {
		description: `The service refused the list (HTTP ${status}). Choose "By ID" and enter the ID, or use a credential with an API key that can read ${what}.`,
	});
}

async function get(
	this: ILoadOptionsFunctions,
	auth: AuthMode,
	path: string,
	what: string,
	qs?: IDataObject,
): Promise<unknown> {
	try {
		const response = await apiRequest.call(this, auth, { method: 'GET', path, qs });
		return response.body;
	} catch (error) {
		throw cannotList.call(this, error, what);
	}
}

/** Page `page` of a paged list. */
async function pageOf(
	this: ILoadOptionsFunctions,
	path: string,
	what: string,
	page: number,
	qs: IDataObject,
): Promise<Page> {
	const body = await get.call(this, 'apiKey', path, what, { ...qs, page, perPage: PER_PAGE });
	const results = isPlainObject(body) && Array.isArray(body.results) ? body.results : [];
	return {
		results: results.filter(isPlainObject) as IDataObject[],
		hasNext: isPlainObject(body) && typeof body.next === 'string' && body.next !== '',
	};
}

/** The page a pagination token names (the first without one). */
const pageNumber = (token: string | undefined): number => {
	const page = Number(token ?? 1);
	return Number.isInteger(page) && page > 0 ? page : 1;
};

/** A filter as the service takes it: sent only when typed, as an empty one would match nothing. */
const filterOf = (filter: string | undefined): string | undefined =>
	filter?.trim() ? filter.trim() : undefined;

/** KYB companies (`GET /kyb/companies/`), newest first, found by registration number. */
async function companySearch(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = pageNumber(paginationToken);
	const { results, hasNext } = await pageOf.call(this, '/kyb/companies/', 'companies', page, {
		registrationNumber: filterOf(filter),
	});
	const entries = results.map((entry): INodeListSearchItems => {
		const company = isPlainObject(entry.company) ? entry.company : {};
		const meta = isPlainObject(entry.meta) ? entry.meta : {};
		return {
			name: label(company.companyName || entry.id, company.registrationNumber, meta.status),
			value: text(entry.id),
		};
	});
	return { results: entries, paginationToken: hasNext ? String(page + 1) : undefined };
}

/** The statuses of a monitoring (aml.yaml `MonitoringStatusEnum`), those that need a look first. */
const MONITORING_STATUSES = ['ALERT', 'ACTIVE', 'PENDING', 'STOPPED'];

/**
 * AML monitorings (`GET /aml/monitorings/`), found by name: those in ALERT first, then by status,
 * each status newest first. The service orders by date only, so each status is its own list; the
 * token is `<status>:<page>`. A status with no monitoring is passed over in the same call.
 */
async function monitoringSearch(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const [tokenStatus, tokenPage] = (paginationToken ?? '').split(':');
	let index = Math.max(0, MONITORING_STATUSES.indexOf(tokenStatus));
	let page = pageNumber(tokenPage);
	for (;;) {
		const status = MONITORING_STATUSES[index];
		const { results, hasNext } = await pageOf.call(
			this,
			'/aml/monitorings/',
			'AML monitorings',
			page,
			{ status, name: filterOf(filter), orderBy: '-created' },
		);
		const last = index === MONITORING_STATUSES.length - 1;
		if (results.length > 0 || hasNext || last) {
			const next = hasNext
				? `${status}:${page + 1}`
				: last
					? undefined
					: `${MONITORING_STATUSES[index + 1]}:1`;
			const entries = results.map((entry) => ({
				name: label(entry.name, entry.status, entry.userType),
				value: text(entry.id),
			}));
			return { results: entries, paginationToken: next };
		}
		index += 1;
		page = 1;
	}
}

/** KYC verifications (`GET /kyc/identifications/`), in the service's order, found by Client ID. */
async function verificationSearch(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = pageNumber(paginationToken);
	const { results, hasNext } = await pageOf.call(
		this,
		'/kyc/identifications/',
		'verifications',
		page,
		{ clientId: filterOf(filter) },
	);
	const entries = results.map((entry) => ({
		name: label(entry.scanRef, entry.status, entry.suspected === true ? 'suspected' : ''),
		value: text(entry.scanRef),
	}));
	return { results: entries, paginationToken: hasNext ? String(page + 1) : undefined };
}

/** As whom the KYB form's lists are read: the form token credential when chosen, else the API key. */
function formAuthOf(this: ILoadOptionsFunctions): AuthMode {
	return this.getCurrentNodeParameter('authentication') === 'kybFormToken'
		? 'kybFormToken'
		: 'apiKey';
}

/**
 * The questionnaires of the chosen company's KYB form (`GET /kyb/forms/{companyId}/questionnaires/`,
 * one unpaged list), found by name or title.
 */
async function questionnaireSearch(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const companyId = text(currentIdOf.call(this, 'companyId')).trim();
	if (companyId === '' || companyId.startsWith('=')) {
		throw new NodeOperationError(this.getNode(), 'Choose the company first', {
			description:
				'The list shows the questionnaires of the company in the Company ID field. With an expression there, choose "By ID" here.',
		});
	}
	const body = await get.call(
		this,
		formAuthOf.call(this),
		`/kyb/forms/${segment(companyId)}/questionnaires/`,
		'questionnaires',
	);
	const wanted = filterOf(filter)?.toLowerCase();
	const entries = (Array.isArray(body) ? body : [])
		.filter(isPlainObject)
		.map((entry) => ({ name: label(entry.title || entry.name || entry.id), value: text(entry.id) }))
		.filter((entry) => !wanted || entry.name.toLowerCase().includes(wanted));
	return { results: entries };
}

/** KYB forms (`GET /kyb/forms/`, one unpaged list): those the credential sees, by company name. */
async function formSearch(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await get.call(this, formAuthOf.call(this), '/kyb/forms/', 'KYB forms');
	const wanted = filterOf(filter)?.toLowerCase();
	const entries = (Array.isArray(body) ? body : [])
		.filter(isPlainObject)
		.map((entry) => {
			const company = isPlainObject(entry.company) ? entry.company : {};
			const meta = isPlainObject(entry.meta) ? entry.meta : {};
			return { name: label(company.companyName || entry.id, meta.status), value: text(entry.id) };
		})
		.filter((entry) => !wanted || entry.name.toLowerCase().includes(wanted));
	return { results: entries };
}

/**
 * Ordered registry documents (`GET /api/v2/gov-ordered-documents/`, one unpaged list), newest order
 * first, found by title; each shown with its status and when it was (or is to be) delivered.
 */
async function orderedDocumentSearch(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await get.call(
		this,
		'apiKey',
		'/api/v2/gov-ordered-documents/',
		'ordered documents',
		{
			orderBy: '-orderTime',
		},
	);
	const wanted = filterOf(filter)?.toLowerCase();
	const entries = (Array.isArray(body) ? body : [])
		.filter(isPlainObject)
		.map((entry) => ({
			name: label(
				entry.title || entry.id,
				entry.status,
				entry.deliveredAt || entry.expectedDeliveryTime,
			),
			value: text(entry.id),
		}))
		.filter((entry) => !wanted || entry.name.toLowerCase().includes(wanted));
	return { results: entries };
}

/** The node's `methods.listSearch`: each ID field's From List names one of these. */
export const listSearch = {
	companySearch,
	monitoringSearch,
	verificationSearch,
	questionnaireSearch,
	formSearch,
	orderedDocumentSearch,
};
