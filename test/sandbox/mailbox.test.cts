import fc from 'fast-check';
import { connect, type Socket } from 'node:net';
import { startSandbox } from './index.cjs';
import type { Sandbox } from './index.cjs';
import { pathArgument } from './mailbox.cjs';

/** A plain SMTP client: sends each line, collecting the server's reply lines. */
async function dialogue(port: number, lines: string[]): Promise<string[]> {
	const socket: Socket = connect(port, '127.0.0.1');
	socket.setEncoding('utf8');
	const replies: string[] = [];
	let buffered = '';
	let waiter: (() => void) | undefined;
	socket.on('data', (chunk: string) => {
		buffered += chunk;
		let end = buffered.indexOf('\r\n');
		while (end >= 0) {
			const line = buffered.slice(0, end);
			buffered = buffered.slice(end + 2);
			replies.push(line);
			// A reply ends at "NNN text"; "NNN-text" says more lines follow.
			if (/^\d{3} /.test(line)) waiter?.();
			end = buffered.indexOf('\r\n');
		}
	});
	const reply = () => new Promise<void>((resolve) => (waiter = resolve));
	await reply();
	for (const line of lines) {
		const next = reply();
		socket.write(`${line}\r\n`);
		// The message's own lines get no reply until the closing dot.
		if (line === '.' || !replies.some((r) => r.startsWith('354')) || /^(QUIT)$/.test(line))
			await next;
		else if (replies[replies.length - 1]?.startsWith('250')) await next;
	}
	socket.end();
	return replies;
}

/** Dot-stuffing as RFC 5321 §4.5.2 asks of a client. */
const stuffed = (body: string[]) => body.map((l) => (l.startsWith('.') ? `.${l}` : l));

describe('sandbox mailbox (SMTP)', () => {
	let sb: Sandbox;
	beforeAll(async () => (sb = await startSandbox({ smtpPort: 0 })));
	afterAll(() => sb.close());

	test('keeps a message with its envelope, and lists it on the inbox page with its links', async () => {
		const replies = await dialogue(sb.mailbox.port()!, [
			'EHLO test',
			'MAIL FROM:<desk@example.com>',
			'RCPT TO:<ana@example.com>',
			'DATA',
			'Subject: Verify',
			'',
			'Open https://example.com/v?t=1',
			'.',
			'QUIT',
		]);
		expect(replies.filter((r) => /^\d{3} /.test(r)).map((r) => r.slice(0, 3))).toEqual([
			'220',
			'250',
			'250',
			'250',
			'354',
			'250',
			'221',
		]);
		const kept = sb.mailbox.messages[sb.mailbox.messages.length - 1];
		expect(kept).toMatchObject({ from: 'desk@example.com', to: ['ana@example.com'] });
		expect(kept.raw).toBe('Subject: Verify\r\n\r\nOpen https://example.com/v?t=1\r\n');
		const html = await (await fetch(`${sb.url}/__sandbox/inbox`)).text();
		expect(html).toContain('<a href="https://example.com/v?t=1">');
		expect(html).toContain('ana@example.com');
	});

	test('refuses DATA before a recipient, and RCPT before MAIL', async () => {
		const replies = await dialogue(sb.mailbox.port()!, ['HELO t', 'RCPT TO:<a@b>', 'DATA', 'QUIT']);
		expect(replies.map((r) => r.slice(0, 3))).toEqual(['220', '250', '503', '503', '221']);
	});

	test('any body a client dot-stuffs comes back as it was written', async () => {
		const line = fc.stringMatching(/^[.a-zA-Z0-9 :]{0,20}$/).filter((l) => l !== '.');
		await fc.assert(
			fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 6 }), async (body) => {
				const before = sb.mailbox.messages.length;
				await dialogue(sb.mailbox.port()!, [
					'EHLO t',
					'MAIL FROM:<a@b>',
					'RCPT TO:<c@d>',
					'DATA',
					...stuffed(body),
					'.',
					'QUIT',
				]);
				expect(sb.mailbox.messages.length).toBe(before + 1);
				expect(sb.mailbox.messages[before].raw).toBe(body.map((l) => `${l}\r\n`).join(''));
			}),
			{ numRuns: 30 },
		);
	});

	test('reads the address of MAIL FROM and RCPT TO, and nothing else', () => {
		expect(pathArgument(' FROM:<a@b.c> SIZE=10', 'FROM')).toBe('a@b.c');
		expect(pathArgument('FROM:<>', 'FROM')).toBe('');
		expect(pathArgument('TO:a@b.c', 'TO')).toBeUndefined();
		expect(pathArgument('FROM:<a@b.c>', 'TO')).toBeUndefined();
	});
});
