/**
 * Saved workflows keep working after an upgrade (README, "Versioning"). test/fixtures/saved-version-1
 * holds the example workflows as users saved them with `typeVersion: 1` (the examples themselves,
 * workflows/, move on to the current version); each of their Identity Verification nodes runs
 * through n8n's engine as version 1 with the parameters it was saved with. When a node gains a
 * version, this file must pass unchanged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';

import { IdentityVerification } from '../../../nodes/IdentityVerification/IdentityVerification.node';
import { IdentityVerificationTrigger } from '../../../nodes/IdentityVerificationTrigger/IdentityVerificationTrigger.node';
import { runNode, sandboxCredentials } from '../../harness/index.cjs';
import { startSandbox, type Sandbox } from '../../sandbox/index.cjs';

/** test/fixtures/saved-version-1 from `.build/test/nodes/IdentityVerification`. */
const SAVED_DIR = path.resolve(
	__dirname,
	'..',
	'..',
	'..',
	'..',
	'test',
	'fixtures',
	'saved-version-1',
);

interface SavedNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

/** workflows/, the example workflows users import, at the nodes' current versions. */
const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', '..', '..', 'workflows');

const nodesIn = (dir: string, type: string) =>
	readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
				nodes: SavedNode[];
			};
			return workflow.nodes
				.filter((node) => node.type === `n8n-nodes-identity-verification.${type}`)
				.map((node) => ({ file, ...node }));
		});
const savedNodes = (type: string) => nodesIn(SAVED_DIR, type);

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
	test('the saved workflows hold action nodes saved with version 1', () => {
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

describe('the example workflows (workflows/), at the versions they are saved with', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox();
		// An account with a verification: a list of the whole account (the retention purge's) has one.
		sb.kyc.createSession('customer-1');
	});
	afterAll(async () => {
		await sb?.close();
	});

	const actions = nodesIn(EXAMPLES_DIR, 'identityVerification');
	const triggers = nodesIn(EXAMPLES_DIR, 'identityVerificationTrigger');

	test('each node of this package is at a version its node offers', () => {
		const offered = {
			identityVerification: versions(new IdentityVerification().description),
			identityVerificationTrigger: versions(new IdentityVerificationTrigger().description),
		};
		expect(actions.length).toBeGreaterThan(0);
		expect(triggers.length).toBeGreaterThan(0);
		for (const node of actions) expect(offered.identityVerification).toContain(node.typeVersion);
		for (const node of triggers)
			expect(offered.identityVerificationTrigger).toContain(node.typeVersion);
	});

	// Nodes without expressions need nothing from the nodes before them; Wait for Result needs the
	// token created before it. The others run in the demo and the end-to-end tests, in their workflows.
	const standalone = actions.filter(
		(node) =>
			!JSON.stringify(node.parameters).includes('={{') &&
			node.parameters.operation !== 'waitForResult',
	);

	test.each(standalone.map((node) => [`${node.file}: ${node.name}`, node] as const))(
		'%s runs at its version with its saved parameters',
		async (_title, node) => {
			const result = await runNode({
				node: 'identityVerification',
				typeVersion: node.typeVersion,
				parameters: node.parameters,
				credentials: sandboxCredentials(sb),
			});
			expect(result.error).toBeUndefined();
			expect(result.items.length).toBeGreaterThan(0);
		},
	);
});
