import { demoWorkflows, OUTSIDE_SERVICES } from './examples.cjs';
import { answersOf, fieldsReadOf, reviewerFormOf, withStandIns } from './standins.cjs';
import { NODE_TYPES, type WorkflowNode } from './stack.cjs';

const OWN = new Set<string>(Object.values(NODE_TYPES));
const WAIT = 'n8n-nodes-base.wait';

type Connections = Record<string, { main?: Array<Array<{ node: string }>> }>;

/** The copy's connections with each reviewer's form taken out: what leads into it leads past it. */
function withoutReviewerForms(copy: { nodes: WorkflowNode[]; connections: unknown }): Connections {
	const forms = new Map(
		copy.nodes
			.filter((n) => n.type === WAIT)
			.map((n) => [n.name, (copy.connections as Connections)[n.name].main![0][0].node]),
	);
	const text = JSON.stringify(
		Object.fromEntries(
			Object.entries(copy.connections as Connections).filter(([from]) => !forms.has(from)),
		),
	);
	return JSON.parse(
		text.replace(/"node":"([^"]+)"/g, (m, to) =>
			forms.has(to) ? JSON.stringify({ node: forms.get(to) }).slice(1, -1) : m,
		),
	);
}

describe.each(demoWorkflows().map((w) => [w.file, w.workflow] as const))(
	"the demo's copy of %s",
	(_file, workflow) => {
		const copy = withStandIns(workflow);

		test('keeps every connection (a reviewer’s form in front of an approval), and every node of this package as it was', () => {
			expect(withoutReviewerForms(copy)).toEqual(workflow.connections);
			expect(copy.nodes.filter((n) => n.type !== WAIT).map((n) => n.name)).toEqual(
				workflow.nodes.map((n) => n.name),
			);
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
});

describe.each([
	['kyb-onboarding-with-slack-approval.json', 'Ask a reviewer on Slack', 'Approve', 'Deny'],
	[
		'aml-monitoring-alert-triage.json',
		'Ask the reviewer: stop or keep?',
		'Stop monitoring',
		'Keep monitoring',
	],
])('the approval of %s', (file, name, approve, deny) => {
	const w = demoWorkflows().find((x) => x.file === file)!;
	const original = w.workflow.nodes.find((n) => n.name === name)!;
	const copy = withStandIns(w.workflow);
	const form = copy.nodes.find((n) => n.name === reviewerFormOf(name))!;
	const answer = copy.nodes.find((n) => n.name === name)!;

	test('is asked in an n8n form: the same message, the same two answers, and a comment', () => {
		expect(answersOf(original)).toEqual({ approve, deny });
		expect(form).toMatchObject({
			type: WAIT,
			parameters: { resume: 'form', formDescription: original.parameters.message },
		});
		expect(form.webhookId).toMatch(/^[0-9a-f-]{36}$/);
		const fields = (form.parameters.formFields as { values: any[] }).values;
		expect(fields.map((f) => f.fieldLabel)).toEqual(['Decision', 'Comment']);
		expect(fields[0].fieldOptions.values).toEqual([{ option: approve }, { option: deny }]);
		expect(fields[0].requiredField).toBe(true);
	});

	test('is answered under the original’s name as Slack answers it (data.approved), so the routing after it is the same', () => {
		expect(answer).toMatchObject({ id: original.id, type: 'n8n-nodes-base.set' });
		expect(answer.parameters).toMatchObject({
			includeOtherFields: false,
			assignments: {
				assignments: [
					{
						name: 'data.approved',
						type: 'boolean',
						value: `={{ $json.Decision === ${JSON.stringify(approve)} }}`,
					},
					expect.objectContaining({ name: 'data.comment' }),
				],
			},
		});
		expect(copy.connections[name]).toEqual(w.workflow.connections[name]);
	});

	test('is the same form in every copy (its webhook path stays)', () => {
		const again = withStandIns(w.workflow).nodes.find((n) => n.name === reviewerFormOf(name))!;
		expect([again.id, again.webhookId]).toEqual([form.id, form.webhookId]);
	});
});
