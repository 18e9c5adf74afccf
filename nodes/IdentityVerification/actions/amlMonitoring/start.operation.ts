import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { amlMonitoringItemSchema } from '../../../shared/contract';
import { startOrStop, startStopFields } from './startStop';

export const option: INodePropertyOptions = {
	name: 'Start',
	value: 'start',
	description:
		'Start a stopped AML monitoring again by its Monitoring ID, with an optional comment: daily screening resumes; outputs the monitoring',
	action: 'Start an AML monitoring',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['start'] } };

export const description = updateDisplayOptions(
	displayOptions,
	startStopFields('Customer relationship resumed'),
);

export const outputSchema = amlMonitoringItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await startOrStop.call(this, itemIndex, 'start');
}
