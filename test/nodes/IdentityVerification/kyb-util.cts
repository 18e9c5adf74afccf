/**
 * What the tests of the KYB operations share: the sandbox (util.cts), a session made over the API
 * and its company's form submitted from its link, and the fields an item has that n8n's schema
 * preview of its operation does not list.
 */
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { resources } from '../../../nodes/IdentityVerification/actions/resources';
import * as contract from '../../../nodes/shared/contract';
import { useSandbox } from './util.cjs';
import type { Ctx } from './util.cjs';

type SubmitInput = Parameters<Ctx['sb']['kyb']['submitSession']>[1];

export interface KybCtx extends Ctx {
	/** A session made over the API, and its company's form filled and submitted from its link. */
	submittedSession(): Promise<{ token: string; companyId: string }>;
	/** A company whose form was submitted from a session's link (waiting for the review); log reset. */
	submitted(input?: SubmitInput): Promise<string>;
}

/** KYB Form → Create Session for the client `deal-42`, with `extra`. */
export const session = (extra: Record<string, unknown> = {}) => ({
	resource: 'kyb',
	operation: 'createSession',
	clientId: 'deal-42',
	...extra,
});

/** A KYB Company operation's parameters. */
export const company = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'kybCompany',
	operation,
	...extra,
});

/** Order Registry Document for the company the sandbox's registry knows. */
export const registryOrder = (productKey = 'REGISTER_EXTRACT') =>
	company('orderDocument', {
		countryCode: 'LT',
		registrationNumber: '305123456',
		companyName: 'UAB Baltic Widgets',
		productKey,
	});

/** useSandbox, with the KYB steps above. */
export function useKybSandbox(): KybCtx {
	const ctx = useSandbox() as KybCtx;
	ctx.submittedSession = async () => {
		const { items } = await ctx.run(session());
		const token = items[0].json.tokenString as string;
		const { companyId } = await ctx.sb.kyb.submitSession(token);
		return { token, companyId };
	};
	ctx.submitted = async (input = {}) => {
		const { items } = await ctx.run(session());
		const { companyId } = await ctx.sb.kyb.submitSession(
			items[0].json.tokenString as string,
			input,
		);
		ctx.sb.resetLog();
		return companyId;
	};
	return ctx;
}

// The output schemas the build writes (gulpfile.js), read as output-schema.test.cts reads them.
const GULPFILE = path.resolve(__dirname, '..', '..', '..', '..', 'gulpfile.js');
const SCHEMAS = (
	require(GULPFILE) as {
		outputSchemas(
			source: typeof contract,
			list: typeof resources,
		): Record<string, { properties?: Record<string, unknown> }>;
	}
).outputSchemas(contract, resources);

/** The fields of a KYB Company item that n8n's schema preview of the operation does not list. */
export function unlisted(operation: string, item: IDataObject): string[] {
	const schema = SCHEMAS[`IdentityVerification/__schema__/v1.0.0/kybCompany/${operation}.json`];
	if (!schema) throw new Error(`the build writes no schema for ${operation}`);
	return Object.keys(item).filter((key) => !schema.properties?.[key]);
}
