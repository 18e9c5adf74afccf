import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { apiRequest } from '../../transport';
import { COMPANY_NOT_FOUND, companyIdField } from '../company';
import { companyOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Re-Run Automated Checks',
	value: 'rerunAutomation',
	description:
		'Run a company’s automated checks again by its Company ID (registry, AML and the others the account has on), as the dashboard’s re-run does; outputs started: true. The checks are paid: HTTP 402 means the account’s funds for them have run out.',
	action: 'Run the automated checks of a KYB company again',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['rerunAutomation'] } };

export const description = updateDisplayOptions(displayOptions, [
	{
		...companyIdField,
		hint: 'The checks are paid for from the account’s funds: an error with HTTP 402 means they have run out (top them up with the provider, then run again).',
	},
]);

export const outputSchema = z.object({ started: z.boolean(), companyId: z.string() });

/** The checks are paid from the account's funds: the service answers 402 when they have run out. */
const FUNDS_RAN_OUT = {
	message: 'The account’s funds for automated checks have run out (HTTP 402): nothing was run',
	advice:
		'Top up the funds with the provider (the dashboard or your account manager), then run this step again.',
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { companyId, path } = companyOf.call(this, itemIndex);
	// Not repeated after a failure that may have reached the service: each run is paid for.
	await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `${path}automation/`,
		response: 'none',
		itemIndex,
		notFound: COMPANY_NOT_FOUND,
		statusWords: { 402: FUNDS_RAN_OUT },
	});
	return [{ json: { started: true, companyId } }];
}
