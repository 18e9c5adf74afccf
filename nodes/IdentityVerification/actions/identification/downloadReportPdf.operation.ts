import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { reportPdfRequestSchema } from '../../../shared/contract';
import { maxFileSizeOption, outputFileField, pdfItem } from '../../helpers/fileDownload';
import { fileItemSchema } from '../../helpers/fileItem';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { SCAN_REF_LABEL, scanRefField } from './common';
import { idOf } from '../../helpers/locator';

const properties: INodeProperties[] = [
	scanRefField(
		'The scanRef of the verification, from Get Many, the Create Verification Token response or a webhook',
	),
	{
		displayName: 'Language',
		name: 'language',
		type: 'options',
		default: 'en',
		options: [
			{ name: 'English', value: 'en' },
			{ name: 'Lithuanian', value: 'lt' },
		],
		description: 'The language of the report (the service offers these two)',
	},
	outputFileField(
		'Later nodes (for example Google Drive, Send Email or Write File to Disk) read the file from this field',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Include Additional Step Photos',
				name: 'includeAdditionalStepFiles',
				type: 'boolean',
				default: true,
				description:
					'Whether the report shows the photos of additional steps (such as a proof of address)',
			},
			{
				displayName: 'Include Document and Face Photos',
				name: 'includeMainStepFiles',
				type: 'boolean',
				default: true,
				description:
					'Whether the report shows the photos of the document (front and back) and the face',
			},
			maxFileSizeOption,
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Download Report PDF',
	value: 'downloadReportPdf',
	description:
		'Download the PDF report of one verification by its scanRef (data, status, checks, photos) into a binary field, data unless set, as evidence for an auditor',
	action: 'Download the PDF report of a verification',
};

const displayOptions = {
	show: { resource: ['identification'], operation: ['downloadReportPdf'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = z.object({ scanRef: z.string() }).merge(fileItemSchema);

const FIELD_LABELS = {
	...fieldLabels(properties, {
		language: 'Choose English (en) or Lithuanian (lt).',
		includeMainStepFiles: 'Turn the option on or off.',
		includeAdditionalStepFiles: 'Turn the option on or off.',
	}),
	scanRef: SCAN_REF_LABEL,
};

/** The verification's report: scanRef, its language, and the photo options the user set. */
function requestOf(this: IExecuteFunctions, itemIndex: number) {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return validateInput.call(
		this,
		reportPdfRequestSchema,
		{
			scanRef: idOf.call(this, 'scanRef', itemIndex),
			language: this.getNodeParameter('language', itemIndex, 'en'),
			includeMainStepFiles: options.includeMainStepFiles,
			includeAdditionalStepFiles: options.includeAdditionalStepFiles,
		},
		FIELD_LABELS,
		itemIndex,
	);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const body = requestOf.call(this, itemIndex);
	const request = {
		path: '/api/v2/generate-pdf',
		body,
		fileName: `report-${body.scanRef}`,
		notFound: {
			message:
				'Not found (HTTP 404): the service has no report for this Scan Reference (no such verification, or its data was deleted)',
			advice:
				'Check the Scan Reference (the scanRef of the verification, from the account of this credential: sandbox and production keys see different data). Get Status shows DELETED for a verification whose data was deleted.',
		},
		what: 'PDF report',
		// "A PDF file in Base64 format" (the PDF generation page), or its bytes: either is read.
		base64: true,
	};
	return [await pdfItem.call(this, itemIndex, request, { scanRef: body.scanRef })];
}
