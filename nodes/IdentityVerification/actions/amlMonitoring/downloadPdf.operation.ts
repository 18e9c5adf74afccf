import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { amlPdfRequestSchema } from '../../../shared/contract';
import { validateInput } from '../../helpers/validation';
import {
	optionalPasswordField,
	optionalPasswordOf,
	outputFileFields,
	PASSWORD_LABEL,
	pdfItem,
} from '../../helpers/fileDownload';
import { fileItemSchema } from '../../helpers/fileItem';
import { MONITORING_NOT_FOUND, monitoringIdField, monitoringOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Download PDF',
	value: 'downloadPdf',
	description:
		'Download the PDF report of an AML monitoring by its Monitoring ID (the full history of its screening results) into a binary field, data unless set',
	action: 'Download an AML monitoring PDF',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['downloadPdf'] } };

export const description = updateDisplayOptions(displayOptions, [
	monitoringIdField,
	optionalPasswordField,
	...outputFileFields,
]);

export const outputSchema = z.object({ monitoringId: z.string() }).merge(fileItemSchema);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { monitoringId, path } = monitoringOf.call(this, itemIndex);
	const body = validateInput.call(
		this,
		amlPdfRequestSchema,
		{ password: optionalPasswordOf.call(this, itemIndex) },
		{ password: PASSWORD_LABEL },
		itemIndex,
	);
	const request = {
		path: `${path}pdf/`,
		body,
		fileName: `aml-monitoring-${monitoringId}`,
		notFound: MONITORING_NOT_FOUND,
	};
	return [await pdfItem.call(this, itemIndex, request, { monitoringId })];
}
