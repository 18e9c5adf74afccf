import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { apiRequest } from '../../transport';
import { MONITORING_NOT_FOUND, monitoringIdField, monitoringOf } from './common';

export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	description:
		'Delete an AML monitoring for good by its Monitoring ID (outputs deleted: true); to pause it instead, use Stop',
	action: 'Delete an AML monitoring',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['delete'] } };

export const description = updateDisplayOptions(displayOptions, [monitoringIdField]);

export const outputSchema = z.object({ monitoringId: z.string(), deleted: z.boolean() });

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { monitoringId, path } = monitoringOf.call(this, itemIndex);
	// The service answers 204 without a body: the item says what was done.
	await apiRequest.call(this, 'apiKey', {
		method: 'DELETE',
		path,
		response: 'none',
		itemIndex,
		notFound: MONITORING_NOT_FOUND,
	});
	return [{ json: { monitoringId, deleted: true } }];
}
