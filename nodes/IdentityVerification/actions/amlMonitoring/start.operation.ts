import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { amlMonitoringStartStopItemSchema } from '../../../shared/contract';
import { startOrStop, startStopFields } from './startStop';

export const option: INodePropertyOptions = {
	name: 'Start',
	value: 'start',
	description:
		'Start a stopped AML monitoring again by its Monitoring ID, with an optional comment: daily screening resumes; outputs the monitoring and the comment',
	action: 'Start an AML monitoring',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['start'] } };

export const description = updateDisplayOptions(
	displayOptions,
	startStopFields('Customer relationship resumed'),
);

export const outputSchema = amlMonitoringStartStopItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await startOrStop.call(this, itemIndex, 'start');
}
