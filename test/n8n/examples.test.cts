// What the demo makes of the example workflows (workflows/*.json): which it runs, which it only
// imports and why, the sandbox credentials it gives this package's nodes, and the routes a result
// took through a Switch.
import {
	demoStackOptions,
	demoWorkflows,
	exampleWorkflow,
	runsInDemo,
	withSandboxCredentials,
} from './examples.cjs';
import { CREDENTIALS, NODE_TYPES, routesTaken, switchOutputNames } from './stack.cjs';

const byFile = () => Object.fromEntries(demoWorkflows().map((w) => [w.file, w]));

test('the demo runs the examples that need only this package and n8n’s own nodes, and names what the others need', () => {
	const workflows = byFile();
	expect(
		Object.values(workflows)
			.filter(runsInDemo)
			.map((w) => w.file),
	).toEqual([
		'kyb-answers-then-submit.json',
		'onboarding-in-one-workflow.json',
		'proof-of-address-check-file.json',
	]);
	expect(
		Object.fromEntries(
			Object.values(workflows)
				.filter((w) => !runsInDemo(w))
				.map((w) => [w.file, w.needs]),
		),
	).toEqual({
		'abandonment-reminder.json': ['Google Sheets', 'HubSpot', 'e-mail (SMTP)'],
		'aml-monitoring-alert-triage.json': ['Slack'],
		'aml-screening-on-entry-and-monthly.json': ['Google Sheets', 'Slack'],
		'bank-transactions-on-connect.json': ['Google Sheets'],
		'kyb-onboarding-with-slack-approval.json': ['HubSpot', 'e-mail (SMTP)', 'Slack'],
		'kyb-company-events.json': ['Google Drive', 'HubSpot', 'Slack', 'e-mail (SMTP)'],
		'erasure-request-by-form.json': ['Google Sheets', 'e-mail (SMTP)'],
		'evidence-on-approval-to-drive.json': ['Google Drive'],
		'evidence-pack-per-customer.json': ['Google Drive'],
		'nightly-bank-transactions-to-sheets.json': ['Google Sheets'],
		'reupload-request-on-denied.json': ['HubSpot', 'e-mail (SMTP)'],
		'retention-purge.json': ['Google Sheets'],
		'reverification-on-document-expiry.json': ['HubSpot', 'e-mail (SMTP)'],
		'verification-link-by-email.json': ['e-mail (SMTP)'],
		'verification-results-to-slack-and-hubspot.json': ['HubSpot', 'Slack'],
		'verification-results-with-nightly-catch-up.json': ['HubSpot', 'Slack'],
	});
});

test('the demo imports every example and publishes those it runs that a webhook starts', () => {
	const options = demoStackOptions();
	expect((options.workflows as Array<{ id: string }>).map((w) => w.id)).toEqual(
		demoWorkflows().map((w) => w.workflow.id),
	);
	expect(options.publish).toEqual([exampleWorkflow('onboarding-in-one-workflow.json').id]);
});

test('each node of this package gets the sandbox credential its operation uses; other nodes and the file stay as they are', () => {
	const credentialOf = (file: string, name: string) =>
		withSandboxCredentials(exampleWorkflow(file)).nodes.find((n) => n.name === name)?.credentials;
	const ref = (which: keyof typeof CREDENTIALS) => ({
		[CREDENTIALS[which].type]: { id: CREDENTIALS[which].id, name: CREDENTIALS[which].name },
	});
	expect(credentialOf('onboarding-in-one-workflow.json', 'Create Verification Token')).toEqual(
		ref('api'),
	);
	expect(credentialOf('onboarding-in-one-workflow.json', 'Wait for the result')).toEqual(
		ref('webhookSigning'),
	);
	expect(credentialOf('onboarding-in-one-workflow.json', 'New customer signs up')).toBeUndefined();
	expect(
		credentialOf('verification-results-to-slack-and-hubspot.json', 'Identity Verification Trigger'),
	).toEqual(ref('webhookSigning'));
	expect(
		credentialOf('verification-results-to-slack-and-hubspot.json', 'Alert compliance on Slack'),
	).toBeUndefined();
	expect(credentialOf('kyb-answers-then-submit.json', 'Submit Form')).toEqual(ref('kybFormToken'));
	const file = exampleWorkflow('kyb-answers-then-submit.json');
	withSandboxCredentials(file);
	expect(file.nodes.filter((n) => n.credentials !== undefined)).toEqual([]);
	expect(file.nodes.some((n) => n.type === NODE_TYPES.action)).toBe(true);
});

test('the route a result took is the output of the Switch, by the name the workflow gives it', () => {
	const route = exampleWorkflow('onboarding-in-one-workflow.json').nodes.find(
		(n) => n.name === 'Route the result',
	)!;
	expect(switchOutputNames(route)).toEqual([
		'Approved',
		'Denied',
		'Timed out',
		'Other (suspected, expired, cancelled, …)',
	]);
	const ran = (main: Array<unknown[] | null>) => ({ 'Route the result': [{ data: { main } }] });
	expect(routesTaken(route, ran([[], [], [{ json: {} }], []]))).toEqual(['Timed out']);
	expect(routesTaken(route, ran([null, [], [], [{ json: {} }]]))).toEqual([
		'Other (suspected, expired, cancelled, …)',
	]);
	expect(routesTaken(route, {})).toEqual([]);
});
