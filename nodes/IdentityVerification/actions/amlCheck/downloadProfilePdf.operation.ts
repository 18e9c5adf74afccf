import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { amlProfilePdfParamsSchema } from '../../../shared/contract';
import { segment } from '../../helpers/response';
import { fieldLabels, validateInput } from '../../helpers/validation';
import {
	CHECK_ID_LABEL,
	checkIdField,
	PROFILE_ID_LABEL,
	PROFILE_NOT_FOUND,
	profileIdField,
} from './common';
import { outputFileFields, pdfItem } from '../../helpers/fileDownload';
import { fileItemSchema } from '../../helpers/fileItem';
import { idOf } from '../../helpers/locator';

const properties: INodeProperties[] = [
	checkIdField,
	profileIdField,
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		hint: 'A password you choose: the service locks the PDF with it, and anyone who opens the file needs it',
		description:
			'Make one up (at least 1 character). The PDF report comes locked with this password; keep it with the file, for example in your password manager.',
	},
	...outputFileFields,
];

export const option: INodePropertyOptions = {
	name: 'Download Profile PDF',
	value: 'downloadProfilePdf',
	description: 'Download the PDF report of one profile found by an AML check',
	action: 'Download an AML profile PDF',
};

const displayOptions = { show: { resource: ['aml'], operation: ['downloadProfilePdf'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = z
	.object({ checkId: z.string(), profileId: z.string() })
	.merge(fileItemSchema);

const FIELD_LABELS = {
	checkId: CHECK_ID_LABEL,
	profileId: PROFILE_ID_LABEL,
	...fieldLabels(properties, {
		password: 'Choose a password (at least 1 character): the service locks the PDF with it.',
	}),
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const params = validateInput.call(
		this,
		amlProfilePdfParamsSchema,
		{
			checkId: idOf.call(this, 'checkId', itemIndex),
			profileId: idOf.call(this, 'profileId', itemIndex),
			password: this.getNodeParameter('password', itemIndex, ''),
		},
		FIELD_LABELS,
		itemIndex,
	);
	const { checkId, profileId, password } = params;
	const request = {
		path: `/aml/checks/${segment(checkId)}/profiles/${segment(profileId)}/pdf/`,
		body: { password },
		fileName: `aml-${checkId}-${profileId}`,
		notFound: PROFILE_NOT_FOUND,
	};
	return [await pdfItem.call(this, itemIndex, request, { checkId, profileId })];
}
