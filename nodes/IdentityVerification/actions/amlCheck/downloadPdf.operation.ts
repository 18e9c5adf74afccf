import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { amlCheckIdSchema, amlPdfRequestSchema } from '../../../shared/contract';
import { segment } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';
import { CHECK_ID_LABEL, CHECK_NOT_FOUND, checkIdField } from './common';
import {
	optionalPasswordField,
	optionalPasswordOf,
	outputFileFields,
	PASSWORD_LABEL,
	pdfItem,
} from '../../helpers/fileDownload';
import { fileItemSchema } from '../../helpers/fileItem';
import { idOf } from '../../helpers/locator';

export const option: INodePropertyOptions = {
	name: 'Download PDF',
	value: 'downloadPdf',
	description:
		'Download the PDF report of a whole AML check by its Check ID (the person or company and every hit) into a binary field, data unless set',
	action: 'Download an AML check PDF',
};

const displayOptions = { show: { resource: ['aml'], operation: ['downloadPdf'] } };

export const description = updateDisplayOptions(displayOptions, [
	checkIdField,
	optionalPasswordField,
	...outputFileFields,
]);

export const outputSchema = z.object({ checkId: z.string() }).merge(fileItemSchema);

const paramsSchema = amlCheckIdSchema.merge(amlPdfRequestSchema);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { checkId, ...body } = validateInput.call(
		this,
		paramsSchema,
		{
			checkId: idOf.call(this, 'checkId', itemIndex),
			password: optionalPasswordOf.call(this, itemIndex),
		},
		{ checkId: CHECK_ID_LABEL, password: PASSWORD_LABEL },
		itemIndex,
	);
	const request = {
		path: `/aml/checks/${segment(checkId)}/pdf/`,
		body,
		fileName: `aml-check-${checkId}`,
		notFound: CHECK_NOT_FOUND,
	};
	return [await pdfItem.call(this, itemIndex, request, { checkId })];
}
