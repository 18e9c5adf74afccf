/** What the list search tests share: a sandbox, and a From List loaded as n8n's editor loads it. */
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { sandboxCredentials, searchList } from '../../../harness/index.cjs';
import type { SearchListOptions } from '../../../harness/index.cjs';
import { useSandbox } from '../util.cjs';
import type { Ctx } from '../util.cjs';

export interface SearchCtx extends Ctx {
	/** One page of the list `method` for a node with `parameters` (the sandbox's credentials). */
	search(
		method: string,
		parameters: INodeParameters,
		opts?: Pick<SearchListOptions, 'filter' | 'paginationToken'> & {
			credentials?: Record<string, ICredentialDataDecryptedObject>;
		},
	): ReturnType<typeof searchList>;
}

export function useSearchSandbox(): SearchCtx {
	const ctx = useSandbox() as SearchCtx;
	ctx.search = async (method, parameters, opts = {}) =>
		await searchList({
			method,
			parameters,
			credentials: opts.credentials ?? sandboxCredentials(ctx.sb),
			filter: opts.filter,
			paginationToken: opts.paginationToken,
		});
	return ctx;
}

/** The sandbox's credentials with a wrong API secret: the service answers 401 to everything. */
export function wrongSecret(ctx: Ctx): Record<string, ICredentialDataDecryptedObject> {
	const credentials = sandboxCredentials(ctx.sb);
	credentials.identityVerificationApi = {
		...credentials.identityVerificationApi,
		apiSecret: 'not-the-secret',
	};
	return credentials;
}
