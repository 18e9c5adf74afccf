/** The company both KYB resources act on: the Company ID field, its check, and what its 404 means. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { kybCompanyParamsSchema } from '../../shared/contract';
import { validateInput } from '../helpers/validation';
import { idOf } from '../helpers/locator';

/** The Company ID of the KYB Form operations (but Create Session) and of KYB Company. */
export const companyIdField: INodeProperties = {
	displayName: 'Company ID',
	name: 'companyId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'The companyId of a KYB event',
	description:
		'The company’s ID: the companyId of the trigger’s KYB events (Company Submitted, …), or the ID that KYB Company → Get Many lists',
};

/** What a 404 for a company means. */
export const COMPANY_NOT_FOUND = {
	message: 'Not found (HTTP 404): the service has no company with this Company ID',
	advice:
		'Use the companyId of a KYB event (Company Submitted, …) or the ID that KYB Company → Get Many lists. A deleted company is gone for good; sandbox and production keys see different companies.',
};

/** The Company ID an item gives, checked before any request. */
export function companyIdOf(this: IExecuteFunctions, itemIndex: number): string {
	const { companyId } = validateInput.call(
		this,
		kybCompanyParamsSchema,
		{ companyId: idOf.call(this, 'companyId', itemIndex) },
		{
			companyId: {
				label: companyIdField.displayName,
				fix: 'Map the companyId of a KYB event, or the ID that KYB Company → Get Many lists.',
			},
		},
		itemIndex,
	);
	return companyId;
}
