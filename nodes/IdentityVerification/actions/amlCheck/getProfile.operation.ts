import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { amlProfileItemSchema, amlProfileParamsSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { segment } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';
import {
	CHECK_ID_LABEL,
	checkIdField,
	PROFILE_ID_LABEL,
	PROFILE_NOT_FOUND,
	profileIdField,
} from './common';
import { idOf } from '../../helpers/locator';

export const option: INodePropertyOptions = {
	name: 'Get Profile',
	value: 'getProfile',
	description:
		'Get the full profile of one hit of an AML check, by the Check ID and the hit’s resourceId: names, dates, sanctions, PEP roles and sources',
	action: 'Get an AML check profile',
};

const displayOptions = { show: { resource: ['aml'], operation: ['getProfile'] } };

export const description = updateDisplayOptions(displayOptions, [checkIdField, profileIdField]);

export const outputSchema = amlProfileItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { checkId, profileId } = validateInput.call(
		this,
		amlProfileParamsSchema,
		{
			checkId: idOf.call(this, 'checkId', itemIndex),
			profileId: idOf.call(this, 'profileId', itemIndex),
		},
		{ checkId: CHECK_ID_LABEL, profileId: PROFILE_ID_LABEL },
		itemIndex,
	);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'GET',
		path: `/aml/checks/${segment(checkId)}/profiles/${segment(profileId)}/`,
		itemIndex,
		notFound: PROFILE_NOT_FOUND,
	});
	// The profile is not filtered by the check's filters: it holds everything the lists know.
	const profile = isPlainObject(response.body) ? (response.body as IDataObject) : {};
	return [{ json: { checkId, profileId, ...profile } }];
}
