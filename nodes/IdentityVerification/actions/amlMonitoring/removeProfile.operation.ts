import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { amlMonitoringProfileSchema } from '../../../shared/contract';
import { apiRequest } from '../../transport';
import { segment } from '../../helpers/response';
import { validateInput } from '../../helpers/validation';
import { PROFILE_ID_LABEL } from '../amlCheck/common';
import { MONITORING_ID_LABEL, monitoringIdField } from './common';
import { idOf } from '../../helpers/locator';

export const option: INodePropertyOptions = {
	name: 'Remove Profile',
	value: 'removeProfile',
	description:
		'Remove a hit (by its profile ID) from an AML monitoring once a reviewer cleared it as a false positive; outputs removed: true',
	action: 'Remove a profile from an AML monitoring',
};

const displayOptions = { show: { resource: ['amlMonitoring'], operation: ['removeProfile'] } };

export const description = updateDisplayOptions(displayOptions, [
	monitoringIdField,
	{
		displayName: 'Profile ID',
		name: 'profileId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.resourceId }}',
		hint: 'The resourceId of the hit, from the monitoring’s amlCheck.amlCheck list (Get)',
		description: 'The ID of the profile the reviewer cleared',
	},
]);

export const outputSchema = z.object({
	monitoringId: z.string(),
	profileId: z.string(),
	removed: z.boolean(),
});

const NOT_FOUND = {
	message:
		'Not found (HTTP 404): the service has no profile with this Profile ID in the AML monitoring with this Monitoring ID',
	advice:
		'Check both IDs: the Monitoring ID, and the Profile ID (the resourceId of one of the monitoring’s hits, from Get). A profile already removed is not found again.',
};

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { monitoringId, profileId } = validateInput.call(
		this,
		amlMonitoringProfileSchema,
		{
			monitoringId: idOf.call(this, 'monitoringId', itemIndex),
			profileId: idOf.call(this, 'profileId', itemIndex),
		},
		{ monitoringId: MONITORING_ID_LABEL, profileId: PROFILE_ID_LABEL },
		itemIndex,
	);
	// The service answers 204 without a body: the item says what was done.
	await apiRequest.call(this, 'apiKey', {
		method: 'DELETE',
		path: `/aml/monitorings/${segment(monitoringId)}/profiles/${segment(profileId)}/`,
		response: 'none',
		itemIndex,
		notFound: NOT_FOUND,
	});
	return [{ json: { monitoringId, profileId, removed: true } }];
}
