/** The headless demo as the reviewer: the form it finds, where it posts, and how it reads the route. */
import { demoCopies } from './copies.cjs';
import {
	approvalAfter,
	approvedRoute,
	formUrlOf,
	reviewerFormOf,
	reviewerGuide,
	reviewFields,
} from './review.cjs';

const copyOf = (file: string) => demoCopies().find((w) => w.file === file)!;
const kyb = copyOf('kyb-onboarding-with-slack-approval.json');

test('each example whose Slack step waits for an approval has a reviewer’s form in its copy, and no other', () => {
	const withForm = demoCopies()
		.filter((w) => reviewerFormOf(w))
		.map((w) => w.file);
	expect(withForm).toEqual([
		'aml-monitoring-alert-triage.json',
		'kyb-onboarding-with-slack-approval.json',
	]);
});

test('the form leads to the approval of the original’s name, with Slack’s two answers', () => {
	expect(approvalAfter(kyb, reviewerFormOf(kyb)!)).toEqual({
		name: 'Ask a reviewer on Slack',
		approve: 'Approve',
		deny: 'Deny',
	});
});

test('the form’s address: the signed one n8n 2 keeps in the Wait node’s run, else /form-waiting/<execution ID> (n8n 1)', () => {
	const signed = 'http://127.0.0.1:5678/form-waiting/7?signature=abc';
	const runData = { 'Ask (n8n Form)': [{ metadata: { resumeFormUrl: signed } }] };
	expect(
		formUrlOf('http://n8n', { id: '7', data: { resultData: { runData } } }, 'Ask (n8n Form)'),
	).toBe(signed);
	expect(
		formUrlOf('http://n8n', { id: '7', data: { resultData: { runData: {} } } }, 'Ask (n8n Form)'),
	).toBe('http://n8n/form-waiting/7');
});

test('the decision and the comment are posted as the form page names its fields', () => {
	const fields = reviewFields('Deny', 'Owner not verified');
	expect([...fields.entries()]).toEqual([
		['field-0', 'Deny'],
		['field-1', 'Owner not verified'],
	]);
});

test('the route is the approved one when the If after the approval passed its item to "true"', () => {
	const ran = (trueItems: number, falseItems: number) => ({
		'Approved?': [
			{
				data: {
					main: [
						Array.from({ length: trueItems }, () => ({})),
						Array.from({ length: falseItems }, () => ({})),
					],
				},
			},
		],
	});
	expect(approvedRoute(kyb, 'Ask a reviewer on Slack', ran(1, 0))).toBe(true);
	expect(approvedRoute(kyb, 'Ask a reviewer on Slack', ran(0, 1))).toBe(false);
	expect(approvedRoute(kyb, 'Ask a reviewer on Slack', {})).toBe(false);
});

test('the interactive demo says where the reviewer opens the form and what to choose; nothing for an example without one', () => {
	const guide = reviewerGuide('http://127.0.0.1:5678', kyb);
	expect(guide).toContain(`http://127.0.0.1:5678/workflow/${kyb.workflow.id}/executions`);
	expect(guide).toContain('"Ask a reviewer on Slack (n8n Form)"');
	expect(guide).toContain('choose Approve or Deny');
	expect(reviewerGuide('http://n8n', copyOf('kyb-company-events.json'))).toBe('');
});
