// poll: one poll of the Polling Trigger over 10,000 verifications and 1,000 companies in which 20
// results changed since the last poll (15 verifications finished among the newest 1,000, 5
// companies submitted), in this process against the sandbox (harness/poll.cts). Its requests and
// time beside the ideal: one request per page that holds a change, plus the one read per result.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

import { pollTrigger, sandboxCredentials } from '../../test/harness/index.cjs';
import { startSandbox, type Sandbox } from '../../test/sandbox/index.cjs';
import { log, median, now, round, type Options, type PollFigures } from './common.cjs';

const VERIFICATIONS = 10_000;
const COMPANIES = 1_000;
const FINISHED = 15;
const SUBMITTED = 5;
const PER_PAGE = 100;

/** The newest `count` of the list, `every` apart (newest first, as the lists answer). */
function spread(all: string[], count: number, every: number): string[] {
	return Array.from({ length: count }, (_, i) => all[all.length - 1 - i * every]);
}

async function submitCompany(sb: Sandbox): Promise<void> {
	const res = await fetch(`${sb.url}/kyb/tokens/`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${Buffer.from(`${sb.credentials.apiKey}:${sb.credentials.apiSecret}`).toString('base64')}`,
			'content-type': 'application/json',
		},
		body: JSON.stringify({ tokenType: 'FORM', clientId: 'bench' }),
	});
	const { tokenString } = (await res.json()) as { tokenString: string };
	await sb.kyb.submitSession(tokenString);
}

/** One measured round: a baseline poll, the changes, then the poll that finds them. */
async function round1(sb: Sandbox, scanRefs: string[]) {
	const staticData: IDataObject = {};
	const parameters = {
		events: ['verificationResult', 'companySubmitted', 'companyReviewed'],
		options: { pagesPerPoll: 10 },
	};
	const credentials = { identityVerificationApi: sandboxCredentials(sb).identityVerificationApi };
	await pollTrigger({ parameters, credentials, staticData });
	const changed = spread(scanRefs, FINISHED, 60);
	for (const scanRef of changed)
		await sb.kyc.autoFinish(scanRef, { final: true, overall: 'APPROVED' });
	for (let i = 0; i < SUBMITTED; i++) await submitCompany(sb);
	sb.resetLog();
	const t0 = now();
	const items = (await pollTrigger({ parameters, credentials, staticData })) ?? [];
	const ms = now() - t0;
	const requests = sb.count();
	// Pages holding a change: the verifications' (newest first, PER_PAGE each) and the companies' first.
	const pages = new Set(
		changed.map((s) => Math.floor((scanRefs.length - 1 - scanRefs.indexOf(s)) / PER_PAGE)),
	);
	const ideal = pages.size + 1 + FINISHED;
	return { ms, requests, ideal, emitted: items.length };
}

export async function benchPoll(opts: Options, details: string[]): Promise<PollFigures> {
	const rounds = opts.quick ? 2 : 3;
	// Finishing a verification sends its webhook: a receiver that takes it.
	const receiver = createServer((req, res) =>
		req.resume().on('end', () => res.writeHead(200).end()),
	);
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
	const figures: Array<Awaited<ReturnType<typeof round1>>> = [];
	for (let r = 0; r < rounds; r++) {
		const sb = await startSandbox();
		sb.webhooks.configure({ url: webhookUrl, retryDelaysMs: [] });
		try {
			const scanRefs = Array.from(
				{ length: VERIFICATIONS },
				(_, i) => sb.kyc.createSession(`bench-${i}`).scanRef,
			);
			for (let i = 0; i < COMPANIES; i++) sb.kyb.addCompany();
			figures.push(await round1(sb, scanRefs));
		} finally {
			await sb.close();
		}
		const last = figures[figures.length - 1];
		log(
			`poll round ${r + 1}: ${last.requests} requests (ideal ${last.ideal}), ${round(last.ms, 1)} ms, ${last.emitted} items`,
		);
	}
	receiver.close();
	const requests = median(figures.map((f) => f.requests));
	const ideal = median(figures.map((f) => f.ideal));
	details.push(
		`poll: ${VERIFICATIONS} verifications, ${COMPANIES} companies, ${FINISHED + SUBMITTED} changes; Pages per Poll 10`,
	);
	return {
		requests,
		idealRequests: ideal,
		toIdeal: round(requests / ideal),
		ms: round(median(figures.map((f) => f.ms)), 1),
		changesSeen: median(figures.map((f) => f.emitted)),
	};
}
