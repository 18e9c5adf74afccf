import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { DELETED_STATUSES } from '../../../shared/contract';
import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest } from '../../transport';
import { scanRefField, scanRefOf } from './common';

const properties: INodeProperties[] = [
	{
		displayName:
			'Deletes the document and face photos, the data read from the document, names and other personal data of this verification at the service. This cannot be undone: download what you must keep first.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	scanRefField(
		'The scanRef of the verification whose personal data to delete, from Get Many, the Create Verification Token response or a webhook',
	),
];

export const option: INodePropertyOptions = {
	name: 'Delete Personal Data',
	value: 'deletePersonalData',
	description:
		'Permanently delete the photos and personal data of one verification at the service by its scanRef (an erasure request); one already deleted is reported as such',
	action: 'Delete the personal data of a verification',
};

const displayOptions = {
	show: { resource: ['identification'], operation: ['deletePersonalData'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = z.object({
	scanRef: z.string(),
	deleted: z.boolean(),
	alreadyDeleted: z.boolean(),
	deletedAt: z.string().optional(),
	status: z.string().optional(),
});

/** Refusals after which the verification may have been deleted before (the service publishes none). */
const REFUSALS = ['400', '404', '409', '410', '422'];

/**
 * The verification's status when a refused deletion may be one of data deleted before (what the
 * service answers then is not published): DELETED or EXPIRED-DELETED says so. Undefined otherwise.
 */
async function deletedStatus(
	this: IExecuteFunctions,
	error: unknown,
	scanRef: string,
	itemIndex: number,
): Promise<string | undefined> {
	if (!(error instanceof NodeApiError) || !REFUSALS.includes(String(error.httpCode))) return;
	try {
		const answer = await apiRequest.call(this, 'apiKey', {
			method: 'POST',
			path: '/api/v2/status',
			body: { scanRef },
			repeatable: true,
			itemIndex,
		});
		const status = isPlainObject(answer.body) ? answer.body.status : undefined;
		return typeof status === 'string' && DELETED_STATUSES.includes(status) ? status : undefined;
	} catch {
		// The refusal itself is what the user is told.
		return undefined;
	}
}

/** "Token has not expired yet." (the deletion page) in words that say when it can be deleted. */
function worded(error: unknown): unknown {
	if (!(error instanceof NodeApiError) || !/token has not expired/i.test(error.message))
		return error;
	error.message = `The personal data of this verification cannot be deleted yet: its verification link has not expired (HTTP ${error.httpCode})`;
	error.description =
		'The service deletes a verification’s data only once the link the person was sent (its token) has expired: at the Expiry Time it was created with, 1 hour unless set, at most 30 days. Until then the person can still use it, and Get Status shows ACTIVE. Run this step again after that time; a verification already deleted is then reported as such, so running it again is safe.';
	return error;
}

/** The first item of each scanRef in this node run, by the run's execute context. */
const firstItems = new WeakMap<IExecuteFunctions, Map<string, number>>();

/**
 * Refuses a scanRef an earlier item of the run named: its data is gone or being deleted, and a
 * second "already deleted" would hide an expression that gave every item the first item's scanRef.
 */
function assertFirstOfRun(this: IExecuteFunctions, scanRef: string, itemIndex: number): void {
	let seen = firstItems.get(this);
	if (!seen) firstItems.set(this, (seen = new Map()));
	const earlier = seen.get(scanRef);
	if (earlier === undefined) {
		seen.set(scanRef, itemIndex);
		return;
	}
	throw new NodeOperationError(
		this.getNode(),
		`Scan Reference: item ${itemIndex} names the same verification as item ${earlier} (${scanRef}); nothing was deleted for it`,
		{
			itemIndex,
			description: `Each item should name its own verification. If the Scan Reference is an expression, check that it reads the item's own field ({{ $json.scanRef }} or .item), not the first item's (.first()). Item numbers count from 0, as in n8n's item index.`,
		},
	);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const scanRef = scanRefOf.call(this, itemIndex);
	assertFirstOfRun.call(this, scanRef, itemIndex);
	try {
		await apiRequest.call(this, 'apiKey', {
			method: 'POST',
			path: '/api/v2/delete',
			body: { scanRef },
			// "no message body -- just a response with a 200 status code" (the deletion page)
			response: 'none',
			// Deleting again deletes nothing more: a lost answer is asked for again.
			repeatable: true,
			itemIndex,
		});
	} catch (error) {
		const status = await deletedStatus.call(this, error, scanRef, itemIndex);
		if (status) return [{ json: { scanRef, deleted: true, alreadyDeleted: true, status } }];
		throw worded(error);
	}
	const deletedAt = new Date().toISOString();
	return [{ json: { scanRef, deleted: true, alreadyDeleted: false, deletedAt } }];
}
