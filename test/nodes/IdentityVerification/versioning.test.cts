/**
 * Saved workflows keep working after an upgrade (README, "Versioning"). The example workflows are
 * saved as the editor saves them, with `typeVersion: 1`; each of their Identity Verification nodes
 * runs through n8n's engine as version 1 with the parameters it was saved with. When the node gains
 * a version (`version: [1, 1.1]`), this file must pass unchanged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';
import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import { runNode, sandboxCredentials } from '../../harness/index.cjs';
import { startSandbox, type Sandbox } from '../../sandbox/index.cjs';

/** test/demo/workflows from `.build/test/nodes/IdentityVerification`. */
const SAVED_DIR = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'demo', 'workflows');

interface SavedNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

const savedNodes = (type: string) =>
	readdirSync(SAVED_DIR)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(readFileSync(path.join(SAVED_DIR, file), 'utf8')) as {
				nodes: SavedNode[];
			};
			return workflow.nodes
				.filter((node) => node.type === `n8n-nodes-identity-verification.${type}`)
				.map((node) => ({ file, ...node }));
		});

const versions = (description: INodeTypeDescription) =>
	Array.isArray(description.version) ? description.version : [description.version];

describe('workflows saved with version 1', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox();
	});
	afterAll(async () => {
		await sb?.close();
	});

	test('both nodes still offer version 1', () => {
		expect(versions(new IdentityVerification().description)).toContain(1);
		expect(versions(new IdentityVerificationTrigger().description)).toContain(1);
	});

	const actions = savedNodes('identityVerification');
	test('the example workflows hold action nodes saved with version 1', () => {
		expect(actions.length).toBeGreaterThan(0);
		for (const node of actions) expect(node.typeVersion).toBe(1);
	});

	// Nodes whose parameters read another node of their workflow (`$('…')`), or that send the result
	// to a later Wait for Result step, need that workflow around them: the end-to-end tests run those.
	const standalone = actions.filter((node) => {
		const saved = JSON.stringify(node.parameters);
		return !saved.includes("$('") && !saved.includes('"sendResultToWorkflow":true');
	});

	test.each(standalone.map((node) => [`${node.file}: ${node.name}`, node] as const))(
		'%s runs as version 1 with its saved parameters',
		async (_title, node) => {
			const result = await runNode({
				node: 'identityVerification',
				typeVersion: node.typeVersion,
				parameters: node.parameters,
				credentials: sandboxCredentials(sb),
				input: [{ json: { customerId: 'customer-1' } }],
			});
			expect(result.error).toBeUndefined();
			expect(result.items.length).toBeGreaterThan(0);
		},
	);

	test('the saved trigger (version 1) still offers every event kind it selected', () => {
		const events = new IdentityVerificationTrigger().description.properties.find(
			(property) => property.name === 'events',
		);
		const offered = (events?.options ?? []).map((option) =>
			'value' in option ? option.value : '',
		);
		const triggers = savedNodes('identityVerificationTrigger');
		expect(triggers.length).toBeGreaterThan(0);
		for (const node of triggers) {
			expect(node.typeVersion).toBe(1);
			for (const event of node.parameters.events as string[]) expect(offered).toContain(event);
		}
	});
});
