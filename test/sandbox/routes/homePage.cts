/**
 * The sandbox's own pages, for someone trying the demo in a browser: the home page (`GET /`: what the
 * sandbox is, its credentials, where results go, the AML test names and what each produces) and the
 * deliveries page (`/__sandbox/deliveries`, the dashboard's "Recently sent": each delivery with its
 * answer and a Resend button, which sends the same signed bytes again).
 */
import { amlTestNames } from '../amlLists.cjs';
import { SANDBOX_EVENT_TYPES } from '../bodies.cjs';
import type { SandboxCore } from '../core.cjs';
import type { Reply } from '../http.cjs';
import {
	answerOf,
	DELIVERIES_PAGE,
	deliveriesHtml,
	escapeHtml,
	firstAnswers,
	formOf,
	page,
} from '../pages.cjs';
import type { Route } from '../router.cjs';
import { SEED } from '../seed.cjs';
import { nameOf } from './amlMonitorings.cjs';

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;

/** The AML test names as a table: screen one with AML Check → Create. */
function amlNamesTable(): string {
	const rows = amlTestNames()
		.map(
			(n) =>
				`<tr><td>${escapeHtml(n.name)}</td><td>${n.userType === 'PERSON' ? 'Person' : 'Company'}</td><td>${escapeHtml(n.produces)}</td></tr>`,
		)
		.join('');
	return `<table><tr><th>Name</th><th>Screen as</th><th>What the check answers</th></tr>${rows}</table>`;
}

/** The kinds sent to their own addresses (each to every one listed), as a list. */
function ownReceivers(urlsByKind: Record<string, string[]>): string {
	const rows = Object.entries(urlsByKind).map(
		([kind, urls]) => `<li>${code(kind)}: ${urls.map(code).join(', ')}</li>`,
	);
	return rows.length > 0
		? `, except these kinds, each sent to every address beside it:<ul>${rows.join('')}</ul>`
		: '.';
}

function whereResultsGo(core: SandboxCore): string {
	const config = core.webhooks.describe();
	const configured = config
		? `The sandbox sends every webhook, signed with the webhook signing key, to ${code(config.url)}${ownReceivers(config.urlsByKind)}`
		: 'The sandbox was given no address to send results to.';
	return (
		`<p>${configured} A verification token with a <i>Callback URL</i> (Additional Fields) ` +
		'also gets its own results there, signed the same way: a trigger’s Test URL, for example.</p>'
	);
}

function homePage(core: SandboxCore): Reply {
	const c = core.credentials;
	const prefix = core.webhooks.headerPrefix;
	return page(
		200,
		'Identity verification sandbox',
		'<p>A stand-in for the identity verification service, on this computer: nothing here reaches the real service, and every name and document is made up.</p>' +
			'<h2>Credentials</h2><ul>' +
			`<li>Identity Verification API: Base URL ${code(core.url)}, API Key ${code(c.apiKey)}, API Secret ${code(c.apiSecret)}</li>` +
			`<li>KYB form token: ${code(c.kybFormToken)}</li>` +
			`<li>Webhook signing key: ${code(c.signingKey)} (headers ${code(`${prefix}-Event-Type`)}, ${code(`${prefix}-Signature`)})</li></ul>` +
			`<h2>Where results go</h2>${whereResultsGo(core)}` +
			`<p><a href="${DELIVERIES_PAGE}">Deliveries</a>: every webhook sent, the answer it got, and Resend.</p>` +
			'<h2>Pages of the flow</h2><ul>' +
			'<li>A verification: the link of Create Verification Token (its <code>verificationUrl</code>) opens the sandbox’s verification page, where you finish it as approved, denied or suspected, expire it now, or cancel it.</li>' +
			'<li>A company (KYB): in the demo, the <code>formUrl</code> of Create Session opens the sandbox’s KYB form, where you fill in the company and its owners and submit it.</li></ul>' +
			`<h2>AML test names</h2><p>Screen these with AML Check → Create (or an AML Monitoring):</p>${amlNamesTable()}` +
			'<h2>Seeded data</h2><ul>' +
			`<li>Bank verification ${code(SEED.bank.verificationId)}, account ${code(SEED.bank.accountId)}</li>` +
			`<li>AML check ${code(SEED.aml.checkId)}, profile ${code(SEED.aml.profileId)}, monitoring ${code(SEED.aml.monitoringId)}</li>` +
			`<li>KYB company ${code(SEED.kyb.companyId)}, questionnaire ${code(SEED.kyb.questionnaireId)}, form ${code(SEED.kyb.formId)}</li>` +
			`<li>Proof of address: ${escapeHtml(SEED.poa.name)}, ${escapeHtml(SEED.poa.address)}</li></ul>`,
	);
}

/** The time of day in UTC: the list is of what was sent while trying the demo. */
const time = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** GET /__sandbox/deliveries: newest first, each with its answer and a Resend button. */
export function deliveriesPage(core: SandboxCore): Reply {
	const rows = [...core.webhooks.log]
		.reverse()
		.map(
			(d) =>
				`<tr><td>${time(d.createdAt)}</td><td>${escapeHtml(d.eventType)}</td><td>${code(d.url)}</td>` +
				`<td>${escapeHtml(d.status)}: ${escapeHtml(answerOf(d))}</td>` +
				`<td><form method="post" action="${DELIVERIES_PAGE}/${encodeURIComponent(d.id)}/resend">` +
				'<button type="submit">Resend</button></form></td></tr>',
		)
		.join('');
	const table = rows
		? `<table><tr><th>Sent (UTC)</th><th>Event</th><th>To</th><th>Answer</th><th></th></tr>${rows}</table>`
		: '<p>Nothing was sent yet. Finish a verification on its page, or submit a company’s KYB form.</p>';
	const kinds = SANDBOX_EVENT_TYPES.map(
		(kind) => `<option value="${escapeHtml(kind)}">${escapeHtml(kind)}</option>`,
	).join('');
	// The dashboard's test notification: an event of a kind with its sample body, signed as any other.
	const sendSample =
		`<form method="post" action="${DELIVERIES_PAGE}/send"><p>Send a sample event: ` +
		`<select name="kind">${kinds}</select> <button type="submit">Send</button> ` +
		'<small>to where that kind goes (above), with the sandbox’s sample body</small></p></form>';
	const screen = screenForm(core);
	return page(
		200,
		'Deliveries',
		'<p>Every webhook the sandbox sent, newest first, as the dashboard’s “Recently sent”. ' +
			'Resend sends the same signed bytes again, as a new delivery: a real signed test delivery for a trigger.</p>' +
			`${whereResultsGo(core)}${table}${sendSample}${screen}<p><a href="/">The sandbox’s home page</a></p>`,
	);
}

/** POST /__sandbox/deliveries/{id}/resend from the page: where it went and the answer. */
export async function resendPage(core: SandboxCore, id: string): Promise<Reply> {
	if (!core.webhooks.log.some((d) => d.id === id))
		return page(
			404,
			'Delivery not found',
			`<p><a href="${DELIVERIES_PAGE}">Back to the deliveries</a></p>`,
		);
	return await sentPage(core, 'Delivery resent', () => core.webhooks.resend(id));
}

/** What a page's button sent: the deliveries it made, each with its receiver's first answer. */
async function sentPage(
	core: SandboxCore,
	title: string,
	send: () => Promise<unknown>,
): Promise<Reply> {
	const before = core.webhooks.log.length;
	send().catch(() => undefined);
	const deliveries = core.webhooks.log.slice(before);
	await firstAnswers(deliveries);
	return page(200, title, deliveriesHtml(deliveries));
}

/** POST /__sandbox/deliveries/send from the page: a sample event of the kind chosen, and its answer. */
export async function sendSamplePage(core: SandboxCore, rawBody: Buffer): Promise<Reply> {
	const kind = formOf(rawBody).get('kind') ?? '';
	const known = SANDBOX_EVENT_TYPES.find((type) => type === kind);
	if (!known)
		return page(
			400,
			'Unknown event kind',
			`<p><a href="${DELIVERIES_PAGE}">Back to the deliveries</a></p>`,
		);
	return await sentPage(core, 'Sample event sent', () => core.webhooks.send(known));
}

/** A monitoring's daily screening, as the service runs it each day: AML_MONITORING with what it finds. */
function screenForm(core: SandboxCore): string {
	const options = core.aml.monitorings
		.list({})
		.filter((r) => r.status !== 'STOPPED')
		.map(
			(r) =>
				`<option value="${escapeHtml(r.id)}">${escapeHtml(nameOf(r.subject))} (${escapeHtml(r.status)})</option>`,
		)
		.join('');
	if (!options) return '';
	return (
		`<form method="post" action="${DELIVERIES_PAGE}/screen"><p>Run an AML monitoring’s daily screening: ` +
		`<select name="monitoring">${options}</select> <button type="submit">Screen now</button> ` +
		'<small>sends AML_MONITORING (ALERT when the lists hit its subject)</small></p></form>'
	);
}

/** POST /__sandbox/deliveries/screen from the page: the monitoring chosen is screened now. */
export async function screenPage(core: SandboxCore, rawBody: Buffer): Promise<Reply> {
	const id = formOf(rawBody).get('monitoring') ?? '';
	const record = core.aml.monitorings.get(id);
	if (!record || record.status === 'STOPPED')
		return page(
			404,
			'No such monitoring running',
			`<p><a href="${DELIVERIES_PAGE}">Back to the deliveries</a></p>`,
		);
	return await sentPage(core, 'Monitoring screened', () => core.screenAmlMonitoring(record.id));
}

export const homePageRoutes: Route[] = [
	{ method: 'GET', pattern: '/', auth: 'public', handler: (_req, core) => homePage(core) },
];
