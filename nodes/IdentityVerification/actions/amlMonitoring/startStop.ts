/** Start and Stop: the same request to `/aml/monitorings/{id}/{start|stop}/`, with an optional comment. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { amlMonitoringStartStopSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { validateInput } from '../../helpers/validation';
import { MONITORING_NOT_FOUND, monitoringIdField, monitoringItem, monitoringOf } from './common';

const COMMENT_LABEL = 'Comment';

export function startStopFields(why: string): INodeProperties[] {
	return [
		monitoringIdField,
		{
			displayName: COMMENT_LABEL,
			name: 'comment',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			placeholder: `e.g. ${why}`,
			hint: 'Optional, at most 10,000 characters: kept with the monitoring for your audit trail',
			description: 'Why it was done, in your words',
		},
	];
}

export async function startOrStop(
	this: IExecuteFunctions,
	itemIndex: number,
	action: 'start' | 'stop',
): Promise<INodeExecutionData[]> {
	const { path } = monitoringOf.call(this, itemIndex);
	const comment = this.getNodeParameter('comment', itemIndex, '');
	const body = validateInput.call(
		this,
		amlMonitoringStartStopSchema,
		{ comment: comment === '' ? undefined : comment },
		{ comment: { label: COMMENT_LABEL, fix: 'Shorten the comment to at most 10,000 characters.' } },
		itemIndex,
	);
	// Not repeated after a failure that may have reached the service: the comment would be kept twice.
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `${path}${action}/`,
		body,
		itemIndex,
		notFound: MONITORING_NOT_FOUND,
	});
	// The service keeps the comment but does not answer with it: shown as sent.
	const item = monitoringItem(response.body);
	if (body.comment !== undefined) item.comment = body.comment;
	return [{ json: item }];
}
