import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { KYB_PDF_SECTIONS, kybCompanyPdfRequestSchema } from '../../../shared/contract';
import { downloadFile } from '../../transport';
import { numberFromText, validateInput } from '../../helpers/validation';
import { COMPANY_NOT_FOUND, companyIdField, companyOf } from './common';

/** Default of Max File Size (MB): the transport's own bound for a file. */
const DEFAULT_MAX_FILE_MB = 100;

/** A section's name as a person reads it: `BENEFICIARY_AML_CHECKS` is `Beneficiary AML Checks`. */
function sectionName(value: string): string {
	const words = value.split('_').map((word) => word.charAt(0) + word.slice(1).toLowerCase());
	return words.join(' ').replace(/\b(Aml|Kyb|Vat)\b/g, (word) => word.toUpperCase());
}

const properties: INodeProperties[] = [
	companyIdField,
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		hint: 'Optional: a password you choose. The service then locks the PDF with it, and anyone who opens the file needs it.',
		description: 'Leave empty for a PDF without a password',
	},
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
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the PDF in',
		description:
			'Later nodes (for example Send Email, Slack or Write File to Disk) read the file from this field',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Max File Size (MB)',
				name: 'maxFileSizeMb',
				type: 'number',
				default: DEFAULT_MAX_FILE_MB,
				typeOptions: { minValue: 0.1, numberPrecision: 1 },
				description:
					'Stop the download of a larger file, with an error naming the size, instead of storing it',
			},
		],
	},
];

/** Its entry in the Operation selector. */
export const option: INodePropertyOptions = {
	name: 'Download PDF',
	value: 'downloadPdf',
	description:
		'Download a company’s KYB report as a PDF file (company data, owners, answers, checks, audit log)',
	action: 'Download a KYB company PDF',
};

const displayOptions = { show: { resource: ['kybCompany'], operation: ['downloadPdf'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
export const outputSchema = z.object({
	companyId: z.string(),
	fileName: z.string(),
	mimeType: z.string(),
	fileSize: z.number(),
});

const paramsSchema = kybCompanyPdfRequestSchema.extend({
	maxFileSizeMb: z
		.number({ invalid_type_error: 'must be a number of megabytes' })
		.positive({ message: 'must be above 0' })
		.finite({ message: 'must be a number of megabytes' }),
});

const FIELD_LABELS = {
	content: { label: 'Sections', fix: 'Choose sections from the list.' },
	maxFileSizeMb: {
		label: 'Max File Size (MB)',
		fix: `Enter a number of megabytes above 0, for example ${DEFAULT_MAX_FILE_MB}.`,
	},
};

/** The item's password, sections and Max File Size, checked before anything is sent. */
function paramsOf(this: IExecuteFunctions, itemIndex: number) {
	const password = this.getNodeParameter('password', itemIndex, '') as string;
	const sections = this.getNodeParameter('sections', itemIndex, []);
	const { maxFileSizeMb } = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const input = {
		// Empty is no password, no sections all of them: the provider's schema makes both optional.
		password: password === '' ? undefined : password,
		content: Array.isArray(sections) && sections.length === 0 ? undefined : sections,
		maxFileSizeMb: numberFromText(maxFileSizeMb ?? DEFAULT_MAX_FILE_MB),
	};
	return validateInput.call(this, paramsSchema, input, FIELD_LABELS, itemIndex);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { companyId, path } = companyOf.call(this, itemIndex);
	const { maxFileSizeMb: maxMb, ...body } = paramsOf.call(this, itemIndex);
	const field =
		(this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string).trim() || 'data';
	const file = await downloadFile.call(
		this,
		'apiKey',
		{
			method: 'POST',
			path: `${path}pdf/`,
			body,
			// An error answer may echo the password: no message, stored detail or error item may show it.
			secrets: body.password ? [body.password] : [],
			// Making the PDF changes nothing at the service: a failed answer is asked for again.
			repeatable: true,
			itemIndex,
			notFound: COMPANY_NOT_FOUND,
			maxBytes: Math.ceil(maxMb * 1024 * 1024),
		},
		{ name: `kyb-company-${companyId}`, accepts: ['pdf'], what: 'PDF report' },
	);
	return [
		{
			json: {
				companyId,
				fileName: file.fileName,
				mimeType: file.mimeType,
				fileSize: file.fileSize,
			},
			binary: { [field]: file.binary },
		},
	];
}
