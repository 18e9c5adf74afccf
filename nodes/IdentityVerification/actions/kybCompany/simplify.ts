/**
 * A company in a few flat fields, for a spreadsheet row or an AI agent: what the service nests
 * under `company` and `meta` comes up one level; what the answer lacks is null. The service's
 * answers are not checked field by field (any JSON can come): this reads what it can.
 */
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../../shared/isPlainObject';

const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** A beneficiary as `Name Surname` (or its company name), with its kinds and share. */
function simplifiedBeneficiary(entry: unknown): IDataObject {
	const beneficiary = isPlainObject(entry) ? entry : {};
	const info = isPlainObject(beneficiary.info) ? beneficiary.info : {};
	const person = [info.name, info.surname].filter((part) => typeof part === 'string').join(' ');
	return {
		id: textOrNull(beneficiary.id),
		name: person || textOrNull(info.companyName),
		types: Array.isArray(beneficiary.beneficiaryTypes) ? beneficiary.beneficiaryTypes : [],
		ownershipPercentage:
			typeof beneficiary.ownershipPercentage === 'number' ? beneficiary.ownershipPercentage : null,
	};
}

/** The company's main fields; `beneficiaries` only when the answer lists them (details do). */
export function simplifiedCompany(answer: unknown): IDataObject {
	const record = isPlainObject(answer) ? answer : {};
	const company = isPlainObject(record.company) ? record.company : {};
	const meta = isPlainObject(record.meta) ? record.meta : {};
	const simplified: IDataObject = {
		id: textOrNull(record.id),
		companyName: textOrNull(company.companyName),
		registrationNumber: textOrNull(company.registrationNumber),
		country: textOrNull(company.country),
		status: textOrNull(meta.status),
		approvalStatus: textOrNull(meta.approvalStatus),
		denyReason: textOrNull(meta.denyReason),
		submissionTime: textOrNull(meta.submissionTime),
	};
	if (Array.isArray(record.beneficiaries))
		simplified.beneficiaries = record.beneficiaries.map(simplifiedBeneficiary);
	return simplified;
}
