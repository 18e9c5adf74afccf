import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { decisionSchema, verificationDataSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { scanRefField, scanRefOf } from './common';

const properties: INodeProperties[] = [
	{
		displayName:
			'For a verification that has finished, or whose webhook was missed. The provider asks not to poll it: results come by webhook, to the Identity Verification Trigger.',
		name: 'getDataNotice',
		type: 'notice',
		default: '',
	},
	scanRefField(
		'The scanRef of the verification, from Get Many, the Create Verification Token response or a webhook',
	),
	{
		displayName: 'Personal Data',
		name: 'personalData',
		type: 'options',
		default: 'include',
		options: [
			{
				name: 'Include',
				value: 'include',
				description:
					'Output everything the service read from the document: names, document number, birth date, address',
			},
			{
				name: 'Leave Out (Decision Only)',
				value: 'leaveOut',
				description:
					'Output only the references and the decision: scanRef, clientId, the status and check results, the document type. Names, document numbers, birth dates and addresses are never stored in n8n.',
			},
		],
		description:
			'Whether the item (and so every saved execution) keeps the personal data the service sends',
	},
];

/** Its entry in the Operation selector. */
export const option: INodePropertyOptions = {
	name: 'Get Data',
	value: 'getData',
	description:
		'Get what the service read from the document of one verification (names, document number, dates) by its scanRef; Personal Data: Leave Out keeps the decision only',
	action: 'Get the data of a verification',
};

const displayOptions = { show: { resource: ['identification'], operation: ['getData'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs, for n8n's schema preview (gulpfile.js writes it as JSON Schema). */
export const outputSchema = verificationDataSchema;

/**
 * What Leave Out keeps: the references and the decision, a list of fields that are about the
 * check and not the person. Any other field (and any the service adds later) is left out.
 */
const DECISION_FIELDS = [
	'scanRef',
	'clientId',
	'status',
	'final',
	'autoDocument',
	'autoFace',
	'manualDocument',
	'manualFace',
	'fraudTags',
	'mismatchTags',
	'docType',
	'manuallyDataChanged',
	'clientIpProxyRiskLevel',
];

/** The same of a `status` object: the decision the trigger's Leave Out keeps (the webhook's shape). */
const STATUS_FIELDS = Object.keys(decisionSchema.shape);

/** Only the named fields `object` has. */
function pick(object: IDataObject, fields: string[]): IDataObject {
	const kept: IDataObject = {};
	for (const field of fields) if (object[field] !== undefined) kept[field] = object[field];
	return kept;
}

/** The answer without personal data: the decision fields, a status object's decision fields. */
export function decisionOnly(data: IDataObject): IDataObject {
	const kept = pick(data, DECISION_FIELDS);
	if (isPlainObject(kept.status)) kept.status = pick(kept.status, STATUS_FIELDS);
	return kept;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const scanRef = scanRefOf.call(this, itemIndex);
	const response = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/api/v2/data',
		body: { scanRef },
		// Only reads: a failed answer is asked for again.
		repeatable: true,
		itemIndex,
	});
	const data: IDataObject = isPlainObject(response.body) ? response.body : {};
	const json = { scanRef, ...data };
	const leaveOut = this.getNodeParameter('personalData', itemIndex, 'include') === 'leaveOut';
	return [{ json: leaveOut ? decisionOnly(json) : json }];
}
