/** What several Identification operations share: the Scan Reference, Max File Size, the blocklists. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { BLOCKLIST_SOURCES, scanRefRequestSchema } from '../../../shared/contract';
import { validateInput } from '../../helpers/validation';
import { idOf } from '../../helpers/locator';

/** The Scan Reference field but its description. */
const scanRefBase = {
	displayName: 'Scan Reference',
	name: 'scanRef',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3af8e5b2-5a7c-11ee-8c99-0242ac120002',
} satisfies Omit<INodeProperties, 'description'>;

/** The Scan Reference field; `description` says which verification it is and where it comes from. */
export function scanRefField(description: string): INodeProperties {
	return { ...scanRefBase, description };
}

/** What a message about the Scan Reference calls it and how to fix it. */
export const SCAN_REF_LABEL = {
	label: scanRefBase.displayName,
	fix: 'Enter the scanRef of the verification, from Get Many, the token response or a webhook.',
};

/** The item's Scan Reference, checked (not empty) before anything is sent. */
export function scanRefOf(this: IExecuteFunctions, itemIndex: number): string {
	const { scanRef } = validateInput.call(
		this,
		scanRefRequestSchema,
		{ scanRef: idOf.call(this, 'scanRef', itemIndex) },
		{ scanRef: SCAN_REF_LABEL },
		itemIndex,
	);
	return scanRef;
}

/** The blocklist of a verification's face, face on the document, or document data. */
export const blocklistField: INodeProperties = {
	displayName: 'Blocklist',
	name: 'blocklist',
	type: 'options',
	required: true,
	default: 'SELFIE',
	options: [
		{
			name: 'Selfie (Face)',
			value: 'SELFIE',
			description: 'The face in the selfie: a later verification with this face is suspected',
		},
		{
			name: 'Face on the Document',
			value: 'DOCUMENT',
			description:
				'The face on the identity document: a later document with this face is suspected',
		},
		{
			name: 'Document Data',
			value: 'DOCUMENT_INFO',
			description:
				'The name, birth date and document number read from the document: a later verification with the same data is suspected',
		},
	],
	description:
		'Which blocklist. Its match makes a later verification SUSPECTED (fraud tag Face_Blacklisted, Doc_Face_Blacklisted or Data_Blacklisted).',
};

/** The field labels of a blocklist request (Add to Blocklist adds its Reason). */
export const BLOCKLIST_LABELS = {
	scanRef: SCAN_REF_LABEL,
	source: {
		label: blocklistField.displayName,
		fix: `Choose one of the lists (${BLOCKLIST_SOURCES.join(', ')}).`,
	},
};
