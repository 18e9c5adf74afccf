/**
 * The ID fields of version 2: each a resource locator (From List, By URL, By ID), as n8n's own nodes
 * ask for a record. Versions 1 and 1.1 keep their text fields, so saved workflows keep their values;
 * both fields have the same name, and the operations read either with `idOf`.
 */
import type { IExecuteFunctions, ILoadOptionsFunctions, INodeProperties } from 'n8n-workflow';

/** The first version of the action node whose ID fields are resource locators. */
export const LOCATOR_VERSION = 2;

/** `show` conditions of a field of versions 1 and 1.1 only, and of one from version 2. */
export const textVersions = { '@version': [{ _cnd: { lt: LOCATOR_VERSION } }] };
export const locatorVersions = { '@version': [{ _cnd: { gte: LOCATOR_VERSION } }] };

/** A UUID anywhere in a link: the dashboard's pages name a verification or monitoring by it. */
const UUID_IN_URL =
	'^https?://.*?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})';
/** The last segment of a link's path (a company's page ends with its ID). */
const LAST_SEGMENT_OF_URL = '^https?://[^/?#]+/(?:[^?#]*/)?([^/?#]+)/?(?:[?#].*)?$';

/** How a link in the By URL mode gives the ID. */
type UrlShape = 'uuid' | 'lastSegment';

export interface LocatorModes {
	/** The `methods.listSearch` function of the From List mode; none: the service lists none. */
	list?: string;
	/** Whether the list can be searched. */
	searchable?: boolean;
	/** What the search box finds, shown under the list. */
	searchHint?: string;
	/** The By URL mode, where the service's dashboard has a page for the thing. */
	url?: { shape: UrlShape; placeholder: string; what: string };
	/** What version 2 changes beyond the modes (Form ID: optional, as a form token finds it). */
	changes?: Pick<INodeProperties, 'required' | 'hint'>;
}

/** The By URL mode's regexes: what the link must be, and the ID taken from it. */
function urlRegexes(shape: UrlShape): { whole: string; id: string } {
	const id = shape === 'uuid' ? UUID_IN_URL : LAST_SEGMENT_OF_URL;
	// n8n checks the whole text against a mode's validation regex (`^…$`), not just its start.
	return { whole: shape === 'uuid' ? `${id}.*` : id, id };
}

/**
 * A text ID field (as versions 1 and 1.1 show it) and its resource locator for version 2, with the
 * same name, description and hint: the By ID mode keeps the placeholder, so the same values fit.
 */
export function idLocator(field: INodeProperties, modes: LocatorModes): INodeProperties[] {
	const { placeholder, displayOptions, ...shared } = field;
	const text: INodeProperties = {
		...field,
		displayOptions: { ...displayOptions, show: { ...displayOptions?.show, ...textVersions } },
	};
	const url = urlRegexes(modes.url?.shape ?? 'uuid');
	const locator: INodeProperties = {
		...shared,
		type: 'resourceLocator',
		// An optional ID (Wait for Result's) is left empty on purpose: By ID shows that it is.
		default: { mode: modes.list && field.required ? 'list' : 'id', value: '' },
		// Every mode is written here, where n8n's linter reads modes; those the ID lacks go below.
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: modes.list, searchable: modes.searchable === true },
				// n8n shows a mode's hint instead of the field's: keep the field's (Delete's warning).
				hint: [modes.searchHint, modes.changes?.hint ?? field.hint].filter(Boolean).join('. '),
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: modes.url?.placeholder,
				validation: [
					{
						type: 'regex',
						properties: { regex: url.whole, errorMessage: `Not a link to ${modes.url?.what}` },
					},
				],
				extractValue: { type: 'regex', regex: url.id },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder },
		],
		displayOptions: { ...displayOptions, show: { ...displayOptions?.show, ...locatorVersions } },
		...modes.changes,
	};
	locator.modes = locator.modes?.filter(
		(mode) => mode.name === 'id' || (mode.name === 'list' ? !!modes.list : !!modes.url),
	);
	return [text, locator];
}

/**
 * An ID field's value in any version: the text of versions 1 and 1.1, or the locator's ID (read from
 * the link in By URL) in version 2. Expressions are resolved in every mode.
 */
export function idOf(this: IExecuteFunctions, name: string, itemIndex: number): unknown {
	return this.getNodeParameter(name, itemIndex, '', { extractValue: true });
}

/** An ID field's value while the editor loads a list (the company of the questionnaires). */
export function currentIdOf(this: ILoadOptionsFunctions, name: string): unknown {
	return this.getCurrentNodeParameter(name, { extractValue: true });
}
