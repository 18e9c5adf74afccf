import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { verificationEventItemSchema } from '../../../shared/contract';
import { answerEvent, eventItem, personalDataProperty } from '../../../shared/webhook/events';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { scanRefField, scanRefOf } from './common';

const properties: INodeProperties[] = [
	{
		displayName:
			'For a verification whose webhook was missed: its result as the Identity Verification Trigger outputs it, so the same workflow can go on. It differs from a delivery in three ways: final is always false (the provider’s rule for this answer: do not rely on it), status.overall shows the automatic result while a manual review is pending (never REVIEWING: Get Status tells), and the kind is IDENTIFICATION (the answer does not say which webhook it stands for). The provider asks not to poll it.',
		name: 'getResultNotice',
		type: 'notice',
		default: '',
	},
	scanRefField(
		'The scanRef of the verification, from Get Many, the Create Verification Token response or a webhook',
	),
	// The trigger's own choice, for every version of this node: the operation is new in both.
	{ ...personalDataProperty('Output'), displayOptions: undefined },
];

export const option: INodePropertyOptions = {
	name: 'Get Result',
	value: 'getResult',
	description:
		'Get the whole result of one verification by its scanRef, as the trigger’s item (kind IDENTIFICATION; final is always false here), so a missed webhook can re-enter its workflow',
	action: 'Get the result of a verification',
};

const displayOptions = { show: { resource: ['identification'], operation: ['getResult'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = verificationEventItemSchema;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const scanRef = scanRefOf.call(this, itemIndex);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/api/v2/full',
		body: { scanRef },
		// Only reads: a failed answer is asked for again.
		repeatable: true,
		itemIndex,
	});
	const body: IDataObject = isPlainObject(response.body) ? response.body : {};
	// The answer names no webhook kind: the body decides (IDENTIFICATION for a result).
	const event = answerEvent(body, undefined);
	event.scanRef ??= scanRef;
	const personalData = this.getNodeParameter('personalData', itemIndex, 'include') !== 'leaveOut';
	return [{ json: eventItem(event, { personalData }) as IDataObject }];
}
