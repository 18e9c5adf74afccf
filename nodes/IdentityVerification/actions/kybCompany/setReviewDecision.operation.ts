import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { kybCompanyStatusRequestSchema, kybCompanyStatusSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { LOCATOR_VERSION } from '../../helpers/locator';
import { fieldLabel, validateInput } from '../../helpers/validation';
import { COMPANY_NOT_FOUND, companyIdField } from '../company';
import { companyOf } from './common';

const properties: INodeProperties[] = [
	companyIdField,
	{
		displayName: 'Decision',
		name: 'decision',
		type: 'options',
		options: [
			{
				name: 'Approve',
				value: 'APPROVED',
				description:
					'The company passes KYB. The service refuses it while AML statuses are still unreviewed.',
			},
			{ name: 'Deny', value: 'DENIED', description: 'The company does not pass KYB' },
			{
				name: 'Send Back to Processing',
				value: 'NEED_TO_PROCESS',
				description:
					'The company goes back to the status NEED_TO_PROCESS, undecided; the service takes no reason with it and sends no Company Reviewed',
			},
			{
				name: 'Send Back to Review',
				value: 'NEED_TO_REVIEW',
				description:
					'The company goes back to the status NEED_TO_REVIEW (waiting for a review), undecided; the service takes no reason with it and sends no Company Reviewed',
			},
		],
		default: 'APPROVED',
		description:
			'The review’s result, as a reviewer would set it in the dashboard. Can be an expression giving APPROVED, DENIED, NEED_TO_PROCESS or NEED_TO_REVIEW.',
	},
	{
		displayName: 'Deny Reason',
		name: 'denyReason',
		type: 'string',
		default: '',
		placeholder: 'e.g. Beneficial owner could not be verified',
		hint: 'At most 64 characters; sent only when the decision is Deny',
		description: 'Why the company is denied: shown in the dashboard and sent with the review event',
	},
];

export const option: INodePropertyOptions = {
	name: 'Set Review Decision',
	value: 'setReviewDecision',
	description:
		'Approve or deny a submitted company by its Company ID (a denial may give a reason), the same as a manual review in the dashboard, or send it back undecided; a decision makes the service send Company Reviewed',
	action: 'Set a KYB review decision',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['setReviewDecision'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = kybCompanyStatusSchema.extend({ companyId: z.string() });

const FIELD_LABELS = {
	'reviewInfo.approvalStatus': fieldLabel(
		properties,
		'decision',
		'Choose a decision (in an expression: APPROVED, DENIED, NEED_TO_PROCESS or NEED_TO_REVIEW).',
	),
	'reviewInfo.denyReason': fieldLabel(
		properties,
		'denyReason',
		'Shorten it to at most 64 characters.',
	),
};

/** The statuses that send a company back undecided: the provider's schema gives them only `status`. */
const SEND_BACK = new Set<unknown>(['NEED_TO_PROCESS', 'NEED_TO_REVIEW']);

/** The request of a decision: a status to send the company back to, or COMPLETED with the review. */
function statusRequest(decision: unknown, reason: string): IDataObject {
	if (SEND_BACK.has(decision)) return { status: String(decision) };
	return {
		// COMPLETED is the status that takes a decision ("the same as a manual review").
		status: 'COMPLETED',
		reviewInfo:
			decision === 'DENIED' && reason !== ''
				? { approvalStatus: decision, denyReason: reason }
				: { approvalStatus: decision },
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { companyId, path } = companyOf.call(this, itemIndex);
	const decision = this.getNodeParameter('decision', itemIndex, '');
	const reason = String(this.getNodeParameter('denyReason', itemIndex, '') ?? '').trim();
	const request = validateInput.call(
		this,
		kybCompanyStatusRequestSchema,
		statusRequest(decision, reason),
		FIELD_LABELS,
		itemIndex,
	);
	// Not repeated after a failure that may have reached the service: the review is recorded once.
	const response = await apiRequest
		.call(this, 'apiKey', {
			method: 'POST',
			path: `${path}change-status/`,
			body: request as IDataObject,
			itemIndex,
			notFound: COMPANY_NOT_FOUND,
		})
		.catch((error: unknown) => {
			throw notReviewable.call(this, error);
		});
	const answer = isPlainObject(response.body) ? (response.body as IDataObject) : {};
	return [{ json: { companyId, ...answer } }];
}

/** What each state the service will not decide from (kyb.yaml `change-status`) means, and what to do. */
const NOT_REVIEWABLE: Record<string, { message: string; advice: string }> = {
	PENDING: {
		message: 'The company has not submitted its form yet (HTTP 409)',
		advice:
			'A decision can be set once the company has submitted its KYB form: wait for the trigger’s Company Submitted event and start this step from it (its companyId), or check that KYB Company → Get shows NEED_TO_REVIEW.',
	},
	PROCESSING: {
		message: 'The service is still processing the company’s form (HTTP 409)',
		advice:
			'Set the decision when the service has processed it: KYB Company → Get then shows NEED_TO_REVIEW. Run this step again in a few minutes.',
	},
};

/**
 * From version 2, the service's 409 for a company it will not decide yet, in words that say what to
 * wait for; the service's own words stay first. Other errors, and versions 1 and 1.1, unchanged.
 */
function notReviewable(this: IExecuteFunctions, error: unknown): unknown {
	if (this.getNode().typeVersion < LOCATOR_VERSION) return error;
	if (!(error instanceof NodeApiError) || String(error.httpCode) !== '409') return error;
	const said = `${error.message} ${error.description ?? ''}`;
	const state = /cannot be changed from (PENDING|PROCESSING)\b/i.exec(said)?.[1]?.toUpperCase();
	const words = state ? NOT_REVIEWABLE[state] : undefined;
	if (!words) return error;
	const quoted = /The service said: "[^"]*"/.exec(error.description ?? '')?.[0];
	error.message = words.message;
	error.description = quoted ? `${quoted} ${words.advice}` : words.advice;
	return error;
}
