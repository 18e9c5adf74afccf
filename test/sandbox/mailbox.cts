/**
 * The sandbox's mailbox: a small SMTP server on loopback (RFC 5321's commands, no auth, no TLS) that
 * keeps every message it accepts, so the demo's e-mail steps (n8n's Send Email over SMTP) deliver
 * somewhere a person can read them: the inbox page (`/__sandbox/inbox`). It reads the SMTP dialogue
 * only; a message is kept as the bytes the client sent (dot-unstuffed), unparsed: the inbox page
 * decodes it with mailparser. mailbox-differential.test.cts checks it against nodemailer and
 * mailparser on generated messages, and fed in chunks split at every byte boundary.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { Duplex } from 'node:stream';

export interface MailMessage {
	/** The envelope: MAIL FROM and every RCPT TO, as the client gave them. */
	from: string;
	to: string[];
	/**
	 * The message as sent (headers and body), dot-stuffing removed: every line ended by CRLF, the last
	 * one too (RFC 5321 §4.1.1.4: the first CRLF of the closing <CRLF>.<CRLF> ends the message's last
	 * line).
	 */
	raw: string;
	receivedAt: string;
}

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** The address inside `FROM:<a@b>` / `TO:<a@b>`, or undefined when the argument is not one. */
export function pathArgument(arg: string, keyword: 'FROM' | 'TO'): string | undefined {
	const match = new RegExp(`^${keyword}:\\s*<([^<>]*)>`, 'i').exec(arg.trim());
	return match ? match[1] : undefined;
}

/** One client's dialogue: commands until DATA, then message lines until the lone dot. */
class Session {
	private from: string | undefined;
	private to: string[] = [];
	private data: string[] | undefined;
	private dataBytes = 0;
	private pending = '';

	constructor(
		private readonly socket: Duplex,
		private readonly keep: (message: MailMessage) => void,
	) {
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => this.receive(chunk));
		socket.on('error', () => socket.destroy());
		this.reply('220 sandbox mailbox ready');
	}

	private reply(line: string): void {
		if (!this.socket.destroyed) this.socket.write(`${line}\r\n`);
	}

	private receive(chunk: string): void {
		this.pending += chunk;
		let end = this.pending.indexOf('\n');
		while (end >= 0) {
			const line = this.pending.slice(0, end).replace(/\r$/, '');
			this.pending = this.pending.slice(end + 1);
			if (this.data) this.dataLine(line);
			else this.command(line);
			end = this.pending.indexOf('\n');
		}
		if (this.pending.length > MAX_MESSAGE_BYTES) {
			this.reply('552 line too long');
			this.socket.destroy();
		}
	}

	private dataLine(line: string): void {
		if (line === '.') {
			this.keep({
				from: this.from ?? '',
				to: this.to,
				raw: this.data!.map((line) => `${line}\r\n`).join(''),
				receivedAt: new Date().toISOString(),
			});
			this.data = undefined;
			this.resetEnvelope();
			this.reply('250 message kept');
			return;
		}
		this.dataBytes += line.length + 2;
		if (this.dataBytes > MAX_MESSAGE_BYTES) {
			this.reply('552 message too large');
			this.socket.destroy();
			return;
		}
		this.data!.push(line.startsWith('.') ? line.slice(1) : line);
	}

	private resetEnvelope(): void {
		this.from = undefined;
		this.to = [];
		this.dataBytes = 0;
	}

	private command(line: string): void {
		const verb = line.slice(0, 4).toUpperCase();
		const arg = line.slice(4);
		if (verb === 'EHLO') this.reply('250-sandbox mailbox\r\n250 8BITMIME');
		else if (verb === 'HELO') this.reply('250 sandbox mailbox');
		else if (verb === 'MAIL') this.mail(arg);
		else if (verb === 'RCPT') this.rcpt(arg);
		else if (verb === 'DATA') this.startData();
		else if (verb === 'RSET') {
			this.resetEnvelope();
			this.reply('250 reset');
		} else if (verb === 'NOOP') this.reply('250 ok');
		else if (verb === 'QUIT') {
			this.reply('221 bye');
			this.socket.end();
		} else this.reply('502 command not implemented');
	}

	private mail(arg: string): void {
		const from = pathArgument(arg, 'FROM');
		if (from === undefined) return this.reply('501 syntax: MAIL FROM:<address>');
		this.resetEnvelope();
		this.from = from;
		this.reply('250 sender ok');
	}

	private rcpt(arg: string): void {
		if (this.from === undefined) return this.reply('503 MAIL first');
		const to = pathArgument(arg, 'TO');
		if (!to) return this.reply('501 syntax: RCPT TO:<address>');
		this.to.push(to);
		this.reply('250 recipient ok');
	}

	private startData(): void {
		if (this.to.length === 0) return this.reply('503 RCPT first');
		this.data = [];
		this.reply('354 end with <CRLF>.<CRLF>');
	}
}

export class Mailbox {
	readonly messages: MailMessage[] = [];
	private server: Server | undefined;

	/** Holds one client's SMTP dialogue on this connection (a TCP socket, or any byte stream). */
	serve(socket: Duplex): void {
		new Session(socket, (m) => this.messages.push(m));
	}

	/** Listens on loopback (a random free port by default); resolves with the port. */
	async listen(port = 0, host = '127.0.0.1'): Promise<number> {
		const server = createServer((socket) => this.serve(socket));
		this.server = server;
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, host, () => {
				server.off('error', reject);
				resolve();
			});
		});
		return (server.address() as AddressInfo).port;
	}

	close(): Promise<void> {
		const server = this.server;
		if (!server) return Promise.resolve();
		return new Promise((resolve) => server.close(() => resolve()));
	}
}
