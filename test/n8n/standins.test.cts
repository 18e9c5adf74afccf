import { demoWorkflows, OUTSIDE_SERVICES } from './examples.cjs';
import { fieldsReadOf, withStandIns } from './standins.cjs';
import { NODE_TYPES } from './stack.cjs';

const OWN = new Set<string>(Object.values(NODE_TYPES));

describe.each(demoWorkflows().map((w) => [w.file, w.workflow] as const))(
	"the demo's copy of %s",
	(_file, workflow) => {
		const copy = withStandIns(workflow);

		test('keeps every connection, and every node of this package as it was', () => {
			expect(copy.connections).toEqual(workflow.connections);
			expect(copy.nodes.map((n) => n.name)).toEqual(workflow.nodes.map((n) => n.name));
			expect(copy.nodes.filter((n) => OWN.has(n.type))).toEqual(
				workflow.nodes.filter((n) => OWN.has(n.type)),
			);
		});

		test('has no node of an outside service left but Send Email, which sends to the mailbox', () => {
			for (const node of copy.nodes.filter((n) => n.type in OUTSIDE_SERVICES)) {
				expect(node.type).toBe('n8n-nodes-base.emailSend');
				expect(node.credentials).toEqual({
					smtp: { id: 'idvSandboxMailbox', name: 'Sandbox mailbox (SMTP)' },
				});
			}
		});
	},
);

test('a stand-in of a read gives the fields the example reads of it', () => {
	const w = demoWorkflows().find((x) => x.file === 'kyb-onboarding-with-slack-approval.json')!;
	const deals = w.workflow.nodes.find((n) => n.name === 'Find deals waiting for KYB')!;
	expect(fieldsReadOf(w.workflow, deals).sort()).toEqual([
		'id',
		'properties.dealname',
		'properties.kyb_contact_email',
	]);
	const approval = withStandIns(w.workflow).nodes.find(
		(n) => n.name === 'Ask a reviewer on Slack',
	)!;
	expect(approval.parameters.assignments).toEqual({
		assignments: [expect.objectContaining({ name: 'data.approved', value: true })],
	});
});
