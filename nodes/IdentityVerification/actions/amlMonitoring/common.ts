/** What the AML Monitoring operations share: the monitoring's ID, a 404's words, the item. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { amlMonitoringIdSchema } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { segment } from '../../helpers/response';
import { fieldLabels, splitList, validateInput } from '../../helpers/validation';
import { idOf } from '../../helpers/locator';

export const monitoringIdField: INodeProperties = {
	displayName: 'Monitoring ID',
	name: 'monitoringId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.monitoringId }}',
	hint: 'After another AML Monitoring step: {{ $json.monitoringId }}. After the trigger’s AML Monitoring Update event: {{ $json.body.monitoringId }}',
	description:
		'The ID of the AML monitoring (a UUID), as Create, Get Many and the dashboard show it',
};

export const MONITORING_ID_LABEL = {
	label: monitoringIdField.displayName,
	fix: 'Enter the monitoring ID, a UUID: monitoringId of another AML Monitoring step, or body.monitoringId of the AML Monitoring Update event.',
};

export const MONITORING_NOT_FOUND = {
	message: 'Not found (HTTP 404): the service has no AML monitoring with this Monitoring ID',
	advice:
		'Check the Monitoring ID (monitoringId of another AML Monitoring step, or body.monitoringId of the AML Monitoring Update event) and that it belongs to the account of this credential. A deleted monitoring is gone for good.',
};

/** The Monitoring ID of an item (checked before any request) and the monitoring's path. */
export function monitoringOf(
	this: IExecuteFunctions,
	itemIndex: number,
): { monitoringId: string; path: string } {
	const { monitoringId } = validateInput.call(
		this,
		amlMonitoringIdSchema,
		{ monitoringId: idOf.call(this, 'monitoringId', itemIndex) },
		{ monitoringId: MONITORING_ID_LABEL },
		itemIndex,
	);
	return { monitoringId, path: `/aml/monitorings/${segment(monitoringId)}/` };
}

/**
 * A monitoring as an item: its ID by the name the next steps read (`monitoringId`) and its status
 * first, then the monitoring as the service sent it.
 */
export function monitoringItem(body: unknown): IDataObject {
	const monitoring: IDataObject = isPlainObject(body) ? (body as IDataObject) : {};
	return { monitoringId: monitoring.id, status: monitoring.status ?? null, ...monitoring };
}

/**
 * Tags as the service takes them: a list, from `vip, onboarding` (a tag has no comma) or from a
 * list in an expression; empty text is no tag.
 */
export function tagsOf(value: unknown): unknown {
	return typeof value === 'string' ? splitList(value) : value;
}

/** The settings Create and Update share, and how their messages name them. */
export const renewField: INodeProperties = {
	displayName: 'Renew Automatically',
	name: 'isSubscribed',
	type: 'boolean',
	default: false,
	description:
		'Whether the monitoring is extended by another year when it expires (this uses credits of your plan)',
};

export const tagsField: INodeProperties = {
	displayName: 'Tags',
	name: 'tags',
	type: 'string',
	default: '',
	placeholder: 'e.g. vip, onboarding-2026',
	description:
		'Up to 5 tags separated by commas, each at most 32 characters: Get Many can find the monitorings by them',
};

export const SETTINGS_LABELS = fieldLabels([renewField, tagsField], {
	isSubscribed: 'Set it to true or false.',
	tags: 'Enter at most 5 tags separated by commas, each at most 32 characters.',
});
