import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { blocklistEntrySchema, blocklistParamsSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { segment } from '../../helpers/response';
import { fieldLabels, validateInput } from '../../helpers/validation';
import { BLOCKLIST_LABELS, blocklistField, scanRefField } from './common';
import { idOf } from '../../helpers/locator';

const properties: INodeProperties[] = [
	scanRefField(
		'The scanRef of the verification a reviewer confirmed as fraud, from Get Many or a webhook',
	),
	blocklistField,
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		placeholder: 'e.g. Forged document, confirmed by the compliance team',
		description:
			'Why it is blocklisted, shown with the entry in the dashboard: keep it short but specific. Not sent when empty.',
	},
];

export const option: INodePropertyOptions = {
	name: 'Add to Blocklist',
	value: 'addToBlocklist',
	description:
		'Add a fraudulent verification (by scanRef) to a blocklist (selfie face, face on the document, or document data), so the service flags a repeat attempt as SUSPECTED',
	action: 'Add a verification to a blocklist',
};

const displayOptions = { show: { resource: ['identification'], operation: ['addToBlocklist'] } };

const FIELD_LABELS = {
	...BLOCKLIST_LABELS,
	...fieldLabels(properties, { reason: 'Enter the reason as text, or leave it empty.' }),
};

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs: the service's entry, with the verification and the list it is on. */
export const outputSchema = blocklistEntrySchema.extend({
	scanRef: blocklistParamsSchema.shape.scanRef,
	blocklist: blocklistParamsSchema.shape.source,
});

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const reason = this.getNodeParameter('reason', itemIndex, '');
	const params = validateInput.call(
		this,
		blocklistParamsSchema,
		{
			scanRef: idOf.call(this, 'scanRef', itemIndex),
			source: this.getNodeParameter('blocklist', itemIndex, 'SELFIE'),
			reason: reason === '' ? undefined : reason,
		},
		FIELD_LABELS,
		itemIndex,
	);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: `/kyc/identifications/${segment(params.scanRef)}/blocklists/${params.source}/`,
		// The body is optional (kyc.yaml): none without a reason.
		body: params.reason === undefined ? undefined : { reason: params.reason },
		itemIndex,
	});
	const entry: IDataObject = isPlainObject(response.body) ? response.body : {};
	return [{ json: { ...entry, scanRef: params.scanRef, blocklist: params.source } }];
}
