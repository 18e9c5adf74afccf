/**
 * The inbox page (`/__sandbox/inbox`): every message the sandbox's mailbox (its SMTP server) kept,
 * newest first, as a person reads it, so the demo's e-mails (a verification link, an erasure
 * confirmation) can be read and their links opened. The mailbox keeps the bytes as sent; mailparser
 * (not a hand-written decoder) reads them here: encoded-word subjects, quoted-printable or base64
 * bodies (nodemailer sends a long line as quoted-printable, which breaks a link read raw), multipart
 * and attachments. The message as sent stays below each one.
 */
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { SandboxCore } from '../core.cjs';
import type { Reply } from '../http.cjs';
import type { MailMessage } from '../mailbox.cjs';
import { escapeHtml, page } from '../pages.cjs';

export const INBOX_PAGE = '/__sandbox/inbox';

/** Links in a message's text, made clickable (the text itself stays escaped). */
function withLinks(text: string): string {
	return escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
}

/** Each message read once (the mailbox never changes a message it kept). */
const parsedMessages = new WeakMap<MailMessage, Promise<ParsedMail | undefined>>();
function parsed(message: MailMessage): Promise<ParsedMail | undefined> {
	let read = parsedMessages.get(message);
	if (!read) {
		read = simpleParser(message.raw).catch(() => undefined);
		parsedMessages.set(message, read);
	}
	return read;
}

const addressText = (field: AddressObject | AddressObject[] | undefined) =>
	(Array.isArray(field) ? field : field ? [field] : []).map((f) => f.text).join(', ');

async function messageSection(m: MailMessage): Promise<string> {
	const mail = await parsed(m);
	const envelope = `<p><b>To</b> ${escapeHtml(m.to.join(', '))} · <b>from</b> ${escapeHtml(m.from)} · ${escapeHtml(m.receivedAt)}</p>`;
	// As sent: no links made of it (a quoted-printable line break or `=3D` would cut one short).
	const raw = `<pre style="white-space:pre-wrap">${escapeHtml(m.raw)}</pre>`;
	if (!mail)
		return `<section class="mail">${envelope}<p>(not a message mailparser reads)</p>${raw}</section>`;
	const headers = [
		['Subject', mail.subject ?? ''],
		['From', addressText(mail.from)],
		['To', addressText(mail.to)],
		['Cc', addressText(mail.cc)],
	]
		.filter(([, value]) => value)
		.map(([name, value]) => `<b>${name}</b> ${escapeHtml(value)}`)
		.join('<br>');
	const attachments = mail.attachments.length
		? `<p><b>Attachments</b> ${mail.attachments
				.map((a) => escapeHtml(`${a.filename ?? '(no name)'} (${a.contentType}, ${a.size} bytes)`))
				.join(', ')}</p>`
		: '';
	return (
		`<section class="mail">${envelope}<p>${headers}</p>` +
		`<pre style="white-space:pre-wrap">${withLinks(mail.text ?? '')}</pre>${attachments}` +
		`<details><summary>As sent</summary>${raw}</details></section>`
	);
}

export async function inboxPage(core: SandboxCore): Promise<Reply> {
	const port = core.smtpPort;
	const where =
		port === undefined
			? '<p>The mailbox is not listening (the sandbox was started without an SMTP port).</p>'
			: `<p>SMTP server: <code>127.0.0.1:${port}</code>, no user, no TLS. The demo's credential "Sandbox mailbox (SMTP)" sends here.</p>`;
	const messages = [...core.mailbox.messages].reverse();
	const list =
		messages.length === 0
			? '<p>No mail yet. Run a workflow with a Send Email step, then reload this page.</p>'
			: (await Promise.all(messages.map(messageSection))).join('');
	return page(200, `Inbox (${messages.length})`, where + list);
}
