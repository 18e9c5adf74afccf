/**
 * Finding the nodes: n8n's nodes panel searches a node's codex aliases (its .node.json), so a
 * user who types the provider's name or the product finds it. The panel shows both nodes as one
 * entry with the trigger's description (also under "What happens next?", where a user adds an
 * action), so both share one description that says what both do; the trigger's documentation link
 * opens its own README section.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';
import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';

// Tests run compiled from .build/test/nodes/IdentityVerificationTrigger/; the sources are at the root.
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
type Codex = { alias: string[]; resources: { primaryDocumentation: Array<{ url: string }> } };
const codexOf = (node: string) => JSON.parse(read(`nodes/${node}/${node}.node.json`)) as Codex;
const codex = codexOf('IdentityVerificationTrigger');

test.each([['IdentityVerificationTrigger'], ['IdentityVerification']])(
	'%s: the aliases hold the provider’s name and the products a user searches for',
	(node) => {
		// n8n's panel merges the trigger into the action node's entry and searches that entry's
		// aliases (editor-ui generateMergedNodesAndActions): both nodes need them.
		expect(codexOf(node).alias).toEqual(
			expect.arrayContaining(['iDenfy', 'Idenfy', 'KYC', 'KYB', 'AML']),
		);
	},
);

test('both nodes say what both do (the panel shows the trigger’s description for their entry), and its documentation link opens its README section', () => {
	const trigger = new IdentityVerificationTrigger().description.description;
	expect(trigger).toBe(new IdentityVerification().description.description);
	expect(trigger).toMatch(
		/^Verify people and companies .* and start workflows on their results the moment they come \(n8n needs a public URL for that\)$/,
	);
	const [{ url }] = codex.resources.primaryDocumentation;
	expect(url).toMatch(/#identity-verification-trigger$/);
});

// What a compliance lead types for the day's jobs: erasure, screening, monitoring, company checks.
test.each([
	'erasure',
	'GDPR',
	'delete personal data',
	'right to be forgotten',
	'sanctions',
	'PEP screening',
	'AML monitoring',
	'company verification',
])('the nodes panel finds Identity Verification by "%s": an alias holds those words', (words) => {
	const aliases = codexOf('IdentityVerification').alias.map((alias) => alias.toLowerCase());
	expect(aliases.some((alias) => alias.includes(words.toLowerCase()))).toBe(true);
});
