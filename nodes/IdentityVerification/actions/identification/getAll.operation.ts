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
	identificationListItemSchema,
	identificationListParamsSchema,
} from '../../../shared/contract';
import { listPages } from '../../helpers/pagination';
import { simplifyItems, simplifyOption } from '../../helpers/simplify';
import { listReadOf, pageOptions, returnAllFields } from '../../helpers/listRead';
import { locatorVersions, LOCATOR_VERSION, textVersions } from '../../helpers/locator';
import { fieldLabels, validateInput } from '../../helpers/validation';

/** The Client ID of versions 1 and 1.1: required, as a saved workflow with an empty one was refused. */
const clientIdField: INodeProperties = {
	displayName: 'Client ID',
	name: 'clientId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. customer-12345',
	description:
		'The Client ID the verifications were created with (the Client ID of Create Verification Token, or clientId of a webhook): every verification of this client is listed',
	displayOptions: { show: textVersions },
};

const properties: INodeProperties[] = [
	clientIdField,
	// From version 2 it may be empty: the service then lists the whole account (kyc.yaml: optional).
	{
		...clientIdField,
		required: false,
		hint: 'Leave empty to list every verification of the account (newest first): use Limit, or Return All for all of them',
		displayOptions: { show: locatorVersions },
	},
	...returnAllFields,
	...simplifyOption(
		'Whether to return one flat row per verification (scanRef, clientId, status, suspected) instead of the answer as the service sends it',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...pageOptions('verifications')],
	},
];

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	description:
		'List the verifications of one client (by Client ID), or of the whole account: scanRef, status and whether it was suspected, one item each',
	action: 'Get many verifications of a client',
};

const displayOptions = { show: { resource: ['identification'], operation: ['getAll'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** The item it outputs, for n8n's schema preview: a verification of the list (Simplify adds clientId). */
export const outputSchema = identificationListItemSchema.extend({
	clientId: z.string().optional(),
});

const FIELD_LABELS = fieldLabels(properties, {
	clientId:
		'Enter the Client ID the verifications were created with: without it the service would list the verifications of every client.',
});

/** What Simplify keeps of a verification, with the Client ID it was listed for. */
const SIMPLIFIED_FIELDS = ['scanRef', 'clientId', 'status', 'suspected'];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const clientId = this.getNodeParameter('clientId', itemIndex, '');
	const wholeAccount = clientId === '' && this.getNode().typeVersion >= LOCATOR_VERSION;
	const params = wholeAccount
		? { clientId: undefined }
		: validateInput.call(
				this,
				identificationListParamsSchema,
				{ clientId },
				FIELD_LABELS,
				itemIndex,
			);
	const read = listReadOf.call(this, itemIndex);
	const verifications = await listPages.call(this, {
		path: '/kyc/identifications/',
		itemsName: 'verifications',
		qs: wholeAccount ? {} : { clientId: params.clientId },
		...read,
		itemIndex,
	});
	const items = verifications.map((verification) => ({ json: verification as IDataObject }));
	if (this.getNodeParameter('simplify', itemIndex, false) !== true) return items;
	const withClient = items.map(({ json }) => ({ json: { ...json, clientId: params.clientId } }));
	return simplifyItems(withClient, SIMPLIFIED_FIELDS);
}
