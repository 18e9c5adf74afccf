/**
 * The sandbox's HTML pages, for someone trying the demo in a browser: the building blocks (an
 * escaped page, a form button with what it does) and how a page reports the webhooks it sent: where
 * each went and what the receiver answered, waiting for the first answer as the dashboard would.
 */
import type { Reply } from './http.cjs';
import type { Delivery } from './types.cjs';

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

const STYLE =
	'body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;line-height:1.5}' +
	'button{font-size:1rem;padding:.5rem 1rem;margin:0 .5rem .25rem 0;cursor:pointer}code{font-size:.9em}' +
	'table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}' +
	'.choice{margin:0 0 .75rem}.choice small{display:block;color:#555}label{display:block;margin:.25rem 0}' +
	'input[type=text],input:not([type]){font-size:1rem;padding:.25rem;width:18rem}';

/** An HTML page; `body` is already escaped HTML. */
export function page(status: number, title: string, body: string): Reply {
	const html =
		'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		`<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
		`<body><h1>${escapeHtml(title)}</h1>${body}</body></html>\n`;
	return {
		status,
		headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
		buffer: Buffer.from(html, 'utf8'),
	};
}

/** A button of a form, with a line saying what pressing it does. */
export function choice(name: string, value: string, label: string, what: string): string {
	return (
		`<div class="choice"><button type="submit" name="${escapeHtml(name)}" value="${escapeHtml(value)}">` +
		`${escapeHtml(label)}</button><small>${escapeHtml(what)}</small></div>`
	);
}

/** The form fields of a page's form (`application/x-www-form-urlencoded`, as a browser posts it). */
export function formOf(rawBody: Buffer): URLSearchParams {
	return new URLSearchParams(rawBody.toString('utf8'));
}

/** The sandbox's KYB form, in place of the provider's hosted one (kyb.ui.idenfy.com/welcome). */
export const KYB_FORM_PATH = '/kyb-ui/welcome';

/** The link a KYB session's token opens, on the address the client used. */
export function kybFormUrlOf(origin: string, tokenString: string): string {
	return `${origin}${KYB_FORM_PATH}?authToken=${encodeURIComponent(tokenString)}`;
}

/** The address of the deliveries page (the dashboard's "Recently sent"). */
export const DELIVERIES_PAGE = '/__sandbox/deliveries';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until every delivery has its first answer (or gave up), at most `maxMs`: a page then shows
 * what the receiver said. Retries go on in the background.
 */
export async function firstAnswers(deliveries: Delivery[], maxMs = 12_000): Promise<void> {
	const deadline = Date.now() + maxMs;
	while (
		deliveries.some((d) => d.status === 'pending' && d.attempts.length === 0) &&
		Date.now() < deadline
	)
		await sleep(20);
}

/** What the receiver answered to a delivery, in words. */
export function answerOf(delivery: Delivery): string {
	const last = delivery.attempts[delivery.attempts.length - 1];
	if (!last) return 'no answer yet';
	const tries = delivery.attempts.length > 1 ? ` (attempt ${delivery.attempts.length})` : '';
	if (last.statusCode === 0) return `no answer: ${last.error ?? 'unreachable'}${tries}`;
	const ok = last.statusCode >= 200 && last.statusCode < 300;
	return `answered HTTP ${last.statusCode}${ok ? ' (accepted)' : ' (refused)'}${tries}`;
}

/** Each delivery: its kind, where it went and the answer; a line on retries when one failed. */
export function deliveriesHtml(deliveries: Delivery[]): string {
	const items = deliveries
		.map(
			(d) =>
				`<li>Sent the signed <b>${escapeHtml(d.eventType)}</b> webhook to <code>${escapeHtml(d.url)}</code>` +
				`${d.target !== undefined ? ' (the token’s Callback URL)' : ' (the address the sandbox was configured with)'}: ` +
				`${escapeHtml(answerOf(d))}.</li>`,
		)
		.join('');
	const failed = deliveries.some((d) => d.status !== 'delivered')
		? '<p>A delivery that was not accepted is tried again after 1 s, 5 s and 30 s, as the service does.</p>'
		: '';
	return (
		`<ul>${items}</ul>${failed}` +
		`<p>Every delivery, with a Resend button: <a href="${DELIVERIES_PAGE}">the deliveries page</a>.</p>`
	);
}

/** What a page says when there is no address to send to: before the choice (`will be`) or after. */
export function nothingSent(when: 'will be' | 'was'): string {
	return (
		`<p><b>No webhook ${when} sent:</b> the token has no Callback URL and the sandbox was not given an ` +
		'address to send results to. The result is recorded (Get Status shows it). To receive it in n8n, ' +
		'create the token with a <i>Callback URL</i> (Additional Fields) such as a trigger’s Test URL, or ' +
		'run <code>npm run demo</code>, which points the sandbox at its trigger workflow.</p>'
	);
}
