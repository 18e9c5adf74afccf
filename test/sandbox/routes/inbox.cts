/**
 * The inbox page (`/__sandbox/inbox`): every message the sandbox's mailbox (its SMTP server) kept,
 * newest first, as sent, so the demo's e-mails (a verification link, an erasure confirmation) can be
 * read and their links opened.
 */
import type { SandboxCore } from '../core.cjs';
import type { Reply } from '../http.cjs';
import { escapeHtml, page } from '../pages.cjs';

export const INBOX_PAGE = '/__sandbox/inbox';

/** Links in a message's text, made clickable (the text itself stays escaped). */
function withLinks(text: string): string {
	return escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

export function inboxPage(core: SandboxCore): Reply {
	const port = core.smtpPort;
	const where =
		port === undefined
			? '<p>The mailbox is not listening (the sandbox was started without an SMTP port).</p>'
			: `<p>SMTP server: <code>127.0.0.1:${port}</code>, no user, no TLS. The demo's credential "Sandbox mailbox (SMTP)" sends here.</p>`;
	const messages = [...core.mailbox.messages].reverse();
	const list =
		messages.length === 0
			? '<p>No mail yet. Run a workflow with a Send Email step, then reload this page.</p>'
			: messages
					.map(
						(m) =>
							`<section class="mail"><p><b>To</b> ${escapeHtml(m.to.join(', '))} · <b>from</b> ${escapeHtml(m.from)} · ${escapeHtml(m.receivedAt)}</p>` +
							`<pre style="white-space:pre-wrap">${withLinks(m.raw)}</pre></section>`,
					)
					.join('');
	return page(200, `Inbox (${messages.length})`, where + list);
}
