import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { KYB_PDF_SECTIONS, kybCompanyPdfRequestSchema } from '../../../shared/contract';
import {
	optionalPasswordField,
	optionalPasswordOf,
	outputFileFields,
	PASSWORD_LABEL,
	pdfItem,
} from '../../helpers/fileDownload';
import { fileItemSchema } from '../../helpers/fileItem';
import { fieldLabel, validateInput } from '../../helpers/validation';
import { COMPANY_NOT_FOUND, companyIdField } from '../company';
import { companyOf } from './common';

/** A section's name as a person reads it: `BENEFICIARY_AML_CHECKS` is `Beneficiary AML Checks`. */
function sectionName(value: string): string {
	const words = value.split('_').map((word) => word.charAt(0) + word.slice(1).toLowerCase());
	return words.join(' ').replace(/\b(Aml|Kyb|Vat)\b/g, (word) => word.toUpperCase());
}

const properties: INodeProperties[] = [
	companyIdField,
	optionalPasswordField,
	{
		displayName: 'Sections',
		name: 'sections',
		type: 'multiOptions',
		options: KYB_PDF_SECTIONS.map((value) => ({ name: sectionName(value), value })).sort((a, b) =>
			a.name.localeCompare(b.name),
		),
		default: [],
		description: 'The parts of the report to include; all of them unless you choose some',
	},
	...outputFileFields,
];

export const option: INodePropertyOptions = {
	name: 'Download PDF',
	value: 'downloadPdf',
	description:
		'Download a company’s KYB report by its Company ID as a PDF file (company data, owners, answers, checks, audit log) into a binary field, data unless set',
	action: 'Download a KYB company PDF',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['downloadPdf'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = z.object({ companyId: z.string() }).merge(fileItemSchema);

/** The item's password and sections, checked before anything is sent. */
function bodyOf(this: IExecuteFunctions, itemIndex: number) {
	const sections = this.getNodeParameter('sections', itemIndex, []);
	const input = {
		// No sections is all of them: the provider's schema makes them optional.
		password: optionalPasswordOf.call(this, itemIndex),
		content: Array.isArray(sections) && sections.length === 0 ? undefined : sections,
	};
	const labels = {
		content: fieldLabel(properties, 'sections', 'Choose sections from the list.'),
		password: PASSWORD_LABEL,
	};
	return validateInput.call(this, kybCompanyPdfRequestSchema, input, labels, itemIndex);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { companyId, path } = companyOf.call(this, itemIndex);
	const body = bodyOf.call(this, itemIndex);
	const request = {
		path: `${path}pdf/`,
		body,
		fileName: `kyb-company-${companyId}`,
		notFound: COMPANY_NOT_FOUND,
		what: 'PDF report',
	};
	return [await pdfItem.call(this, itemIndex, request, { companyId })];
}
