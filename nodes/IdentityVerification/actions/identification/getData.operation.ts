import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import {
	KYC_DOCUMENT_TYPES,
	RISK_LEVELS,
	decisionSchema,
	verificationDataSchema,
} from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { statusDecision, typedFields } from '../../../shared/typedFields';
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
					'Output only the references and the decision: scanRef, clientId, the status and check results, the document type, each only as one of the service’s values (free text is left out). Names, document numbers, birth dates and addresses are never stored in n8n. The Client ID stays as sent, as workflows find the customer by it: use one that is not an e-mail address.',
			},
		],
		description:
			'Whether the item (and so every saved execution) keeps the personal data the service sends',
	},
];

export const option: INodePropertyOptions = {
	name: 'Get Data',
	value: 'getData',
	description:
		'Get what the service read from the document of one verification (names, document number, dates) by its scanRef; Personal Data: Leave Out keeps the decision only',
	action: 'Get the data of a verification',
};

const displayOptions = { show: { resource: ['identification'], operation: ['getData'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = verificationDataSchema;

const decision = decisionSchema.shape;
const dataFields = verificationDataSchema.shape;

/**
 * What Leave Out keeps: the references and the decision, a list of fields that are about the check
 * and not the person, each only with a value of its type in the contract (the provider's words, true
 * or false, lists of its tags): free text or an object there could hold anyone's data. Any other
 * field (and any the service adds later) is left out. A `status` object keeps the decision the
 * trigger's Leave Out keeps.
 */
const DECISION_FIELDS = {
	scanRef: dataFields.scanRef,
	clientId: dataFields.clientId,
	status: z.union([decision.overall, decisionSchema]),
	final: z.boolean(),
	autoDocument: decision.autoDocument,
	autoFace: decision.autoFace,
	manualDocument: decision.manualDocument,
	manualFace: decision.manualFace,
	fraudTags: decision.fraudTags,
	mismatchTags: decision.mismatchTags,
	docType: z.enum(KYC_DOCUMENT_TYPES).nullable(),
	manuallyDataChanged: dataFields.manuallyDataChanged,
	clientIpProxyRiskLevel: z.enum(RISK_LEVELS).nullable(),
};

/** The answer without personal data: the decision fields, a status object's decision. */
export function decisionOnly(answer: IDataObject): IDataObject {
	const status = isPlainObject(answer.status) ? statusDecision(answer.status) : answer.status;
	return typedFields({ ...answer, status }, DECISION_FIELDS);
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
