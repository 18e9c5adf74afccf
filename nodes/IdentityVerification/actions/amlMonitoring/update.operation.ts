import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { amlMonitoringItemSchema, amlMonitoringUpdateSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { validateInput } from '../../helpers/validation';
import {
	MONITORING_NOT_FOUND,
	monitoringIdField,
	monitoringItem,
	monitoringOf,
	renewField,
	SETTINGS_LABELS,
	tagsField,
	tagsOf,
} from './common';

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	description:
		'Change whether an AML monitoring renews itself for another year when it expires, or replace its tags; outputs the monitoring',
	action: 'Update an AML monitoring',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['update'] } };

export const description = updateDisplayOptions(displayOptions, [
	monitoringIdField,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are changed',
		options: [
			{ ...renewField, description: `${renewField.description}. Turn it on to renew.` },
			{ ...tagsField, hint: 'Replaces every tag; empty removes them all' },
		],
	},
]);

export const outputSchema = amlMonitoringItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { path } = monitoringOf.call(this, itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body = validateInput.call(
		this,
		amlMonitoringUpdateSchema,
		{
			isSubscribed: fields.isSubscribed,
			tags: fields.tags === undefined ? undefined : tagsOf(fields.tags),
		},
		SETTINGS_LABELS,
		itemIndex,
	);
	// Setting the same fields twice changes nothing more: a failed answer is asked for again.
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'PATCH',
		path,
		body,
		repeatable: true,
		itemIndex,
		notFound: MONITORING_NOT_FOUND,
	});
	return [{ json: monitoringItem(response.body) }];
}
