// The mailbox's SMTP reader (mailbox.cts, hand-written) checked against the standard tools, as the
// project's rule asks of a hand-written reader: messages generated with fast-check are sent by
// nodemailer (the SMTP client n8n's Send Email node uses) to the mailbox's SMTP server, and
//  - what the mailbox kept is compared with what was sent: the envelope with nodemailer's own, the
//    message byte for byte with what nodemailer's composer builds of the same mail (line ends as SMTP
//    carries them), and its from, to, subject, text, html and attachments as mailparser (nodemailer's
//    sibling, the parser of n8n's e-mail trigger) reads them with what the mail said;
//  - the client's side of each conversation, as recorded on the wire, is fed to the reader again in
//    chunks split at every byte boundary (and at generated sets of points), and what it keeps and
//    answers must equal what it does with the bytes in one piece;
//  - the inbox page shows each message as a person reads it: subject and text decoded, links whole.
// The reader decodes no MIME itself (quoted-printable, base64, encoded words are mailparser's job
// on the inbox page), so there is no hand-written decoder to compare beyond that.
import fc from 'fast-check';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { Duplex } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { createTransport } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { startSandbox } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { Mailbox, type MailMessage } from './mailbox.cjs';
import { escapeHtml } from './pages.cjs';

// --- The messages ------------------------------------------------------------------------------

const NON_ASCII = ['é', 'ß', 'Ω', 'ж', '中文', 'ñ', '€', '😀', 'ü', ' ', '\t'];
/** Text with non-ASCII letters (and emoji), as the demo's names and messages may have. */
const words = (maxLength: number) =>
	fc
		.array(
			fc.oneof(
				fc.string({
					unit: fc.constantFrom(...'abcdefghij XYZ0123.,:;=?-_/'.split('')),
					maxLength: 12,
				}),
				fc.constantFrom(...NON_ASCII),
			),
			{ maxLength },
		)
		.map((parts) => parts.join(''));

/** A body line: plain, starting with a dot (dot-stuffing), a lone dot, long (folding), a link. */
const line = fc.oneof(
	words(8),
	words(6).map((w) => `.${w}`),
	fc.constantFrom('.', '..', '. ', '.\t.', 'From me', ''),
	fc.tuple(words(4), fc.integer({ min: 80, max: 400 })).map(([w, n]) => `${w}${'x'.repeat(n)}`),
	fc
		.tuple(fc.stringMatching(/^[A-Za-z0-9]{20,90}$/), fc.stringMatching(/^[a-z]{1,8}$/))
		.map(([token, key]) => `https://sandbox.example/api/v2/redirect?${key}=${token}&b=1`),
);
/** Lines ended by CRLF or LF (nodemailer sends CRLF either way), maybe with a last line end. */
const text = fc
	.tuple(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 12 }), fc.boolean())
	.map(([lines, open]) => {
		const joined = lines.map(([l, end]) => l + end).join('');
		return open ? joined.replace(/\r?\n$/, '') : joined;
	});

const localPart = fc
	.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,14}[a-z0-9]$/)
	.filter((l) => !/\.\./.test(l));
const address = fc
	.tuple(localPart, fc.constantFrom('example.com', 'mail.example.org', 'x.test'))
	.map(([l, d]) => `${l}@${d}`);
const named = fc.record({
	name: fc.oneof(
		fc.constant(''),
		words(3).map((w) => w.trim()),
	),
	address,
});

const attachment = fc.oneof(
	// Binary content, base64 on the wire; the type as its name's extension says (mailparser's rule).
	fc
		.tuple(
			words(2),
			fc.constantFrom(
				['.pdf', 'application/pdf'],
				['.bin', 'application/octet-stream'],
				['.png', 'image/png'],
			),
			fc.uint8Array({ maxLength: 300 }),
		)
		.map(([w, [extension, contentType], bytes]) => ({
			filename: `${w.trim() || 'file'}${extension}`,
			content: Buffer.from(bytes),
			contentType,
		})),
	fc.record({
		filename: fc.constantFrom('notes.txt', 'Prüfbericht.txt'),
		content: words(20),
		contentType: fc.constant('text/plain; charset=utf-8'),
	}),
	// message/rfc822 goes as 8bit: raw UTF-8 bytes on the wire, through the reader's decoding.
	fc.record({
		filename: fc.constant('forwarded.eml'),
		content: text.map(
			(t) =>
				`Subject: fwd\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${t.replace(/\r?\n/g, '\r\n')}`,
		),
		contentType: fc.constant('message/rfc822'),
		// nodemailer makes a message node inline by default, which mailparser then reads as text.
		contentDisposition: fc.constant('attachment' as const),
	}),
);

interface Generated {
	from: { name: string; address: string };
	to: string[];
	cc: string[];
	bcc: string[];
	subject: string;
	text: string;
	html: string | undefined;
	attachments: {
		filename: string;
		content: Buffer | string;
		contentType: string;
		contentDisposition?: 'attachment';
	}[];
}

const generated: fc.Arbitrary<Generated> = fc
	.record({
		from: named,
		recipients: fc.uniqueArray(address, { minLength: 1, maxLength: 6 }),
		split: fc.tuple(fc.nat(), fc.nat()),
		subject: fc.oneof(
			words(6),
			fc.tuple(words(3), fc.integer({ min: 60, max: 200 })).map(([w, n]) => w + 'S'.repeat(n) + w),
		),
		// n8n's Send Email always has a text or an HTML body; with neither, nodemailer makes an only
		// attachment the message itself.
		text: text.filter((t) => t.length > 0),
		html: fc.option(
			text.map((t) => `<p>${t.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`),
			{ nil: undefined },
		),
		attachments: fc.array(attachment, { maxLength: 2 }),
	})
	.map(({ recipients, split: [a, b], ...rest }) => {
		// The recipients shared among To, Cc and Bcc; To has at least one.
		const toEnd = 1 + (a % recipients.length);
		const ccEnd = toEnd + (b % (recipients.length - toEnd + 1));
		return {
			...rest,
			to: recipients.slice(0, toEnd),
			cc: recipients.slice(toEnd, ccEnd),
			bcc: recipients.slice(ccEnd),
		};
	});

/** The mail as nodemailer is given it, made deterministic so its composer builds the same bytes. */
// `baseBoundary` (the multipart boundaries' shared part, random by default) is read by nodemailer's
// composer but missing from its types.
function mailOf(m: Generated, n: number): Mail.Options & { baseBoundary: string } {
	return {
		from: m.from,
		to: m.to,
		cc: m.cc.length ? m.cc : undefined,
		bcc: m.bcc.length ? m.bcc : undefined,
		subject: m.subject,
		text: m.text,
		html: m.html,
		attachments: m.attachments.map((a) => ({ ...a })),
		messageId: `<m${n}@sandbox.test>`,
		date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
		baseBoundary: `b${n}`,
	};
}

// --- The wire ----------------------------------------------------------------------------------

/** A TCP relay in front of the mailbox that records what each client sent, byte for byte. */
async function recordingRelay(target: number): Promise<{
	port: number;
	server: Server;
	next: () => Promise<Buffer>;
}> {
	const waiting: ((bytes: Buffer) => void)[] = [];
	const server = createServer((client) => {
		const chunks: Buffer[] = [];
		const upstream = connect(target, '127.0.0.1');
		client.on('data', (chunk: Buffer) => {
			chunks.push(chunk);
			upstream.write(chunk);
		});
		upstream.pipe(client);
		client.on('close', () => {
			upstream.end();
			waiting.shift()?.(Buffer.concat(chunks));
		});
		client.on('error', () => upstream.destroy());
		upstream.on('error', () => client.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		server,
		next: () => new Promise((resolve) => waiting.push(resolve)),
	};
}

interface Replay {
	messages: Omit<MailMessage, 'receivedAt'>[];
	replies: string;
}

/** The reader on its own: a fresh mailbox fed these chunks as one connection's bytes. */
async function replay(chunks: Buffer[]): Promise<Replay> {
	const mailbox = new Mailbox();
	let replies = '';
	const stream = new Duplex({
		read() {},
		write(chunk: Buffer, _encoding, done) {
			replies += chunk.toString('utf8');
			done();
		},
	});
	mailbox.serve(stream);
	const ended = once(stream, 'end');
	for (const chunk of chunks) stream.push(chunk);
	stream.push(null);
	await ended;
	return { messages: mailbox.messages.map(({ receivedAt: _, ...m }) => m), replies };
}

const splitAt = (bytes: Buffer, points: number[]): Buffer[] => {
	const cuts = [0, ...[...new Set(points)].sort((a, b) => a - b), bytes.length];
	return cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
};

// --- What to compare ---------------------------------------------------------------------------

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
	(Array.isArray(field) ? field : field ? [field] : []).flatMap((f) =>
		f.value.map((v) => v.address),
	);
/** A header's text: folding and unfolding keep no run of blanks, nor one at either end. */
const spaced = (s: string) => s.replace(/[ \t]+/g, ' ').trim();
/**
 * A body's text, line ends as LF, less one line end at the end: SMTP ends every message with one
 * (nodemailer adds it to a body without), so a body's own last line end does not survive it apart.
 */
const lf = (s: string) => s.replace(/\r\n/g, '\n').replace(/\n$/, '');

function expectParsedAsSent(parsed: ParsedMail, m: Generated): void {
	expect(parsed.from?.value).toEqual([{ address: m.from.address, name: m.from.name }]);
	expect(addresses(parsed.to)).toEqual(m.to);
	expect(addresses(parsed.cc)).toEqual(m.cc);
	expect(parsed.bcc).toBeUndefined();
	expect(spaced(parsed.subject ?? '')).toBe(spaced(m.subject));
	expect(lf(parsed.text ?? '')).toBe(lf(m.text));
	expect(parsed.html === false ? undefined : lf(parsed.html)).toBe(m.html && lf(m.html));
	expect(
		parsed.attachments.map((a) => ({
			filename: a.filename,
			contentType: a.contentType,
			content: a.content,
		})),
	).toEqual(
		m.attachments.map((a) => ({
			filename: a.filename,
			contentType: a.contentType.replace(/;.*/, ''),
			content: Buffer.from(a.content),
		})),
	);
}

/** The links in a text, as the inbox page finds them. */
const links = (text: string) => text.match(/https?:\/\/[^\s<>"']+/g) ?? [];

// --- The tests ---------------------------------------------------------------------------------

describe('sandbox mailbox, differential: nodemailer sends, mailparser reads', () => {
	let sb: Sandbox;
	let relay: Awaited<ReturnType<typeof recordingRelay>>;
	/** Each conversation sent, for the replays. */
	const conversations: { sent: Generated; bytes: Buffer; kept: Replay['messages'] }[] = [];
	let count = 0;

	beforeAll(async () => {
		sb = await startSandbox({ smtpPort: 0 });
		relay = await recordingRelay(sb.mailbox.port()!);
	});
	afterAll(async () => {
		relay.server.close();
		await sb.close();
	});

	test('keeps what nodemailer sent: envelope, the bytes its composer built, every field as mailparser reads it', async () => {
		const transport = createTransport({
			host: '127.0.0.1',
			port: relay.port,
			secure: false,
			ignoreTLS: true,
		});
		await fc.assert(
			fc.asyncProperty(generated, async (m) => {
				const n = count++;
				const before = sb.mailbox.messages.length;
				const recorded = relay.next();
				const info = await transport.sendMail(mailOf(m, n));
				const bytes = await recorded;
				expect(sb.mailbox.messages.length).toBe(before + 1);
				const kept = sb.mailbox.messages[before];

				expect(kept.from).toBe(m.from.address);
				expect(kept.to).toEqual([...m.to, ...m.cc, ...m.bcc]);
				expect(kept.to).toEqual(info.envelope.to);

				// What SMTP carries of the built message: CRLF line ends, and the CRLF that ends its last
				// line (RFC 5321 §4.1.1.4: the first CRLF of <CRLF>.<CRLF> is the message's own).
				const built = (await new MailComposer(mailOf(m, n)).compile().build()).toString('utf8');
				const carried = built.replace(/\r?\n/g, '\r\n').replace(/(?<!\r\n)$/, '\r\n');
				expect(kept.raw).toBe(carried);

				const parsed = await simpleParser(kept.raw);
				expect(parsed).toEqual(await simpleParser(built));
				expectParsedAsSent(parsed, m);
				conversations.push({
					sent: m,
					bytes,
					kept: [{ from: kept.from, to: kept.to, raw: kept.raw }],
				});
			}),
			{ numRuns: 30 },
		);
		transport.close();
	});

	test('reads a conversation split at every byte boundary as it reads it whole', async () => {
		expect(conversations.length).toBeGreaterThan(0);
		for (const { bytes, kept } of conversations) {
			const whole = await replay([bytes]);
			expect(whole.messages).toEqual(kept);
			for (let at = 1; at < bytes.length; at++) {
				const split = await replay(splitAt(bytes, [at]));
				if (split.replies !== whole.replies || !isDeepStrictEqual(split.messages, whole.messages))
					expect({ at, ...split }).toEqual({ at, ...whole });
			}
		}
	});

	test('reads a conversation cut in many chunks (generated points) as it reads it whole', async () => {
		const indexed = fc.nat({ max: conversations.length - 1 }).chain((i) =>
			fc.record({
				i: fc.constant(i),
				points: fc.uniqueArray(fc.integer({ min: 1, max: conversations[i].bytes.length - 1 }), {
					maxLength: 40,
				}),
			}),
		);
		await fc.assert(
			fc.asyncProperty(indexed, async ({ i, points }) => {
				const { bytes, kept } = conversations[i];
				const split = await replay(splitAt(bytes, points));
				expect(split.messages).toEqual(kept);
				expect(split.replies).toBe((await replay([bytes])).replies);
			}),
			{ numRuns: 200 },
		);
	});

	test('the inbox page shows each message decoded: its subject, and the links of its text whole', async () => {
		const html = await (await fetch(`${sb.url}/__sandbox/inbox`)).text();
		for (const { sent, kept } of conversations) {
			const parsed = await simpleParser(kept[0].raw);
			expect(html).toContain(escapeHtml(parsed.subject ?? ''));
			for (const url of links(sent.text)) expect(html).toContain(`<a href="${escapeHtml(url)}">`);
		}
	});

	test("the demo's verification e-mail (its link past 76 characters: quoted-printable) opens its link", async () => {
		const transport = createTransport({
			host: '127.0.0.1',
			port: sb.mailbox.port()!,
			secure: false,
			ignoreTLS: true,
		});
		const link = `${sb.url}/api/v2/redirect?authToken=${'Qx7sLb0Kz9pTgW2mVhN4cYfR8dJ1eA6uI3oS5kXw'}`;
		await transport.sendMail({
			from: 'onboarding@example.com',
			to: 'ana@example.com',
			subject: 'Please verify your identity to open your account',
			text: `Hello,\n\nplease verify your identity to finish opening your account:\n${link}\n\nThe link is valid for 7 days.`,
		});
		transport.close();
		expect(sb.mailbox.messages.at(-1)!.raw).toContain(
			'Content-Transfer-Encoding: quoted-printable',
		);
		const html = await (await fetch(`${sb.url}/__sandbox/inbox`)).text();
		expect(html).toContain(`<a href="${escapeHtml(link)}">`);
	});
});
