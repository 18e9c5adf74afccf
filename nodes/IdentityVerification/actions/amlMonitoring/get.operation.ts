import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { amlMonitoringItemSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { MONITORING_NOT_FOUND, monitoringIdField, monitoringItem, monitoringOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	description:
		'Get an AML monitoring: its status (ACTIVE, ALERT, PENDING, STOPPED), expiry and the latest check with its hits',
	action: 'Get an AML monitoring',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, [monitoringIdField]);

export const outputSchema = amlMonitoringItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { path } = monitoringOf.call(this, itemIndex);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'GET',
		path,
		itemIndex,
		notFound: MONITORING_NOT_FOUND,
	});
	return [{ json: monitoringItem(response.body) }];
}
