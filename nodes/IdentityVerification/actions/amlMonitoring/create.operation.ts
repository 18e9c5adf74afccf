import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { amlMonitoringItemSchema, amlMonitoringRequestSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { validateInput } from '../../helpers/validation';
import { subjectFields, subjectLabels, subjectOf } from '../amlCheck/subject';
import { monitoringItem, renewField, SETTINGS_LABELS, tagsField, tagsOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	description:
		'Screen a person or a company every day (a new match turns it to ALERT); outputs the monitoring with its ID and status',
	action: 'Create an AML monitoring',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, [
	...subjectFields,
	renewField,
	{ ...tagsField, hint: 'Optional' },
]);

export const outputSchema = amlMonitoringItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const tags = tagsOf(this.getNodeParameter('tags', itemIndex, ''));
	const request = validateInput.call(
		this,
		amlMonitoringRequestSchema,
		{
			isSubscribed: this.getNodeParameter('isSubscribed', itemIndex, false),
			amlCheck: subjectOf.call(this, itemIndex),
			tags: Array.isArray(tags) && tags.length === 0 ? undefined : tags,
		},
		{
			...subjectLabels('amlCheck.'),
			...SETTINGS_LABELS,
		},
		itemIndex,
	);
	// Not repeated after a failure that may have reached the service: each monitoring is a new one.
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/aml/monitorings/',
		body: request,
		itemIndex,
	});
	return [{ json: monitoringItem(response.body) }];
}
