/**
 * Which ID fields become resource locators in version 2, and their modes: From List where the
 * service lists the thing (its OpenAPI files), By URL where its dashboard has a page for it, By ID
 * always. The operations' own fields stay text fields; `withLocators` adds each one's locator.
 */
import type { INodeProperties } from 'n8n-workflow';

import { idLocator } from '../helpers/locator';
import type { LocatorModes } from '../helpers/locator';

const LOCATORS: Record<string, LocatorModes> = {
	scanRef: {
		list: 'verificationSearch',
		searchable: true,
		url: {
			shape: 'uuid',
			what: 'a verification (its address holds the scanRef, a UUID)',
			placeholder: 'The address of the verification in the dashboard, with its scanRef',
		},
	},
	companyId: {
		list: 'companySearch',
		searchable: true,
		url: {
			shape: 'lastSegment',
			what: 'a company (its address ends with the company’s ID)',
			placeholder: 'The address of the company in the dashboard, ending with its ID',
		},
	},
	monitoringId: {
		list: 'monitoringSearch',
		searchable: true,
		url: {
			shape: 'uuid',
			what: 'an AML monitoring (its address holds the monitoring’s ID, a UUID)',
			placeholder: 'The address of the monitoring in the dashboard, with its ID',
		},
	},
	questionnaireId: { list: 'questionnaireSearch', searchable: true },
	formId: {
		list: 'formSearch',
		searchable: true,
		changes: {
			required: false,
			hint: 'Leave empty to submit the form of the form token (Authentication: Form Token or Form Token Credential)',
		},
	},
	documentId: { list: 'orderedDocumentSearch', searchable: true },
	// The service lists none of these: By ID only, as in version 1, mapped from the step before.
	checkId: {},
	profileId: {},
	verificationId: {},
	accountId: {},
};

/** What each list's search box finds, said under the field. */
const SEARCH_HINTS: Record<string, string> = {
	scanRef: 'From List: search by Client ID',
	companyId: 'From List: search by registration number',
	monitoringId: 'From List: search by name; monitorings in ALERT come first',
	documentId: 'From List: search by title; the newest orders come first',
};

/** An operation's fields with each ID field shown as a text field before version 2, a locator from it. */
export function withLocators(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const modes = LOCATORS[property.name];
		if (!modes || property.type !== 'string') return [property];
		return idLocator(property, { ...modes, searchHint: SEARCH_HINTS[property.name] });
	});
}
