/** The demo's copies of the examples: what the demo changes beyond the stand-ins. */
import { runCheck, wholeListCheck } from '../sandbox/amlLists.cjs';
import { demoCopies, startsOf, webhookSample } from './copies.cjs';

describe("the demo's copies", () => {
	const copies = demoCopies();
	const scheduled = copies.filter((w) =>
		w.workflow.nodes.some((n) => n.type === 'n8n-nodes-base.scheduleTrigger'),
	);

	test('a schedule is switched off (a published copy would fire it on its own), and the copy still starts by hand', () => {
		expect(scheduled.length).toBeGreaterThan(0);
		for (const w of scheduled) {
			for (const n of w.workflow.nodes.filter(
				(node) => node.type === 'n8n-nodes-base.scheduleTrigger',
			)) {
				expect((n as { disabled?: boolean }).disabled).toBe(true);
			}
			expect(startsOf(w)).toContain('manual');
		}
	});

	test('every copy keeps its runs, so the executions list shows each', () => {
		for (const w of copies)
			expect(w.workflow.settings).toMatchObject({ saveDataSuccessExecution: 'all' });
	});

	test('the customer a CRM posts to a copy is one the sandbox’s AML lists hit, date of birth included, so the screening’s hit branch runs', () => {
		const { customerId, fullName, dateOfBirth, nationality } = webhookSample('c-1');
		const check = runCheck(
			wholeListCheck({
				clientId: customerId,
				userType: 'PERSON',
				input: { fullName, dateOfBirth, nationality },
			}),
		);
		expect(check.overallStatus).toBe('FLAGS_FOUND');
	});
});
