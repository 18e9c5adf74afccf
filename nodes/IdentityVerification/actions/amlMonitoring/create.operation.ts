import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { amlMonitoringItemSchema, amlMonitoringRequestSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { validateInput } from '../../helpers/validation';
import { subjectFields, subjectLabels, subjectOf } from '../aml/subject';
import { monitoringItem, TAGS_LABEL, tagsOf } from './common';

export const renewField: INodeProperties = {
	displayName: 'Renew Automatically',
	name: 'isSubscribed',
	type: 'boolean',
	default: false,
	description:
		'Whether the monitoring is extended by another year when it expires (this uses credits of your plan)',
};

export const tagsField: INodeProperties = {
	displayName: 'Tags',
	name: 'tags',
	type: 'string',
	default: '',
	placeholder: 'e.g. vip, onboarding-2026',
	description:
		'Up to 5 tags separated by commas, each at most 32 characters: Get Many can find the monitorings by them',
};

/** Its entry in the Operation selector. */
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

/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
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
			isSubscribed: { label: 'Renew Automatically', fix: 'Set it to true or false.' },
			tags: TAGS_LABEL,
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
