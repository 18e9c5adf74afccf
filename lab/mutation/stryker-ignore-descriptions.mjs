// Stryker plugin for the lab's `npm run mutation` (see stryker.config.mjs): leaves the node and
// credential descriptions (what n8n's editor shows: display names, hints, option lists) and display
// text (messages and hints: any string with a space in it) out of mutation testing. They are wording,
// checked by the description tests and n8n's lint, not logic; strings the code acts on (methods,
// header names, event types, field names) have no spaces and stay in.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** Module constants that only hold editor descriptions (`properties`, `description`, ...). */
const DESCRIPTION_CONSTANTS = /^(properties|description|displayOptions|[A-Z_]*OPTIONS|RESOURCES?)$/;
/** Class fields of INodeType / ICredentialType that are pure description. */
const DESCRIPTION_FIELDS = new Set([
	'description',
	'properties',
	'name',
	'displayName',
	'icon',
	'documentationUrl',
]);

/** A string or template literal that reads as prose (has a space), e.g. an error message. */
function isDisplayText(node) {
	if (node.type === 'StringLiteral') return /\s/.test(node.value);
	if (node.type === 'TemplateLiteral')
		return node.quasis.some((q) => /\s/.test(q.value.cooked ?? ''));
	return false;
}

function nameOf(node) {
	return node?.type === 'Identifier' ? node.name : undefined;
}

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'descriptions', {
		shouldIgnore(path) {
			const { node } = path;
			if (node.type === 'VariableDeclarator' && DESCRIPTION_CONSTANTS.test(nameOf(node.id) ?? '')) {
				return 'editor description (display data, not logic)';
			}
			if (node.type === 'ClassProperty' && DESCRIPTION_FIELDS.has(nameOf(node.key))) {
				return 'editor description (display data, not logic)';
			}
			if (isDisplayText(node)) return 'display text (wording, not logic)';
			return undefined;
		},
	}),
];
