// End-to-end: `npm run demo -- --headless` (test/demo/demo.cts) runs every example of workflows/ in
// real n8n, with stand-ins for the outside services and e-mail to the sandbox's mailbox, and says
// that every one of them ran; a Slack approval is an n8n form it answers as the reviewer, each way,
// and a KYB info request's e-mailed link opens the sandbox's form.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../n8n/runtime.cjs';

const examples = readdirSync(path.join(ROOT, 'workflows')).filter((f) => f.endsWith('.json'));

test('--headless runs every example workflow and reports each as run', () => {
	const demo = path.join(__dirname, '..', 'demo', 'demo.cjs');
	// The default ports when free, else random ones (another demo may hold them).
	const res = spawnSync(process.execPath, [demo, '--headless'], {
		cwd: ROOT,
		encoding: 'utf8',
		timeout: 1_500_000,
	});
	const output = `${res.stdout}${res.stderr}`;
	expect({ status: res.status, tail: output.slice(-4000) }).toEqual({
		status: 0,
		tail: expect.stringContaining(
			`${examples.length} of ${examples.length} example workflows run in n8n`,
		),
	});
	expect(output).toMatch(/[1-9]\d* e-mails reached the sandbox's mailbox/);
	expect(output).not.toContain('FAILED');
	// The reviewer's form, answered each way: the service holds what the reviewer chose.
	expect(output).toMatch(/\(COMPANY_SUBMIT, the reviewer chose Approve → .*: APPROVED\)/);
	expect(output).toMatch(/\(COMPANY_SUBMIT, the reviewer chose Deny → .*: DENIED\)/);
	expect(output).toMatch(/\(AML_MONITORING, the reviewer chose Stop monitoring → .*STOPPED\)/);
	expect(output).toMatch(/\(AML_MONITORING, the reviewer chose Keep monitoring → .*ALERT\)/);
	// The interactive demo's routing: one expired verification reaches every example listening to it.
	expect(output).toMatch(/success: Every example that listens to IDENTIFICATION_EXPIRED \([2-9]\)/);
	// The info request's e-mailed link opens the sandbox's own KYB form, not the provider's.
	expect(output).toContain(
		'(COMPANY_INFO_REQUEST → E-mail the company its form link; its form link answers 200)',
	);
}, 1_600_000);
