import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { kybCompanyStatusRequestSchema, kybCompanyStatusSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
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

/** The service refuses a decision while the form is filled (PENDING) or checked (PROCESSING). */
const NOT_DECIDABLE_YET = {
	message:
		'The company has not submitted its form yet, or the service is still checking it (HTTP 409)',
	advice:
		'A decision can be set once the company has submitted its form and the service has checked it: wait for Company Submitted (the trigger’s event), or see the company’s status with KYB Company → Get.',
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
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `${path}change-status/`,
		body: request as IDataObject,
		itemIndex,
		notFound: COMPANY_NOT_FOUND,
		statusWords: { 409: NOT_DECIDABLE_YET },
	});
	const answer = isPlainObject(response.body) ? (response.body as IDataObject) : {};
	return [{ json: { companyId, ...answer } }];
}
