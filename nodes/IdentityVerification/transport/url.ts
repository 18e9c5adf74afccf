/**
 * Where a request may go: contract paths joined to the credential's Base URL, and links (e.g. a
 * `next` page) only when they stay under it, so the credential is never sent anywhere else.
 */
import { NodeOperationError } from 'n8n-workflow';

import { isUnderBaseUrl, shownUrl } from '../../shared/urlGuards';
import type { ApiRequest, RequestContext } from './types';

/** Joins the base URL and a contract path: one slash between them, the path's trailing slash kept. */
export function joinUrl(baseUrl: string, path: string): string {
	const base = baseUrl.trim().replace(/\/+$/, '');
	const tail = path.startsWith('/') ? path : `/${path}`;
	return `${base}${tail}`;
}

/** Refuses a URL (e.g. a pagination link) that would send the credential outside the Base URL. */
export function assertUnderBaseUrl(
	this: RequestContext,
	baseUrl: string,
	url: string,
	itemIndex?: number,
): void {
	if (isUnderBaseUrl(baseUrl, url)) return;
	throw new NodeOperationError(
		this.getNode(),
		`Refused to follow a link to ${shownUrl(url)}: it is not under the service's address (${shownUrl(baseUrl)})`,
		{
			itemIndex,
			description:
				'The service answered with a link outside the Base URL of the credential (another host, or another path on the same host). The credential is only ever sent under the Base URL, so the request was not made.',
		},
	);
}

/**
 * The URL a request goes to: its contract path under the Base URL, or its link (a path-only link
 * is on the Base URL's origin), refused when that is not under the Base URL.
 */
export function requestUrl(
	this: RequestContext,
	req: ApiRequest,
	service: { baseUrl: string; origin: string },
): string {
	if (req.url === undefined) return joinUrl(service.baseUrl, req.path ?? '/');
	const url = req.url.startsWith('/') ? `${service.origin}${req.url}` : req.url;
	assertUnderBaseUrl.call(this, service.baseUrl, url, req.itemIndex);
	return url;
}
