import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { amlMonitoringStartStopItemSchema } from '../../../shared/contract';
import { startOrStop, startStopFields } from './startStop';

export const option: INodePropertyOptions = {
	name: 'Stop',
	value: 'stop',
	description:
		'Stop an AML monitoring by its Monitoring ID, with an optional comment: no daily screening until started again; outputs the monitoring and the comment',
	action: 'Stop an AML monitoring',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['stop'] } };

export const description = updateDisplayOptions(
	displayOptions,
	startStopFields('Reviewed: customer offboarded'),
);

export const outputSchema = amlMonitoringStartStopItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await startOrStop.call(this, itemIndex, 'stop');
}
