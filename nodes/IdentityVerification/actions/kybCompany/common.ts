/** What the KYB Company operations share: the company an item names, at /kyb/companies/. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { segment } from '../../helpers/response';
import { COMPANY_NOT_FOUND, formCompanyField, formCompanyOf } from '../kyb/common';

export { COMPANY_NOT_FOUND };

/** The Company ID field, the same as the KYB Form operations'. */
export const companyIdField = formCompanyField;

/** The company an item names (checked before any request), and its path under /kyb/companies/. */
export function companyOf(
	this: IExecuteFunctions,
	itemIndex: number,
): { companyId: string; path: string } {
	const { companyId } = formCompanyOf.call(this, itemIndex);
	return { companyId, path: `/kyb/companies/${segment(companyId)}/` };
}
