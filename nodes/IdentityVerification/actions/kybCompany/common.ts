/** What the KYB Company operations share: the company an item names, at /kyb/companies/. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { segment } from '../../helpers/response';
import { companyIdOf } from '../company';

/** The company an item names (checked before any request), and its path under /kyb/companies/. */
export function companyOf(
	this: IExecuteFunctions,
	itemIndex: number,
): { companyId: string; path: string } {
	const companyId = companyIdOf.call(this, itemIndex);
	return { companyId, path: `/kyb/companies/${segment(companyId)}/` };
}
