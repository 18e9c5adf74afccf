/**
 * `/api/v2/redirect?authToken=…`: the hosted verification page a token's `redirectUrl` (or a
 * re-upload's `sessionUrl`) opens in the person's browser, without credentials. The service's page
 * takes a document photo and a selfie; the sandbox's lets someone trying the demo choose the result,
 * which finishes the session and sends the matching webhook, as if the automated review had decided.
 */
import type { SandboxCore } from '../core.cjs';
import type { Reply, Req } from '../http.cjs';
import type { Route } from '../router.cjs';
import type { KycSession } from '../types.cjs';

const RESULTS = ['APPROVED', 'DENIED'] as const;
type Result = (typeof RESULTS)[number];

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

const STYLE =
	'body{font-family:system-ui,sans-serif;max-width:38rem;margin:3rem auto;padding:0 1rem;line-height:1.5}' +
	'button{font-size:1rem;padding:.5rem 1rem;margin:0 .5rem .5rem 0;cursor:pointer}code{font-size:.9em}';

/** An HTML page; `body` is already escaped HTML. */
function page(status: number, title: string, body: string): Reply {
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

function sessionLine(session: KycSession): string {
	return `<p>Client <b>${escapeHtml(session.clientId)}</b>, scan reference <code>${escapeHtml(session.scanRef)}</code>.</p>`;
}

const unknownLink = () =>
	page(
		404,
		'Verification link not found',
		'<p>This link is unknown or was replaced by a newer one (requesting information gives a new link).</p>',
	);

/** Whether the person can still act on the session: a new verification or a requested re-upload. */
function isOpen(session: KycSession): boolean {
	return session.state === 'IN_PROGRESS' || session.state === 'REUPLOAD_REQUESTED';
}

function endedPage(session: KycSession): Reply {
	return page(
		409,
		'This verification has ended',
		`${sessionLine(session)}<p>Its state is ${escapeHtml(session.state)}: there is nothing left to do here.</p>`,
	);
}

function choicePage(session: KycSession): Reply {
	const what =
		session.state === 'REUPLOAD_REQUESTED'
			? 'The service asked this person to upload their documents again.'
			: 'Here the real service would guide the person through a photo of their document and a selfie.';
	const token = escapeHtml(session.authToken);
	const form =
		'<form method="post" action="/api/v2/redirect">' +
		`<input type="hidden" name="authToken" value="${token}">` +
		'<button type="submit" name="result" value="APPROVED">Finish as approved</button>' +
		'<button type="submit" name="result" value="DENIED">Finish as denied</button></form>';
	return page(
		200,
		'Identity verification (sandbox)',
		`${sessionLine(session)}<p>${what} In the sandbox you choose the result; the matching webhook is sent at once.</p>${form}`,
	);
}

/** The address the service would send the person on to, from the token request. */
function nextUrl(session: KycSession, result: Result): string | undefined {
	const url = result === 'APPROVED' ? session.request.successUrl : session.request.errorUrl;
	return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : undefined;
}

/** Finishes the session with the chosen result; the deliveries go on in the background. */
function finish(core: SandboxCore, session: KycSession, result: Result): Promise<unknown> {
	if (session.state === 'REUPLOAD_REQUESTED')
		return core.kyc.userResubmits(session.scanRef, { needsReview: false, overall: result });
	return core.kyc.autoFinish(session.scanRef, { final: true, overall: result });
}

function finishedPage(session: KycSession, result: Result): Reply {
	const kind = session.events[session.events.length - 1];
	const next = nextUrl(session, result);
	const link = next
		? `<p><a href="${escapeHtml(next)}">Continue to ${escapeHtml(next)}</a></p>`
		: '<p>You can close this page.</p>';
	return page(
		200,
		result === 'APPROVED' ? 'Verification approved' : 'Verification denied',
		`${sessionLine(session)}<p>The sandbox is sending the ${escapeHtml(kind)} webhook with overall status ${result}.</p>${link}`,
	);
}

/** The form's fields (`application/x-www-form-urlencoded`, as a browser posts it). */
function formOf(req: Req): URLSearchParams {
	return new URLSearchParams(req.rawBody.toString('utf8'));
}

export const verificationPageRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/api/v2/redirect',
		auth: 'public',
		handler: (req, core) => {
			const session = core.kyc.byAuthToken(req.query.get('authToken') ?? '');
			if (!session) return unknownLink();
			return isOpen(session) ? choicePage(session) : endedPage(session);
		},
	},
	{
		method: 'POST',
		pattern: '/api/v2/redirect',
		auth: 'public',
		handler: (req, core) => {
			const form = formOf(req);
			const session = core.kyc.byAuthToken(form.get('authToken') ?? '');
			if (!session) return unknownLink();
			if (!isOpen(session)) return endedPage(session);
			const result = form.get('result') as Result;
			if (!RESULTS.includes(result))
				return page(400, 'Choose a result', '<p>The result must be APPROVED or DENIED.</p>');
			if (!core.webhooks.configured && session.callbackUrl === undefined) {
				return page(
					409,
					'Webhooks are not configured',
					'<p>Nothing was changed. Point the sandbox at a webhook URL first (<code>POST /__sandbox/webhooks/config</code>, or <code>--webhook-url</code> when starting it).</p>',
				);
			}
			// The page does not wait for the receiver: its answer and retries are in the delivery log.
			finish(core, session, result).catch(() => undefined);
			return finishedPage(session, result);
		},
	},
];
