// Stryker plugin for `npm run test:mutation` (see stryker.config.mjs): leaves the node and credential
// descriptions (what n8n's editor shows: display names, hints, option lists) out of mutation
// testing. They are data, checked by the description tests and n8n's lint, not logic.
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
			return undefined;
		},
	}),
];
