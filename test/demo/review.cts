// The reviewer's approval in the demo: an example's Slack send-and-wait is, in the demo's copy, an n8n
// form the execution waits on (../n8n/standins.cts). The headless demo plays the reviewer: it starts
// the example once per answer (a new company submits its KYB form; the ALERT monitoring is screened),
// finds the waiting execution's form address and submits the form as a browser does.
import type { DemoWorkflow } from '../n8n/examples.cjs';
import type { Stack } from '../n8n/stack.cjs';
import type { Delivery } from '../sandbox/index.cjs';

type Node = DemoWorkflow['workflow']['nodes'][number];
type RunData = Record<string, Array<{ metadata?: { resumeFormUrl?: string }; data?: any }>>;

/** The copy's reviewer form: the Wait node "On Form Submitted" standing in for an approval. */
export function reviewerFormOf(w: DemoWorkflow): Node | undefined {
	return w.workflow.nodes.find(
		(n) => n.type === 'n8n-nodes-base.wait' && n.parameters.resume === 'form',
	);
}

/** The node the form leads to (of the original approval's name), and the form's two answers. */
export function approvalAfter(
	w: DemoWorkflow,
	form: Node,
): { name: string; approve: string; deny: string } {
	const outputs = w.workflow.connections[form.name] as { main: Array<Array<{ node: string }>> };
	const fields = (form.parameters.formFields as { values: any[] }).values;
	const [approve, deny] = (fields[0].fieldOptions.values as Array<{ option: string }>).map(
		(o) => o.option,
	);
	return { name: outputs.main[0][0].node, approve, deny };
}

/**
 * Where the reviewer answers in the interactive demo (an example whose approval is an n8n form):
 * n8n's editor shows a waiting execution's form link in the waiting node's output.
 */
export function reviewerGuide(n8nUrl: string, w: DemoWorkflow): string {
	const form = reviewerFormOf(w);
	if (!form) return '';
	const { approve, deny } = approvalAfter(w, form);
	return (
		`\n        The run then waits for the reviewer: open the waiting execution on ${n8nUrl}/workflow/${w.workflow.id}/executions, ` +
		`double-click "${form.name}" and open the link after "Execution will continue when form is submitted on"; choose ${approve} or ${deny}.`
	);
}

/**
 * Where a waiting execution's form opens, as n8n's editor shows it: n8n 2 signs it (`?signature=`,
 * the Wait node's metadata has the whole address); n8n 1 has `/form-waiting/<execution ID>`.
 */
export function formUrlOf(
	n8nUrl: string,
	execution: { id: string; data?: { resultData?: { runData?: RunData } } },
	formName: string,
): string {
	const runs = execution.data?.resultData?.runData?.[formName] ?? [];
	const signed = runs.at(-1)?.metadata?.resumeFormUrl;
	return signed ?? `${n8nUrl}/form-waiting/${execution.id}`;
}

/** The form's fields as its page posts them (`field-<n>`): the decision and a comment. */
export function reviewFields(decision: string, comment: string): FormData {
	const form = new FormData();
	form.append('field-0', decision);
	form.append('field-1', comment);
	return form;
}

/** Whether the run went the approved way: the If after the approval passed its item to "true". */
export function approvedRoute(w: DemoWorkflow, approvalName: string, runData: RunData): boolean {
	const outputs = w.workflow.connections[approvalName] as
		| { main: Array<Array<{ node: string }>> }
		| undefined;
	const decision = outputs?.main[0]?.[0]?.node;
	const main = (decision && runData[decision]?.at(-1)?.data?.main) ?? [];
	return (main[0]?.length ?? 0) > 0;
}

/** One start of the example for the reviewer: what sends its event, and what the service holds after. */
interface Subject {
	start(): Promise<Delivery>;
	outcome(): string;
}

/**
 * A new company for each review (COMPANY_SUBMIT: a session's form submitted on the sandbox, as from
 * the e-mailed link); for AML_MONITORING the demo's monitoring in ALERT, screened again.
 */
export function reviewSubject(
	stack: Stack,
	event: string,
	n: number,
	amlAlertMonitoringId: string,
): Subject {
	const { sandbox } = stack;
	if (event === 'COMPANY_SUBMIT') {
		let companyId = '';
		return {
			start: async () => {
				const token = sandbox.kyb.createSession(`demo-deal-${n}`);
				const submitted = await sandbox.kyb.submitSession(token, {
					companyName: `UAB Demo Review ${n}`,
				});
				companyId = submitted.companyId;
				if (!submitted.delivery) throw new Error('the sandbox sent no COMPANY_SUBMIT');
				return submitted.delivery;
			},
			outcome: () => `company ${companyId}: ${sandbox.kyb.company(companyId)?.approvalStatus}`,
		};
	}
	if (event === 'AML_MONITORING')
		return {
			start: () => sandbox.aml.screenMonitoring(amlAlertMonitoringId),
			outcome: () => `monitoring ${sandbox.aml.monitoring(amlAlertMonitoringId)?.status}`,
		};
	return { start: () => sandbox.webhooks.send(event as never), outcome: () => '' };
}
