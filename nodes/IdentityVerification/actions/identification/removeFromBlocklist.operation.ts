import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { blocklistParamsSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { segment } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';
import { BLOCKLIST_LABELS, blocklistField, scanRefField } from './common';
import { idOf } from '../../helpers/locator';

const properties: INodeProperties[] = [
	scanRefField('The scanRef of the verification to take off the blocklist'),
	blocklistField,
];

export const option: INodePropertyOptions = {
	name: 'Remove From Blocklist',
	value: 'removeFromBlocklist',
	description:
		'Take a verification (by scanRef) off a blocklist it was added to, for example after a wrong fraud decision',
	action: 'Remove a verification from a blocklist',
};

const displayOptions = {
	show: { resource: ['identification'], operation: ['removeFromBlocklist'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = z.object({
	scanRef: z.string(),
	blocklist: blocklistParamsSchema.shape.source,
	removed: z.boolean(),
});

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const params = validateInput.call(
		this,
		blocklistParamsSchema.omit({ reason: true }),
		{
			scanRef: idOf.call(this, 'scanRef', itemIndex),
			source: this.getNodeParameter('blocklist', itemIndex, 'SELFIE'),
		},
		BLOCKLIST_LABELS,
		itemIndex,
	);
	await apiRequest.call(this, 'apiKey', {
		method: 'DELETE',
		path: `/kyc/identifications/${segment(params.scanRef)}/blocklists/${params.source}/`,
		response: 'none',
		itemIndex,
		notFound: {
			message: `Not found (HTTP 404): this verification is not on the ${params.source} blocklist`,
			advice:
				'Check the Scan Reference and the Blocklist: the verification must have been added to that list (with Add to Blocklist or in the dashboard), from the account of this credential.',
		},
	});
	return [{ json: { scanRef: params.scanRef, blocklist: params.source, removed: true } }];
}
